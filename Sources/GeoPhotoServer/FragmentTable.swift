import GeoPhotoEncoding

/// Where a shard of `AnnotationFragments` keeps each photo's fragment: an open-addressing
/// table with linear probing from a photo id and form to the fragment's offset and layout. A
/// key's first place is a multiply and a shift (Fibonacci hashing), where a `Dictionary` would
/// run SipHash over it, and an entry is 48 bytes, so a lookup of the fifty of a `/v1/near`
/// answer mostly costs one cache line each.
struct FragmentTable {
  /// A photo's fragment in one form.
  struct Key: Equatable {
    let id: Int64
    let isFeature: Bool

    init(id: Int64, form: EncodedAnnotation.Form) {
      self.id = id
      isFeature = form == .feature
    }
  }

  /// Where a fragment lies in its shard's bytes (at most 4 GiB of them).
  struct Slot {
    private let offset: UInt32
    let layout: EncodedAnnotation.Layout

    init(start: Int, layout: EncodedAnnotation.Layout) {
      precondition(start >= 0 && start <= Int(UInt32.max), "a shard of less than 4 GiB")
      offset = UInt32(start)
      self.layout = layout
    }

    var start: Int { Int(offset) }
    var count: Int { layout.count }
  }

  private struct Entry {
    var key: Key
    var slot: Slot?
  }

  private var entries: [Entry] = []
  /// `entries.count - 1` (a power of two less one), and the shift that takes a key's product
  /// to its first place.
  private var mask = 0
  private var shift: UInt64 = 64
  /// How many fragments the table holds.
  private(set) var count = 0

  @inline(__always)
  private func firstPlace(_ key: Key) -> Int {
    let bits = UInt64(bitPattern: key.id) ^ (key.isFeature ? 0x5555_5555_5555_5555 : 0)
    return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The fragment of `key`, if kept.
  subscript(key: Key) -> Slot? {
    guard count > 0 else { return nil }
    var i = firstPlace(key)
    while true {
      let entry = entries[i]
      guard let slot = entry.slot else { return nil }
      if entry.key == key { return slot }
      i = (i + 1) & mask
    }
  }

  /// Keeps `slot` for `key`, which the table does not hold yet.
  mutating func insert(_ key: Key, _ slot: Slot) {
    if (count + 1) * 2 > entries.count { grow() }
    var i = firstPlace(key)
    while entries[i].slot != nil { i = (i + 1) & mask }
    entries[i] = Entry(key: key, slot: slot)
    count += 1
  }

  /// Forgets every fragment, keeping the table's size.
  mutating func removeAll() {
    guard count > 0 else { return }
    for i in entries.indices { entries[i].slot = nil }
    count = 0
  }

  /// Doubles the table (from 256 entries) and places the fragments again.
  private mutating func grow() {
    let old = entries
    let size = max(256, entries.count * 2)
    entries = Array(repeating: Entry(key: Key(id: 0, form: .object), slot: nil), count: size)
    mask = size - 1
    shift = UInt64(64 - size.trailingZeroBitCount)
    count = 0
    for entry in old {
      if let slot = entry.slot { insert(entry.key, slot) }
    }
  }
}
