/// Cuts shapes to an axis-aligned rectangle (world units): rings with Sutherland–Hodgman
/// (areas keep their edges along the rectangle, so cells side by side fill seamlessly), lines
/// with Liang–Barsky into the pieces inside.
struct RectangleClipping {
  var west, north, east, south: Double

  func contains(_ p: SIMD2<Double>) -> Bool { p.x >= west && p.x <= east && p.y >= north && p.y <= south }

  /// The part of a ring inside; empty when nothing is.
  func clipRing(_ ring: [SIMD2<Double>]) -> [SIMD2<Double>] {
    var points = ring
    // Each edge of the rectangle as (inside test, crossing point).
    let edges: [((SIMD2<Double>) -> Bool, (SIMD2<Double>, SIMD2<Double>) -> SIMD2<Double>)] = [
      ({ $0.x >= west }, { a, b in cross(a, b, x: west) }),
      ({ $0.x <= east }, { a, b in cross(a, b, x: east) }),
      ({ $0.y >= north }, { a, b in cross(a, b, y: north) }),
      ({ $0.y <= south }, { a, b in cross(a, b, y: south) }),
    ]
    for (inside, crossing) in edges {
      guard let last = points.last else { return [] }
      var output: [SIMD2<Double>] = []
      output.reserveCapacity(points.count + 4)
      var previous = last
      for p in points {
        if inside(p) {
          if !inside(previous) { output.append(crossing(previous, p)) }
          output.append(p)
        } else if inside(previous) {
          output.append(crossing(previous, p))
        }
        previous = p
      }
      points = output
    }
    return points.count >= 3 ? points : []
  }

  /// The pieces of a line inside.
  func clipLine(_ line: [SIMD2<Double>]) -> [[SIMD2<Double>]] {
    var pieces: [[SIMD2<Double>]] = []
    var current: [SIMD2<Double>] = []
    for i in 1..<max(1, line.count) {
      guard let (a, b) = clipSegment(line[i - 1], line[i]) else {
        if current.count > 1 { pieces.append(current) }
        current = []
        continue
      }
      if current.last != a {
        if current.count > 1 { pieces.append(current) }
        current = [a]
      }
      current.append(b)
      if b != line[i] {
        pieces.append(current)
        current = []
      }
    }
    if current.count > 1 { pieces.append(current) }
    return pieces
  }

  func clipSegment(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> (SIMD2<Double>, SIMD2<Double>)? {
    let d = b - a
    var t0 = 0.0
    var t1 = 1.0
    for (p, q) in [(-d.x, a.x - west), (d.x, east - a.x), (-d.y, a.y - north), (d.y, south - a.y)] {
      if p == 0 {
        if q < 0 { return nil }
      } else {
        let r = q / p
        if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
      }
    }
    guard t0 <= t1 else { return nil }
    return (t0 == 0 ? a : a + t0 * d, t1 == 1 ? b : a + t1 * d)
  }

  private func cross(_ a: SIMD2<Double>, _ b: SIMD2<Double>, x: Double) -> SIMD2<Double> {
    SIMD2(x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
  }

  private func cross(_ a: SIMD2<Double>, _ b: SIMD2<Double>, y: Double) -> SIMD2<Double> {
    SIMD2(a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y)
  }
}
