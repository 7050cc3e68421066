import GeoPhotoCore
import GeoPhotoExif

/// Small photo files of every format geophoto reads, each well formed but for one size, offset
/// or count field set to an extreme value: 2⁶³ − 1 and 2⁶⁴ − 1 in 64-bit fields, 2³² − 1 and
/// 2³² − 16 in 32-bit ones, offsets just short of 2³². Random mutation rarely writes such a
/// value; each of these once crashed a reader or made it read past the end. The sync, the
/// readers and the fuzzers' seeds use them, and `geophoto-fixtures hostile DIR` writes them
/// for the sanitizer replay.
public enum HostileFiles {
  public struct File: Sendable {
    /// The file name, whose extension says the format.
    public var name: String
    public var bytes: [UInt8]
    /// What is extreme in it.
    public var field: String
  }

  public static var all: [File] {
    [
      File(
        name: "heic-iloc-base-offset.heic", bytes: heif(brand: "heic", base: .max / 2), field: "iloc base offset 2^63-1"
      ),
      File(
        name: "avif-iloc-base-offset.avif", bytes: heif(brand: "avif", base: .max / 2), field: "iloc base offset 2^63-1"
      ),
      File(
        name: "heic-iloc-extent-offset.heic", bytes: heif(brand: "heic", extentOffset: .max),
        field: "iloc extent offset 2^64-1"),
      File(
        name: "heic-iloc-extent-length.heic", bytes: heif(brand: "heic", extentLength: .max),
        field: "iloc extent length 2^64-1"),
      File(
        name: "heic-infe-size.heic", bytes: heif(brand: "heic", infeSize: 0xFFFF_FFFF), field: "infe box size 2^32-1"),
      File(
        name: "tiff-ifd0-offset.tif", bytes: tiff(magic: [0x49, 0x49, 0x2A, 0x00], ifd0: 0xFFFF_FFF0),
        field: "IFD0 offset"),
      File(
        name: "orf-ifd0-offset.orf", bytes: tiff(magic: Array("IIRO".utf8), ifd0: 0xFFFF_FFF0), field: "IFD0 offset"),
      File(
        name: "rw2-ifd0-offset.rw2", bytes: tiff(magic: [0x49, 0x49, 0x55, 0x00], ifd0: 0xFFFF_FFF0),
        field: "IFD0 offset"),
      File(name: "dng-exif-ifd-offset.dng", bytes: tiff(exifPointer: 0xFFFF_FFF8), field: "Exif IFD offset"),
      File(name: "tiff-value-offset.tif", bytes: tiff(valueOffset: 0xFFFF_FFF0), field: "entry value offset"),
      File(name: "tiff-entry-count.tif", bytes: tiff(entryCount: 0xFFFF), field: "IFD0 entry count 65535"),
      File(name: "raf-jpeg-offset.raf", bytes: raf(offset: 0xFFFF_FFF0, length: 0xFFFF_FFF0), field: "RAF JPEG offset"),
      File(name: "png-exif-length.png", bytes: png(exifLength: 0xFFFF_FFFF), field: "eXIf chunk length 2^32-1"),
      File(name: "webp-exif-length.webp", bytes: webp(exifLength: 0xFFFF_FFFF), field: "EXIF chunk size 2^32-1"),
      File(
        name: "mp4-largesize.mp4", bytes: largeBox(brand: "isom", type: "moov", size: .max), field: "largesize 2^64-1"),
      File(name: "mov-largesize.mov", bytes: largeBox(brand: "qt  ", type: "moov", size: .max / 2), field: "largesize"),
      File(name: "cr3-largesize.cr3", bytes: largeBox(brand: "crx ", type: "moov", size: .max / 2), field: "largesize"),
      File(name: "jxl-largesize.jxl", bytes: jxl(exifSize: .max / 2), field: "Exif box largesize 2^63-1"),
      File(name: "jxl-brob.jxl", bytes: jxlBrob(), field: "brob box of damaged Brotli"),
      File(name: "mov-keys-count.mov", bytes: movieKeys(count: 0xFFFF_FFFF), field: "keys count 2^32-1"),
      File(name: "mrw-block-length.mrw", bytes: mrw(blockLength: 0xFFFF_FFFF), field: "MRW block length 2^32-1"),
      File(name: "jpeg-ifd0-offset.jpg", bytes: jpeg(ifd0: 0xFFFF_FFF0), field: "EXIF IFD0 offset"),
    ]
  }

  /// Files whose metadata is whole but whose embedded previews are not: only a thumbnail
  /// reads them, so a sync finds nothing to warn about.
  public static var previews: [File] {
    [
      File(
        name: "jpeg-mpf-image-offset.jpg", bytes: jpegMPF(offset: 0xFFFF_FFF0, length: 0xFFFF_FFFF),
        field: "MPF large thumbnail offset and size")
    ]
  }

  // MARK: - Pieces

  static func be(_ value: some FixedWidthInteger) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
  static func le(_ value: some FixedWidthInteger) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

  /// An ISO-BMFF box with a 32-bit size.
  static func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
    be(UInt32(8 + content.count)) + Array(type.utf8) + content
  }

  /// A full box: version and flags before its content.
  static func fullBox(_ type: String, version: UInt8, _ content: [UInt8]) -> [UInt8] {
    box(type, [version, 0, 0, 0] + content)
  }

  /// A TIFF structure (little-endian) holding IFD0 with one tag, for the Exif payloads.
  static var smallTIFF: [UInt8] {
    [0x49, 0x49, 0x2A, 0x00] + le(UInt32(8)) + le(UInt16(1))
      + le(UInt16(0x0112)) + le(UInt16(3)) + le(UInt32(1)) + le(UInt32(1)) + le(UInt32(0))
  }

  /// A HEIF with one Exif item whose `iloc` entry has the given base offset, extent offset
  /// and length (8-byte fields), its payload in `mdat`.
  static func heif(
    brand: String, base: UInt64 = 0, extentOffset: UInt64? = nil, extentLength: UInt64? = nil, infeSize: UInt32? = nil
  ) -> [UInt8] {
    let ftyp = box("ftyp", Array(brand.utf8) + be(UInt32(0)) + Array("mif1".utf8) + Array(brand.utf8))
    let hdlr = fullBox("hdlr", version: 0, be(UInt32(0)) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
    var infe = fullBox("infe", version: 2, be(UInt16(1)) + be(UInt16(0)) + Array("Exif".utf8) + [0])
    if let infeSize { infe.replaceSubrange(0..<4, with: be(infeSize)) }
    let iinf = fullBox("iinf", version: 0, be(UInt16(1)) + infe)
    let payload = be(UInt32(0)) + smallTIFF
    func meta(_ offset: UInt64) -> [UInt8] {
      // version 1: offset, length and base offset sizes 8, index size 0.
      let iloc = fullBox(
        "iloc", version: 1,
        [0x88, 0x80] + be(UInt16(1)) + be(UInt16(1)) + be(UInt16(0)) + be(UInt16(0)) + be(base) + be(UInt16(1))
          + be(extentOffset ?? offset) + be(extentLength ?? UInt64(payload.count)))
      return fullBox("meta", version: 0, hdlr + iinf + iloc)
    }
    // The payload's place is known once the meta box's size is.
    let headerSize = ftyp.count + meta(0).count + 8
    return ftyp + meta(UInt64(headerSize)) + box("mdat", payload)
  }

  /// A TIFF structure with IFD0 at `ifd0` (or a well-placed one with an Exif IFD pointer, a
  /// value offset or an entry count as given).
  static func tiff(
    magic: [UInt8] = [0x49, 0x49, 0x2A, 0x00], ifd0: UInt32 = 8, exifPointer: UInt32? = nil,
    valueOffset: UInt32? = nil, entryCount: UInt16? = nil
  ) -> [UInt8] {
    var entries: [[UInt8]] = [le(UInt16(0x010F)) + le(UInt16(2)) + le(UInt32(4)) + Array("CAM\0".utf8)]
    if let exifPointer { entries.append(le(UInt16(0x8769)) + le(UInt16(4)) + le(UInt32(1)) + le(exifPointer)) }
    if let valueOffset {
      entries.append(le(UInt16(0x0110)) + le(UInt16(2)) + le(UInt32(64)) + le(valueOffset))
    }
    let count = entryCount ?? UInt16(entries.count)
    return magic + le(ifd0) + le(count) + entries.flatMap { $0 } + le(UInt32(0)) + [UInt8](repeating: 0, count: 32)
  }

  /// A Fujifilm RAF header whose embedded JPEG is at `offset` for `length` bytes.
  static func raf(offset: UInt32, length: UInt32) -> [UInt8] {
    var header = Array("FUJIFILMCCD-RAW 0201FF383501".utf8)
    header += [UInt8](repeating: 0, count: 84 - header.count)
    return header + be(offset) + be(length) + [UInt8](repeating: 0, count: 64)
  }

  static func pngChunk(_ type: String, _ data: [UInt8], length: UInt32? = nil) -> [UInt8] {
    be(length ?? UInt32(data.count)) + Array(type.utf8) + data + be(UInt32(0))
  }

  /// A 1×1 PNG whose eXIf chunk declares `exifLength` bytes.
  static func png(exifLength: UInt32) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let ihdr = pngChunk("IHDR", be(UInt32(1)) + be(UInt32(1)) + [8, 2, 0, 0, 0])
    return signature + ihdr + pngChunk("eXIf", smallTIFF, length: exifLength) + pngChunk("IEND", [])
  }

  /// An extended WebP whose EXIF chunk declares `exifLength` bytes.
  static func webp(exifLength: UInt32) -> [UInt8] {
    let vp8x = Array("VP8X".utf8) + le(UInt32(10)) + [0x08, 0, 0, 0] + [0, 0, 0, 0, 0, 0]
    let exif = Array("EXIF".utf8) + le(exifLength) + smallTIFF
    let body = Array("WEBP".utf8) + vp8x + exif
    return Array("RIFF".utf8) + le(UInt32(body.count)) + body
  }

  /// An ISO-BMFF file whose second box has a 64-bit size of `size`.
  static func largeBox(brand: String, type: String, size: UInt64) -> [UInt8] {
    box("ftyp", Array(brand.utf8) + be(UInt32(0)) + Array(brand.utf8)) + be(UInt32(1)) + Array(type.utf8) + be(size)
      + [UInt8](repeating: 0, count: 32)
  }

  static let jxlSignature: [UInt8] = [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

  /// A JPEG XL container whose Exif box has a 64-bit size of `exifSize`.
  static func jxl(exifSize: UInt64) -> [UInt8] {
    jxlSignature + box("ftyp", Array("jxl ".utf8) + be(UInt32(0)) + Array("jxl ".utf8)) + be(UInt32(1))
      + Array("Exif".utf8) + be(exifSize) + be(UInt32(0)) + smallTIFF
  }

  /// A JPEG XL container with a `brob` Exif box whose Brotli stream is damaged.
  static func jxlBrob() -> [UInt8] {
    jxlSignature + box("ftyp", Array("jxl ".utf8) + be(UInt32(0)) + Array("jxl ".utf8))
      + box("brob", Array("Exif".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x13, 0x37])
  }

  /// A QuickTime movie whose `keys` box declares `count` keys, the first of size 2³² − 1.
  static func movieKeys(count: UInt32) -> [UInt8] {
    let keys = fullBox("keys", version: 0, be(count) + be(UInt32.max) + Array("mdtacom.apple".utf8))
    let meta = box("meta", box("hdlr", [UInt8](repeating: 0, count: 8) + Array("mdta".utf8) + [0, 0, 0, 0]) + keys)
    return box("ftyp", Array("qt  ".utf8) + be(UInt32(0)) + Array("qt  ".utf8)) + box("moov", meta)
  }

  /// A Minolta MRW whose first header block declares `blockLength` bytes.
  static func mrw(blockLength: UInt32) -> [UInt8] {
    let prd = [0x00] + Array("PRD".utf8) + be(blockLength) + [UInt8](repeating: 0, count: 24)
    return [0x00] + Array("MRM".utf8) + be(UInt32(prd.count)) + prd
  }

  /// A JPEG whose EXIF block puts IFD0 at `ifd0`.
  static func jpeg(ifd0: UInt32) -> [UInt8] {
    let exif = Array("Exif\0\0".utf8) + [0x49, 0x49, 0x2A, 0x00] + le(ifd0) + [UInt8](repeating: 0, count: 16)
    return SampleJPEG.make(exif: exif)
  }

  /// A JPEG whose MPF index lists a large thumbnail at `offset`, `length` bytes long.
  static func jpegMPF(offset: UInt32, length: UInt32) -> [UInt8] {
    var exif = ExifBlockBuilder()
    exif.thumbnail = SampleJPEG.plain
    let block = exif.build()
    var file = MultiPictureJPEG.make(
      primary: SampleJPEG.plain, exif: block, images: [(.largeThumbnailVGA, SampleJPEG.plain)])
    // The second MP entry: after SOI, APP1, APP2's head, "MPF\0", the TIFF header, the
    // three-entry IFD and the first entry; its size at 4, its offset at 8.
    let entry = 2 + (block.count + 4) + 4 + 4 + 8 + (2 + 3 * 12 + 4) + 16
    file.replaceSubrange((entry + 4)..<(entry + 12), with: le(length) + le(offset))
    return file
  }
}
