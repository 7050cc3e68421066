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
