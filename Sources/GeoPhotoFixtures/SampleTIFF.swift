public import Foundation
public import GeoPhotoExif

/// TIFF structures with real EXIF directories and no pixels: what a DNG or a TIFF-based RAW
/// file (CR2, NEF, ARW, …) is to a metadata reader.
public enum SampleTIFF {
  /// The TIFF structure `ExifBlockBuilder` writes, without the `Exif\0\0` a JPEG needs.
  public static func make(_ configure: (inout ExifBlockBuilder) -> Void) -> [UInt8] {
    var builder = ExifBlockBuilder()
    configure(&builder)
    return Array(builder.build().dropFirst(6))
  }

  /// Writes one to `url` (name it `.dng`, `.cr2`, `.nef`, …), creating its directory.
  public static func write(to url: URL, modified: Date? = nil, _ configure: (inout ExifBlockBuilder) -> Void) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(make(configure)).write(to: url)
    if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path) }
  }
}
