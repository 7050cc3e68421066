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

  public func contains(_ c: Coordinate) -> Bool {
    guard c.latitude >= south, c.latitude <= north else { return false }
    if crossesAntimeridian { return c.longitude >= west || c.longitude <= east }
    return c.longitude >= west && c.longitude <= east
  }
}
