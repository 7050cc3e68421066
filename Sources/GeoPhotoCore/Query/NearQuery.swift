/// "The photos near here": a centre, how many, how far, and which. The same value from the
/// command line and the HTTP API to the stores, and echoed in JSON answers.
public struct NearQuery: Equatable, Sendable {
  public var center: Coordinate
  public var limit: Int
  /// Metres, when the query is limited to a radius.
  public var radius: Double?
  public var filter: PhotoFilter

  public init(center: Coordinate, limit: Int, radius: Double? = nil, filter: PhotoFilter = .all) {
    self.center = center
    self.limit = limit
    self.radius = radius
    self.filter = filter
  }
}
