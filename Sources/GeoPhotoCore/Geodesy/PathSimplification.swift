/// Douglas–Peucker simplification: the fewest points that keep a path within `tolerance` of
/// the original, in the path's own plane units (iterative, so long paths do not recurse
/// deeply). Used for the basemap's coasts and for trips' route lines.
public enum PathSimplification {
  /// The indices of the points kept, ascending: the first, the last, every point `pinned`
  /// says must stay, and those needed to keep the path within `tolerance`.
  public static func kept(
    _ path: [SIMD2<Double>], tolerance: Double, pinned: (SIMD2<Double>) -> Bool = { _ in false }
  ) -> [Int] {
    guard path.count > 2 else { return Array(path.indices) }
    var keep = path.map(pinned)
    keep[0] = true
    keep[path.count - 1] = true
    let fixed = path.indices.filter { keep[$0] }
    var stack = Array(zip(fixed, fixed.dropFirst()))
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
    return path.indices.filter { keep[$0] }
  }

  /// The points `kept(_:tolerance:pinned:)` keeps.
  public static func simplify(
    _ path: [SIMD2<Double>], tolerance: Double, pinned: (SIMD2<Double>) -> Bool = { _ in false }
  ) -> [SIMD2<Double>] {
    kept(path, tolerance: tolerance, pinned: pinned).map { path[$0] }
  }

  public static func squaredLength(_ v: SIMD2<Double>) -> Double { (v * v).sum() }

  /// The squared distance from `p` to the segment from `a` to `b`.
  public static func squaredDistance(_ p: SIMD2<Double>, toSegment a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
    let ab = b - a
    let length = squaredLength(ab)
    guard length > 0 else { return squaredLength(p - a) }
    let t = max(0, min(1, ((p - a) * ab).sum() / length))
    return squaredLength(p - (a + t * ab))
  }
}
