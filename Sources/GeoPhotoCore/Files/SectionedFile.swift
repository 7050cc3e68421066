public import Foundation

/// The layout of geophoto's data files (the gazetteer, the basemap), written and read in one
/// place: a 16-byte head (an 8-byte magic, the section count, the identity), a table of
/// sections (offset and length, 8 bytes each), then the sections themselves, each 8-byte
/// aligned so columns are views of the mapped file. Numbers are little-endian.
///
/// The identity is the `Checksum` of every section, as the spatial index file's is: what was
/// made from one file (names, cached tiles) is made again from another.
public struct SectionedFile<Section: CaseIterable & RawRepresentable & Hashable>: Sendable
where Section.RawValue == Int {
  /// Eight bytes that say what the file is and which version of it.
  public let magic: [UInt8]
  public static var headSize: Int { 16 }

  public init(magic: String) {
    precondition(magic.utf8.count == 8, "a sectioned file's magic is 8 bytes")
    self.magic = Array(magic.utf8)
  }

  public typealias FormatError = DataFileError

  // MARK: Writing

  /// Assembles the file from each section's bytes.
  public func assemble(_ sections: [Section: [UInt8]]) -> [UInt8] {
    let all = Array(Section.allCases)
    let tableSize = 8 * all.count
    var offset = Self.headSize + tableSize
    var table: [UInt8] = []
    var body: [UInt8] = []
    var hash: UInt64 = 0
    for section in all {
      let bytes = sections[section] ?? []
      let padding = (8 - offset % 8) % 8
      body += [UInt8](repeating: 0, count: padding)
      offset += padding
      Self.append(UInt32(offset), to: &table)
      Self.append(UInt32(bytes.count), to: &table)
      body += bytes
      offset += bytes.count
      hash = Checksum.combine(hash, bytes.withUnsafeBytes(Checksum.of))
    }
    var head = magic
    Self.append(UInt32(all.count), to: &head)
    Self.append(UInt32(truncatingIfNeeded: hash), to: &head)
    return head + table + body
  }

  public static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out += $0 }
  }

  /// Numbers as the file stores them.
  public static func bytes<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(values.count * MemoryLayout<T>.size)
    for v in values { append(v, to: &out) }
    return out
  }

  public static func bytes(_ values: [Double]) -> [UInt8] { bytes(values.map(\.bitPattern)) }
  public static func bytes(_ values: [Float]) -> [UInt8] { bytes(values.map(\.bitPattern)) }

  // MARK: Reading

  /// The identity in a file's head, read without loading the file; nil when it is not one.
  public func identity(at url: URL) -> UInt32? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: Self.headSize), head.count == Self.headSize,
      Array(head.prefix(8)) == magic
    else { return nil }
    return head.withUnsafeBytes { Self.u32($0, 12) }
  }

  static func u32(_ data: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
    UInt32(littleEndian: data.loadUnaligned(fromByteOffset: at, as: UInt32.self))
  }

  /// A file's sections, checked to lie inside it.
  public struct Reader {
    public let storage: MappedBytes
    public let identity: UInt32
    private let ranges: [Range<Int>]

    /// Reads the head and the table of sections; `kind` names the file in errors ("not a
    /// geophoto gazetteer").
    public init(_ storage: MappedBytes, layout: SectionedFile, name: String, kind: String) throws(FormatError) {
      func fail(_ why: String) -> FormatError { FormatError(description: "\(name): \(why)") }
      let data = storage.bytes
      guard data.count >= headSize, Array(data.prefix(8)) == layout.magic else { throw fail("not a geophoto \(kind)") }
      self.storage = storage
      let count = Int(u32(data, 8))
      identity = u32(data, 12)
      let expected = Array(Section.allCases).count
      guard count == expected, data.count >= headSize + 8 * count else {
        throw fail("damaged (its table of sections does not match this geophoto)")
      }
      var ranges: [Range<Int>] = []
      for k in 0..<count {
        let offset = Int(u32(data, headSize + 8 * k))
        let length = Int(u32(data, headSize + 8 * k + 4))
        guard offset % 8 == 0, offset >= headSize + 8 * count, offset <= data.count, length <= data.count - offset
        else { throw fail("damaged (section \(k) lies outside the file)") }
        ranges.append(offset..<(offset + length))
      }
      self.ranges = ranges
    }

    /// The section as a view of `T`s into the file (no copy); nil when its length is not a
    /// whole number of them.
    public func column<T: BitwiseCopyable>(_ section: Section, of: T.Type = T.self) -> UnsafeBufferPointer<T>? {
      storage.column(ranges[section.rawValue], of: T.self)
    }

    /// The section as a column viewing the file (no copy), which keeps the file mapped; nil
    /// when its length is not a whole number of `T`s.
    public func mappedColumn<T: BitwiseCopyable>(_ section: Section, of: T.Type = T.self) -> Column<T>? {
      Column(storage, ranges[section.rawValue])
    }

    /// The section as an array of `T`, copied at once; nil when its length is not a whole
    /// number of them.
    public func array<T: BitwiseCopyable>(_ section: Section, of: T.Type = T.self) -> [T]? {
      column(section).map(Array.init)
    }
  }
}
