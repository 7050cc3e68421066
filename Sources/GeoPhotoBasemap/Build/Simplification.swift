/// Douglas–Peucker simplification: the fewest points that keep a path within `tolerance` of
/// the original (iterative, so long coasts do not recurse deeply). Points on the antimeridian
/// are always kept: shapes cut there keep their straight edge, so the two sides still meet
/// exactly.
enum Simplification {
  static func isPinned(_ p: SIMD2<Double>) -> Bool { p.x == 0 || p.x == 1 }

  static func simplify(_ path: [SIMD2<Double>], tolerance: Double) -> [SIMD2<Double>] {
    guard path.count > 2 else { return path }
    var keep = path.map(isPinned)
    keep[0] = true
    keep[path.count - 1] = true
    let pinned = path.indices.filter { keep[$0] }
    var stack = Array(zip(pinned, pinned.dropFirst()))
    let limit = tolerance * tolerance
    while let (first, last) = stack.popLast() {
      guard last > first + 1 else { continue }
      let a = path[first]
      let b = path[last]
      var farthest = first
      var distance = -1.0
      for i in (first + 1)..<last {
        let d = squaredDistance(path[i], toSegment: a, b)
        if d > distance {
          distance = d
          farthest = i
        }
      }
      if distance > limit {
        keep[farthest] = true
        stack.append((first, farthest))
        stack.append((farthest, last))
      }
    }
    return path.indices.filter { keep[$0] }.map { path[$0] }
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

  static func squaredLength(_ v: SIMD2<Double>) -> Double { (v * v).sum() }

  static func squaredDistance(_ p: SIMD2<Double>, toSegment a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let ab = b - a
    let length = squaredLength(ab)
    guard length > 0 else { return squaredLength(p - a) }
    let t = max(0, min(1, ((p - a) * ab).sum() / length))
    return squaredLength(p - (a + t * ab))
  }

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
