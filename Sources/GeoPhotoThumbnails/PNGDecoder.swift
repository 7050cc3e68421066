import CGeoPhotoPNG
import GeoPhotoCore

/// PNG through libpng's simplified API (errors come back as a message, not a jump): the header
/// first, so an image too large to decode is refused before any pixel is. The chunks are
/// walked first: libpng allocates a chunk's declared length before it finds the data missing,
/// so a 167-byte file declaring a 2 GB text chunk must never reach it.
enum PNGDecoder {
  /// Every chunk's data and CRC lie inside the file (up to IEND).
  static func checkChunks(_ png: UnsafeRawBufferPointer) throws(ThumbnailError) {
    var at = 8
    for _ in 0..<100_000 {
      guard let length = ByteCursor.number(png, at: at, size: 4, bigEndian: true) else {
        throw .unreadable("a truncated PNG (no chunk at \(at))")
      }
      guard let end = Bounds.sum(at + 12, length), end <= png.count else {
        throw .unreadable("a damaged PNG: the chunk at \(at) says \(length) bytes, past the end (\(png.count) bytes)")
      }
      if png[(at + 4)..<(at + 8)].elementsEqual("IEND".utf8) { return }
      at = end
    }
    throw .unreadable("a PNG of more than 100,000 chunks")
  }

  static func size(of png: UnsafeRawBufferPointer) throws(ThumbnailError) -> (width: Int, height: Int) {
    try checkChunks(png)
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
