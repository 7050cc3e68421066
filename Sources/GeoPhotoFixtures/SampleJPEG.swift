public import Foundation
public import GeoPhotoExif

/// Small, valid JPEG files with real EXIF blocks, for tests, the bundled example and the
/// benchmarks. Nothing here reads the network or the shared test corpora.
public enum SampleJPEG {
  /// A 16×16 baseline JPEG without metadata (JFIF only).
  public static let plain: [UInt8] = Array(
    Data(
      base64Encoded: [
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERX",
        "RTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj",
        "Y2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAQABADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAA",
        "AAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAk",
        "M2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKT",
        "lJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QA",
        "HwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdh",
        "cRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hp",
        "anN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk",
        "5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDn7ex6cVp29j04rTt7HpxWnb2PTiqq4sMvx22p/9k=",
      ].joined()) ?? Data())

  /// `plain` with `exif` (a block from `ExifBlockBuilder`) inserted as APP1 after SOI.
  public static func make(exif: [UInt8]) -> [UInt8] {
    guard !exif.isEmpty else { return plain }
    let length = exif.count + 2
    precondition(length <= 0xFFFF, "an APP1 segment holds at most 65,533 bytes")
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif
      + plain.dropFirst(2)
  }

  /// A JPEG with the given metadata.
  public static func make(_ configure: (inout ExifBlockBuilder) -> Void) -> [UInt8] {
    var builder = ExifBlockBuilder()
    configure(&builder)
    return make(exif: builder.build())
  }

  /// Writes a JPEG to `url`, creating its directory.
  public static func write(
    to url: URL, modified: Date? = nil, _ configure: (inout ExifBlockBuilder) -> Void
  ) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(make(configure)).write(to: url)
    if let modified {
      try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
    }
  }
}

/// A JPEG laid out as cameras write one with previews: SOI, an EXIF APP1 (whose IFD1 may hold
/// a thumbnail), an APP2 Multi-Picture Format index (CIPA DC-007) listing the primary image
/// and each further image, the primary image's own segments, then the further images one after
/// another.
public enum MultiPictureJPEG {
  /// MP image types (the low 24 bits of an MP entry's attribute).
  public enum ImageType: UInt32, Sendable {
    case largeThumbnailVGA = 0x01_0001
    case largeThumbnailFullHD = 0x01_0002
    case disparity = 0x02_0002
    /// What a phone writes for an HDR gain map.
    case undefined = 0
  }

  /// `primary` (a JPEG from SOI) with `exif` (from `ExifBlockBuilder`) and `images` joined as
  /// described above; every MP offset counts from the index's TIFF header, as the standard says.
  public static func make(primary: [UInt8], exif: [UInt8], images: [(type: ImageType, jpeg: [UInt8])]) -> [UInt8] {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
    func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
      precondition(payload.count + 2 <= 0xFFFF, "a segment holds at most 65,533 bytes")
      return [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }
    let app1 = segment(0xE1, exif)
    // The index: "MPF\0", a little-endian TIFF header, one IFD of three entries (version,
    // number of images, MP entries), then the entries (16 bytes per image).
    let count = images.count + 1
    let ifdSize = 2 + 3 * 12 + 4
    let entriesAt = 8 + ifdSize
    let app2Size = 4 + 4 + entriesAt + 16 * count
    // Where the index's TIFF header sits in the file: SOI, APP1, APP2's marker and length, "MPF\0".
    let headerAt = 2 + app1.count + 4 + 4
    let primarySize = 2 + app1.count + app2Size + primary.count - 2
    var index: [UInt8] = Array("MPF\0".utf8) + Array("II".utf8) + [0x2A, 0x00] + le32(8)
    index += le16(3)
    index += le16(0xB000) + le16(7) + le32(4) + Array("0100".utf8)
    index += le16(0xB001) + le16(4) + le32(1) + le32(count)
    index += le16(0xB002) + le16(7) + le32(16 * count) + le32(entriesAt)
    index += le32(0)
    // The primary image: representative (bit 29), baseline primary type.
    index += le32(1 << 29 | 0x03_0000) + le32(primarySize) + le32(0) + le16(0) + le16(0)
    var at = primarySize
    for image in images {
      index += le32(Int(image.type.rawValue)) + le32(image.jpeg.count) + le32(at - headerAt) + le16(0) + le16(0)
      at += image.jpeg.count
    }
    let app2 = segment(0xE2, index)
    precondition(app2.count == app2Size)
    return [0xFF, 0xD8] + app1 + app2 + primary.dropFirst(2) + images.flatMap(\.jpeg)
  }
}
