public import GeoPhotoCore

/// Reads a photo's metadata, whatever its format: the EXIF block (through libexif) and any
/// embedded XMP packet, found by the format's reader. Damage met on the way is the metadata's
/// `damage`; what could be read is still read.
public enum MetadataReader {
  public enum Outcome: Equatable, Sendable {
    case metadata(PhotoMetadata)
    /// The headers continue past `head`: read at least this many bytes and try again.
    case needBytes(Int)
    case failed(PhotoReadError)
  }

  /// The metadata of `file`, a photo in `format`.
  ///
  /// - Parameters:
  ///   - head: the file's first bytes (all of it for small files); a JPEG's headers are read
  ///     from here, and an answer of `.needBytes` asks for a longer head.
  ///   - file: the whole file, for formats that keep their metadata anywhere in it.
  ///   - format: what the file's signature says it is.
  public static func read(head: UnsafeRawBufferPointer, file: any RandomAccessBytes, format: PhotoFormat) -> Outcome {
    switch format {
    case .jpeg: return jpeg(head, fileSize: file.count)
    case .video: return .metadata(VideoReader.read(file))
    case .png, .tiff, .raw, .cr3, .raf, .mrw, .webp, .heif, .jpegXL: return .metadata(container(file, format: format))
    }
  }

  /// A JPEG: a walk over its header segments, libexif on the EXIF segment, then the XMP one,
  /// then libiptcdata on Photoshop's APP13.
  public static func jpeg(_ head: UnsafeRawBufferPointer, fileSize: Int) -> Outcome {
    switch JPEGSegments.scan(head, fileSize: fileSize) {
    case .failed(let error): return .failed(error)
    case .needBytes(let n): return .needBytes(n)
    case .complete(let segments):
      var damage = DamageLog()
      var metadata = PhotoMetadata()
      if let range = segments.exif {
        let block = UnsafeRawBufferPointer(rebasing: head[range])
        TIFFDirectories.check(exifBlock: block, damage: &damage)
        metadata = ExifReader.read(exifBlock: block) ?? metadata
      }
      // The frame header is the truth about pixel size; EXIF copies go stale after edits.
      if let w = segments.width, let h = segments.height {
        metadata.width = w
        metadata.height = h
      }
      // An XMP packet in APP1 fills what the EXIF lacks (some editors write GPS only there).
      if let range = segments.xmp {
        metadata.merge(XMPReader.read(Array(head[range]), damage: &damage), overriding: false)
      }
      // Then IPTC-IIM in APP13 (older editors and agencies keep captions and keywords there).
      if let range = segments.photoshop,
        let iptc = IPTCReader.read(photoshopResources: UnsafeRawBufferPointer(rebasing: head[range]))
      {
        metadata.merge(iptc)
      }
      metadata.damage = damage.first
      return .metadata(metadata)
    }
  }

  /// A file whose EXIF block and XMP packet sit in a container (every format but JPEG and
  /// video), wherever they are.
  public static func container(_ file: any RandomAccessBytes, format: PhotoFormat) -> PhotoMetadata {
    let found = ContainerReader.read(file, format: format)
    var damage = DamageLog()
    if let first = found.damage { damage.note(first) }
    var metadata =
      found.exif.flatMap { block in block.withUnsafeBytes { ExifReader.read(exifBlock: $0) } } ?? PhotoMetadata()
    if let packet = found.xmp { metadata.merge(XMPReader.read(packet, damage: &damage), overriding: false) }
    metadata.damage = damage.first
    return metadata
  }

  /// The JPEG thumbnail embedded in a JPEG's EXIF block (IFD1), if the headers in `head` hold one.
  public static func thumbnail(_ head: UnsafeRawBufferPointer, fileSize: Int) -> [UInt8]? {
    guard case .complete(let segments) = JPEGSegments.scan(head, fileSize: fileSize), let exif = segments.exif
    else { return nil }
    return ExifReader.thumbnail(exifBlock: UnsafeRawBufferPointer(rebasing: head[exif]))
  }
}
