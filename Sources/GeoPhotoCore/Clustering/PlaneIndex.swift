/// A static 2-D kd-tree over points in the Web Mercator unit square, the way kdbush does it:
/// interleaved coordinates in one flat column, the median of each range at its middle, axes
/// alternating with depth, and range queries that walk the ranges recursively.
struct PlaneIndex: Sendable {
  /// x, y of each point in tree order, interleaved: a point's place in the tree is its
  /// position, so the tree needs no ids of its own.
  let coords: Column<Double>
  let nodeSize: Int

  var count: Int { coords.count / 2 }

  /// A tree laid out before (`build`, or read back from a file): two coordinates per point.
  init(coords: Column<Double>, nodeSize: Int) {
    precondition(coords.count % 2 == 0, "two coordinates per point")
    self.coords = coords
    self.nodeSize = max(1, nodeSize)
  }

  /// Sorts the points into tree order: `order[p]` is the index in `xs`/`ys` of the point at
  /// tree position `p`, and `coords` their coordinates in that order.
  static func build(xs: [Double], ys: [Double], nodeSize: Int) -> (order: [Int32], coords: [Double]) {
    let n = xs.count
    var order = [Int32](repeating: 0, count: n)
    var coords = [Double](repeating: 0, count: 2 * n)
    for i in 0..<n {
      order[i] = Int32(i)
      coords[2 * i] = xs[i]
      coords[2 * i + 1] = ys[i]
    }
    let leaf = max(1, nodeSize)
    order.withUnsafeMutableBufferPointer { idBuffer in
      coords.withUnsafeMutableBufferPointer { coordBuffer in
        var stack: [(Int, Int, Int)] = [(0, n - 1, 0)]
        while let (lo, hi, axis) = stack.popLast() {
          if hi - lo <= leaf { continue }
          let m = (lo + hi) >> 1
          select(
            FlatPoints(ids: idBuffer, coordinates: coordBuffer, tags: nil, dimensions: 2, axis: axis), k: m, lo: lo,
            hi: hi)
          stack.append((lo, m - 1, 1 - axis))
          stack.append((m + 1, hi, 1 - axis))
        }
      }
    }
    return (order, coords)
  }

  /// Tree positions of the points inside the box (edges included).
  func range(minX: Double, minY: Double, maxX: Double, maxY: Double, into result: inout some PositionSink) {
    guard count > 0 else { return }
    coords.withUnsafeBufferPointer { c in
      let walk = RangeWalk(c: c, nodeSize: nodeSize, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
      walk.visit(0, count - 1, 0, &result)
    }
  }

  /// Tree positions of the points within `r` of (`qx`, `qy`) (Euclidean, in the unit square).
  func within(_ qx: Double, _ qy: Double, _ r: Double, into result: inout [Int32]) {
    guard count > 0 else { return }
    coords.withUnsafeBufferPointer { c in
      let walk = RadiusWalk(c: c, nodeSize: nodeSize, qx: qx, qy: qy, r: r)
      walk.visit(0, count - 1, 0, &result)
    }
  }

  /// A recursive walk (depth is logarithmic): no allocation per query.
  private struct RangeWalk {
    let c: UnsafeBufferPointer<Double>
    let nodeSize: Int
    let minX, minY, maxX, maxY: Double

    func visit(_ lo: Int, _ hi: Int, _ axis: Int, _ result: inout some PositionSink) {
      if hi - lo <= nodeSize {
        if lo > hi { return }
        for i in lo...hi {
          let x = c[2 * i]
          let y = c[2 * i + 1]
          if x >= minX && x <= maxX && y >= minY && y <= maxY { result.add(Int32(truncatingIfNeeded: i)) }
        }
        return
      }
      let m = (lo + hi) >> 1
      let x = c[2 * m]
      let y = c[2 * m + 1]
      if x >= minX && x <= maxX && y >= minY && y <= maxY { result.add(Int32(truncatingIfNeeded: m)) }
      let value = axis == 0 ? x : y
      if (axis == 0 ? minX : minY) <= value { visit(lo, m - 1, 1 - axis, &result) }
      if (axis == 0 ? maxX : maxY) >= value { visit(m + 1, hi, 1 - axis, &result) }
    }
  }

  private struct RadiusWalk {
    let c: UnsafeBufferPointer<Double>
    let nodeSize: Int
    let qx, qy, r: Double

    func visit(_ lo: Int, _ hi: Int, _ axis: Int, _ result: inout [Int32]) {
      let r2 = r * r
      if hi - lo <= nodeSize {
        if lo > hi { return }
        for i in lo...hi {
          let dx = c[2 * i] - qx
          let dy = c[2 * i + 1] - qy
          if dx * dx + dy * dy <= r2 { result.append(Int32(truncatingIfNeeded: i)) }
        }
        return
      }
      let m = (lo + hi) >> 1
      let dx = c[2 * m] - qx
      let dy = c[2 * m + 1] - qy
      if dx * dx + dy * dy <= r2 { result.append(Int32(truncatingIfNeeded: m)) }
      let q = axis == 0 ? qx : qy
      let value = c[2 * m + axis]
      if q - r <= value { visit(lo, m - 1, 1 - axis, &result) }
      if q + r >= value { visit(m + 1, hi, 1 - axis, &result) }
    }
  }
}

/// Where a walk of the tree puts the positions it finds: an array of all of them, or a sink
/// that keeps only some (a viewport's answer never holds more than its cap).
protocol PositionSink {
  mutating func add(_ position: Int32)
}

extension Array: PositionSink where Element == Int32 {
  mutating func add(_ position: Int32) { append(position) }
}

/// Calls `body` with each position, keeping none.
struct VisitingSink: PositionSink {
  let body: (Int32) -> Void
  mutating func add(_ position: Int32) { body(position) }
}
