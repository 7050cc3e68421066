internal import CGeoPhotoExif
public import GeoPhotoCore
internal import Glibc

/// Builds EXIF blocks with libexif, for generated test photos, examples and benchmarks.
///
/// The result starts with `Exif\0\0` and is ready to be the payload of a JPEG APP1 segment.
public struct ExifBlockBuilder: Sendable {
  public var coordinate: Coordinate?
  public var altitude: Double?
  /// Wall-clock capture time, written as `DateTimeOriginal`; its offset, if any, as
  /// `OffsetTimeOriginal`.
  public var takenAt: CaptureDate?
  /// A UTC GPS fix time in seconds since the epoch (`GPSDateStamp` + `GPSTimeStamp`).
  public var gpsTime: Int?
  public var imageDescription: String?
  public var xpTitle: String?
  /// `UserComment`, written with the `UNICODE` character code (UTF-16 in the block's byte
  /// order) when it is not ASCII.
  public var userComment: String?
  public var make: String?
  public var model: String?
  public var orientation: Int?
  /// A JPEG to embed as the EXIF thumbnail (IFD1).
  public var thumbnail: [UInt8]?
  public var bigEndian = false

  public init() {}

  public func build() -> [UInt8] {
    guard let data = exif_data_new() else { return [] }
    defer { exif_data_unref(data) }
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
    exif_data_set_byte_order(data, bigEndian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL)
    let order = exif_data_get_byte_order(data)
    let writer = EntryWriter(data: data, order: order)

    if let d = imageDescription { writer.ascii(EXIF_IFD_0, 0x010E, d) }
    if let m = make { writer.ascii(EXIF_IFD_0, 0x010F, m) }
    if let m = model { writer.ascii(EXIF_IFD_0, 0x0110, m) }
    if let o = orientation { writer.short(EXIF_IFD_0, 0x0112, UInt16(o)) }
    if let t = xpTitle {
      var bytes: [UInt8] = []
      for unit in t.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
      writer.raw(EXIF_IFD_0, 0x9C9B, EXIF_FORMAT_BYTE, bytes + [0, 0], components: bytes.count + 2)
    }
    if let comment = userComment {
      var bytes: [UInt8]
      if comment.allSatisfy(\.isASCII) {
        bytes = Array("ASCII\0\0\0".utf8) + Array(comment.utf8)
      } else {
        bytes = Array("UNICODE\0".utf8)
        for unit in comment.utf16 {
          bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
      }
      writer.raw(EXIF_IFD_EXIF, 0x9286, EXIF_FORMAT_UNDEFINED, bytes, components: bytes.count)
    }
    if let date = takenAt {
      var local = date
      local.utcOffsetMinutes = nil
      let text = local.iso8601.replacingDateSeparators()
      writer.ascii(EXIF_IFD_EXIF, 0x9003, text)
      if let offset = date.utcOffsetMinutes {
        let full = date.iso8601
        writer.ascii(EXIF_IFD_EXIF, 0x9011, offset == 0 ? "+00:00" : String(full.suffix(6)))
      }
    }
    if let c = coordinate {
      writer.ascii(EXIF_IFD_GPS, 0x0001, c.latitude < 0 ? "S" : "N")
      writer.degrees(EXIF_IFD_GPS, 0x0002, abs(c.latitude))
      writer.ascii(EXIF_IFD_GPS, 0x0003, c.longitude < 0 ? "W" : "E")
      writer.degrees(EXIF_IFD_GPS, 0x0004, abs(c.longitude))
    }
    if let a = altitude {
      writer.raw(EXIF_IFD_GPS, 0x0005, EXIF_FORMAT_BYTE, [a < 0 ? 1 : 0], components: 1)
      writer.rationals(EXIF_IFD_GPS, 0x0006, [(UInt32((abs(a) * 1000).rounded()), 1000)])
    }
    if let t = gpsTime {
      let utc = CaptureDate(secondsSinceEpoch: t, utcOffsetMinutes: nil)
      writer.ascii(EXIF_IFD_GPS, 0x001D, utc.dateString.replacingDateSeparators())
      writer.rationals(
        EXIF_IFD_GPS, 0x0007,
        [(UInt32(utc.hour), 1), (UInt32(utc.minute), 1), (UInt32(utc.second), 1)])
    }

    if let thumbnail, !thumbnail.isEmpty, let copy = malloc(thumbnail.count)?.assumingMemoryBound(to: UInt8.self) {
      // exif_data_unref frees data->data with the default allocator (free).
      copy.initialize(from: thumbnail, count: thumbnail.count)
      data.pointee.data = copy
      data.pointee.size = UInt32(thumbnail.count)
    }
    var buffer: UnsafeMutablePointer<UInt8>?
    var size: UInt32 = 0
    exif_data_save_data(data, &buffer, &size)
    guard let buffer else { return [] }
    defer { free(buffer) }
    return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
  }
}

private struct EntryWriter {
  let data: UnsafeMutablePointer<ExifData>
  let order: ExifByteOrder

  func raw(_ ifd: ExifIfd, _ tag: UInt32, _ format: ExifFormat, _ bytes: [UInt8], components: Int) {
    guard let content = gp_exif_ifd(data, ifd), let entry = exif_entry_new() else { return }
    defer { exif_entry_unref(entry) }
    // exif_entry_new uses the default allocator (calloc/free), so the data is freed with it.
    guard let storage = calloc(bytes.count, 1)?.assumingMemoryBound(to: UInt8.self) else { return }
    storage.initialize(from: bytes, count: bytes.count)
    entry.pointee.tag = ExifTag(rawValue: tag)
    entry.pointee.format = format
    entry.pointee.components = UInt(components)
    entry.pointee.size = UInt32(bytes.count)
    entry.pointee.data = storage
    exif_content_add_entry(content, entry)
  }

  func ascii(_ ifd: ExifIfd, _ tag: UInt32, _ text: String) {
    let bytes = Array(text.utf8) + [0]
    raw(ifd, tag, EXIF_FORMAT_ASCII, bytes, components: bytes.count)
  }

  func short(_ ifd: ExifIfd, _ tag: UInt32, _ value: UInt16) {
    var bytes = [UInt8](repeating: 0, count: 2)
    exif_set_short(&bytes, order, value)
    raw(ifd, tag, EXIF_FORMAT_SHORT, bytes, components: 1)
  }

  func rationals(_ ifd: ExifIfd, _ tag: UInt32, _ values: [(UInt32, UInt32)]) {
    var bytes = [UInt8](repeating: 0, count: 8 * values.count)
    for (i, v) in values.enumerated() {
      bytes.withUnsafeMutableBufferPointer { b in
        guard let base = b.baseAddress else { return }
        exif_set_rational(base + 8 * i, order, ExifRational(numerator: v.0, denominator: v.1))
      }
    }
    raw(ifd, tag, EXIF_FORMAT_RATIONAL, bytes, components: values.count)
  }

  /// Degrees as d, m, s with seconds to 1/1,000,000 (about 3 cm).
  func degrees(_ ifd: ExifIfd, _ tag: UInt32, _ value: Double) {
    let d = value.rounded(.down)
    let minutes = (value - d) * 60
    let m = minutes.rounded(.down)
    let s = (minutes - m) * 60
    rationals(ifd, tag, [(UInt32(d), 1), (UInt32(m), 1), (UInt32((s * 1_000_000).rounded()), 1_000_000)])
  }
}

extension String {
  /// `2024-05-03T14:05:09` → `2024:05:03 14:05:09`, the EXIF spelling.
  func replacingDateSeparators() -> String {
    String(map { $0 == "-" ? ":" : ($0 == "T" ? " " : $0) })
  }
}
