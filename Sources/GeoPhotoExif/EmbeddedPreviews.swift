import Foundation

/// The JPEG previews camera RAW files carry beside their sensor data (the camera's own
/// rendering, often full size), found without decoding anything: a RAW file's thumbnail is
/// made from one of them.
///
/// - TIFF-based RAWs (NEF, CR2, ARW, DNG, ORF, PEF, SRW, RW2, …): every directory of the IFD
///   chain and its SubIFDs, with `JPEGInterchangeFormat`/`Length` or a single strip
///   (`StripOffsets`/`StripByteCounts`), and Panasonic's `JpgFromRaw` (tag 0x2E in IFD0).
/// - Fujifilm RAF: the JPEG whose offset and length the header gives (at 84).
///
/// Only ranges inside the file that start with a JPEG's SOI marker are kept; directory
/// counts, chains and offsets are bounded, so a damaged file gives none rather than a hang.
public enum EmbeddedPreviews {
  /// The previews' byte ranges, largest first.
  public static func jpegs(in file: any RandomAccessBytes) -> [Range<Int>] {
    var found: [Range<Int>] = []
    if let head = file.bytes(at: 0, count: 16), head.starts(with: Array("FUJIFILMCCD-RAW".utf8)) {
      if let header = file.bytes(at: 84, count: 8) {
        let offset = Int(ContainerReader.be32(header, 0))
        let length = Int(ContainerReader.be32(header, 4))
        found.append(offset..<(offset + length))
      }
    } else if let root = TIFFDirectories.root(of: file) {
      found = tiffPreviews(root)
    }
    let kept = Set(found).filter { range in
      range.lowerBound >= 0 && range.count >= 4 && range.upperBound <= file.count
        && file.bytes(at: range.lowerBound, count: 3) == [0xFF, 0xD8, 0xFF]
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
    var queue = [(root.offset, 0)]
    var seen: Set<Int> = []
    while let (offset, depth) = queue.popLast(), seen.count < 32 {
      guard offset >= 8, seen.insert(offset).inserted, let directory = Directory(root, at: offset) else { continue }
      let fields = directory.fields
      func values(_ tag: UInt16) -> [Int] { fields[tag].map { directory.numbers($0) } ?? [] }
      if let start = values(jpegOffset).first, let length = values(jpegLength).first {
        ranges.append(root.base + start..<(root.base + start + length))
      }
      let strips = values(stripOffsets)
      let counts = values(stripByteCounts)
      if strips.count == 1, counts.count == 1 {
        ranges.append(root.base + strips[0]..<(root.base + strips[0] + counts[0]))
      }
      if let raw = fields[panasonicJPEG], raw.count > 4 {
        ranges.append(root.base + raw.offset..<(root.base + raw.offset + raw.count))
      }
      if depth == 0 {
        for sub in values(subIFDs).prefix(8) { queue.append((sub, 1)) }
        if directory.next > 0 { queue.append((directory.next, 0)) }
      }
    }
    return ranges
  }

  /// One directory's entries by tag: type, count and where the value is (offsets from the
  /// TIFF header).
  struct Directory {
    struct Field {
      var type: UInt16
      var count: Int
      /// The value's offset, or for values of four bytes or fewer, -1 (they are in `inline`).
      var offset: Int
      var inline: [UInt8]
    }

    let location: TIFFDirectories.Location
    var fields: [UInt16: Field] = [:]
    var next = 0

    init?(_ root: TIFFDirectories.Location, at offset: Int) {
      location = root
      let big = root.bigEndian
      let file = root.file
      guard let countBytes = file.bytes(at: root.base + offset, count: 2) else { return nil }
      let count = Int(TIFFDirectories.read16(countBytes, 0, bigEndian: big))
      guard count > 0, count <= TIFFDirectories.maximumEntries,
        let table = file.bytes(at: root.base + offset + 2, count: count * 12 + 4)
      else { return nil }
      for i in 0..<count {
        let at = i * 12
        let tag = TIFFDirectories.read16(table, at, bigEndian: big)
        let type = TIFFDirectories.read16(table, at + 2, bigEndian: big)
        let n = Int(TIFFDirectories.read32(table, at + 4, bigEndian: big))
        let size = (TIFFDirectories.unitSize(type) ?? 0) * n
        let inline = Array(table[(at + 8)..<(at + 12)])
        fields[tag] = Field(
          type: type, count: size, offset: size <= 4 ? -1 : Int(TIFFDirectories.read32(inline, 0, bigEndian: big)),
          inline: inline)
      }
      next = Int(TIFFDirectories.read32(table, count * 12, bigEndian: big))
    }

    /// A SHORT or LONG field's numbers (at most 64).
    func numbers(_ field: Field) -> [Int] {
      let unit = field.type == 3 ? 2 : field.type == 4 || field.type == 13 ? 4 : 0
      guard unit > 0 else { return [] }
      let n = min(64, field.count / unit)
      let bytes =
        field.offset < 0 ? field.inline : location.file.bytes(at: location.base + field.offset, count: n * unit)
      guard let bytes, bytes.count >= n * unit else { return [] }
      return (0..<n).map { i in
        unit == 2
          ? Int(TIFFDirectories.read16(bytes, i * 2, bigEndian: location.bigEndian))
          : Int(TIFFDirectories.read32(bytes, i * 4, bigEndian: location.bigEndian))
      }
    }
  }
}

/// A file on disk read at any offset (a RAW file's previews, without reading it whole).
public final class FileBytes: RandomAccessBytes {
  private let handle: FileHandle
  public let count: Int

  public init?(path: String) {
    guard let handle = FileHandle(forReadingAtPath: path), let end = try? handle.seekToEnd() else { return nil }
    self.handle = handle
    count = Int(end)
  }

  deinit { try? handle.close() }

  public func bytes(at offset: Int, count n: Int) -> [UInt8]? {
    guard offset >= 0, n >= 0, offset <= count - n, (try? handle.seek(toOffset: UInt64(offset))) != nil,
      let data = try? handle.read(upToCount: n), data.count == n
    else { return nil }
    return [UInt8](data)
  }
}
