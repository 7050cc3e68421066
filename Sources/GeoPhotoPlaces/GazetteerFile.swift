public import Foundation

/// The gazetteer file's layout, written and read in one place: a 16-byte head (magic
/// `GPPLACE2`, the section count, the identity), a table of sections (offset and length,
/// 8 bytes each), then the sections themselves, each 8-byte aligned so arrays load with one
/// copy. Numbers are little-endian; text is NUL-terminated UTF-8 in the `strings` section.
///
/// The identity is an FNV-1a hash over every section: photos named with another gazetteer are
/// named again.
enum GazetteerFile {
  static let magic = Array("GPPLACE2".utf8)
  static let headSize = 16

  /// The sections, in file order. Places are in the kd-tree's order (`vectors`, `axes`), so a
  /// place's position in the tree is its index in every place column.
  enum Section: Int, CaseIterable {
    case vectors, axes, latitudes, longitudes, names, foldedNames, populations, geonameIDs, admin1, admin2, countries
    case timeZones, weights
    case adminNames, countryCodes, countryNames, timeZoneNames
    case bandHeight, ringCountries, ringStarts, ringBoxes, ringBandStarts, ringPoints, bandStarts, bandEdges,
      cellStarts, cellRings
    case strings
  }

  struct FormatError: Error, CustomStringConvertible {
    var description: String
  }

  // MARK: Writing

  /// Assembles the file from each section's bytes.
  static func assemble(_ sections: [Section: [UInt8]]) -> [UInt8] {
    let tableSize = 8 * Section.allCases.count
    var offset = headSize + tableSize
    var table: [UInt8] = []
    var body: [UInt8] = []
    var hash: UInt32 = 2_166_136_261
    for section in Section.allCases {
      let bytes = sections[section] ?? []
      let padding = (8 - offset % 8) % 8
      body += [UInt8](repeating: 0, count: padding)
      offset += padding
      append(UInt32(offset), to: &table)
      append(UInt32(bytes.count), to: &table)
      body += bytes
      offset += bytes.count
      for byte in bytes {
        hash ^= UInt32(byte)
        hash = hash &* 16_777_619
      }
    }
    var head = magic
    append(UInt32(Section.allCases.count), to: &head)
    append(hash, to: &head)
    return head + table + body
  }

  static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out += $0 }
  }

  static func bytes<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(values.count * MemoryLayout<T>.size)
    for v in values { append(v, to: &out) }
    return out
  }

  static func bytes(_ values: [Double]) -> [UInt8] { bytes(values.map(\.bitPattern)) }
  static func bytes(_ values: [Float]) -> [UInt8] { bytes(values.map(\.bitPattern)) }

  // MARK: Reading

  /// A file's sections, checked to lie inside it.
  struct Reader {
    let storage: MappedBytes
    let identity: UInt32
    private let ranges: [Range<Int>]

    init(_ storage: MappedBytes, name: String) throws {
      func fail(_ why: String) -> FormatError { FormatError(description: "\(name): \(why)") }
      let data = storage.bytes
      guard data.count >= headSize, Array(data.prefix(8)) == magic else {
        if data.count >= 8, Array(data.prefix(7)) == Array("GPPLACE".utf8) {
          throw fail("a gazetteer of an older geophoto (import it again with 'geophoto places import')")
        }
        throw fail("not a geophoto gazetteer")
      }
      self.storage = storage
      let count = Int(Self.u32(data, 8))
      identity = Self.u32(data, 12)
      guard count == Section.allCases.count, data.count >= headSize + 8 * count else {
        throw fail("damaged (its table of sections does not match this geophoto)")
      }
      var ranges: [Range<Int>] = []
      for k in 0..<count {
        let offset = Int(Self.u32(data, headSize + 8 * k))
        let length = Int(Self.u32(data, headSize + 8 * k + 4))
        guard offset % 8 == 0, offset >= headSize + 8 * count, offset <= data.count, length <= data.count - offset
        else { throw fail("damaged (section \(k) lies outside the file)") }
        ranges.append(offset..<(offset + length))
      }
      self.ranges = ranges
    }

    static func u32(_ data: Data, _ at: Int) -> UInt32 { data.withUnsafeBytes { u32($0, at) } }

    static func u32(_ data: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
      UInt32(littleEndian: data.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    /// The section as a view of `T`s into the file (no copy); nil when its length is not a
    /// whole number of them.
    func column<T: BitwiseCopyable>(_ section: Section, of: T.Type = T.self) -> UnsafeBufferPointer<T>? {
      storage.column(ranges[section.rawValue], of: T.self)
    }

    /// The section as an array of `T`, copied at once (for what must be an array: the place
    /// tree and the outlines); nil when its length is not a whole number of them.
    func array<T: BitwiseCopyable>(_ section: Section, of: T.Type = T.self) -> [T]? { column(section).map(Array.init) }
  }
}
