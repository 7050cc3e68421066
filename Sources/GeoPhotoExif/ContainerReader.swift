/// What a container holds for geophoto: the EXIF block (always starting with `Exif\0\0`, as
/// libexif wants it) and an XMP packet.
public struct ContainerMetadata: Equatable, Sendable {
  public var exif: [UInt8]?
  public var xmp: [UInt8]?
}

/// Small, bounds-checked readers of the structures that hold EXIF outside JPEG files. No
/// length field is trusted: every read is checked against the file, loops are bounded, and
/// pixels are never decoded.
public enum ContainerReader {
  static let exifPrefix: [UInt8] = Array("Exif\0\0".utf8)
  /// The largest metadata block taken from any container.
  static let maximumBlock = 16 * 1024 * 1024

  /// A TIFF structure (from a PNG, WebP or HEIF item, or a whole TIFF) as libexif wants it.
  static func exifBlock(fromTIFFOrExif payload: [UInt8]) -> [UInt8]? {
    if payload.starts(with: exifPrefix) { return payload }
    guard payload.count >= 8 else { return nil }
    return exifPrefix + payload
  }

  /// The EXIF block and XMP packet of a file in `format` (JPEGs go through `JPEGSegments`,
  /// which reads them from the file's head; videos through `VideoReader`).
  public static func read(_ file: any RandomAccessBytes, format: PhotoFormat) -> ContainerMetadata {
    switch format {
    case .jpeg: return ContainerMetadata()
    case .png: return png(file)
    case .webp: return webp(file)
    case .tiff, .raw: return tiff(file)
    case .cr3: return cr3(file)
    case .raf: return raf(file)
    case .mrw: return mrw(file)
    case .heif: return heif(file)
    case .jpegXL: return jpegXL(file)
    case .video: return ContainerMetadata()
    }
  }

  /// A TIFF/DNG or TIFF-based RAW file is the TIFF structure itself (under a maker's magic
  /// for ORF and RW2); its directories are read wherever they sit.
  static func tiff(_ file: any RandomAccessBytes) -> ContainerMetadata { TIFFDirectories.read(file) }

  /// A block that starts with a 4-byte offset to the TIFF header (HEIF's and JPEG XL's
  /// `Exif` payloads; the offset is 0, or 6 when `Exif\0\0` comes first).
  static func exifBlock(fromOffsetPrefixed payload: [UInt8]) -> [UInt8]? {
    var j = 0
    guard payload.count > 4, let skip = number(payload, &j, 4), skip < payload.count - 4 else { return nil }
    return exifBlock(fromTIFFOrExif: Array(payload[(4 + skip)...]))
  }

  // MARK: - PNG: eXIf chunk, iTXt XML:com.adobe.xmp

  static func png(_ file: any RandomAccessBytes) -> ContainerMetadata {
    var result = ContainerMetadata()
    var offset = 8
    for _ in 0..<100_000 {
      guard let header = file.bytes(at: offset, count: 8) else { break }
      let length = Int(UInt32(header[0]) << 24 | UInt32(header[1]) << 16 | UInt32(header[2]) << 8 | UInt32(header[3]))
      let type = String(decoding: header[4..<8], as: UTF8.self)
      let dataStart = offset + 8
      guard length >= 0, dataStart <= file.count - length else { break }
      if type == "eXIf", result.exif == nil, length <= maximumBlock, let data = file.bytes(at: dataStart, count: length)
      {
        result.exif = exifBlock(fromTIFFOrExif: data)
      } else if type == "iTXt", result.xmp == nil, length <= maximumBlock,
        let data = file.bytes(at: dataStart, count: length)
      {
        result.xmp = xmpFromITXt(data)
      } else if type == "IEND" {
        break
      }
      offset = dataStart + length + 4  // data and CRC
    }
    return result
  }

  /// iTXt: keyword, NUL, compression flag, method, language, NUL, translated keyword, NUL, text.
  static func xmpFromITXt(_ data: [UInt8]) -> [UInt8]? {
    guard let keywordEnd = data.firstIndex(of: 0),
      String(decoding: data[..<keywordEnd], as: UTF8.self) == "XML:com.adobe.xmp",
      keywordEnd + 2 < data.count, data[keywordEnd + 1] == 0  // compressed text is not read
    else { return nil }
    var i = keywordEnd + 3
    for _ in 0..<2 {  // language tag, translated keyword
      guard let end = data[i...].firstIndex(of: 0) else { return nil }
      i = end + 1
    }
    return i <= data.count ? Array(data[i...]) : nil
  }

  // MARK: - WebP: RIFF chunks EXIF and "XMP "

  static func webp(_ file: any RandomAccessBytes) -> ContainerMetadata {
    var result = ContainerMetadata()
    var offset = 12
    for _ in 0..<100_000 {
      guard let header = file.bytes(at: offset, count: 8) else { break }
      let fourcc = String(decoding: header[0..<4], as: UTF8.self)
      let size = Int(UInt32(header[4]) | UInt32(header[5]) << 8 | UInt32(header[6]) << 16 | UInt32(header[7]) << 24)
      let dataStart = offset + 8
      guard dataStart <= file.count - size else { break }
      if size <= maximumBlock {
        if fourcc == "EXIF", let data = file.bytes(at: dataStart, count: size) {
          result.exif = exifBlock(fromTIFFOrExif: data)
        } else if fourcc == "XMP ", let data = file.bytes(at: dataStart, count: size) {
          result.xmp = data
        }
      }
      offset = dataStart + size + (size & 1)  // chunks are padded to even sizes
    }
    return result
  }

  // MARK: - HEIF/HEIC/AVIF: the Exif item of the meta box (iinf + iloc)

  static func heif(_ file: any RandomAccessBytes) -> ContainerMetadata {
    guard let meta = boxes(file, from: 0, to: file.count).first(where: { $0.type == "meta" }) else {
      return ContainerMetadata()
    }
    // meta is a full box: 4 bytes of version and flags before its children.
    let children = boxes(file, from: meta.start + 4, to: meta.end)
    guard let iinf = children.first(where: { $0.type == "iinf" }),
      let iloc = children.first(where: { $0.type == "iloc" }),
      iinf.end - iinf.start <= maximumBlock, iloc.end - iloc.start <= maximumBlock,
      let iinfBytes = file.bytes(at: iinf.start, count: iinf.end - iinf.start),
      let ilocBytes = file.bytes(at: iloc.start, count: iloc.end - iloc.start)
    else { return ContainerMetadata() }
    let idat = children.first { $0.type == "idat" }

    // Item types from iinf: infe boxes (version 2 or 3).
    var types: [Int: String] = [:]
    guard iinfBytes.count >= 6 else { return ContainerMetadata() }
    let entriesStart = iinfBytes[0] == 0 ? 6 : 8
    let infeBoxes = boxes(MemoryBytes(iinfBytes), from: entriesStart, to: iinfBytes.count)
    for infe in infeBoxes where infe.type == "infe" {
      let b = Array(iinfBytes[infe.start..<infe.end])
      guard b.count >= 4 else { continue }
      let version = b[0]
      var i = 4
      guard version >= 2, let id = number(b, &i, version == 2 ? 2 : 4), i + 6 <= b.count else { continue }
      i += 2  // protection index
      types[id] = String(decoding: b[i..<(i + 4)], as: UTF8.self)
      if types[id] == "mime", let end = b[(i + 4)...].firstIndex(of: 0),
        String(decoding: b[(i + 4)..<end], as: UTF8.self) == "application/rdf+xml"
      {
        types[id] = "xmp"
      }
    }
    guard !types.isEmpty else { return ContainerMetadata() }

    // Item locations from iloc.
    var result = ContainerMetadata()
    let b = ilocBytes
    guard b.count >= 8 else { return result }
    let version = Int(b[0])
    var i = 4
    let offsetSize = Int(b[i] >> 4)
    let lengthSize = Int(b[i] & 0x0F)
    let baseOffsetSize = Int(b[i + 1] >> 4)
    let indexSize = version >= 1 ? Int(b[i + 1] & 0x0F) : 0
    i += 2
    guard let itemCount = number(b, &i, version < 2 ? 2 : 4) else { return result }
    for _ in 0..<min(itemCount, 10_000) {
      guard let id = number(b, &i, version < 2 ? 2 : 4) else { break }
      var method = 0
      if version >= 1 {
        guard let m = number(b, &i, 2) else { break }
        method = m & 0x0F
      }
      guard number(b, &i, 2) != nil, let base = number(b, &i, baseOffsetSize), let extentCount = number(b, &i, 2),
        extentCount <= 64
      else { break }
      var payload: [UInt8] = []
      var readable = true
      for _ in 0..<extentCount {
        if indexSize > 0 { guard number(b, &i, indexSize) != nil else { return result } }
        guard let offset = number(b, &i, offsetSize), let length = number(b, &i, lengthSize) else { return result }
        guard readable, let type = types[id], type == "Exif" || type == "xmp" else { continue }
        var start = base + offset
        if method == 1, let idat { start += idat.start } else if method != 0 { readable = false }
        let count = length == 0 ? file.count - start : length
        guard count >= 0, payload.count + count <= maximumBlock, let bytes = file.bytes(at: start, count: count) else {
          readable = false
          continue
        }
        payload += bytes
      }
      guard readable, !payload.isEmpty, let type = types[id] else { continue }
      if type == "Exif", result.exif == nil {
        result.exif = exifBlock(fromOffsetPrefixed: payload)
      } else if type == "xmp", result.xmp == nil {
        result.xmp = payload
      }
    }
    return result
  }
}
