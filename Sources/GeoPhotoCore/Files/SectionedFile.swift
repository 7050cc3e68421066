public import Foundation

/// The one layout of geophoto's data files (the gazetteer, the basemap, the spatial index
/// file), written and read here. Numbers are little-endian.
///
/// - a 64-byte head: an 8-byte magic (what the file is), the format's version (UInt32), the
///   section count (UInt32), the checksum (UInt64), then 40 bytes of the format's own fields
///   (the spatial index's stamp and point count; zero for the others);
/// - a table of sections: offset and length, 8 bytes each;
/// - the sections, each starting on 64 bytes, so every column is an aligned view of the
///   mapped file.
///
/// The checksum (`Checksum`) covers the table and every section. It is the file's identity
/// too: what was made from one file (place names, cached tiles) is made again from another.
public enum SectionedFile {
  public static let headSize = 64
  public static let alignment = 64
  /// Bytes of the head that are the format's own.
  public static let fieldsSize = 40
  public typealias FormatError = DataFileError

  /// What a head says.
  public struct Head: Sendable {
    public var magic: [UInt8]
    public var version: UInt32
    public var sectionCount: Int
    public var checksum: UInt64
    /// The format's own fields (`fieldsSize` bytes).
    public var fields: [UInt8]

    /// The identity a shorter key keeps (the place names' `place_gazetteer`, tile names).
    public var identity: UInt32 { UInt32(truncatingIfNeeded: checksum) }

    /// The head of `bytes` (at least `headSize` of them).
    init(_ raw: UnsafeRawBufferPointer) {
      magic = Array(raw[0..<8])
      version = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
      sectionCount = Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
      checksum = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
      fields = Array(raw[24..<headSize])
    }
  }

  /// What kind of file and which version of it: its magic (8 ASCII bytes) and version.
  public struct Kind: Sendable {
    public let magic: [UInt8]
    public let version: UInt32
    /// What it is, for messages ("gazetteer").
    public let name: String

    public init(magic: String, version: UInt32, name: String) {
      precondition(magic.utf8.count == 8, "a sectioned file's magic is 8 bytes")
      self.magic = Array(magic.utf8)
      self.version = version
      self.name = name
    }

    /// The head of the file at `url`, read without mapping the file; nil when there is no such
    /// file or it is not of this kind and version.
    public func head(at url: URL) -> Head? {
      guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
      defer { try? handle.close() }
      guard let bytes = try? handle.read(upToCount: headSize), bytes.count == headSize else { return nil }
      let head = bytes.withUnsafeBytes(Head.init)
      return head.magic == magic && head.version == version ? head : nil
    }
  }

  // MARK: Writing

  /// Where sections go as they are laid out one after another, and the table and checksum
  /// they make: the one layout of both writers.
  struct Layout {
    var size: Int
    var table: [(offset: Int, length: Int)]
    var checksums: [UInt64]

    init(sectionCount: Int) {
      size = headSize + 16 * sectionCount
      table = Array(repeating: (0, 0), count: sectionCount)
      checksums = Array(repeating: 0, count: sectionCount)
    }

    /// Places section `index` of `bytes`: the zero bytes of padding to write before it.
    mutating func place(_ index: Int, _ bytes: UnsafeRawBufferPointer) -> Int {
      let padding = (alignment - size % alignment) % alignment
      table[index] = (size + padding, bytes.count)
      checksums[index] = Checksum.of(bytes)
      size += padding + bytes.count
      return padding
    }

    /// The head and the table.
    func head(_ kind: Kind, fields: [UInt8]) -> [UInt8] {
      precondition(fields.count <= fieldsSize, "a format's own fields fit in \(fieldsSize) bytes")
      var tableBytes: [UInt8] = []
      for entry in table {
        append(UInt64(entry.offset), to: &tableBytes)
        append(UInt64(entry.length), to: &tableBytes)
      }
      let checksum = tableBytes.withUnsafeBytes { checksums.reduce(Checksum.of($0), Checksum.combine) }
      var head = kind.magic
      append(kind.version, to: &head)
      append(UInt32(table.count), to: &head)
      append(checksum, to: &head)
      head += fields + [UInt8](repeating: 0, count: fieldsSize - fields.count)
      return head + tableBytes
    }
  }

  /// The file of `sections` (in memory: the gazetteer and the basemap are built whole).
  public static func assemble(_ kind: Kind, _ sections: [[UInt8]], fields: [UInt8] = []) -> [UInt8] {
    var layout = Layout(sectionCount: sections.count)
    var body: [UInt8] = []
    for (index, bytes) in sections.enumerated() {
      let padding = bytes.withUnsafeBytes { layout.place(index, $0) }
      body += [UInt8](repeating: 0, count: padding)
      body += bytes
    }
    return layout.head(kind, fields: fields) + body
  }

  /// Writes a file section by section straight into `file` (the spatial index is built level
  /// by level into it), then its head and table.
  public struct Writer {
    let file: AtomicFile
    var layout: Layout

    public init(_ file: AtomicFile, sectionCount: Int) throws {
      self.file = file
      layout = Layout(sectionCount: sectionCount)
      try file.pad(layout.size)
    }

    public mutating func section(_ index: Int, _ bytes: UnsafeRawBufferPointer) throws {
      try file.pad(layout.place(index, bytes))
      try file.write(bytes)
    }

    /// Writes the head (with the format's own `fields`) and the table.
    public func finish(_ kind: Kind, fields: [UInt8]) throws {
      try file.overwrite(layout.head(kind, fields: fields), at: 0)
    }
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

  /// A file's head and sections, checked to lie inside it.
  public struct Reader: Sendable {
    public let storage: MappedBytes
    public let head: Head
    public let ranges: [Range<Int>]

    /// Reads the head and the table of sections, which must number `sectionCount`; `name`
    /// names the file in errors.
    public init(_ storage: MappedBytes, kind: Kind, name: String, sectionCount: ClosedRange<Int>)
      throws(FormatError)
    {
      func fail(_ why: String) -> FormatError { FormatError(description: "\(name): \(why)") }
      let data = storage.bytes
      guard data.count >= headSize, Array(data[0..<8]) == kind.magic else { throw fail("not a geophoto \(kind.name)") }
      let head = Head(UnsafeRawBufferPointer(rebasing: data[0..<headSize]))
      guard head.version == kind.version else { throw fail("a \(kind.name) of another geophoto version") }
      guard sectionCount.contains(head.sectionCount),
        let tableEnd = Bounds.sum(headSize, 16 * head.sectionCount), tableEnd <= data.count
      else { throw fail("damaged (its table of sections does not match this geophoto)") }
      var ranges: [Range<Int>] = []
      for k in 0..<head.sectionCount {
        let offset = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: headSize + 16 * k, as: UInt64.self))
        let length = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: headSize + 16 * k + 8, as: UInt64.self))
        guard offset % UInt64(alignment) == 0, offset >= UInt64(tableEnd),
          let range = Bounds.range(offset: offset, length: length, within: data.count)
        else { throw fail("damaged (section \(k) lies outside the file)") }
        ranges.append(range)
      }
      self.storage = storage
      self.head = head
      self.ranges = ranges
    }

    /// Whether every byte after the head is as written: the checksum over the table and the
    /// sections, read through the whole file.
    public func verify() -> Bool {
      let data = storage.bytes
      let table = UnsafeRawBufferPointer(rebasing: data[headSize..<(headSize + 16 * ranges.count)])
      let checksum = ranges.reduce(Checksum.of(table)) { sum, range in
        Checksum.combine(sum, Checksum.of(UnsafeRawBufferPointer(rebasing: data[range])))
      }
      return checksum == head.checksum
    }

    /// Section `index` as a view of `T`s into the file (no copy); nil when its length is not a
    /// whole number of them.
    public func column<T: BitwiseCopyable>(_ index: Int, of: T.Type = T.self) -> UnsafeBufferPointer<T>? {
      storage.column(ranges[index], of: T.self)
    }

    /// Section `index` as a column viewing the file (no copy), which keeps the file mapped;
    /// nil when its length is not a whole number of `T`s.
    public func mappedColumn<T: BitwiseCopyable>(_ index: Int, of: T.Type = T.self) -> Column<T>? {
      Column(storage, ranges[index])
    }
  }
}

/// A sectioned file whose sections are the cases of `Section` (the gazetteer's, the basemap's),
/// read and written by name.
public struct NamedSections<Section: CaseIterable & RawRepresentable & Hashable>: Sendable
where Section.RawValue == Int {
  public let kind: SectionedFile.Kind

  public init(_ kind: SectionedFile.Kind) { self.kind = kind }

  /// The file of each section's bytes (an empty section for one not given).
  public func assemble(_ sections: [Section: [UInt8]]) -> [UInt8] {
    SectionedFile.assemble(kind, Section.allCases.map { sections[$0] ?? [] })
  }

  /// The identity in the head of the file at `url`, read without mapping the file; nil when it
  /// is not one of this kind and version.
  public func identity(at url: URL) -> UInt32? { kind.head(at: url)?.identity }

  /// A file's sections by name.
  public struct Reader: Sendable {
    public let file: SectionedFile.Reader
    public var storage: MappedBytes { file.storage }
    public var identity: UInt32 { file.head.identity }

    public init(_ storage: MappedBytes, layout: NamedSections, name: String) throws(SectionedFile.FormatError) {
      let count = Section.allCases.count
      file = try SectionedFile.Reader(storage, kind: layout.kind, name: name, sectionCount: count...count)
    }

    public func column<T: BitwiseCopyable>(_ section: Section, of: T.Type = T.self) -> UnsafeBufferPointer<T>? {
      file.column(section.rawValue, of: T.self)
    }

    public func mappedColumn<T: BitwiseCopyable>(_ section: Section, of: T.Type = T.self) -> Column<T>? {
      file.mappedColumn(section.rawValue, of: T.self)
    }

    /// The section as an array of `T`, copied at once; nil when its length is not a whole
    /// number of them.
    public func array<T: BitwiseCopyable>(_ section: Section, of: T.Type = T.self) -> [T]? {
      column(section).map(Array.init)
    }
  }
}
