/// Points in kdbush's flat layout while a median split reorders them: ids in one array, their
/// coordinates interleaved in another (`dimensions` per point: 3 for the spatial index's unit
/// vectors, 2 for the cluster index's plane), seen along one axis.
struct FlatPoints<ID> {
  let ids: UnsafeMutableBufferPointer<ID>
  let coordinates: UnsafeMutableBufferPointer<Double>
  /// A byte per point that moves with it, when the layout has one.
  var tags: UnsafeMutableBufferPointer<UInt8>?
  let dimensions: Int
  let axis: Int

  /// The coordinate of the point at position `i` along the split axis.
  @inline(__always)
  func key(_ i: Int) -> Double { coordinates[dimensions * i + axis] }

  /// Swaps the points at positions `i` and `j`, ids and coordinates together.
  @inline(__always)
  func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    ids.swapAt(i, j)
    tags?.swapAt(i, j)
    for d in 0..<dimensions { coordinates.swapAt(dimensions * i + d, dimensions * j + d) }
  }
}

/// Hoare-style quickselect with a median-of-three pivot, in place: afterwards every key left
/// of `k` (within `lo...hi`) is ≤ the key at `k` and every key right of it is ≥ (kdbush's
/// `select`, with Hoare partitioning).
func select<ID>(_ layout: FlatPoints<ID>, k: Int, lo: Int, hi: Int) {
  var lo = lo
  var hi = hi
  while hi > lo {
    let mid = (lo + hi) >> 1
    // Order lo, mid, hi so the pivot at mid is the median of the three.
    if layout.key(mid) < layout.key(lo) { layout.swapAt(mid, lo) }
    if layout.key(hi) < layout.key(lo) { layout.swapAt(hi, lo) }
    if layout.key(hi) < layout.key(mid) { layout.swapAt(hi, mid) }
    let pivot = layout.key(mid)
    var i = lo
    var j = hi
    while i <= j {
      while layout.key(i) < pivot { i += 1 }
      while layout.key(j) > pivot { j -= 1 }
      if i <= j {
        layout.swapAt(i, j)
        i += 1
        j -= 1
      }
    }
    if k <= j {
      hi = j
    } else if k >= i {
      lo = i
    } else {
      return
    }
  }
}
