/// JPEG XL: a bare codestream (`FF 0A`) has no metadata; the ISO-BMFF container keeps it in
/// `Exif` (a 4-byte offset to the TIFF header, then the TIFF), `xml ` (XMP) and `brob` boxes
/// (a 4-byte inner box type, then that box's content compressed with Brotli).
extension ContainerReader {
  static func jpegXL(_ file: any RandomAccessBytes) -> ContainerMetadata {
    var plain = ContainerMetadata()
    var compressed = ContainerMetadata()
    guard file.bytes(at: 0, count: 2) != [0xFF, 0x0A] else { return plain }
    for box in boxes(file, from: 0, to: file.count) {
      switch box.type {
      case "Exif" where plain.exif == nil:
        plain.exif = content(of: box, in: file).flatMap(exifBlock(fromOffsetPrefixed:))
      case "xml " where plain.xmp == nil:
        plain.xmp = content(of: box, in: file)
      case "brob":
        guard let bytes = content(of: box, in: file), bytes.count > 4 else { continue }
        let inner = String(decoding: bytes[0..<4], as: UTF8.self)
        if inner == "Exif", compressed.exif == nil {
          compressed.exif = Brotli.decompress(bytes[4...], limit: maximumBlock).flatMap(exifBlock(fromOffsetPrefixed:))
        } else if inner == "xml ", compressed.xmp == nil {
          compressed.xmp = Brotli.decompress(bytes[4...], limit: maximumBlock)
        }
      default:
        continue
      }
    }
    // A plain box wins: exiftool appends one when it edits a file whose Exif is compressed,
    // and reads that one.
    return ContainerMetadata(exif: plain.exif ?? compressed.exif, xmp: plain.xmp ?? compressed.xmp)
  }
}
