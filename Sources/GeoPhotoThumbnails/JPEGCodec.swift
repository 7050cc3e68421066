import CGeoPhotoTurboJPEG
import Glibc

/// JPEG through libjpeg-turbo's TurboJPEG API: the header alone, a decode scaled in the DCT
/// (a 24-megapixel photo decoded at 1/8 of its size costs a fraction of a full decode), and
/// encoding a raster.
public enum JPEGCodec {
  /// The image's pixel size, from its header.
  public static func size(of jpeg: UnsafeRawBufferPointer) throws(ThumbnailError) -> (width: Int, height: Int) {
    let handle = try decompressor()
    defer { tjDestroy(handle) }
    return try header(handle, jpeg)
  }

  /// Decoded at the smallest scale (1/8, 1/4, 3/8, 1/2, …, 1) that still gives a longest side
  /// of at least `longestSide` pixels, or whole when the image is smaller.
  public static func decode(_ jpeg: UnsafeRawBufferPointer, atLeast longestSide: Int) throws(ThumbnailError) -> Raster {
    try Opened(jpeg).decode(atLeast: longestSide)
  }

  /// A JPEG whose header is read: its size is known before a pixel is decoded, with one decoder.
  public struct Opened: ~Copyable {
    let handle: tjhandle
    let jpeg: UnsafeRawBufferPointer
    public let width: Int
    public let height: Int

    /// `jpeg` must outlive this value.
    public init(_ jpeg: UnsafeRawBufferPointer) throws(ThumbnailError) {
      let handle = try JPEGCodec.decompressor()
      do {
        (width, height) = try JPEGCodec.header(handle, jpeg)
      } catch {
        tjDestroy(handle)
        throw error
      }
      self.handle = handle
      self.jpeg = jpeg
    }

    deinit { tjDestroy(handle) }

    /// Decoded at the smallest scale that still gives a longest side of at least `longestSide`
    /// (DCT scaling, fast upsampling of the colour planes: differences below a thumbnail's
    /// pixel).
    public func decode(atLeast longestSide: Int) throws(ThumbnailError) -> Raster {
      var count: Int32 = 0
      guard let factors = tjGetScalingFactors(&count), count > 0 else { throw .decoder("no JPEG scaling factors") }
      var best = (width: width, height: height)
      for i in 0..<Int(count) {
        let f = factors[i]
        let w = (width * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
        let h = (height * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
        if max(w, h) >= min(longestSide, max(width, height)) && w * h < best.width * best.height { best = (w, h) }
      }
      var status: Int32 = 0
      // Every row is written (a damaged file's missing rows grey), so nothing is cleared first.
      let size = 3 * best.width * best.height
      let pixels = [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
        status = tjDecompress2(
          handle, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), out.baseAddress,
          Int32(best.width), 0, Int32(best.height), Int32(TJPF_RGB.rawValue), TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE)
        if status != 0 && tjGetErrorCode(handle) != TJERR_WARNING.rawValue { out.initialize(repeating: 0) }
        initialized = size
      }
      // A warning (a truncated or slightly damaged file) still gives the pixels it could read.
      if status != 0 && tjGetErrorCode(handle) != TJERR_WARNING.rawValue {
        throw .decoder("JPEG: \(String(cString: tjGetErrorStr2(handle)))")
      }
      return Raster(width: best.width, height: best.height, pixels: pixels)
    }
  }

  /// Whether the JPEG is progressive (libjpeg then keeps the whole image's coefficients in
  /// memory, whatever the scale it decodes at) and how many scans it has (each a pass over the
  /// image), from a walk over its markers; the entropy-coded data between them is stepped over
  /// to its next 0xFF by `memchr`, every step inside the buffer.
  public static func structure(of jpeg: UnsafeRawBufferPointer) -> (progressive: Bool, scans: Int) {
    var progressive = false
    var scans = 0
    var i = 2
    while i + 1 < jpeg.count {
      guard jpeg[i] == 0xFF else {
        // Entropy-coded data, stepped over to the next 0xFF (a marker or a stuffed byte).
        guard let base = jpeg.baseAddress, let next = memchr(base + i, 0xFF, jpeg.count - i) else { break }
        i = base.distance(to: UnsafeRawPointer(next))
        continue
      }
      let marker = jpeg[i + 1]
      switch marker {
      case 0xFF:
        i += 1  // fill byte
        continue
      case 0x00, 0x01, 0xD0...0xD7:
        i += 2  // a stuffed zero or a marker without a length
        continue
      case 0xD9:
        return (progressive, scans)
      default:
        break
      }
      if [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) { progressive = true }
      if marker == 0xDA { scans += 1 }
      guard i + 3 < jpeg.count else { break }
      let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
      i += 2 + max(2, length)
    }
    return (progressive, scans)
  }

  /// `raster` as a baseline JPEG (4:2:0, quality `quality`).
  public static func encode(_ raster: Raster, quality: Int = 82) throws(ThumbnailError) -> [UInt8] {
    guard let handle = tjInitCompress() else { throw .decoder("the JPEG encoder cannot start") }
    defer { tjDestroy(handle) }
    var output: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let status = raster.pixels.withUnsafeBufferPointer { pixels in
      tjCompress2(
        handle, pixels.baseAddress, Int32(raster.width), 0, Int32(raster.height), Int32(TJPF_RGB.rawValue), &output,
        &size, Int32(TJSAMP_420.rawValue), Int32(quality), TJFLAG_FASTDCT)
    }
    defer { tjFree(output) }
    guard status == 0, let output else { throw .decoder("JPEG encoding: \(String(cString: tjGetErrorStr2(handle)))") }
    return Array(UnsafeBufferPointer(start: output, count: Int(size)))
  }

  private static func decompressor() throws(ThumbnailError) -> tjhandle {
    guard let handle = tjInitDecompress() else { throw .decoder("the JPEG decoder cannot start") }
    return handle
  }

  private static func header(_ handle: tjhandle, _ jpeg: UnsafeRawBufferPointer) throws(ThumbnailError) -> (Int, Int) {
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    guard
      tjDecompressHeader3(
        handle, jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), &width, &height,
        &subsampling, &colorspace) == 0, width > 0, height > 0
    else { throw .unreadable("not a JPEG it can read: \(String(cString: tjGetErrorStr2(handle)))") }
    return (Int(width), Int(height))
  }
}
