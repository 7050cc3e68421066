/// Reads a JPEG's metadata from a prefix of the file: header walk, then libexif on the EXIF
/// segment.
public enum JPEGMetadata {
  public enum Outcome: Equatable, Sendable {
    case metadata(PhotoMetadata)
    /// The headers continue past the prefix: read at least this many bytes and try again.
    case needBytes(Int)
    case failed(PhotoReadError)
  }

  /// The JPEG thumbnail embedded in the EXIF block (IFD1), if the headers in `prefix` hold one.
  public static func thumbnail(_ prefix: UnsafeRawBufferPointer, fileSize: Int) -> [UInt8]? {
    guard case .complete(let segments) = JPEGSegments.scan(prefix, fileSize: fileSize), let exif = segments.exif
    else { return nil }
    return ExifReader.thumbnail(exifBlock: UnsafeRawBufferPointer(rebasing: prefix[exif]))
  }

  /// - Parameters:
  ///   - prefix: the first bytes of the file (all of it for small files).
  ///   - fileSize: the whole file's size, to tell "read more" from "truncated".
  /// - Returns: the metadata, a request for more bytes, or why the file is not a usable JPEG.
  /// Metadata of a HEIF, PNG, TIFF/DNG or WebP file: its EXIF block and XMP packet.
  public static func read(container file: any RandomAccessBytes, format: ContainerFormat) -> PhotoMetadata {
    let found = ContainerReader.read(file, format: format)
    var metadata =
      found.exif.flatMap { block in block.withUnsafeBytes { ExifReader.read(exifBlock: $0) } } ?? PhotoMetadata()
    if let packet = found.xmp, let xmp = XMPReader.read(packet) { metadata.merge(xmp, overriding: false) }
    return metadata
  }

  public static func read(_ prefix: UnsafeRawBufferPointer, fileSize: Int) -> Outcome {
    switch JPEGSegments.scan(prefix, fileSize: fileSize) {
    case .failed(let error): return .failed(error)
    case .needBytes(let n): return .needBytes(n)
    case .complete(let segments):
      var metadata =
        segments.exif.flatMap { ExifReader.read(exifBlock: UnsafeRawBufferPointer(rebasing: prefix[$0])) }
        ?? PhotoMetadata()
      // The frame header is the truth about pixel size; EXIF copies go stale after edits.
      if let w = segments.width, let h = segments.height {
        metadata.width = w
        metadata.height = h
      }
      // An XMP packet in APP1 fills what the EXIF lacks (some editors write GPS only there).
      if let range = segments.xmp, let xmp = XMPReader.read(Array(prefix[range])) {
        metadata.merge(xmp, overriding: false)
      }
      return .metadata(metadata)
    }
  }
}
