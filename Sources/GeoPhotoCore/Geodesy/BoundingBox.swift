/// A latitude/longitude box in the GeoJSON order of its edges (west, south, east, north).
///
/// A box whose `west` is greater than its `east` crosses the antimeridian (RFC 7946 §5.2).
public struct BoundingBox: Hashable, Sendable {
  public var west: Double
  public var south: Double
  public var east: Double
  public var north: Double

  public init(west: Double, south: Double, east: Double, north: Double) {
    self.west = west
    self.south = south
    self.east = east
    self.north = north
  }

  public var crossesAntimeridian: Bool { west > east }

  /// The same area with longitudes in -180…180 (a map's wrapped longitudes, such as 200 for
  /// -160, brought back; a box 360° wide or more is every longitude) and latitudes within ±90.
  public var normalized: BoundingBox {
    let south = max(-90, min(90, south))
    let north = max(-90, min(90, north))
    if east - west >= 360 { return BoundingBox(west: -180, south: south, east: 180, north: north) }
    func wrapped(_ longitude: Double) -> Double {
      guard !(-180...180).contains(longitude) else { return longitude }
      return ((longitude + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
    }
    return BoundingBox(west: wrapped(west), south: south, east: wrapped(east), north: north)
  }

  public func contains(_ c: Coordinate) -> Bool {
    guard c.latitude >= south, c.latitude <= north else { return false }
    if crossesAntimeridian { return c.longitude >= west || c.longitude <= east }
    return c.longitude >= west && c.longitude <= east
  }
}
