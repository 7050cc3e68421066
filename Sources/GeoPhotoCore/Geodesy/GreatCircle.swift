import Foundation

/// Great-circle geometry on a sphere of the mean Earth radius.
///
/// Distances use the IUGG mean radius R₁ = 6,371,008.8 m. Against the WGS84 ellipsoid the
/// spherical distance is off by at most 0.56 % (north–south at the equator), which is the
/// documented error bound of every distance geophoto reports.
public enum GreatCircle {
  /// The IUGG mean Earth radius in metres.
  public static let earthRadius: Double = 6_371_008.8

  /// Half the Earth's circumference: no two points are farther apart than this.
  public static let maximumDistance: Double = Double.pi * earthRadius

  /// Great-circle distance in metres, from the angle between the two unit vectors taken with
  /// `atan2(|p × q|, p · q)`: accurate at every separation, antipodes included (where the
  /// haversine formula loses about a metre).
  public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
    let p = unitVector(a)
    let q = unitVector(b)
    let cx = p.y * q.z - p.z * q.y
    let cy = p.z * q.x - p.x * q.z
    let cz = p.x * q.y - p.y * q.x
    let cross = (cx * cx + cy * cy + cz * cz).squareRoot()
    let dot = p.x * q.x + p.y * q.y + p.z * q.z
    return earthRadius * atan2(cross, dot)
  }

  /// The point's position on the unit sphere: `(cos lat cos lon, cos lat sin lon, sin lat)`.
  ///
  /// Straight-line (chord) distance between unit vectors grows monotonically with the
  /// great-circle distance, so ranking by squared chord ranks by true distance with no
  /// trigonometry per comparison and no antimeridian or pole special cases.
  public static func unitVector(_ c: Coordinate) -> (x: Double, y: Double, z: Double) {
    let lat = c.latitude * .pi / 180
    let lon = c.longitude * .pi / 180
    let cosLat = cos(lat)
    return (cosLat * cos(lon), cosLat * sin(lon), sin(lat))
  }

  /// The coordinate of a unit vector: `unitVector`'s inverse (to a few units in the last
  /// place; a pole's longitude is 0).
  public static func coordinate(x: Double, y: Double, z: Double) -> Coordinate {
    Coordinate(
      latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi,
      longitude: x == 0 && y == 0 ? 0 : atan2(y, x) * 180 / .pi)
  }

  /// Converts a squared chord between unit vectors to metres along the sphere.
  public static func distance(squaredChord: Double) -> Double {
    let chord = squaredChord.squareRoot()
    return 2 * earthRadius * asin(min(1, chord / 2))
  }

  /// The squared chord that corresponds to a distance in metres (clamped to the antipode).
  public static func squaredChord(forDistance metres: Double) -> Double {
    let angle = min(Double.pi, max(0, metres / earthRadius))
    let chord = 2 * sin(angle / 2)
    return chord * chord
  }
}
