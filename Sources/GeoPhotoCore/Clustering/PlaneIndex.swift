/// A static 2-D kd-tree over points in the Web Mercator unit square, the way kdbush does it:
/// ids and interleaved coordinates in flat arrays, the median of each range at its middle,
/// axes alternating with depth, and range queries that walk an explicit stack.
struct PlaneIndex: Sendable {
  /// Positions in the caller's arrays, in tree order.
  private(set) var ids: [Int32]
  /// x, y of each id, interleaved.
  private(set) var coords: [Double]
  let nodeSize: Int

  init(xs: [Double], ys: [Double], nodeSize: Int = 64) {
    let n = xs.count
    var ids = [Int32](repeating: 0, count: n)
    var coords = [Double](repeating: 0, count: 2 * n)
    for i in 0..<n {
      ids[i] = Int32(i)
      coords[2 * i] = xs[i]
      coords[2 * i + 1] = ys[i]
    }
    let leaf = max(1, nodeSize)
    ids.withUnsafeMutableBufferPointer { idBuffer in
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
    self.ids = ids
    self.coords = coords
    self.nodeSize = leaf
  }

  /// A tree built before (`ClusterIndex.init(encoded:)`): two coordinates per id, every id a
  /// position in the caller's arrays.
  init(ids: [Int32], coords: [Double], nodeSize: Int) {
    precondition(coords.count == 2 * ids.count, "two coordinates per id")
    self.ids = ids
    self.coords = coords
    self.nodeSize = max(1, nodeSize)
  }

  /// Ids of the points inside the box (edges included).
  func range(minX: Double, minY: Double, maxX: Double, maxY: Double, into result: inout [Int32]) {
    guard !ids.isEmpty else { return }
    ids.withUnsafeBufferPointer { ids in
      coords.withUnsafeBufferPointer { c in
        let walk = RangeWalk(ids: ids, c: c, nodeSize: nodeSize, minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        walk.visit(0, ids.count - 1, 0, &result)
      }
    }
  }

  /// Ids of the points within `r` of (`qx`, `qy`) (Euclidean, in the unit square).
  func within(_ qx: Double, _ qy: Double, _ r: Double, into result: inout [Int32]) {
    guard !ids.isEmpty else { return }
    ids.withUnsafeBufferPointer { ids in
      coords.withUnsafeBufferPointer { c in
        let walk = RadiusWalk(ids: ids, c: c, nodeSize: nodeSize, qx: qx, qy: qy, r: r)
        walk.visit(0, ids.count - 1, 0, &result)
      }
    }
  }

  /// A recursive walk (depth is logarithmic): no allocation per query.
  private struct RangeWalk {
    let ids: UnsafeBufferPointer<Int32>
    let c: UnsafeBufferPointer<Double>
    let nodeSize: Int
    let minX, minY, maxX, maxY: Double

    func visit(_ lo: Int, _ hi: Int, _ axis: Int, _ result: inout [Int32]) {
      if hi - lo <= nodeSize {
        if lo > hi { return }
        for i in lo...hi {
          let x = c[2 * i]
          let y = c[2 * i + 1]
          if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(ids[i]) }
        }
        return
      }
      let m = (lo + hi) >> 1
      let x = c[2 * m]
      let y = c[2 * m + 1]
      if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(ids[m]) }
      let value = axis == 0 ? x : y
      if (axis == 0 ? minX : minY) <= value { visit(lo, m - 1, 1 - axis, &result) }
      if (axis == 0 ? maxX : maxY) >= value { visit(m + 1, hi, 1 - axis, &result) }
    }
  }

  private struct RadiusWalk {
    let ids: UnsafeBufferPointer<Int32>
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
          if dx * dx + dy * dy <= r2 { result.append(ids[i]) }
        }
        return
      }
      let m = (lo + hi) >> 1
      let dx = c[2 * m] - qx
      let dy = c[2 * m + 1] - qy
      if dx * dx + dy * dy <= r2 { result.append(ids[m]) }
      let q = axis == 0 ? qx : qy
      let value = c[2 * m + axis]
      if q - r <= value { visit(lo, m - 1, 1 - axis, &result) }
      if q + r >= value { visit(m + 1, hi, 1 - axis, &result) }
    }
  }
}
