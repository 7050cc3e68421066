import GeoPhotoCore

/// The basemap's shapes simplified (`PathSimplification`, Douglas–Peucker). Points on the
/// antimeridian are always kept: shapes cut there keep their straight edge, so the two sides
/// still meet exactly.
enum Simplification {
  static func isPinned(_ p: SIMD2<Double>) -> Bool { p.x == 0 || p.x == 1 }

  static func simplify(_ path: [SIMD2<Double>], tolerance: Double) -> [SIMD2<Double>] {
    PathSimplification.simplify(path, tolerance: tolerance, pinned: isPinned)
  }

  /// A closed ring (first point repeated last, or not): split at its first point and the
  /// point farthest from it, so the two halves keep the ring's extent.
  static func simplifyRing(_ ring: [SIMD2<Double>], tolerance: Double) -> [SIMD2<Double>] {
    var points = ring
    if points.count > 1, points.first == points.last { points.removeLast() }
    guard points.count > 3 else { return points }
    let origin = points[0]
    let far = points.indices.max { squaredLength(points[$0] - origin) < squaredLength(points[$1] - origin) } ?? 0
    let first = simplify(Array(points[0...far]), tolerance: tolerance)
    let second = simplify(Array(points[far...]) + [origin], tolerance: tolerance)
    return first + second.dropFirst().dropLast()
  }

  static func squaredLength(_ v: SIMD2<Double>) -> Double { PathSimplification.squaredLength(v) }

  /// The ring's area (shoelace), in squared world units.
  static func area(_ ring: [SIMD2<Double>]) -> Double {
    guard ring.count > 2 else { return 0 }
    var sum = 0.0
    for i in ring.indices {
      let p = ring[i]
      let q = ring[(i + 1) % ring.count]
      sum += p.x * q.y - q.x * p.y
    }
    return abs(sum) / 2
  }
}
