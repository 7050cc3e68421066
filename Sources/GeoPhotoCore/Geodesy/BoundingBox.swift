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

extension BoundingBox {
  /// The smallest box holding every coordinate: across the antimeridian (west > east) when
  /// that is narrower, as a trip from Fiji to Samoa is. Longitudes are grouped by degree, and
  /// the box leaves out the widest span of longitudes with no coordinate. Nil for none.
  public init?(enclosing coordinates: some Sequence<Coordinate>) {
    var lowest = [Double](repeating: .infinity, count: 360)
    var highest = [Double](repeating: -.infinity, count: 360)
    var south = Double.infinity
    var north = -Double.infinity
    for c in coordinates where c.latitude.isFinite && c.longitude.isFinite {
      let longitude = max(-180, min(180, c.longitude))
      let degree = min(359, Int((longitude + 180).rounded(.down)))
      lowest[degree] = min(lowest[degree], longitude)
      highest[degree] = max(highest[degree], longitude)
      south = min(south, c.latitude)
      north = max(north, c.latitude)
    }
    let used = (0..<360).filter { lowest[$0] <= highest[$0] }
    guard let first = used.first, let last = used.last else { return nil }
    // The gap around the back (from the last degree used to the first, through ±180) leaves a
    // box that does not cross; a wider gap between two degrees used leaves one that does.
    var west = lowest[first]
    var east = highest[last]
    var widest = lowest[first] + 360 - highest[last]
    for (a, b) in zip(used, used.dropFirst()) where lowest[b] - highest[a] > widest {
      widest = lowest[b] - highest[a]
      west = lowest[b]
      east = highest[a]
    }
    self.init(west: west, south: max(-90, south), east: east, north: min(90, north))
  }
}
