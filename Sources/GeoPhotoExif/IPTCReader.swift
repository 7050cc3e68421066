internal import CGeoPhotoIPTC
import Foundation
internal import GeoPhotoCore

/// What an IPTC-IIM block says about a photo (record 2, the application record): its object
/// name (a title), caption and keywords.
public struct IPTCMetadata: Equatable, Sendable {
  public var title: String?
  public var caption: String?
  public var keywords: [String] = []

  public init(title: String? = nil, caption: String? = nil, keywords: [String] = []) {
    self.title = title
    self.caption = caption
    self.keywords = keywords
  }
}

/// Reads IPTC-IIM from Photoshop's image resources (a JPEG's APP13 segment) with Debian's
/// libiptcdata: the library finds the IPTC resource (its walk checks every length) and
/// splits it into datasets; this names the few geophoto keeps and decodes their text.
public enum IPTCReader {
  /// The block's metadata from `resources` (the APP13 payload, from its `Photoshop 3.0`
  /// header); nil when it holds no IPTC or the block is damaged.
  public static func read(photoshopResources resources: UnsafeRawBufferPointer) -> IPTCMetadata? {
    guard let base = resources.baseAddress?.assumingMemoryBound(to: UInt8.self), resources.count >= 14,
      resources.count <= Int(UInt32.max)
    else { return nil }
    var length: UInt32 = 0
    let offset = iptc_jpeg_ps3_find_iptc(base, UInt32(resources.count), &length)
    guard offset > 0, length > 0, let range = Bounds.range(offset: offset, length: length, within: resources.count)
    else { return nil }
    return read(iim: UnsafeRawBufferPointer(rebasing: resources[range]))
  }

  /// The metadata of a bare IIM block (datasets one after another).
  public static func read(iim: UnsafeRawBufferPointer) -> IPTCMetadata? {
    guard let base = iim.baseAddress?.assumingMemoryBound(to: UInt8.self), !iim.isEmpty,
      let data = iptc_data_new_from_data(base, UInt32(iim.count))
    else { return nil }
    defer { iptc_data_unref(data) }
    // 1:90, the coded character set: ESC % G is UTF-8. Without it, text is UTF-8 when it
    // decodes as UTF-8 and Latin-1 otherwise (what exiftool and most editors assume).
    var metadata = IPTCMetadata()
    var fields: [(tag: UInt32, bytes: [UInt8])] = []
    var declaredUTF8 = false
    for i in 0..<Int(data.pointee.count) {
      guard let set = data.pointee.datasets[i], let bytes = set.pointee.data else { continue }
      let value = Array(UnsafeBufferPointer(start: bytes, count: Int(set.pointee.size)))
      switch (set.pointee.record.rawValue, set.pointee.tag.rawValue) {
      case (IPTC_RECORD_OBJECT_ENV.rawValue, IPTC_TAG_CHARACTER_SET.rawValue):
        declaredUTF8 = value == [0x1B, 0x25, 0x47]
      case (IPTC_RECORD_APP_2.rawValue, let tag):
        fields.append((tag, value))
      default:
        break
      }
    }
    func text(_ bytes: [UInt8]) -> String? {
      let trimmed = bytes.prefix { $0 != 0 }
      let string =
        declaredUTF8 || String(validating: trimmed, as: UTF8.self) != nil
        ? String(decoding: trimmed, as: UTF8.self)
        : String(trimmed.map { Character(Unicode.Scalar($0)) })
      let clean = string.trimmingCharacters(in: .whitespacesAndNewlines)
      return clean.isEmpty ? nil : clean
    }
    for (tag, bytes) in fields {
      switch tag {
      case IPTC_TAG_OBJECT_NAME.rawValue: metadata.title = metadata.title ?? text(bytes)
      case IPTC_TAG_CAPTION.rawValue: metadata.caption = metadata.caption ?? text(bytes)
      case IPTC_TAG_KEYWORDS.rawValue:
        if let k = text(bytes), !metadata.keywords.contains(k) { metadata.keywords.append(k) }
      default: break
      }
    }
    return metadata == IPTCMetadata() ? nil : metadata
  }
}
