public import GeoPhotoCore

/// A PMTiles (v3) directory: entries sorted by tile id, each a run of tiles sharing one blob
/// (`runLength` ≥ 1) or a leaf directory (`runLength` 0).
///
/// Serialized as varints: the count, the ids as deltas, the run lengths, the lengths, and the
/// offsets (0 meaning "right after the previous entry's bytes", allowed from the second entry
/// on). Every number is checked: the count against the bytes that could hold it, ids strictly
/// increasing without overflow, lengths above zero and within 32 bits, offsets without
/// overflow. The offsets are checked against their section when used.
public struct PMTilesDirectory: Sendable {
  public struct Entry: Sendable, Equatable {
    public var tileID: UInt64
    public var offset: UInt64
    public var length: UInt32
    public var runLength: UInt32

    public var isLeaf: Bool { runLength == 0 }
  }

  public private(set) var entries: [Entry]

  /// The most entries one directory may hold: writers make leaves of a few thousand, and a
  /// root of at most 16 kB.
  public static let maximumEntries = 1_000_000

  public init(entries: [Entry]) { self.entries = entries }

  /// Decodes `bytes` (already inflated); `label` names the directory in errors.
  public init(decoding bytes: [UInt8], label: String) throws(DataDamage) {
    var reader = ProtobufReader(bytes, label: label)
    let count = try reader.varint()
    // Each entry takes at least four bytes (one per varint).
    guard count > 0, count <= UInt64(max(0, bytes.count - 1) / 4), count <= UInt64(Self.maximumEntries) else {
      throw DataDamage("\(label): \(count) entries cannot fit in \(bytes.count) bytes")
    }
    let n = Int(count)
    var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
    var id: UInt64 = 0
    for i in 0..<n {
      let delta = try reader.varint()
      guard i == 0 || delta > 0 else { throw DataDamage("\(label): entry \(i) repeats a tile id") }
      let (sum, overflow) = id.addingReportingOverflow(delta)
      guard !overflow else { throw DataDamage("\(label): tile id of entry \(i) overflows") }
      id = sum
      entries[i].tileID = id
    }
    for i in 0..<n {
      let run = try reader.varint()
      guard run <= UInt64(UInt32.max) else { throw DataDamage("\(label): run length \(run) of entry \(i)") }
      guard entries[i].tileID.addingReportingOverflow(run).overflow == false else {
        throw DataDamage("\(label): the run of entry \(i) overflows")
      }
      entries[i].runLength = UInt32(run)
    }
    for i in 0..<n {
      let length = try reader.varint()
      guard length > 0, length <= UInt64(UInt32.max) else {
        throw DataDamage("\(label): length \(length) of entry \(i)")
      }
      entries[i].length = UInt32(length)
    }
    for i in 0..<n {
      let value = try reader.varint()
      if value == 0 {
        guard i > 0 else { throw DataDamage("\(label): the first entry has no offset") }
        let (next, overflow) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length))
        guard !overflow else { throw DataDamage("\(label): offset of entry \(i) overflows") }
        entries[i].offset = next
      } else {
        entries[i].offset = value - 1
      }
    }
    self.entries = entries
  }

  /// The entry that holds `id`: a run containing it, or the leaf directory that may; nil when
  /// the directory has neither.
  public func find(_ id: UInt64) -> Entry? {
    // The last entry whose id is at most `id`.
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      if entries[mid].tileID <= id { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return nil }
    let entry = entries[low - 1]
    if entry.isLeaf { return entry }
    return id - entry.tileID < UInt64(entry.runLength) ? entry : nil
  }
}
