/// Map tiles stored as images (raster PMTiles and MBTiles: PNG, JPEG or WebP), decoded with
/// the thumbnail decoders' checks: the header first, and nothing larger than a tile is.
public enum TileImage {
  /// The largest side a tile image may have (512-pixel tiles, and HiDPI ones of 1024).
  public static let maximumSide = 1_024

  /// The image's pixels; an error naming what is wrong otherwise.
  public static func decode(_ bytes: UnsafeRawBufferPointer) throws(ThumbnailError) -> Raster {
    let size: (width: Int, height: Int)
    let decode: (UnsafeRawBufferPointer) throws(ThumbnailError) -> Raster
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      size = try PNGDecoder.size(of: bytes)
      decode = PNGDecoder.decode
    } else if bytes.starts(with: [0xFF, 0xD8]) {
      size = try JPEGCodec.size(of: bytes)
      decode = { jpeg throws(ThumbnailError) in try JPEGCodec.decode(jpeg, atLeast: maximumSide) }
    } else if bytes.count >= 12, bytes.prefix(4).elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
      size = try WebPDecoder.size(of: bytes)
      decode = WebPDecoder.decode
    } else {
      throw .unreadable("a tile that is neither PNG, JPEG nor WebP")
    }
    guard size.width <= maximumSide, size.height <= maximumSide else {
      throw .unreadable("a tile image of \(size.width) × \(size.height) pixels (at most \(maximumSide))")
    }
    return try decode(bytes)
  }
}
