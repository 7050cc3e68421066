internal import CGeoPhotoPNG

/// Opaque RGB pixels to PNG through libpng's simplified API, favouring speed (its FAST flag:
/// quick filters and compression; a tile is a third larger and written several times faster).
enum PNGEncoder {
  struct Failure: Error {
    var message: String
  }

  /// `rgb`: `width` × `height` pixels, three bytes each, rows top to bottom.
  static func encode(rgb: [UInt8], width: Int, height: Int) throws(Failure) -> [UInt8] {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    image.width = UInt32(width)
    image.height = UInt32(height)
    image.format = UInt32(PNG_FORMAT_RGB)
    image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
    defer { png_image_free(&image) }
    // The size first, then the bytes into a buffer of that size.
    var size = 0
    let measured = rgb.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, 0, nil) }
    guard measured != 0, size > 0 else { throw Failure(message: message(image)) }
    var out = [UInt8](repeating: 0, count: size)
    let written = out.withUnsafeMutableBytes { buffer in
      rgb.withUnsafeBytes { png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
    }
    guard written != 0 else { throw Failure(message: message(image)) }
    return Array(out.prefix(size))
  }

  private static func message(_ image: png_image) -> String {
    withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }
}
