/// Flat point arrays that a median split reorders: a key per position along an axis, and a
/// swap that moves a point's id and coordinates together. The 3-D spatial index and the 2-D
/// cluster index each lay their points out their own way and share the one `select`.
protocol SelectableLayout {
  /// The coordinate of the point at position `i` along the split axis.
  func key(_ i: Int) -> Double
  /// Swaps the points at positions `i` and `j` (ids and coordinates).
  func swapAt(_ i: Int, _ j: Int)
}

/// Hoare-style quickselect with a median-of-three pivot, in place: afterwards every key left
/// of `k` (within `lo...hi`) is ≤ the key at `k` and every key right of it is ≥ (kdbush's
/// `select`, with Hoare partitioning).
func select<Layout: SelectableLayout>(_ layout: Layout, k: Int, lo: Int, hi: Int) {
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
