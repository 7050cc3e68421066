import Foundation
import GeoPhotoCore

/// Makes a photo's thumbnail: decoded with Debian's libraries (libjpeg-turbo scaling in the
/// DCT, libpng, libwebp, libheif for HEIC and AVIF, libjxl), shrunk to its longest side with a box
/// filter, turned upright by its EXIF orientation (HEIF by its container's rotation and
/// mirroring, which libheif applies, when it has them), and encoded as JPEG.
///
/// What one image may cost is bounded before its pixels are decoded: more than
/// `maximumPixels` to decode (after the JPEG decoder's scaling; a HEIF's chosen thumbnail as
/// well as its primary image) is refused, a progressive JPEG (which libjpeg keeps whole in
/// memory as coefficients) may not hold more than `maximumPixels` at full size nor more than
/// `maximumScans` scans, and a JPEG XL animation is decoded to its first frame only.
public struct ThumbnailMaker: Sendable {
  /// The longest sides the API serves.
  public static let sizes = [256, 1024]
  public var maximumPixels = 100_000_000
  public var maximumFileBytes = 512 * 1024 * 1024
  /// The most scans a progressive JPEG may have (each is a pass over the whole image).
  public var maximumScans = 500

  public init() {}

  /// The thumbnail of the image file at `path`.
  public func thumbnail(ofFile path: String, orientation: Int, longestSide: Int) throws(ThumbnailError) -> [UInt8] {
    let data: [UInt8]
    do {
      guard let read = try ReadableFile(path: path).readAll(limit: maximumFileBytes) else {
        throw ThumbnailError.tooLarge(width: 0, height: 0, limit: maximumPixels)
      }
      data = read
    } catch let error as ReadableFile.Failure {
      throw .file("cannot read \(path): \(error)")
    } catch {
      throw error as? ThumbnailError ?? .file("cannot read \(path)")
    }
    let made = data.withUnsafeBytes { bytes in
      Result { () throws(ThumbnailError) in try thumbnail(of: bytes, orientation: orientation, longestSide: longestSide)
      }
    }
    return try made.get()
  }

  /// The thumbnail of an image's bytes; the format is told by its first bytes.
  public func thumbnail(of bytes: UnsafeRawBufferPointer, orientation: Int, longestSide: Int) throws(ThumbnailError)
    -> [UInt8]
  {
    let raster: Raster
    let format = PhotoFormat(signature: Array(bytes.prefix(PhotoFormat.signatureLength)))
    switch format {
    case .jpeg:
      let opened = try JPEGCodec.Opened(bytes)
      let (width, height) = (opened.width, opened.height)
      // What the decoder's smallest fitting scale leaves (at most the whole image).
      let scale = max(1, min(8, max(width, height) / max(1, longestSide)))
      let decodedPixels = (width / scale) * (height / scale)
      guard decodedPixels <= maximumPixels else { throw .tooLarge(width: width, height: height, limit: maximumPixels) }
      let structure = JPEGCodec.structure(of: bytes)
      guard !structure.progressive || (Bounds.product(width, height) ?? .max) <= maximumPixels else {
        throw .tooLarge(width: width, height: height, limit: maximumPixels)
      }
      guard structure.scans <= maximumScans else {
        throw .unreadable("a JPEG of \(structure.scans) scans (at most \(maximumScans) are decoded)")
      }
      raster = try opened.decode(atLeast: longestSide)
    case .png:
      let (width, height) = try PNGDecoder.size(of: bytes)
      guard let pixels = Bounds.product(width, height), pixels <= maximumPixels else {
        throw .tooLarge(width: width, height: height, limit: maximumPixels)
      }
      raster = try PNGDecoder.decode(bytes)
    case .webp:
      let (width, height) = try WebPDecoder.size(of: bytes)
      guard let pixels = Bounds.product(width, height), pixels <= maximumPixels else {
        throw .tooLarge(width: width, height: height, limit: maximumPixels)
      }
      raster = try WebPDecoder.decode(bytes)
    case .heif:
      let opened = try HEIFDecoder.open(bytes)
      guard let pixels = Bounds.product(opened.width, opened.height), pixels <= maximumPixels else {
        throw .tooLarge(width: opened.width, height: opened.height, limit: maximumPixels)
      }
      // libheif applies the container's rotation and mirroring; a file without any is turned
      // by its EXIF orientation.
      raster = try opened.decode(atLeast: longestSide, maximumPixels: maximumPixels)
      if HEIFDecoder.hasTransformations(bytes) {
        let size = raster.fitted(longestSide: longestSide)
        return try JPEGCodec.encode(raster.shrunk(toWidth: size.width, height: size.height))
      }
    case .jpegXL:
      // Upright already: libjxl applies the codestream's orientation.
      let upright = try JXLDecoder.decode(bytes, maximumPixels: maximumPixels)
      let size = upright.fitted(longestSide: longestSide)
      return try JPEGCodec.encode(upright.shrunk(toWidth: size.width, height: size.height))
    case .tiff, .raw, .cr3, .raf, .mrw, .video:
      throw .unsupported(format?.name ?? "")
    case nil:
      throw .unsupported("this format")
    }
    let size = raster.fitted(longestSide: longestSide)
    return try JPEGCodec.encode(
      raster.shrunk(toWidth: size.width, height: size.height, orientation: orientation))
  }

  /// A thumbnail for a photo none can be made of: a light square with a frame, so a map's
  /// popup keeps its layout.
  public static func placeholder(longestSide: Int) -> [UInt8] {
    let side = max(16, longestSide)
    var raster = Raster(width: side, height: side, red: 0xE9, green: 0xEC, blue: 0xEF)
    let inset = side / 4
    let stroke = max(2, side / 64)
    for y in inset..<(side - inset) {
      for x in inset..<(side - inset) {
        let edge = x < inset + stroke || x >= side - inset - stroke || y < inset + stroke || y >= side - inset - stroke
        // The frame, and its diagonal: a picture that is not there.
        let diagonal = abs((x - inset) - (side - inset - 1 - y)) < stroke
        guard edge || diagonal else { continue }
        let p = (y * side + x) * 3
        raster.pixels[p] = 0xAD
        raster.pixels[p + 1] = 0xB5
        raster.pixels[p + 2] = 0xBD
      }
    }
    return (try? JPEGCodec.encode(raster)) ?? []
  }

  /// A video's thumbnail: a dark frame with a play sign, so the map tells videos from photos
  /// at a glance.
  public static func videoPlaceholder(longestSide: Int) -> [UInt8] {
    let width = max(16, longestSide)
    let height = width * 9 / 16
    var raster = Raster(width: width, height: height, red: 0x21, green: 0x25, blue: 0x29)
    // A light triangle pointing right, a third of the height tall, in the middle.
    let side = Double(height) / 3
    let length = side * 0.87
    let (left, middle) = (Double(width) / 2 - length / 2, Double(height) / 2)
    for y in 0..<height {
      for x in 0..<width {
        let along = Double(x) - left
        guard along >= 0, along <= length, abs(Double(y) - middle) <= side / 2 * (1 - along / length) else {
          continue
        }
        let p = (y * width + x) * 3
        raster.pixels[p] = 0xF1
        raster.pixels[p + 1] = 0xF3
        raster.pixels[p + 2] = 0xF5
      }
    }
    return (try? JPEGCodec.encode(raster)) ?? []
  }
}
