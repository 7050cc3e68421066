import CGeoPhotoWebP

/// WebP through libwebp: the size from the header, then the whole image as RGB.
enum WebPDecoder {
  static func size(of webp: UnsafeRawBufferPointer) throws(ThumbnailError) -> (width: Int, height: Int) {
    var width: Int32 = 0
    var height: Int32 = 0
    guard WebPGetInfo(webp.baseAddress?.assumingMemoryBound(to: UInt8.self), webp.count, &width, &height) != 0,
      width > 0, height > 0
    else { throw .unreadable("not a WebP image it can read") }
    return (Int(width), Int(height))
  }

  static func decode(_ webp: UnsafeRawBufferPointer) throws(ThumbnailError) -> Raster {
    var width: Int32 = 0
    var height: Int32 = 0
    guard let pixels = WebPDecodeRGB(webp.baseAddress?.assumingMemoryBound(to: UInt8.self), webp.count, &width, &height)
    else { throw .decoder("WebP: the image cannot be decoded") }
    defer { WebPFree(pixels) }
    let count = 3 * Int(width) * Int(height)
    return Raster(
      width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
  }
}
