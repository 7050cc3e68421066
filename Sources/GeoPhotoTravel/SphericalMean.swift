public import GeoPhotoCore

/// The mean of points on the sphere (of their unit vectors), which has no trouble at the
/// antimeridian or the poles: the centre of a group of photos, and which of them is nearest it.
struct SphericalMean {
  private var x = 0.0
  private var y = 0.0
  private var z = 0.0
  private(set) var count = 0

  mutating func add(_ c: Coordinate) {
    let v = GreatCircle.unitVector(c)
    x += v.x
    y += v.y
    z += v.z
    count += 1
  }

  /// The mean; nil for no points, or points that cancel out (two antipodes).
  var center: Coordinate? {
    guard count > 0, x * x + y * y + z * z > 1e-18 else { return nil }
    return GreatCircle.coordinate(x: x, y: y, z: z)
  }

  /// The mean of `coordinates`, or the first when they cancel out.
  static func center(of coordinates: some Collection<Coordinate>) -> Coordinate? {
    var mean = SphericalMean()
    for c in coordinates { mean.add(c) }
    return mean.center ?? coordinates.first
  }
}
