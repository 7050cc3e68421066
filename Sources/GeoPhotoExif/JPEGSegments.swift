internal import GeoPhotoCore

/// Where a JPEG keeps its metadata, found by a bounds-checked walk over its markers.
///
/// Only the header segments are visited (from SOI to the first SOS); no pixel data is decoded
/// and no length field is trusted beyond the bytes actually present.
public struct JPEGSegments: Equatable, Sendable {
  /// Byte range of the APP1 payload that starts with `Exif\0\0`.
  public var exif: Range<Int>?
  /// Byte range of the APP1 payload that holds an XMP packet (after its namespace header).
  public var xmp: Range<Int>?
  /// Byte range of the APP13 payload that holds Photoshop's image resources (where IPTC-IIM
  /// keeps captions and keywords), after its `Photoshop 3.0` header.
  public var photoshop: Range<Int>?
  /// Byte range of the APP2 payload of a Multi-Picture Format index (CIPA DC-007), after its
  /// `MPF\0` header: where the file's other images (large thumbnails, frames) are.
  public var mpf: Range<Int>?
  /// Pixel size from the first start-of-frame segment.
  public var width: Int?
  public var height: Int?

  /// The outcome of a walk over a file prefix.
  public enum Scan: Equatable, Sendable {
    case complete(JPEGSegments)
    /// The headers continue past the prefix: read at least this many bytes and scan again.
    case needBytes(Int)
    case failed(PhotoReadError)
  }

  static let exifHeader: [UInt8] = Array("Exif\0\0".utf8)
  static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
  static let photoshopHeader: [UInt8] = Array("Photoshop 3.0\0".utf8)
  static let mpfHeader: [UInt8] = Array("MPF\0".utf8)

  /// Walks the markers in `bytes`, a prefix of a file `fileSize` bytes long.
  public static func scan(_ bytes: UnsafeRawBufferPointer, fileSize: Int) -> Scan {
    if fileSize == 0 { return .failed(.emptyFile) }
    guard bytes.count >= 2 else { return fileSize >= 2 ? .needBytes(2) : .failed(.notA(.jpeg)) }
    guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .failed(.notA(.jpeg)) }
    var result = JPEGSegments()
    // Damage after the EXIF segment does not hide the EXIF already found (exiftool agrees).
    func broken(_ reason: String) -> Scan {
      result.exif != nil ? .complete(result) : .failed(.malformed(reason))
    }
    var i = 2
    var segments = 0
    while true {
      segments += 1
      if segments > 10_000 { return broken("too many segments") }
      // Markers may be preceded by any number of 0xFF fill bytes.
      while i < bytes.count, bytes[i] == 0xFF, i + 1 < bytes.count, bytes[i + 1] == 0xFF {
        i += 1
      }
      if i + 2 > bytes.count { return needMore(i + 2, fileSize: fileSize) }
      guard bytes[i] == 0xFF else {
        return broken("no marker at byte \(i)")
      }
      let marker = bytes[i + 1]
      i += 2
      switch marker {
      case 0xD8, 0x01, 0xD0...0xD7:
        continue  // standalone markers without a length
      case 0xD9:
        return broken("image ends before its first scan")
      default:
        break
      }
      if i + 2 > bytes.count { return needMore(i + 2, fileSize: fileSize) }
      let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
      guard length >= 2 else { return broken("segment length \(length) at byte \(i)") }
      let payloadStart = i + 2
      let end = i + length
      if marker == 0xDA {  // start of scan: the headers are over
        return .complete(result)
      }
      if end > bytes.count { return needMore(end, fileSize: fileSize) }
      let payload = payloadStart..<end
      switch marker {
      case 0xE1:
        if result.exif == nil, hasPrefix(bytes, payload, exifHeader) {
          result.exif = payload
        } else if result.xmp == nil, hasPrefix(bytes, payload, xmpHeader) {
          result.xmp = payload.lowerBound + xmpHeader.count..<payload.upperBound
        }
      case 0xE2:
        if result.mpf == nil, hasPrefix(bytes, payload, mpfHeader) {
          result.mpf = payload.lowerBound + mpfHeader.count..<payload.upperBound
        }
      case 0xED:
        if result.photoshop == nil, hasPrefix(bytes, payload, photoshopHeader) {
          result.photoshop = payload
        }
      case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
        if result.width == nil, payload.count >= 5 {
          let h = Int(bytes[payloadStart + 1]) << 8 | Int(bytes[payloadStart + 2])
          let w = Int(bytes[payloadStart + 3]) << 8 | Int(bytes[payloadStart + 4])
          if w > 0 && h > 0 {
            result.width = w
            result.height = h
          }
        }
      default:
        break
      }
      i = end
    }
  }

  private static func needMore(_ count: Int, fileSize: Int) -> Scan {
    count > fileSize ? .failed(.truncated) : .needBytes(count)
  }

  private static func hasPrefix(
    _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ prefix: [UInt8]
  ) -> Bool {
    guard range.count >= prefix.count else { return false }
    for (k, b) in prefix.enumerated() where bytes[range.lowerBound + k] != b { return false }
    return true
  }
}
