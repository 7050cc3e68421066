public import GeoPhotoCore

/// The JPEG previews camera RAW files carry beside their sensor data (the camera's own
/// rendering, often full size), found without decoding anything: a RAW file's thumbnail is
/// made from one of them.
///
/// - TIFF-based RAWs (NEF, CR2, ARW, DNG, ORF, PEF, SRW, RW2, …): every directory of the IFD
///   chain and its SubIFDs, with `JPEGInterchangeFormat`/`Length` or a single strip
///   (`StripOffsets`/`StripByteCounts`), and Panasonic's `JpgFromRaw` (tag 0x2E in IFD0).
/// - Fujifilm RAF: the JPEG whose offset and length the header gives (at 84).
///
/// Only ranges inside the file that start with a JPEG's SOI marker are kept; every offset and
/// length goes through `Bounds`, and directory counts, chains and offsets are bounded, so a
/// damaged file gives none rather than a crash or a hang.
public enum EmbeddedPreviews {
  /// The previews' byte ranges, largest first.
  public static func jpegs(in file: any RandomAccessBytes) -> [Range<Int>] {
    var found: [Range<Int>] = []
    if let head = file.bytes(at: 0, count: 16), head.starts(with: Array("FUJIFILMCCD-RAW".utf8)) {
      if let range = try? ContainerReader.rafJPEG(file) { found.append(range) }
    } else if let root = TIFFDirectories.root(of: file) {
      found = tiffPreviews(root)
    }
    let kept = Set(found).filter { range in
      range.count >= 4 && file.bytes(at: range.lowerBound, count: 3) == [0xFF, 0xD8, 0xFF]
    }
    return kept.sorted { ($0.count, $0.lowerBound) > ($1.count, $1.lowerBound) }
  }

  static let jpegOffset: UInt16 = 0x0201
  static let jpegLength: UInt16 = 0x0202
  static let stripOffsets: UInt16 = 0x0111
  static let stripByteCounts: UInt16 = 0x0117
  static let subIFDs: UInt16 = 0x014A
  static let panasonicJPEG: UInt16 = 0x002E

  /// The previews of every directory reachable from IFD0 (its chain, and one level of SubIFDs
  /// below each).
  static func tiffPreviews(_ root: TIFFDirectories.Location) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    func add(_ start: UInt64, _ length: UInt64) {
      guard let at = Bounds.sum(root.base, start),
        let range = Bounds.range(offset: at, length: length, within: root.file.count)
      else { return }
      ranges.append(range)
    }
    var queue: [(UInt64, Int)] = [(UInt64(root.offset), 0)]
    var seen: Set<UInt64> = []
    while let (offset, depth) = queue.popLast(), seen.count < 32 {
      guard offset >= 8, seen.insert(offset).inserted, let directory = Directory(root, at: offset) else { continue }
      let fields = directory.fields
      func values(_ tag: UInt16) -> [UInt64] { fields[tag].map { directory.numbers($0) } ?? [] }
      if let start = values(jpegOffset).first, let length = values(jpegLength).first { add(start, length) }
      let strips = values(stripOffsets)
      let counts = values(stripByteCounts)
      if strips.count == 1, counts.count == 1 { add(strips[0], counts[0]) }
      if let raw = fields[panasonicJPEG], raw.size > 4, let offset = raw.offset {
        add(UInt64(offset), UInt64(raw.size))
      }
      if depth == 0 {
        for sub in values(subIFDs).prefix(8) { queue.append((sub, 1)) }
        if directory.next > 0 { queue.append((UInt64(directory.next), 0)) }
      }
    }
    return ranges
  }

  /// One directory's entries by tag: type, size and where the value is (offsets from the
  /// TIFF header).
  struct Directory {
    struct Field {
      var type: UInt16
      /// The value's size in bytes.
      var size: Int
      /// The value's offset; nil for values of four bytes or fewer (they are in `inline`).
      var offset: UInt32?
      var inline: [UInt8]
    }

    let location: TIFFDirectories.Location
    var fields: [UInt16: Field] = [:]
    var next: UInt32 = 0

    init?(_ root: TIFFDirectories.Location, at offset: UInt64) {
      location = root
      let big = root.bigEndian
      guard let start = Bounds.sum(root.base, offset),
        var head = try? root.file.cursor(at: start, count: 2, "directory", bigEndian: big),
        let count = try? head.u16(), count > 0, count <= TIFFDirectories.maximumEntries,
        var table = try? root.file.cursor(at: start + 2, count: Int(count) * 12 + 4, "directory", bigEndian: big)
      else { return nil }
      do {
        for _ in 0..<count {
          let tag = try table.u16()
          let type = try table.u16()
          let n = try table.u32()
          let inline = Array(try table.take(4))
          guard let size = Bounds.product(TIFFDirectories.unitSize(type) ?? 0, n) else { continue }
          let offset = ByteCursor.number(inline, at: 0, size: 4, bigEndian: big).map { UInt32(truncatingIfNeeded: $0) }
          fields[tag] = Field(type: type, size: size, offset: size <= 4 ? nil : offset, inline: inline)
        }
        next = try table.u32()
      } catch {
        return nil
      }
    }

    /// A SHORT or LONG field's numbers (at most 64).
    func numbers(_ field: Field) -> [UInt64] {
      let unit = field.type == 3 ? 2 : field.type == 4 || field.type == 13 ? 4 : 0
      guard unit > 0 else { return [] }
      let n = min(64, field.size / unit)
      let bytes: [UInt8]
      if let offset = field.offset {
        guard let at = Bounds.sum(location.base, offset),
          let read = try? location.file.read(at: at, count: n * unit, "value")
        else { return [] }
        bytes = read
      } else {
        bytes = field.inline
      }
      return (0..<n).compactMap { i in
        ByteCursor.number(bytes, at: i * unit, size: unit, bigEndian: location.bigEndian)
      }
    }
  }
}

/// A photo file is read at any offset (a RAW file's previews, a HEIC's items) without being
/// read whole.
extension ReadableFile: RandomAccessBytes {
  public var count: Int { size }

  public func bytes(at offset: Int, count n: Int) -> [UInt8]? {
    guard let range = Bounds.range(offset: offset, length: n, within: size) else { return nil }
    return try? read(at: range.lowerBound, count: range.count)
  }
}
