import CGeoPhotoJXL
import GeoPhotoCore

/// JPEG XL through libjxl: the basic information first (the size, refused when too large
/// before any pixel is decoded), then the image as RGB, upright (libjxl applies the
/// codestream's orientation, so JPEG XL files are not turned again by their EXIF). An
/// animation is decoded to its first frame only.
enum JXLDecoder {
  static func isJXL(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.starts(with: [0xFF, 0x0A])
      || bytes.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
  }

  static func decode(_ jxl: UnsafeRawBufferPointer, maximumPixels: Int) throws(ThumbnailError) -> Raster {
    guard let decoder = JxlDecoderCreate(nil) else { throw .decoder("JPEG XL: the decoder cannot start") }
    defer { JxlDecoderDestroy(decoder) }
    let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
    guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
      JxlDecoderSetInput(decoder, jxl.baseAddress?.assumingMemoryBound(to: UInt8.self), jxl.count) == JXL_DEC_SUCCESS
    else { throw .decoder("JPEG XL: the decoder refuses the input") }
    JxlDecoderCloseInput(decoder)
    var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    var size = (width: 0, height: 0)
    var output: UnsafeMutableRawPointer?
    var outputBytes = 0
    defer { output?.deallocate() }
    while true {
      switch JxlDecoderProcessInput(decoder) {
      case JXL_DEC_BASIC_INFO:
        var info = JxlBasicInfo()
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
          throw .unreadable("JPEG XL without a header")
        }
        let (width, height) = (Int(info.xsize), Int(info.ysize))
        guard width > 0, height > 0 else { throw .unreadable("JPEG XL image of no size") }
        guard let pixels = Bounds.product(width, height), pixels <= maximumPixels else {
          throw .tooLarge(width: width, height: height, limit: maximumPixels)
        }
        // The orientations from 5 on swap the sides.
        size = info.orientation.rawValue >= 5 ? (height, width) : (width, height)
      case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
        guard JxlDecoderImageOutBufferSize(decoder, &format, &outputBytes) == JXL_DEC_SUCCESS,
          outputBytes == 3 * size.width * size.height
        else { throw .decoder("JPEG XL: an unexpected image buffer size") }
        output?.deallocate()
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: outputBytes, alignment: 16)
        output = buffer
        guard JxlDecoderSetImageOutBuffer(decoder, &format, buffer, outputBytes) == JXL_DEC_SUCCESS else {
          throw .decoder("JPEG XL: the image buffer is refused")
        }
      case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
        // The first frame is the thumbnail: the rest of an animation is never decoded.
        guard let output, outputBytes > 0 else { throw .unreadable("JPEG XL without an image") }
        let pixels = Array(UnsafeRawBufferPointer(start: output, count: outputBytes))
        return Raster(width: size.width, height: size.height, pixels: pixels)
      case JXL_DEC_NEED_MORE_INPUT:
        throw .unreadable("a truncated JPEG XL file")
      case JXL_DEC_ERROR:
        throw .unreadable("not a JPEG XL image it can read")
      default:
        continue
      }
    }
  }
}
