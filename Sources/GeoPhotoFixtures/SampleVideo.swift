public import Foundation

/// Minimal QuickTime movies written box by box (ISO/IEC 14496-12, Apple's QuickTime File
/// Format): `ftyp`, a `moov` with its movie header and Apple's `mdta` keys — the layout an
/// iPhone writes for a Live Photo's video — and a small `mdat`. No frames: the readers never
/// decode any.
public enum SampleVideo {
  /// The movie's bytes: `location` as an ISO 6709 string, `contentID` as the Live Photo
  /// identifier key, `created` (seconds since 1970, UTC) in the movie header.
  public static func make(location: String?, contentID: String? = nil, duration: Double = 3, created: Int? = nil)
    -> [UInt8]
  {
    var keys: [(String, String)] = []
    if let location { keys.append(("com.apple.quicktime.location.ISO6709", location)) }
    if let contentID { keys.append(("com.apple.quicktime.content.identifier", contentID)) }
    let quickTimeEpoch = 2_082_844_800
    var header = [UInt8](repeating: 0, count: 4)  // version 0, flags
    header += be32(created.map { $0 + quickTimeEpoch } ?? 0) + be32(created.map { $0 + quickTimeEpoch } ?? 0)
    header += be32(1000) + be32(Int((duration * 1000).rounded()))
    header += be32(0x0001_0000) + [0x01, 0x00] + [UInt8](repeating: 0, count: 10)
    header +=
      be32(0x0001_0000) + be32(0) + be32(0) + be32(0) + be32(0x0001_0000) + be32(0) + be32(0) + be32(0)
      + be32(0x4000_0000)
    header += [UInt8](repeating: 0, count: 24) + be32(2)
    var moov = box("mvhd", header)
    if !keys.isEmpty {
      let handler = box("hdlr", [UInt8](repeating: 0, count: 8) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 13))
      var keyList = [UInt8](repeating: 0, count: 4) + be32(keys.count)
      for (name, _) in keys { keyList += be32(8 + name.utf8.count) + Array("mdta".utf8) + Array(name.utf8) }
      var items: [UInt8] = []
      for (i, (_, value)) in keys.enumerated() {
        items += box(be32(i + 1), box("data", be32(1) + be32(0) + Array(value.utf8)))
      }
      moov += box("meta", handler + box("keys", keyList) + box("ilst", items))
    }
    return box("ftyp", Array("qt  ".utf8) + be32(0x0200) + Array("qt  ".utf8)) + box("moov", moov)
      + box("mdat", [UInt8](repeating: 0, count: 64))
  }

  /// Writes a movie to `url`, creating its directory.
  public static func write(
    to url: URL, location: String?, contentID: String? = nil, duration: Double = 3, created: Int? = nil,
    modified: Date? = nil
  ) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(make(location: location, contentID: contentID, duration: duration, created: created)).write(to: url)
    if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path) }
  }

  static func box(_ type: String, _ content: [UInt8]) -> [UInt8] { box(Array(type.utf8), content) }

  static func box(_ type: [UInt8], _ content: [UInt8]) -> [UInt8] { be32(8 + content.count) + type + content }

  static func be32(_ v: Int) -> [UInt8] {
    [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }
}
