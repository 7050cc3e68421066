public import GeoPhotoCore

/// The JPEG previews a photo file carries beside its image, found without decoding anything:
/// a RAW file's thumbnail is made from one of them (the camera's own rendering, often full
/// size), and a JPEG's from one at least as large as the thumbnail asked for.
///
/// - JPEG: the EXIF thumbnail (IFD1's `JPEGInterchangeFormat`/`Length`), and the large
///   thumbnails of a Multi-Picture Format index (CIPA DC-007's APP2 `MPF`, types 0x010001–
///   0x010005: VGA to 16K equivalents). Other MPF images (frames of a panorama, disparity
///   images, undefined ones such as a phone's HDR gain map) are no previews.
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
    guard let head = file.bytes(at: 0, count: min(file.count, 16)) else { return [] }
    if head.starts(with: Array("FUJIFILMCCD-RAW".utf8)) {
      if let range = try? ContainerReader.rafJPEG(file) { found.append(range) }
    } else if head.starts(with: [0xFF, 0xD8]) {
      found = jpegPreviews(file)
    } else if let root = TIFFDirectories.root(of: file) {
      found = tiffPreviews(root)
    }
    let kept = Set(found).filter { range in
      range.count >= 4 && file.bytes(at: range.lowerBound, count: 3) == [0xFF, 0xD8, 0xFF]
    }
    return kept.sorted { ($0.count, $0.lowerBound) > ($1.count, $1.lowerBound) }
  }

  /// The most header bytes of a JPEG read to find its EXIF and MPF segments.
  static let maximumJPEGHead = 1 << 20

  /// A JPEG's EXIF thumbnail and MPF large thumbnails.
  static func jpegPreviews(_ file: any RandomAccessBytes) -> [Range<Int>] {
    var wanted = min(file.count, 64 * 1024)
    while true {
      guard let head = file.bytes(at: 0, count: wanted) else { return [] }
      let scan = head.withUnsafeBytes { JPEGSegments.scan($0, fileSize: file.count) }
      switch scan {
      case .failed: return []
      case .needBytes(let n):
        guard n > wanted, n <= min(file.count, maximumJPEGHead) else { return [] }
        wanted = n
      case .complete(let segments):
        var found: [Range<Int>] = []
        // The EXIF block's TIFF header follows `Exif\0\0`; IFD1 is IFD0's next.
        if let exif = segments.exif, let root = TIFFDirectories.root(of: file, at: exif.lowerBound + 6) {
          found += tiffPreviews(root)
        }
        if let mpf = segments.mpf, let root = TIFFDirectories.root(of: file, at: mpf.lowerBound, name: "MPF") {
          found += largeThumbnails(root)
        }
        return found
      }
    }
  }

  static let mpEntry: UInt16 = 0xB002
  /// MP types of large thumbnails: VGA, full HD, 4K, 8K and 16K equivalents.
  static let largeThumbnailTypes: ClosedRange<UInt32> = 0x01_0001...0x01_0005

  /// The large thumbnails an MPF index lists: each 16-byte MP entry holds the image's
  /// attribute (format in bits 24–26, 0 for JPEG; type in bits 0–23), size and offset (from
  /// the index's own TIFF header; 0 for the primary image, which is the file itself).
  static func largeThumbnails(_ root: TIFFDirectories.Location) -> [Range<Int>] {
    guard let index = Directory(root, at: UInt64(root.offset)), let entries = index.fields[mpEntry],
      let bytes = index.bytes(entries, limit: 16 * 64)
    else { return [] }
    var ranges: [Range<Int>] = []
    for at in stride(from: 0, to: bytes.count - 15, by: 16) {
      func number(_ offset: Int) -> UInt64 {
        ByteCursor.number(bytes, at: at + offset, size: 4, bigEndian: root.bigEndian) ?? 0
      }
      let attribute = UInt32(truncatingIfNeeded: number(0))
      let (size, offset) = (number(4), number(8))
      guard attribute >> 24 & 0x7 == 0, largeThumbnailTypes.contains(attribute & 0xFF_FFFF), offset > 0,
        let start = Bounds.sum(root.base, offset),
        let range = Bounds.range(offset: start, length: size, within: root.file.count)
      else { continue }
      ranges.append(range)
    }
    return ranges
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
        let count = try? head.u16(), count <= TIFFDirectories.maximumEntries,
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

    /// A field's value as bytes, when it is at most `limit` bytes long.
    func bytes(_ field: Field, limit: Int) -> [UInt8]? {
      guard field.size <= limit else { return nil }
      guard let offset = field.offset else { return Array(field.inline.prefix(field.size)) }
      guard let at = Bounds.sum(location.base, offset) else { return nil }
      return try? location.file.read(at: at, count: field.size, "value")
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
