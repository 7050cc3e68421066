internal import CGeoPhotoExif
internal import GeoPhotoCore

/// Reads EXIF blocks with libexif.
///
/// GPS tags are read only from the GPS IFD: their numbers collide with Interoperability tags
/// (`GPSLatitudeRef` = 0x0001 = `InteroperabilityIndex`), so a search across every IFD would
/// report garbage for photos without GPS. MakerNotes are never interpreted as text.
public enum ExifReader {
  /// Parses an EXIF block that starts with `Exif\0\0` (the payload of a JPEG APP1 segment).
  ///
  /// - Returns: the metadata, or `nil` when libexif finds no EXIF structure in the bytes.
  public static func read(exifBlock bytes: UnsafeRawBufferPointer) -> PhotoMetadata? {
    guard bytes.count > 6, bytes.count < Int(UInt32.max), let base = bytes.baseAddress,
      let data = exif_data_new()
    else { return nil }
    defer { exif_data_unref(data) }
    // Read what the file says: no "fixing" to the specification, no dropping of tags that
    // libexif does not know (OffsetTimeOriginal is one on older releases).
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
    exif_data_load_data(data, base.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count))
    let block = Block(data: data)
    guard block.hasAnyEntry else { return nil }
    return block.metadata()
  }
}

extension ExifReader {
  /// The thumbnail libexif finds in the block (IFD1's JPEG), when it starts like a JPEG.
  public static func thumbnail(exifBlock bytes: UnsafeRawBufferPointer) -> [UInt8]? {
    guard bytes.count > 6, bytes.count < Int(UInt32.max), let base = bytes.baseAddress, let data = exif_data_new()
    else { return nil }
    defer { exif_data_unref(data) }
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
    exif_data_load_data(data, base.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count))
    guard let thumb = data.pointee.data, data.pointee.size > 2, thumb[0] == 0xFF, thumb[1] == 0xD8 else { return nil }
    return Array(UnsafeBufferPointer(start: thumb, count: Int(data.pointee.size)))
  }
}

/// Tag numbers used here (EXIF 2.32, CIPA DC-008).
private enum Tag {
  static let imageDescription: UInt32 = 0x010E
  static let make: UInt32 = 0x010F
  static let model: UInt32 = 0x0110
  static let orientation: UInt32 = 0x0112
  static let xpTitle: UInt32 = 0x9C9B
  static let dateTimeOriginal: UInt32 = 0x9003
  static let dateTimeDigitized: UInt32 = 0x9004
  static let offsetTimeOriginal: UInt32 = 0x9011
  static let offsetTimeDigitized: UInt32 = 0x9012
  static let pixelXDimension: UInt32 = 0xA002
  static let pixelYDimension: UInt32 = 0xA003
  static let gpsLatitudeRef: UInt32 = 0x0001
  static let gpsLatitude: UInt32 = 0x0002
  static let gpsLongitudeRef: UInt32 = 0x0003
  static let gpsLongitude: UInt32 = 0x0004
  static let gpsAltitudeRef: UInt32 = 0x0005
  static let gpsAltitude: UInt32 = 0x0006
  static let gpsTimeStamp: UInt32 = 0x0007
  static let gpsDateStamp: UInt32 = 0x001D
  static let makerNote: UInt32 = 0x927C
  static let userComment: UInt32 = 0x9286
}

/// Descriptions that cameras write by default; they are not titles.
private let placeholderDescriptions: Set<String> = [
  "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KONICA MINOLTA DIGITAL CAMERA",
  "MINOLTA DIGITAL CAMERA", "SAMSUNG", "SAMSUNG DIGITAL CAMERA", "DCIM", "Default",
  "default", "Exif_JPEG_PICTURE", "EXIF_JPEG_PICTURE", "JPEG", "Picture", "image", "Image",
  "<KENOX S630  / Samsung S630>", "Untitled", "untitled",
]

/// A loaded ExifData, read entry by entry with every length checked.
private struct Block {
  let data: UnsafeMutablePointer<ExifData>
  let order: ExifByteOrder

  init(data: UnsafeMutablePointer<ExifData>) {
    self.data = data
    self.order = exif_data_get_byte_order(data)
  }

  var hasAnyEntry: Bool {
    [EXIF_IFD_0, EXIF_IFD_EXIF, EXIF_IFD_GPS].contains { ifd in
      (gp_exif_ifd(data, ifd)?.pointee.count ?? 0) > 0
    }
  }

  func entry(_ ifd: ExifIfd, _ tag: UInt32) -> UnsafeMutablePointer<ExifEntry>? {
    guard let content = gp_exif_ifd(data, ifd) else { return nil }
    return exif_content_get_entry(content, ExifTag(rawValue: tag))
  }

  /// The entry's bytes, if its declared components fit in the data libexif holds.
  func bytes(_ e: UnsafeMutablePointer<ExifEntry>, format expected: [ExifFormat])
    -> UnsafeRawBufferPointer?
  {
    let entry = e.pointee
    guard expected.contains(entry.format), let p = entry.data else { return nil }
    let unit = Int(exif_format_get_size(entry.format))
    guard unit > 0, let needed = Bounds.product(entry.components, unit), needed > 0, needed <= Int(entry.size) else {
      return nil
    }
    return UnsafeRawBufferPointer(start: p, count: needed)
  }

  func ascii(_ ifd: ExifIfd, _ tag: UInt32) -> String? {
    guard let e = entry(ifd, tag),
      let raw = bytes(e, format: [EXIF_FORMAT_ASCII, EXIF_FORMAT_UNDEFINED])
    else { return nil }
    let content = raw.prefix { $0 != 0 }
    guard let first = content.first, let last = content.last else { return nil }
    let text = String(validating: content, as: UTF8.self) ?? String(content.map { Character(Unicode.Scalar($0)) })
    // Only text that starts or ends with a byte of " ", "\t" or "\r\n" can lose characters
    // to the trimming (which walks characters, so is left to the text that needs it).
    let trimmed =
      [0x20, 0x09, 0x0D].contains(first) || [0x20, 0x09, 0x0A].contains(last)
      ? text.trimmingCharacters(in: " \t\r\n") : text
    return trimmed.isEmpty ? nil : trimmed
  }

  func integer(_ ifd: ExifIfd, _ tag: UInt32) -> Int? {
    guard let e = entry(ifd, tag),
      let raw = bytes(e, format: [EXIF_FORMAT_SHORT, EXIF_FORMAT_LONG, EXIF_FORMAT_BYTE]),
      let p = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
    else { return nil }
    switch e.pointee.format {
    case EXIF_FORMAT_SHORT: return Int(exif_get_short(p, order))
    case EXIF_FORMAT_LONG: return Int(exif_get_long(p, order))
    default: return Int(p.pointee)
    }
  }

  /// RATIONAL or SRATIONAL components as doubles; `nil` if any denominator is zero.
  func rationals(_ ifd: ExifIfd, _ tag: UInt32) -> [Double]? {
    guard let e = entry(ifd, tag),
      let raw = bytes(e, format: [EXIF_FORMAT_RATIONAL, EXIF_FORMAT_SRATIONAL]),
      let p = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
    else { return nil }
    var values: [Double] = []
    for i in 0..<Int(e.pointee.components) {
      let at = p + i * 8
      if e.pointee.format == EXIF_FORMAT_RATIONAL {
        let r = exif_get_rational(at, order)
        guard r.denominator != 0 else { return nil }
        values.append(Double(r.numerator) / Double(r.denominator))
      } else {
        let r = exif_get_srational(at, order)
        guard r.denominator != 0 else { return nil }
        values.append(Double(r.numerator) / Double(r.denominator))
      }
    }
    return values
  }

  /// Degrees from one to three components (d, m, s; some writers use decimal minutes).
  func degrees(_ valueTag: UInt32, ref refTag: UInt32, positive: String, negative: String)
    -> Double?
  {
    guard let parts = rationals(EXIF_IFD_GPS, valueTag), !parts.isEmpty,
      let ref = ascii(EXIF_IFD_GPS, refTag)?.uppercased()
    else { return nil }
    var value = 0.0
    for (k, part) in parts.prefix(3).enumerated() {
      guard part >= 0 else { return nil }
      value += part / [1.0, 60.0, 3600.0][k]
    }
    if ref.hasPrefix(negative) { return -value }
    return ref.hasPrefix(positive) ? value : nil
  }

  func metadata() -> PhotoMetadata {
    var m = PhotoMetadata()
    if let lat = degrees(Tag.gpsLatitude, ref: Tag.gpsLatitudeRef, positive: "N", negative: "S"),
      let lon = degrees(Tag.gpsLongitude, ref: Tag.gpsLongitudeRef, positive: "E", negative: "W"),
      let c = Coordinate(validatingLatitude: lat, longitude: lon), c.isPlausiblePhotoLocation
    {
      m.coordinate = c
      if let alt = rationals(EXIF_IFD_GPS, Tag.gpsAltitude)?.first {
        let below = integer(EXIF_IFD_GPS, Tag.gpsAltitudeRef) == 1
        let value = below ? -alt : alt
        // A wrapped negative (4294967284 for −12) or other nonsense is dropped.
        if abs(value) <= 100_000 { m.altitude = value }
      }
    }

    var description = ascii(EXIF_IFD_0, Tag.imageDescription)
    if let d = description, placeholderDescriptions.contains(d) { description = nil }
    m.title = description ?? xpTitle()
    m.cameraMake = ascii(EXIF_IFD_0, Tag.make)
    m.cameraModel = ascii(EXIF_IFD_0, Tag.model)
    if let o = integer(EXIF_IFD_0, Tag.orientation), (1...8).contains(o) { m.orientation = o }
    if let w = integer(EXIF_IFD_EXIF, Tag.pixelXDimension),
      let h = integer(EXIF_IFD_EXIF, Tag.pixelYDimension), w > 0, h > 0
    {
      m.width = w
      m.height = h
    }
    (m.takenAt, m.offsetFromGPS) = captureDate()
    m.contentIdentifier = appleMediaGroup()
    m.description = userComment()
    return m
  }

  /// `UserComment` as text: an 8-byte character code (`ASCII`, `UNICODE` — UTF-16 in the
  /// block's byte order —, or undefined, read as UTF-8), then the text; `nil` when blank or a
  /// camera default.
  func userComment() -> String? {
    guard let e = entry(EXIF_IFD_EXIF, Tag.userComment), let raw = bytes(e, format: [EXIF_FORMAT_UNDEFINED]),
      raw.count > 8
    else { return nil }
    let code = raw.prefix(8)
    let body = raw.dropFirst(8)
    let text: String
    if code.elementsEqual(Array("UNICODE\0".utf8)) {
      var units: [UInt16] = []
      var i = body.startIndex
      let big = order == EXIF_BYTE_ORDER_MOTOROLA
      while i + 1 < body.endIndex {
        let (a, b) = (UInt16(body[i]), UInt16(body[i + 1]))
        units.append(big ? a << 8 | b : b << 8 | a)
        i += 2
      }
      text = String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
    } else if code.elementsEqual(Array("JIS\0\0\0\0\0".utf8)) {
      return nil  // JIS X 0208 is not decoded
    } else {
      text = String(decoding: body.prefix { $0 != 0 }, as: UTF8.self)
    }
    let trimmed = text.trimmingCharacters(in: " \t\r\n")
    // Binary filler some cameras leave there is not text.
    guard !trimmed.unicodeScalars.contains(where: { $0 == "\u{FFFD}" || ($0.value < 0x20 && $0 != "\n") }) else {
      return nil
    }
    return trimmed.isEmpty || placeholderDescriptions.contains(trimmed) ? nil : trimmed
  }

  /// Apple's MakerNote (`Apple iOS\0`, version 1, `MM`, then an IFD whose offsets count from
  /// the MakerNote's start) tag 0x0011: the media group UUID a Live Photo's video carries too
  /// (exiftool's Apple.pm `MediaGroupUUID`).
  func appleMediaGroup() -> String? {
    guard let e = entry(EXIF_IFD_EXIF, Tag.makerNote), let raw = bytes(e, format: [EXIF_FORMAT_UNDEFINED]),
      raw.count > 16, raw.starts(with: Array("Apple iOS\0".utf8)), raw[12] == 0x4D, raw[13] == 0x4D
    else { return nil }
    var c = ByteCursor(Array(raw), label: "Apple maker note")
    do {
      try c.seek(to: 14)
      let count = try c.u16("entry count")
      guard count <= 256 else { return nil }
      for _ in 0..<count {
        let tag = try c.u16()
        let type = try c.u16()
        let length = try c.u32()
        let field = try c.take(4)
        guard tag == 0x0011, type == 2 else { continue }
        guard length > 1, length <= 128 else { return nil }
        let value =
          length <= 4
          ? field.prefix(Int(length))
          : try c.slice(at: ByteCursor.number(field, at: 0, size: 4, bigEndian: true) ?? 0, count: length)
        let text = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty ? nil : text
      }
    } catch {
      return nil
    }
    return nil
  }

  func xpTitle() -> String? {
    guard let e = entry(EXIF_IFD_0, Tag.xpTitle),
      let raw = bytes(e, format: [EXIF_FORMAT_BYTE, EXIF_FORMAT_UNDEFINED])
    else { return nil }
    var units: [UInt16] = []
    var i = 0
    while i + 1 < raw.count {
      let u = UInt16(raw[i]) | UInt16(raw[i + 1]) << 8
      if u == 0 { break }
      units.append(u)
      i += 2
    }
    let text = String(decoding: units, as: UTF16.self).trimmingCharacters(in: " \t\r\n")
    return text.isEmpty ? nil : text
  }

  /// The capture time, and whether its offset was worked out from the GPS time.
  func captureDate() -> (CaptureDate?, fromGPS: Bool) {
    var date: CaptureDate?
    if let text = ascii(EXIF_IFD_EXIF, Tag.dateTimeOriginal), var d = CaptureDate(exif: text) {
      d.utcOffsetMinutes = ascii(EXIF_IFD_EXIF, Tag.offsetTimeOriginal).flatMap(
        CaptureDate.parseOffset)
      date = d
    } else if let text = ascii(EXIF_IFD_EXIF, Tag.dateTimeDigitized),
      var d = CaptureDate(exif: text)
    {
      d.utcOffsetMinutes = ascii(EXIF_IFD_EXIF, Tag.offsetTimeDigitized).flatMap(
        CaptureDate.parseOffset)
      date = d
    }
    guard var result = date else { return (nil, false) }
    if result.utcOffsetMinutes == nil, let utc = gpsDate() {
      // The GPS fix lags the shutter by seconds to minutes: round to 15-minute zones.
      let difference = result.localSecondsSinceEpoch - utc
      let quarters = (Double(difference) / 900).rounded()
      if abs(quarters) <= 14 * 4, abs(Double(difference) - quarters * 900) <= 600 {
        result.utcOffsetMinutes = Int(quarters) * 15
        return (result, true)
      }
    }
    return (result, false)
  }

  /// The GPS fix time in seconds since the epoch (UTC).
  func gpsDate() -> Int? {
    guard let day = ascii(EXIF_IFD_GPS, Tag.gpsDateStamp),
      let time = rationals(EXIF_IFD_GPS, Tag.gpsTimeStamp), time.count == 3,
      let date = CaptureDate(exif: day + " 00:00:00")
    else { return nil }
    let seconds = time[0] * 3600 + time[1] * 60 + time[2]
    guard seconds >= 0, seconds < 86_401 else { return nil }
    return date.localSecondsSinceEpoch + Int(seconds)
  }
}

extension String {
  func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let f = s.first, set.contains(f) { s = s.dropFirst() }
    while let l = s.last, set.contains(l) { s = s.dropLast() }
    return String(s)
  }
}
