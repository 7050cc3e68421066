extension SpatialIndex {
  /// Calls `body` with the tree position and squared chord of every point within `radius`
  /// metres of `center`, nearer parts of the tree first, without collecting them: for callers
  /// that weigh every point near a position (the gazetteer's naming rule), where sorting a list
  /// of them would cost more than the weighing. The walk passes over every range `skip` turns
  /// down (asked with the range's split position — see `forEachRange` — and a lower bound of
  /// the squared chord to anything in it).
  @inlinable
  public func forEach(
    within radius: Double, of center: Coordinate,
    skip: (_ split: Int, _ squaredChord: Double) -> Bool = { _, _ in false },
    _ body: (_ position: Int, _ squaredChord: Double) -> Void
  ) {
    guard !ids.isEmpty else { return }
    let q = GreatCircle.unitVector(center)
    let bound = GreatCircle.squaredChord(forDistance: radius)
    vectors.withUnsafeBufferPointer { v in
      axes.withUnsafeBufferPointer { axes in
        var stack = SearchStack()
        stack.push(lo: 0, hi: ids.count - 1, bound: 0)
        while let (lo, hi, rangeBound) = stack.pop() {
          if rangeBound > bound || skip((lo + hi) >> 1, rangeBound) { continue }
          if hi - lo < leafSize {
            for i in lo...hi {
              let dx = v[3 * i] - q.x
              let dy = v[3 * i + 1] - q.y
              let dz = v[3 * i + 2] - q.z
              let d2 = dx * dx + dy * dy + dz * dz
              if d2 <= bound { body(i, d2) }
            }
            continue
          }
          let m = (lo + hi) >> 1
          let dx = v[3 * m] - q.x
          let dy = v[3 * m + 1] - q.y
          let dz = v[3 * m + 2] - q.z
          let d2 = dx * dx + dy * dy + dz * dz
          if d2 <= bound { body(m, d2) }
          let axis = Int(axes[m])
          guard axis != Int(SpatialIndex.timeAxis) else {
            // A split by time says nothing about position: both sides may hold near points.
            if m + 1 <= hi { stack.push(lo: m + 1, hi: hi, bound: rangeBound) }
            if lo <= m - 1 { stack.push(lo: lo, hi: m - 1, bound: rangeBound) }
            continue
          }
          stack.pushHalves(lo: lo, hi: hi, split: m, diff: axis == 0 ? -dx : (axis == 1 ? -dy : -dz), bound: rangeBound)
        }
      }
    }
  }

  /// Calls `body` with every range of the tree (leaves included) after its two halves, with
  /// its bounds and its split position `(lo + hi) / 2` (unique to the range): to keep a summary
  /// per range, such as the largest weight in it, for `forEach(within:of:skip:_:)`.
  public func forEachRange(_ body: (_ lo: Int, _ hi: Int, _ split: Int) -> Void) {
    guard !ids.isEmpty else { return }
    // (lo, hi, whether its halves are done)
    var work: [(Int, Int, Bool)] = [(0, ids.count - 1, false)]
    while let (lo, hi, done) = work.popLast() {
      let m = (lo + hi) >> 1
      if done || hi - lo < leafSize {
        body(lo, hi, m)
        continue
      }
      work.append((lo, hi, true))
      if m + 1 <= hi { work.append((m + 1, hi, false)) }
      if lo <= m - 1 { work.append((lo, m - 1, false)) }
    }
  }
}
