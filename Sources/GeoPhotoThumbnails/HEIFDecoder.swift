import CGeoPhotoHEIF
import GeoPhotoCore

/// HEIF (HEIC, AVIF) through libheif: the primary image, decoded as interleaved RGB with the
/// container's rotation and mirroring applied (so HEIF files are upright already: their EXIF
/// orientation is not applied again).
enum HEIFDecoder {
  /// The longest side libheif is let decode.
  static let maximumSide = 32_768

  /// The primary image's size, and the context it was read into (to decode it from).
  static func open(_ heif: UnsafeRawBufferPointer) throws(ThumbnailError) -> Opened {
    guard let context = heif_context_alloc() else { throw .decoder("HEIF: no memory") }
    let opened = Opened(context: context)
    // libheif's own limit on a side (it refuses larger images before decoding them).
    heif_context_set_maximum_image_size_limit(context, Int32(maximumSide))
    let read = heif_context_read_from_memory_without_copy(context, heif.baseAddress, heif.count, nil)
    guard read.code == heif_error_Ok else { throw .unreadable("not a HEIF image it can read: \(message(read))") }
    var handle: OpaquePointer?
    let primary = heif_context_get_primary_image_handle(context, &handle)
    guard primary.code == heif_error_Ok, let handle else {
      throw .unreadable("HEIF without a primary image: \(message(primary))")
    }
    opened.handle = handle
    opened.width = Int(heif_image_handle_get_width(handle))
    opened.height = Int(heif_image_handle_get_height(handle))
    guard opened.width > 0, opened.height > 0 else { throw .unreadable("HEIF image of no size") }
    return opened
  }

  /// A read file: released when it goes.
  final class Opened {
    let context: OpaquePointer
    var handle: OpaquePointer?
    var width = 0
    var height = 0

    init(context: OpaquePointer) { self.context = context }

    deinit {
      if let handle { heif_image_handle_release(handle) }
      heif_context_free(context)
    }

    /// The primary image, or the smallest of its own thumbnails (cameras store one, from
    /// 320 px to a 1,616 px preview) whose longest side is at least `longestSide`: decoding a
    /// 33-megapixel HEVC image takes seconds.
    func decode(atLeast longestSide: Int, maximumPixels: Int) throws(ThumbnailError) -> Raster {
      guard let handle else { throw .decoder("HEIF: nothing to decode") }
      let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
      var ids = [heif_item_id](repeating: 0, count: count)
      let listed = count > 0 ? Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count))) : 0
      var best: (handle: OpaquePointer, pixels: Int)?
      for id in ids.prefix(listed) {
        var thumbnail: OpaquePointer?
        guard heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else {
          continue
        }
        let (w, h) = (Int(heif_image_handle_get_width(thumbnail)), Int(heif_image_handle_get_height(thumbnail)))
        // A thumbnail is only a smaller image if it is one: a declared size past the primary
        // image's limit is passed over.
        if let pixels = Bounds.product(w, h), pixels <= maximumPixels, max(w, h) >= longestSide,
          pixels < (best?.pixels ?? Int.max)
        {
          if let previous = best { heif_image_handle_release(previous.handle) }
          best = (thumbnail, pixels)
        } else {
          heif_image_handle_release(thumbnail)
        }
      }
      guard let best else { return try Self.decode(handle, maximumPixels: maximumPixels) }
      defer { heif_image_handle_release(best.handle) }
      return try Self.decode(best.handle, maximumPixels: maximumPixels)
    }

    static func decode(_ handle: OpaquePointer, maximumPixels: Int) throws(ThumbnailError) -> Raster {
      var image: OpaquePointer?
      let decoded = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
      guard decoded.code == heif_error_Ok, let image else { throw .decoder("HEIF: \(HEIFDecoder.message(decoded))") }
      defer { heif_image_release(image) }
      let width = Int(heif_image_get_width(image, heif_channel_interleaved))
      let height = Int(heif_image_get_height(image, heif_channel_interleaved))
      var stride: Int32 = 0
      guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride)
      else { throw .decoder("HEIF: the decoded image has no pixels") }
      guard let pixelCount = Bounds.product(width, height), pixelCount <= maximumPixels, Int(stride) >= 3 * width else {
        throw .tooLarge(width: width, height: height, limit: maximumPixels)
      }
      var pixels = [UInt8](repeating: 0, count: 3 * width * height)
      pixels.withUnsafeMutableBufferPointer { out in
        guard let base = out.baseAddress else { return }
        for y in 0..<height { (base + 3 * width * y).update(from: plane + Int(stride) * y, count: 3 * width) }
      }
      return Raster(width: width, height: height, pixels: pixels)
    }
  }

  /// Whether the file's item properties hold a rotation or a mirroring (`irot`, `imir` in
  /// `meta/iprp/ipco`), which libheif applies. Files without them (early iPhone HEICs among
  /// them) are turned upright by their EXIF orientation instead.
  static func hasTransformations(_ file: UnsafeRawBufferPointer) -> Bool {
    /// The child boxes of `range` as (type, payload range); a box that runs past its parent,
    /// or whose size does not add up, ends the list.
    func boxes(in range: Range<Int>) -> [(String, Range<Int>)] {
      var found: [(String, Range<Int>)] = []
      var at = range.lowerBound
      while range.upperBound - at >= 8, found.count < 10_000 {
        var size = ByteCursor.number(file, at: at, size: 4, bigEndian: true) ?? 0
        let type = String(decoding: file[(at + 4)..<(at + 8)], as: UTF8.self)
        var header = 8
        if size == 1 {
          guard let large = ByteCursor.number(file, at: at + 8, size: 8, bigEndian: true) else { break }
          size = large
          header = 16
        } else if size == 0 {
          size = UInt64(range.upperBound - at)
        }
        guard size >= header, let end = Bounds.sum(at, size), end <= range.upperBound else { break }
        found.append((type, (at + header)..<end))
        at = end
      }
      return found
    }
    guard let meta = boxes(in: 0..<file.count).first(where: { $0.0 == "meta" })?.1, meta.count > 4,
      let iprp = boxes(in: (meta.lowerBound + 4)..<meta.upperBound).first(where: { $0.0 == "iprp" })?.1,
      let ipco = boxes(in: iprp).first(where: { $0.0 == "ipco" })?.1
    else { return false }
    return boxes(in: ipco).contains { $0.0 == "irot" || $0.0 == "imir" }
  }

  static func message(_ error: heif_error) -> String {
    error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
  }
}
