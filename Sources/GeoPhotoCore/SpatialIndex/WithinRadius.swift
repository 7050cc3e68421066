/// What a walk over the points within a radius (`SpatialIndex.visit(within:of:_:)`) does
/// with them: a struct, so the walk is specialised for it and its state is plain stored
/// properties (no closures, no boxed captures checked for exclusive access on every point).
public protocol RadiusVisitor {
  /// Whether the range of the tree at `split` (its split position — see
  /// `SpatialIndex.forEachRange` — unique to it) can be passed over: nothing in it is nearer
  /// than `squaredChord`.
  mutating func skips(split: Int, squaredChord: Double) -> Bool
  /// A point within the radius: its tree position and squared chord.
  mutating func visit(position: Int, squaredChord: Double)
}

extension SpatialIndex {
  /// A range of the tree waiting to be walked: its bounds, and how far the query is from the
  /// box its splits cut out, per axis and squared in all (the incremental distance of Arya and
  /// Mount: a far half moves one axis's offset out to the split plane).
  @usableFromInline struct PendingRange {
    @usableFromInline var lo: Int32
    @usableFromInline var hi: Int32
    @usableFromInline var bound: Double
    @usableFromInline var offsets: (Double, Double, Double)

    @inlinable init(lo: Int, hi: Int, bound: Double, offsets: (Double, Double, Double)) {
      self.lo = Int32(truncatingIfNeeded: lo)
      self.hi = Int32(truncatingIfNeeded: hi)
      self.bound = bound
      self.offsets = offsets
    }
  }

  /// How many ranges a walk's stack holds at most: each split pops one range and pushes its
  /// two halves, so never more than the tree's depth plus one. For a tree the size of the
  /// gazetteer that is under 1 KiB, which a temporary allocation keeps on the machine stack.
  @inlinable var walkCapacity: Int {
    var size = ids.count
    var depth = 1
    while size > leafSize {
      size /= 2
      depth += 1
    }
    return depth + 2
  }

  /// Shows `visitor` every point within `radius` metres of `center`, nearer parts of the tree
  /// first, without collecting them: for callers that weigh every point near a position (the
  /// gazetteer's naming rule), where sorting a list of them would cost more than the weighing.
  /// Ranges the visitor `skips` are passed over.
  @inlinable
  public func visit(within radius: Double, of center: Coordinate, _ visitor: inout some RadiusVisitor) {
    guard !ids.isEmpty else { return }
    precondition(ids.count < Int(Int32.max))
    let q = GreatCircle.unitVector(center)
    let bound = GreatCircle.squaredChord(forDistance: radius)
    withUnsafeTemporaryAllocation(of: PendingRange.self, capacity: walkCapacity) { stack in
      var top = 1
      stack[0] = PendingRange(lo: 0, hi: ids.count - 1, bound: 0, offsets: (0, 0, 0))
      vectors.withUnsafeBufferPointer { v in
        axes.withUnsafeBufferPointer { axes in
          while top > 0 {
            top -= 1
            let range = stack[top]
            let lo = Int(range.lo)
            let hi = Int(range.hi)
            if range.bound > bound || visitor.skips(split: (lo + hi) >> 1, squaredChord: range.bound) { continue }
            if hi - lo < leafSize {
              for i in lo...hi {
                let dx = v[3 * i] - q.x
                let dy = v[3 * i + 1] - q.y
                let dz = v[3 * i + 2] - q.z
                let d2 = dx * dx + dy * dy + dz * dz
                if d2 <= bound { visitor.visit(position: i, squaredChord: d2) }
              }
              continue
            }
            let m = (lo + hi) >> 1
            let dx = v[3 * m] - q.x
            let dy = v[3 * m + 1] - q.y
            let dz = v[3 * m + 2] - q.z
            let d2 = dx * dx + dy * dy + dz * dz
            if d2 <= bound { visitor.visit(position: m, squaredChord: d2) }
            let axis = Int(axes[m])
            // The far half moves the query's offset on the split axis out to the plane; a split
            // by time says nothing about position, so both halves keep the range's bound.
            var far = range
            var diff = 0.0
            switch axis {
            case 0:
              diff = -dx
              far.offsets.0 = diff
              far.bound = range.bound - range.offsets.0 * range.offsets.0 + diff * diff
            case 1:
              diff = -dy
              far.offsets.1 = diff
              far.bound = range.bound - range.offsets.1 * range.offsets.1 + diff * diff
            case 2:
              diff = -dz
              far.offsets.2 = diff
              far.bound = range.bound - range.offsets.2 * range.offsets.2 + diff * diff
            default: break
            }
            far.bound = max(far.bound, range.bound)
            // The far half is pushed first, so the near one is walked first.
            let (farLo, farHi, nearLo, nearHi) = diff < 0 ? (m + 1, hi, lo, m - 1) : (lo, m - 1, m + 1, hi)
            if farLo <= farHi {
              far.lo = Int32(truncatingIfNeeded: farLo)
              far.hi = Int32(truncatingIfNeeded: farHi)
              stack[top] = far
              top += 1
            }
            if nearLo <= nearHi {
              stack[top] = PendingRange(lo: nearLo, hi: nearHi, bound: range.bound, offsets: range.offsets)
              top += 1
            }
          }
        }
      }
    }
  }

  /// Calls `body` with every range of the tree (leaves included) after its two halves, with
  /// its bounds and its split position `(lo + hi) / 2` (unique to the range): to keep a summary
  /// per range, such as the largest weight in it, for `visit(within:of:_:)`.
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
