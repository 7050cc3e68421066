/// The three TIFF directories geophoto reads — IFD0, the Exif IFD and the GPS IFD — taken
/// with seeks from wherever they sit in a file, and laid out again as one small TIFF block
/// for libexif.
///
/// A camera RAW file is tens of megabytes, and some writers put IFD0 after the pixel data;
/// reading the directories entry by entry costs a few small reads wherever they are. The same
/// layout joins directories that a container keeps apart: CR3 stores IFD0, the Exif IFD and
/// the GPS IFD as three standalone TIFF structures (`CMT1`, `CMT2`, `CMT4`).
///
/// Nothing is trusted: entry counts, value sizes and offsets are checked against the file,
/// and values too large for metadata (pixel offsets of big images, maker notes) are left out.
public enum TIFFDirectories {
  /// One directory in a file: where its TIFF header starts (offsets count from there), its
  /// byte order, and the directory's own offset.
  public struct Location {
    var file: any RandomAccessBytes
    var base: Int
    var bigEndian: Bool
    var offset: Int
  }

  /// An entry of a directory, its value in the source's byte order.
  struct Entry {
    var tag: UInt16
    var type: UInt16
    var count: UInt32
    var value: [UInt8]
  }

  static let exifPointer: UInt16 = 0x8769
  static let gpsPointer: UInt16 = 0x8825
  /// XMP packet in IFD0 (TIFF tag 700, `XMLPacket`).
  static let xmpPacket: UInt16 = 0x02BC
  /// Entries pointing at structures this layout does not carry along (Interoperability IFD,
  /// SubIFDs, maker notes with offsets of their own); they would point into nothing.
  static let dropped: Set<UInt16> = [0xA005, 0x014A, 0x927C, 0x8769, 0x8825, 0x02BC]

  static let maximumEntries = 1_000
  static let maximumValue = 256 * 1024
  static let maximumBlock = 4 * 1024 * 1024

  /// The root directory of the TIFF structure at `base` (`II`/`MM`, two bytes of magic —
  /// TIFF's or a maker's own —, then the offset of IFD0).
  public static func root(of file: any RandomAccessBytes, at base: Int = 0) -> Location? {
    guard let header = file.bytes(at: base, count: 8) else { return nil }
    let bigEndian: Bool
    switch (header[0], header[1]) {
    case (0x49, 0x49): bigEndian = false
    case (0x4D, 0x4D): bigEndian = true
    default: return nil
    }
    let offset = Int(read32(header, 4, bigEndian: bigEndian))
    return Location(file: file, base: base, bigEndian: bigEndian, offset: offset)
  }

  /// The metadata block (`Exif\0\0` + TIFF) and the XMP packet of the TIFF structure at `base`.
  public static func read(_ file: any RandomAccessBytes, at base: Int = 0) -> ContainerMetadata {
    guard let ifd0 = root(of: file, at: base), let entries = directory(at: ifd0) else { return ContainerMetadata() }
    let exif = pointer(exifPointer, in: entries, of: ifd0)
    let gps = pointer(gpsPointer, in: entries, of: ifd0)
    let xmp = entries.first { $0.tag == xmpPacket }.map(\.value)
    return ContainerMetadata(exif: block(ifd0: entries, order: ifd0.bigEndian, exif: exif, gps: gps), xmp: xmp)
  }

  /// A metadata block of directories from separate structures (CR3's CMT boxes).
  public static func block(ifd0: Location?, exif: Location?, gps: Location?) -> [UInt8]? {
    let order = (ifd0 ?? exif ?? gps)?.bigEndian ?? false
    func read(_ location: Location?) -> ([Entry], Bool)? {
      location.flatMap { l in directory(at: l).map { ($0, l.bigEndian) } }
    }
    return block(ifd0: read(ifd0)?.0 ?? [], order: order, exif: read(exif), gps: read(gps))
  }

  /// The directory a pointer entry of `entries` leads to, read in full.
  static func pointer(_ tag: UInt16, in entries: [Entry], of location: Location) -> ([Entry], Bool)? {
    guard let entry = entries.first(where: { $0.tag == tag }), entry.value.count == 4 else { return nil }
    var target = location
    target.offset = Int(read32(entry.value, 0, bigEndian: location.bigEndian))
    return directory(at: target).map { ($0, location.bigEndian) }
  }

  /// The entries of the directory at `location`, each with its value; `nil` when the
  /// directory itself is not in the file.
  static func directory(at location: Location) -> [Entry]? {
    let start = location.base + location.offset
    guard location.offset >= 8, let countBytes = location.file.bytes(at: start, count: 2) else { return nil }
    let count = Int(read16(countBytes, 0, bigEndian: location.bigEndian))
    guard count <= maximumEntries, let table = location.file.bytes(at: start + 2, count: count * 12) else {
      return nil
    }
    var entries: [Entry] = []
    var total = 0
    for i in 0..<count {
      let at = i * 12
      let tag = read16(table, at, bigEndian: location.bigEndian)
      let type = read16(table, at + 2, bigEndian: location.bigEndian)
      let components = read32(table, at + 4, bigEndian: location.bigEndian)
      guard let unit = unitSize(type) else { continue }
      let size = Int(components) * unit
      guard size > 0, size <= (tag == xmpPacket ? ContainerReader.maximumBlock : maximumValue),
        total + size <= maximumBlock + ContainerReader.maximumBlock
      else { continue }
      let value: [UInt8]
      if size <= 4 {
        value = Array(table[(at + 8)..<(at + 8 + size)])
      } else {
        let offset = Int(read32(table, at + 8, bigEndian: location.bigEndian))
        guard let bytes = location.file.bytes(at: location.base + offset, count: size) else { continue }
        value = bytes
      }
      total += size
      entries.append(Entry(tag: tag, type: type, count: components, value: value))
    }
    return entries
  }

  /// Bytes of one component of a TIFF field type, `nil` for types TIFF does not define.
  static func unitSize(_ type: UInt16) -> Int? {
    switch type {
    case 1, 2, 6, 7: return 1  // BYTE, ASCII, SBYTE, UNDEFINED
    case 3, 8: return 2  // SHORT, SSHORT
    case 4, 9, 11, 13: return 4  // LONG, SLONG, FLOAT, IFD
    case 5, 10, 12: return 8  // RATIONAL, SRATIONAL, DOUBLE
    default: return nil
    }
  }

  /// Bytes of the numbers a value is made of (a RATIONAL is two LONGs), for byte swapping.
  static func wordSize(_ type: UInt16) -> Int {
    switch type {
    case 3, 8: return 2
    case 4, 5, 9, 10, 11, 13: return 4
    case 12: return 8
    default: return 1
    }
  }

  /// IFD0, then the Exif and GPS directories, as `Exif\0\0` + a TIFF in `order`; values of a
  /// directory in the other byte order are swapped.
  static func block(
    ifd0: [Entry], order bigEndian: Bool, exif: ([Entry], Bool)?, gps: ([Entry], Bool)?
  ) -> [UInt8]? {
    func converted(_ source: ([Entry], Bool)?) -> [Entry]? {
      guard let (entries, sourceOrder) = source else { return nil }
      let kept = entries.filter { !dropped.contains($0.tag) }
      guard sourceOrder != bigEndian else { return kept }
      return kept.map { entry in
        var e = entry
        let word = wordSize(e.type)
        if word > 1 {
          for start in stride(from: 0, to: e.value.count - word + 1, by: word) {
            e.value[start..<(start + word)].reverse()
          }
        }
        return e
      }
    }
    let exifEntries = converted(exif)
    let gpsEntries = converted(gps)
    var root = ifd0.filter { !dropped.contains($0.tag) }
    guard !root.isEmpty || exifEntries?.isEmpty == false || gpsEntries?.isEmpty == false else { return nil }

    var out = ContainerReader.exifPrefix
    let base = out.count
    out += bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
    out += bytes32(8, bigEndian)
    func size(_ entries: [Entry]) -> Int {
      2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
    }
    // Pointer entries go in IFD0 with the offsets their directories will have.
    var next = 8 + size(root) + (exifEntries != nil ? 12 : 0) + (gpsEntries != nil ? 12 : 0)
    if let exifEntries {
      root.append(Entry(tag: exifPointer, type: 4, count: 1, value: bytes32(UInt32(next), bigEndian)))
      next += size(exifEntries)
    }
    if gpsEntries != nil {
      root.append(Entry(tag: gpsPointer, type: 4, count: 1, value: bytes32(UInt32(next), bigEndian)))
    }
    for entries in [root, exifEntries, gpsEntries].compactMap({ $0 }) {
      write(entries.sorted { $0.tag < $1.tag }, into: &out, base: base, bigEndian: bigEndian)
    }
    return out
  }

  /// Appends a directory and, after it, the values that do not fit in their entries.
  static func write(_ entries: [Entry], into out: inout [UInt8], base: Int, bigEndian: Bool) {
    let start = out.count - base
    var data = start + 2 + 12 * entries.count + 4
    var values: [UInt8] = []
    out += bytes16(UInt16(entries.count), bigEndian)
    for e in entries {
      out += bytes16(e.tag, bigEndian) + bytes16(e.type, bigEndian) + bytes32(e.count, bigEndian)
      if e.value.count <= 4 {
        out += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
      } else {
        out += bytes32(UInt32(data), bigEndian)
        values += e.value
        if e.value.count & 1 == 1 { values.append(0) }
        data += (e.value.count + 1) & ~1
      }
    }
    out += [0, 0, 0, 0]  // no next directory
    out += values
  }

  static func read16(_ b: [UInt8], _ i: Int, bigEndian: Bool) -> UInt16 {
    bigEndian ? UInt16(b[i]) << 8 | UInt16(b[i + 1]) : UInt16(b[i + 1]) << 8 | UInt16(b[i])
  }

  static func read32(_ b: [UInt8], _ i: Int, bigEndian: Bool) -> UInt32 {
    let v = UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    return bigEndian ? v : v.byteSwapped
  }

  static func bytes16(_ v: UInt16, _ bigEndian: Bool) -> [UInt8] {
    bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
  }

  static func bytes32(_ v: UInt32, _ bigEndian: Bool) -> [UInt8] {
    let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    return bigEndian ? b : b.reversed()
  }
}
