internal import GeoPhotoCore

/// JPEG XL: a bare codestream (`FF 0A`) has no metadata; the ISO-BMFF container keeps it in
/// `Exif` (a 4-byte offset to the TIFF header, then the TIFF), `xml ` (XMP) and `brob` boxes
/// (a 4-byte inner box type, then that box's content compressed with Brotli).
extension ContainerReader {
  static func jpegXL(_ file: any RandomAccessBytes, damage: inout DamageLog) -> ContainerMetadata {
    var plain = ContainerMetadata()
    var compressed = ContainerMetadata()
    // One Brotli stream of each kind is decompressed at most: a file of many `brob` boxes costs
    // no more than one.
    var triedCompressed: Set<String> = []
    guard file.bytes(at: 0, count: 2) != [0xFF, 0x0A] else { return plain }
    for box in topLevelBoxes(file, damage: &damage) {
      switch box.type {
      case "Exif" where plain.exif == nil:
        plain.exif =
          content(of: box, in: file).flatMap { bytes in
            damage.attempt { () throws(DataDamage) in try exifBlock(fromOffsetPrefixed: bytes, box.shown) }
          }
      case "xml " where plain.xmp == nil:
        plain.xmp = content(of: box, in: file)
      case "brob":
        guard let bytes = content(of: box, in: file), bytes.count > 4 else { continue }
        let inner = String(decoding: bytes[0..<4], as: UTF8.self)
        guard inner == "Exif" || inner == "xml ", triedCompressed.insert(inner).inserted else { continue }
        guard let decompressed = Brotli.decompress(bytes[4...], limit: maximumBlock) else {
          damage.note("\(box.shown): its Brotli stream is damaged or larger than \(maximumBlock / (1 << 20)) MiB")
          continue
        }
        if inner == "Exif" {
          compressed.exif = damage.attempt { () throws(DataDamage) in
            try exifBlock(fromOffsetPrefixed: decompressed, box.shown)
          }
        } else {
          compressed.xmp = decompressed
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
