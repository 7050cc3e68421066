/// Names the populated place nearest to a position: what the engines call as they write
/// photos, so a photo's place is written with it, in the same transaction.
public protocol PlaceNamer: Sendable {
  /// Which gazetteer names the places: photos named by another one are named again.
  var identity: Int64 { get }
  /// The place for `coordinate`, or nil when none is near enough.
  func place(for coordinate: Coordinate) throws -> PlaceName?
}
