internal import GeoPhotoCore

/// The three TIFF directories geophoto reads — IFD0, the Exif IFD and the GPS IFD — taken
/// with seeks from wherever they sit in a file, and laid out again as one small TIFF block
/// for libexif.
///
/// A camera RAW file is tens of megabytes, and some writers put IFD0 after the pixel data;
/// reading the directories entry by entry costs a few small reads wherever they are. The same
/// layout joins directories that a container keeps apart: CR3 stores IFD0, the Exif IFD and
/// the GPS IFD as three standalone TIFF structures (`CMT1`, `CMT2`, `CMT4`).
///
/// Nothing is trusted: entry counts, value sizes and offsets go through `Bounds`, values too
/// large for metadata (pixel offsets of big images, maker notes) are left out, and all values
/// together are read at most once over (a directory whose entries all point at the same
/// large value costs no more than the file).
public enum TIFFDirectories {
  /// One directory in a file: where its TIFF header starts (offsets count from there), its
  /// byte order, the directory's own offset, and its name for warnings (`IFD0`).
  public struct Location {
    var file: any RandomAccessBytes
    var base: Int
    var bigEndian: Bool
    var offset: UInt32
    var name: String
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
  static let makerNote: UInt16 = 0x927C
  /// Entries pointing at structures this layout does not carry along (Interoperability IFD,
  /// SubIFDs, maker notes with offsets of their own); they would point into nothing.
  static let dropped: Set<UInt16> = [0xA005, 0x014A, makerNote, exifPointer, gpsPointer, xmpPacket]

  static let maximumEntries = 1_000
  static let maximumValue = 256 * 1024
  static let maximumBlock = 4 * 1024 * 1024

  /// The root directory of the TIFF structure at `base` (`II`/`MM`, two bytes of magic —
  /// TIFF's or a maker's own —, then the offset of IFD0); nil when no TIFF header is there.
  public static func root(of file: any RandomAccessBytes, at base: Int = 0, name: String = "IFD0") -> Location? {
    guard let header = file.bytes(at: base, count: 8) else { return nil }
    let bigEndian: Bool
    switch (header[0], header[1]) {
    case (0x49, 0x49): bigEndian = false
    case (0x4D, 0x4D): bigEndian = true
    default: return nil
    }
    guard let offset = ByteCursor.number(header, at: 4, size: 4, bigEndian: bigEndian) else { return nil }
    return Location(
      file: file, base: base, bigEndian: bigEndian, offset: UInt32(truncatingIfNeeded: offset), name: name)
  }

  /// The metadata block (`Exif\0\0` + TIFF) and the XMP packet of the TIFF structure at `base`.
  static func read(_ file: any RandomAccessBytes, at base: Int = 0, damage: inout DamageLog) -> ContainerMetadata {
    guard let ifd0 = root(of: file, at: base) else {
      damage.note("no TIFF header at \(base)")
      return ContainerMetadata()
    }
    var budget = ValueBudget(file: file)
    guard let entries = damage.attempt({ () throws(DataDamage) in try directory(at: ifd0, budget: &budget) }) else {
      return ContainerMetadata()
    }
    let exif = pointer(exifPointer, "Exif IFD", in: entries, of: ifd0, budget: &budget, damage: &damage)
    let gps = pointer(gpsPointer, "GPS IFD", in: entries, of: ifd0, budget: &budget, damage: &damage)
    let xmp = entries.first { $0.tag == xmpPacket }.map(\.value)
    if let first = budget.damage.first { damage.note(first) }
    return ContainerMetadata(exif: block(ifd0: entries, order: ifd0.bigEndian, exif: exif, gps: gps), xmp: xmp)
  }

  /// Notes what is wrong with the directories of an EXIF block (`Exif\0\0` + TIFF, as a
  /// JPEG's APP1 holds it) before libexif reads it, which says nothing of damage.
  static func check(exifBlock: UnsafeRawBufferPointer, damage: inout DamageLog) {
    let tiff = MemoryBytes(Array(exifBlock.dropFirst(ContainerReader.exifPrefix.count)))
    guard let ifd0 = root(of: tiff) else {
      damage.note("the EXIF block has no TIFF header")
      return
    }
    var budget = ValueBudget(file: tiff)
    guard let entries = damage.attempt({ () throws(DataDamage) in try directory(at: ifd0, budget: &budget) }) else {
      return
    }
    _ = pointer(exifPointer, "Exif IFD", in: entries, of: ifd0, budget: &budget, damage: &damage)
    _ = pointer(gpsPointer, "GPS IFD", in: entries, of: ifd0, budget: &budget, damage: &damage)
    if let first = budget.damage.first { damage.note(first) }
  }

  /// A metadata block of directories from separate structures (CR3's CMT boxes).
  static func block(ifd0: Location?, exif: Location?, gps: Location?, damage: inout DamageLog) -> [UInt8]? {
    let order = (ifd0 ?? exif ?? gps)?.bigEndian ?? false
    var budget = ValueBudget(file: (ifd0 ?? exif ?? gps)?.file ?? MemoryBytes([]))
    func read(_ location: Location?) -> ([Entry], Bool)? {
      location.flatMap { l in
        damage.attempt { () throws(DataDamage) in (try directory(at: l, budget: &budget), l.bigEndian) }
      }
    }
    let blocks = (read(ifd0)?.0 ?? [], read(exif), read(gps))
    if let first = budget.damage.first { damage.note(first) }
    return block(ifd0: blocks.0, order: order, exif: blocks.1, gps: blocks.2)
  }

  /// The directory a pointer entry of `entries` leads to, read in full.
  static func pointer(
    _ tag: UInt16, _ name: String, in entries: [Entry], of location: Location, budget: inout ValueBudget,
    damage: inout DamageLog
  ) -> ([Entry], Bool)? {
    guard let entry = entries.first(where: { $0.tag == tag }), entry.value.count == 4,
      let offset = ByteCursor.number(entry.value, at: 0, size: 4, bigEndian: location.bigEndian)
    else { return nil }
    var target = location
    target.offset = UInt32(truncatingIfNeeded: offset)
    target.name = name
    return damage.attempt { () throws(DataDamage) in (try directory(at: target, budget: &budget), location.bigEndian) }
  }

  /// How many bytes of values one structure may read in all: the file's size (values may
  /// share bytes, but a file is not read over and over) and at most `maximumBlock` plus an
  /// XMP packet.
  struct ValueBudget {
    var left: Int
    var damage = DamageLog()

    init(file: any RandomAccessBytes) {
      left = min(file.count, maximumBlock + ContainerReader.maximumBlock)
    }

    mutating func spend(_ n: Int) -> Bool {
      guard n <= left else { return false }
      left -= n
      return true
    }
  }

  /// The entries of the directory at `location`, each with its value. The directory itself
  /// out of the file is damage; an entry whose value is past the end is left out, with its
  /// damage noted in `budget` (the directory's other entries still count).
  static func directory(at location: Location, budget: inout ValueBudget) throws(DataDamage) -> [Entry] {
    let file = location.file
    guard location.offset >= 8 else {
      throw DataDamage("bad \(location.name) offset \(location.offset) (inside the TIFF header)")
    }
    guard let start = Bounds.sum(location.base, location.offset), start < file.count else {
      throw DataDamage.pastEnd("bad \(location.name) offset", location.offset, count: file.count - location.base)
    }
    var head = try file.cursor(at: start, count: 2, "\(location.name) entry count", bigEndian: location.bigEndian)
    let count = try head.u16()
    guard count <= maximumEntries else { throw DataDamage("\(location.name) has \(count) entries") }
    guard Bounds.range(offset: start + 2, length: Int(count) * 12, within: file.count) != nil else {
      throw DataDamage(
        "bad \(location.name) at \(location.offset): its \(count) entries run past the end "
          + "(\(file.count - location.base) bytes)")
    }
    var table = try file.cursor(
      at: start + 2, count: Int(count) * 12, location.name, bigEndian: location.bigEndian)
    var entries: [Entry] = []
    for _ in 0..<count {
      let tag = try table.u16()
      let type = try table.u16()
      let components = try table.u32()
      let field = try table.take(4)
      guard let unit = unitSize(type), let size = Bounds.product(components, unit), size > 0 else { continue }
      // Values of entries the block leaves out are not read (but the pointers and XMP are).
      guard size <= (tag == xmpPacket ? ContainerReader.maximumBlock : maximumValue),
        !dropped.contains(tag) || tag == xmpPacket || size <= 4
      else { continue }
      let value: [UInt8]
      if size <= 4 {
        value = Array(field.prefix(size))
      } else {
        let offset = ByteCursor.number(field, at: 0, size: 4, bigEndian: location.bigEndian) ?? 0
        guard let at = Bounds.sum(location.base, offset),
          let range = Bounds.range(offset: at, length: size, within: file.count)
        else {
          // Maker notes keep offsets of their own and are often cut by editors: not damage
          // worth a warning when geophoto never reads them.
          if tag != makerNote {
            budget.damage.note(
              "\(location.name) tag 0x\(String(tag, radix: 16, uppercase: true)): value at \(offset) (\(size) bytes) "
                + "past the end (\(file.count - location.base) bytes)")
          }
          continue
        }
        guard budget.spend(size), let bytes = file.bytes(at: range.lowerBound, count: range.count) else { continue }
        value = bytes
      }
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
  /// directory in the other byte order are swapped. The block is geophoto's own (at most a
  /// few megabytes, its offsets computed from sizes it checked), so plain arithmetic builds it.
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

  static func bytes16(_ v: UInt16, _ bigEndian: Bool) -> [UInt8] {
    bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
  }

  static func bytes32(_ v: UInt32, _ bigEndian: Bool) -> [UInt8] {
    let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    return bigEndian ? b : b.reversed()
  }
}
