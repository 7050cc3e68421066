import Foundation
public import GeoPhotoCore
import GeoPhotoExif

/// A local photo's thumbnail as geophoto answers it, for the server and for `sync
/// --thumbnails`: made by `ThumbnailMaker` from the file — from an embedded preview JPEG when
/// the file has one at least as large as the thumbnail (a JPEG's MPF large thumbnail or EXIF
/// thumbnail: a fraction of the pixels to decode), and from a camera RAW file's largest preview
/// otherwise —, or the EXIF thumbnail of a format it does not decode, or a placeholder for a
/// file it cannot (with a warning) and for videos (no frame decoder: libavcodec is too large a
/// dependency for a thumbnail); kept in `cache`.
public struct PhotoThumbnails: Sendable {
  public var cache: ThumbnailCache?
  public var warn: (@Sendable (String) -> Void)?

  public init(cache: ThumbnailCache?, warn: (@Sendable (String) -> Void)? = nil) {
    self.cache = cache
    self.warn = warn
  }

  /// What a thumbnail request finds.
  public enum Outcome: Sendable {
    case thumbnail([UInt8])
    /// No thumbnail can be had: the format has no decoder here and no embedded thumbnail, or
    /// the file cannot be read.
    case none(String)
  }

  /// The version of a local photo's file a thumbnail is made from (`ThumbnailCache.stamp`);
  /// nil when the file is not where the index says.
  public static func stamp(of photo: Photo) -> String? { photo.path.flatMap(ThumbnailCache.stamp(ofFile:)) }

  /// Files decoded at once, in every server and sync of this process: one per core (a decode
  /// may hold a few hundred MB; the requests waiting for one hold nothing).
  static let decoding = DispatchSemaphore(value: ProcessInfo.processInfo.activeProcessorCount)

  /// The thumbnail of `photo` (a local one, whose file is at version `stamp`) with its
  /// longest side `size`.
  public func thumbnail(of photo: Photo, size: Int, stamp: String) -> Outcome {
    guard let path = photo.path else { return .none("it has no file") }
    func make() throws(ThumbnailError) -> [UInt8] {
      Self.decoding.wait()
      defer { Self.decoding.signal() }
      if photo.mediaType == .video { return ThumbnailMaker.videoPlaceholder(longestSide: size) }
      do {
        if let preview = Self.embeddedPreview(path: path, longestSide: size) {
          let made = preview.withUnsafeBytes { bytes in
            Result { () throws(ThumbnailError) in
              try ThumbnailMaker().thumbnail(of: bytes, orientation: photo.orientation ?? 1, longestSide: size)
            }
          }
          return try made.get()
        }
        return try ThumbnailMaker().thumbnail(ofFile: path, orientation: photo.orientation ?? 1, longestSide: size)
      } catch {
        switch error {
        case .unsupported:
          if let embedded = Self.embeddedThumbnail(path: path) { return embedded }
          throw error
        case .file: throw error
        case .unreadable, .decoder, .tooLarge:
          warn?("thumbnail of photo \(photo.id) (\(LogText.escaped(path))): \(error); a placeholder is served")
          return ThumbnailMaker.placeholder(longestSide: size)
        }
      }
    }
    do {
      if let cache { return .thumbnail(try cache.thumbnail(id: photo.id, size: size, stamp: stamp, make: make)) }
      return .thumbnail(try make())
    } catch {
      if case .unsupported(let format) = error { return .none("\(format), and no embedded thumbnail") }
      return .none("its file cannot be read")
    }
  }

  /// The largest embedded preview read (a camera's full-size JPEG is a few megabytes).
  static let maximumPreviewBytes = 64 << 20

  /// The embedded preview JPEG a thumbnail of `longestSide` is best made from: the smallest at
  /// least that large; for a file whose own image is not decoded here (a camera RAW), the
  /// largest when none is. Nil when there is none fit, and the file itself is decoded.
  static func embeddedPreview(path: String, longestSide: Int) -> [UInt8]? {
    guard let file = try? ReadableFile(path: path),
      let signature = file.bytes(at: 0, count: min(file.size, PhotoFormat.signatureLength))
    else { return nil }
    let decodedItself = PhotoFormat(signature: signature) == .jpeg
    var best: (range: Range<Int>, side: Int)?
    for range in EmbeddedPreviews.jpegs(in: file) where range.count <= Self.maximumPreviewBytes {
      guard let (width, height) = Self.frameSize(in: file, at: range) else { continue }
      let side = max(width, height)
      // Largest first: each one still large enough is a better (smaller) pick.
      if side >= longestSide || (best == nil && !decodedItself) { best = (range, side) }
    }
    guard let best else { return nil }
    return file.bytes(at: best.range.lowerBound, count: best.range.count)
  }

  /// The pixel size in the frame header of the JPEG at `range` of `file`, from a walk over its
  /// first segments (4 KiB read first, more as they need, at most 64 KiB).
  static func frameSize(in file: ReadableFile, at range: Range<Int>) -> (width: Int, height: Int)? {
    var wanted = min(range.count, 4 * 1024)
    while let head = file.bytes(at: range.lowerBound, count: wanted) {
      switch head.withUnsafeBytes({ JPEGSegments.scan($0, fileSize: range.count) }) {
      case .complete(let segments):
        guard let width = segments.width, let height = segments.height else { return nil }
        return (width, height)
      case .needBytes(let n) where n > wanted && n <= min(range.count, 64 * 1024):
        wanted = n
      case .needBytes, .failed:
        return nil
      }
    }
    return nil
  }

  /// The JPEG thumbnail embedded in the file's EXIF (its first 256 KiB).
  static func embeddedThumbnail(path: String) -> [UInt8]? {
    guard let file = try? ReadableFile(path: path),
      let bytes = try? file.read(at: 0, count: min(file.size, 256 * 1024))
    else { return nil }
    return bytes.withUnsafeBytes { MetadataReader.thumbnail($0, fileSize: file.size) }
  }
}
