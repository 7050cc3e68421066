public import GeoPhotoCore

/// What a container holds for geophoto: the EXIF block (always starting with `Exif\0\0`, as
/// libexif wants it) and an XMP packet, and the first damage met finding them.
public struct ContainerMetadata: Equatable, Sendable {
  public var exif: [UInt8]?
  public var xmp: [UInt8]?
  /// What was wrong with the file, when something was; what could be read is still here.
  public var damage: DataDamage?

  public init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil, damage: DataDamage? = nil) {
    self.exif = exif
    self.xmp = xmp
    self.damage = damage
  }
}

/// Small, bounds-checked readers of the structures that hold EXIF outside JPEG files. No
/// number from a file is trusted: every offset, length and count goes through `Bounds` or a
/// `ByteCursor` (which refuse, never trap, on an overflow or anything past the end), loops are
/// bounded, pixels are never decoded, and a reader stops at the first usable Exif and XMP.
/// Damage is noted (the first of it becomes the file's one warning) and the rest of the file
/// is read where it can be.
public enum ContainerReader {
  static let exifPrefix: [UInt8] = Array("Exif\0\0".utf8)
  /// The largest metadata block taken from any container.
  static let maximumBlock = 16 * 1024 * 1024
  /// The most chunks of a PNG or WebP file walked.
  static let maximumChunks = 100_000

  /// A TIFF structure (from a PNG, WebP or HEIF item, or a whole TIFF) as libexif wants it.
  static func exifBlock(fromTIFFOrExif payload: [UInt8]) -> [UInt8]? {
    if payload.starts(with: exifPrefix) { return payload }
    guard payload.count >= 8 else { return nil }
    return exifPrefix + payload
  }

  /// The EXIF block and XMP packet of a file in `format` (JPEGs go through `JPEGSegments`,
  /// which reads them from the file's head; videos through `VideoReader`).
  public static func read(_ file: any RandomAccessBytes, format: PhotoFormat) -> ContainerMetadata {
    var damage = DamageLog()
    var found: ContainerMetadata
    switch format {
    case .jpeg, .video: return ContainerMetadata()
    case .png: found = png(file, damage: &damage)
    case .webp: found = webp(file, damage: &damage)
    case .tiff, .raw: found = TIFFDirectories.read(file, damage: &damage)
    case .cr3: found = cr3(file, damage: &damage)
    case .raf: found = raf(file, damage: &damage)
    case .mrw: found = mrw(file, damage: &damage)
    case .heif: found = heif(file, damage: &damage)
    case .jpegXL: found = jpegXL(file, damage: &damage)
    }
    found.damage = damage.first
    return found
  }

  /// A block that starts with a 4-byte offset to the TIFF header (HEIF's and JPEG XL's
  /// `Exif` payloads; the offset is 0, or 6 when `Exif\0\0` comes first).
  static func exifBlock(fromOffsetPrefixed payload: [UInt8], _ what: String) throws(DataDamage) -> [UInt8] {
    var c = ByteCursor(payload, label: what)
    let skip = try c.u32("TIFF header offset")
    try c.skip(skip, "TIFF header offset")
    guard let block = exifBlock(fromTIFFOrExif: Array(c.bytes[c.offset...])) else {
      throw DataDamage("\(what): no TIFF structure after its header offset \(skip)")
    }
    return block
  }

  // MARK: - PNG: eXIf chunk, iTXt XML:com.adobe.xmp

  static func png(_ file: any RandomAccessBytes, damage: inout DamageLog) -> ContainerMetadata {
    var result = ContainerMetadata()
    var offset = 8
    for _ in 0..<maximumChunks {
      guard offset < file.count else {
        damage.note("PNG ends at \(file.count) bytes without its IEND chunk")
        break
      }
      guard
        var header = damage.attempt({ () throws(DataDamage) in try file.cursor(at: offset, count: 8, "PNG chunk") }),
        let length = damage.attempt({ () throws(DataDamage) in try header.u32() }),
        let typeBytes = damage.attempt({ () throws(DataDamage) in try header.take(4) })
      else { break }
      let type = String(decoding: typeBytes, as: UTF8.self)
      let what = "PNG chunk '\(LogText.escaped(bytes: typeBytes))' at \(offset)"
      // The data, then a 4-byte CRC.
      guard let data = Bounds.range(offset: offset + 8, length: length, within: file.count),
        let next = Bounds.sum(data.upperBound, 4), next <= file.count
      else {
        damage.note("\(what): length \(length) past the end (\(file.count) bytes)")
        break
      }
      if type == "IEND" { break }
      if type == "eXIf" || type == "iTXt", data.count <= maximumBlock,
        let bytes = damage.attempt({ () throws(DataDamage) in
          try file.read(at: data.lowerBound, count: data.count, what)
        })
      {
        if type == "eXIf", result.exif == nil {
          result.exif = exifBlock(fromTIFFOrExif: bytes)
        } else if type == "iTXt", result.xmp == nil {
          result.xmp = damage.attempt({ () throws(DataDamage) in try xmpFromITXt(bytes, what) }) ?? nil
        }
      }
      offset = next
    }
    return result
  }

  /// iTXt: keyword, NUL, compression flag, method, language, NUL, translated keyword, NUL,
  /// text; nil for another keyword or compressed text (not read).
  static func xmpFromITXt(_ data: [UInt8], _ what: String) throws(DataDamage) -> [UInt8]? {
    var c = ByteCursor(data, label: what)
    guard String(decoding: try c.upTo(0, "keyword"), as: UTF8.self) == "XML:com.adobe.xmp" else { return nil }
    guard try c.u8("compression flag") == 0 else { return nil }
    _ = try c.u8("compression method")
    _ = try c.upTo(0, "language tag")
    _ = try c.upTo(0, "translated keyword")
    return Array(c.bytes[c.offset...])
  }

  // MARK: - WebP: RIFF chunks EXIF and "XMP "

  static func webp(_ file: any RandomAccessBytes, damage: inout DamageLog) -> ContainerMetadata {
    var result = ContainerMetadata()
    var offset = 12
    for _ in 0..<maximumChunks {
      guard file.count - offset >= 8 else { break }
      guard
        var header = damage.attempt({ () throws(DataDamage) in
          try file.cursor(at: offset, count: 8, "RIFF chunk", bigEndian: false)
        }),
        let fourcc = damage.attempt({ () throws(DataDamage) in try header.take(4) }),
        let size = damage.attempt({ () throws(DataDamage) in try header.u32() })
      else { break }
      let what = "RIFF chunk '\(LogText.escaped(bytes: fourcc))' at \(offset)"
      // Chunks are padded to even sizes; the last one's pad byte may be missing.
      guard let data = Bounds.range(offset: offset + 8, length: size, within: file.count) else {
        damage.note("\(what): size \(size) past the end (\(file.count) bytes)")
        break
      }
      let name = String(decoding: fourcc, as: UTF8.self)
      if (name == "EXIF" && result.exif == nil) || (name == "XMP " && result.xmp == nil), data.count <= maximumBlock,
        let bytes = damage.attempt({ () throws(DataDamage) in
          try file.read(at: data.lowerBound, count: data.count, what)
        })
      {
        if name == "EXIF" { result.exif = exifBlock(fromTIFFOrExif: bytes) } else { result.xmp = bytes }
      }
      if result.exif != nil && result.xmp != nil { break }
      offset = data.upperBound + (data.count & 1)
    }
    return result
  }

  // MARK: - HEIF/HEIC/AVIF: the Exif item of the meta box (iinf + iloc)

  /// Where an item's bytes are, from `iloc`.
  struct ItemLocation {
    var id: UInt64
    /// 0: offsets in the file; 1: in the `idat` box.
    var method: UInt16
    var base: UInt64
    var extents: [(offset: UInt64, length: UInt64)]
  }

  static func heif(_ file: any RandomAccessBytes, damage: inout DamageLog) -> ContainerMetadata {
    var result = ContainerMetadata()
    guard let meta = topLevelBoxes(file, damage: &damage).first(where: { $0.type == "meta" }) else { return result }
    // meta is a full box: 4 bytes of version and flags before its children.
    let children = children(of: meta, in: file, skipping: 4, damage: &damage)
    guard let iinf = children.first(where: { $0.type == "iinf" }),
      let iloc = children.first(where: { $0.type == "iloc" }),
      var iinfCursor = cursor(of: iinf, in: file), var ilocCursor = cursor(of: iloc, in: file)
    else { return result }
    let idat = children.first { $0.type == "idat" }
    guard let types = damage.attempt({ () throws(DataDamage) in try itemTypes(&iinfCursor, file: file) }),
      let locations = damage.attempt({ () throws(DataDamage) in
        try itemLocations(&ilocCursor, wanted: { types[$0] != nil })
      })
    else { return result }
    // The first Exif and the first XMP item that can be read; a damaged one is noted and the
    // next tried.
    for location in locations {
      guard let type = types[location.id] else { continue }
      if type == "Exif" ? result.exif != nil : result.xmp != nil { continue }
      let what = "\(type == "Exif" ? "Exif" : "XMP") item \(location.id)"
      guard let payload = damage.attempt({ () throws(DataDamage) in try itemBytes(location, what, file, idat: idat) })
      else { continue }
      if type == "Exif" {
        result.exif = damage.attempt { () throws(DataDamage) in try exifBlock(fromOffsetPrefixed: payload, what) }
      } else {
        result.xmp = payload
      }
      if result.exif != nil && result.xmp != nil { break }
    }
    return result
  }

  /// The types of the items `iinf` lists (its `infe` boxes, version 2 or 3): `Exif`, or `xmp`
  /// for a `mime` item of type `application/rdf+xml`; other items are left out.
  static func itemTypes(_ c: inout ByteCursor, file: any RandomAccessBytes) throws(DataDamage) -> [UInt64: String] {
    let version = try c.u8("version")
    try c.skip(3, "flags")
    _ = try c.unsigned(size: version == 0 ? 2 : 4, "entry count")
    var damage = DamageLog()
    let entries = boxes(MemoryBytes(c.bytes), from: c.offset, to: c.count, damage: &damage)
    if let first = damage.first { throw DataDamage("\(c.label): \(first)") }
    var types: [UInt64: String] = [:]
    for infe in entries where infe.type == "infe" {
      var e = ByteCursor(c.bytes[infe.start..<infe.end], label: "infe box in \(c.label)")
      let version = try e.u8("version")
      try e.skip(3, "flags")
      guard version >= 2 else { continue }
      let id = try e.unsigned(size: version == 2 ? 2 : 4, "item id")
      try e.skip(2, "protection index")
      let type = String(decoding: try e.take(4, "item type"), as: UTF8.self)
      if type == "Exif" {
        types[id] = type
      } else if type == "mime", (try? e.upTo(0, "item name")) != nil,
        let contentType = try? e.upTo(0, "content type"),
        String(decoding: contentType, as: UTF8.self) == "application/rdf+xml"
      {
        types[id] = "xmp"
      }
    }
    return types
  }

  /// The locations `iloc` gives the items `wanted` takes, in its order (at most 10,000 items
  /// are read, each with at most 64 extents).
  static func itemLocations(_ c: inout ByteCursor, wanted: (UInt64) -> Bool) throws(DataDamage) -> [ItemLocation] {
    let version = try c.u8("version")
    try c.skip(3, "flags")
    let sizes = try c.u8("field sizes")
    let moreSizes = try c.u8("field sizes")
    let (offsetSize, lengthSize) = (Int(sizes >> 4), Int(sizes & 0x0F))
    let baseOffsetSize = Int(moreSizes >> 4)
    let indexSize = version >= 1 ? Int(moreSizes & 0x0F) : 0
    let itemCount = try c.unsigned(size: version < 2 ? 2 : 4, "item count")
    var locations: [ItemLocation] = []
    for _ in 0..<min(itemCount, 10_000) {
      let id = try c.unsigned(size: version < 2 ? 2 : 4, "item id")
      var method: UInt16 = 0
      if version >= 1 { method = try c.u16("construction method") & 0x0F }
      try c.skip(2, "data reference index")
      let base = try c.unsigned(size: baseOffsetSize, "base offset")
      let extentCount = try c.u16("extent count")
      guard wanted(id) else {
        try c.skip(Bounds.product(extentCount, indexSize + offsetSize + lengthSize) ?? .max, "item \(id)'s extents")
        continue
      }
      guard extentCount <= 64 else { throw DataDamage("\(c.label): item \(id) has \(extentCount) extents") }
      var extents: [(offset: UInt64, length: UInt64)] = []
      for _ in 0..<extentCount {
        try c.skip(indexSize, "extent index")
        let offset = try c.unsigned(size: offsetSize, "extent offset")
        extents.append((offset, try c.unsigned(size: lengthSize, "extent length")))
      }
      locations.append(ItemLocation(id: id, method: method, base: base, extents: extents))
    }
    return locations
  }

  /// An item's bytes, its extents joined (a length of 0 runs to the end of the file, or of
  /// `idat`); at most `maximumBlock` of them.
  static func itemBytes(
    _ item: ItemLocation, _ what: String, _ file: any RandomAccessBytes, idat: Box?
  ) throws(DataDamage) -> [UInt8] {
    let area: Range<Int>
    switch item.method {
    case 0: area = 0..<file.count
    case 1:
      guard let idat else { throw DataDamage("\(what) is in an 'idat' box the file does not have") }
      area = idat.start..<idat.end
    default: throw DataDamage("\(what) is stored by construction method \(item.method), which is not read")
    }
    var payload: [UInt8] = []
    for extent in item.extents {
      // Offsets count from the area's start: base + offset, each checked.
      guard let relative = Bounds.sum(item.base, extent.offset), relative <= area.count else {
        throw DataDamage(
          "\(what): base offset \(item.base) + extent offset \(extent.offset) past the end (\(area.count) bytes)")
      }
      let length = extent.length == 0 ? UInt64(area.count - relative) : extent.length
      guard let range = Bounds.range(offset: relative, length: length, within: area.count) else {
        throw DataDamage("\(what): extent at \(relative) of length \(length) past the end (\(area.count) bytes)")
      }
      guard payload.count <= maximumBlock - range.count else {
        throw DataDamage("\(what) is larger than \(maximumBlock / (1 << 20)) MiB")
      }
      payload += try file.read(at: area.lowerBound + range.lowerBound, count: range.count, what)
    }
    guard !payload.isEmpty else { throw DataDamage("\(what) is empty") }
    return payload
  }
}
