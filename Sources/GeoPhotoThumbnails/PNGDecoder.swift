import CGeoPhotoPNG

/// PNG through libpng's simplified API (errors come back as a message, not a jump): the header
/// first, so an image too large to decode is refused before any pixel is.
enum PNGDecoder {
  static func size(of png: UnsafeRawBufferPointer) throws(ThumbnailError) -> (width: Int, height: Int) {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    defer { png_image_free(&image) }
    guard png_image_begin_read_from_memory(&image, png.baseAddress, png.count) != 0 else {
      throw .unreadable("not a PNG it can read: \(message(image))")
    }
    return (Int(image.width), Int(image.height))
  }

  /// The whole image as RGB, composited over white where it is transparent.
  static func decode(_ png: UnsafeRawBufferPointer) throws(ThumbnailError) -> Raster {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    defer { png_image_free(&image) }
    guard png_image_begin_read_from_memory(&image, png.baseAddress, png.count) != 0 else {
      throw .unreadable("not a PNG it can read: \(message(image))")
    }
    image.format = UInt32(PNG_FORMAT_RGB)
    let (width, height) = (Int(image.width), Int(image.height))
    var pixels = [UInt8](repeating: 0, count: 3 * width * height)
    var white = png_color(red: 255, green: 255, blue: 255)
    let done = pixels.withUnsafeMutableBytes { out in
      png_image_finish_read(&image, &white, out.baseAddress, Int32(3 * width), nil)
    }
    guard done != 0 else { throw .decoder("PNG: \(message(image))") }
    return Raster(width: width, height: height, pixels: pixels)
  }

  private static func message(_ image: png_image) -> String {
    withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  }
}
