internal import GeoPhotoCore

/// Camera RAW files whose metadata is not one TIFF structure at the start of the file.
extension ContainerReader {
  // MARK: - Canon CR3: ISO-BMFF, TIFF directories in the CMT boxes of a Canon uuid box

  /// `moov/uuid` holding `CMT1` (IFD0), `CMT2` (Exif IFD), `CMT3` (maker note), `CMT4` (GPS IFD).
  static let canonMetadataUUID: [UInt8] = [
    0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
  ]
  /// The top-level uuid box holding an XMP packet (CR3, and Adobe's convention for MP4).
  static let xmpUUID: [UInt8] = [
    0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC,
  ]

  /// Each CMT box is a standalone TIFF structure whose root directory is the one it is named
  /// for; the three are joined into one block.
  static func cr3(_ file: any RandomAccessBytes, damage: inout DamageLog) -> ContainerMetadata {
    var result = ContainerMetadata()
    let top = topLevelBoxes(file, damage: &damage)
    search: for moov in top where moov.type == "moov" {
      for uuid in children(of: moov, in: file, damage: &damage) where uuid.type == "uuid" {
        guard file.bytes(at: uuid.start, count: 16) == canonMetadataUUID else { continue }
        let cmt = children(of: uuid, in: file, skipping: 16, damage: &damage)
        func root(_ name: String) -> TIFFDirectories.Location? {
          cmt.first { $0.type == name }.flatMap { TIFFDirectories.root(of: file, at: $0.start, name: name) }
        }
        result.exif = TIFFDirectories.block(ifd0: root("CMT1"), exif: root("CMT2"), gps: root("CMT4"), damage: &damage)
        break search
      }
    }
    result.xmp = uuidXMP(file, top)
    return result
  }

  /// The XMP packet of a top-level `uuid` box with Adobe's XMP identifier.
  static func uuidXMP(_ file: any RandomAccessBytes, _ top: [Box]) -> [UInt8]? {
    for uuid in top where uuid.type == "uuid" && file.bytes(at: uuid.start, count: 16) == xmpUUID {
      return content(of: uuid, in: file).map { Array($0.dropFirst(16)) }
    }
    return nil
  }

  // MARK: - Fujifilm RAF: the metadata of the embedded JPEG

  /// Where a RAF file's full-size JPEG is: the big-endian offset and length at 84, after
  /// `FUJIFILMCCD-RAW` and the header (exiftool's FujiFilm.pm ProcessRAF).
  static func rafJPEG(_ file: any RandomAccessBytes) throws(DataDamage) -> Range<Int> {
    var header = try file.cursor(at: 84, count: 8, "RAF header")
    let offset = try header.u32("JPEG offset")
    let length = try header.u32("JPEG length")
    guard let range = Bounds.range(offset: offset, length: length, within: file.count), offset >= 92, length >= 4
    else {
      throw DataDamage("RAF JPEG at \(offset), length \(length): past the end (\(file.count) bytes)")
    }
    return range
  }

  static func raf(_ file: any RandomAccessBytes, damage: inout DamageLog) -> ContainerMetadata {
    guard let range = damage.attempt({ () throws(DataDamage) in try rafJPEG(file) }) else { return ContainerMetadata() }
    return embeddedJPEG(file, at: range.lowerBound, count: range.count, damage: &damage)
  }

  /// The EXIF block and XMP packet of a JPEG stored inside another file, from its headers
  /// (`start ..< start + count` already inside the file).
  static func embeddedJPEG(
    _ file: any RandomAccessBytes, at start: Int, count: Int, damage: inout DamageLog
  ) -> ContainerMetadata {
    var n = min(count, 256 * 1024)
    for _ in 0..<8 {
      guard let head = file.bytes(at: start, count: n) else { break }
      switch head.withUnsafeBytes({ JPEGSegments.scan($0, fileSize: count) }) {
      case .complete(let segments):
        return ContainerMetadata(exif: segments.exif.map { Array(head[$0]) }, xmp: segments.xmp.map { Array(head[$0]) })
      case .needBytes(let more):
        guard more > n, more <= maximumBlock else {
          damage.note("the JPEG at \(start): headers longer than \(maximumBlock / (1 << 20)) MiB")
          return ContainerMetadata()
        }
        n = min(count, max(more, 2 * n))
      case .failed(let error):
        damage.note("the JPEG at \(start): \(error)")
        return ContainerMetadata()
      }
    }
    return ContainerMetadata()
  }

  // MARK: - Minolta MRW: the TIFF structure of the TTW block

  /// `\0MRM` and the length of the header blocks (`\0PRD`, `\0TTW`, `\0WBG`, `\0RIF`), each a
  /// name and a big-endian length; `\0TTW` holds the TIFF structure (exiftool's MinoltaRaw.pm).
  static func mrw(_ file: any RandomAccessBytes, damage: inout DamageLog) -> ContainerMetadata {
    guard var header = damage.attempt({ () throws(DataDamage) in try file.cursor(at: 0, count: 8, "MRW header") }),
      let declared = damage.attempt({ () throws(DataDamage) in try header.u32("MRW header length") })
    else { return ContainerMetadata() }
    // The length counts to the image data; files cut after their header blocks (as samples
    // often are) are read as far as they go.
    let area = 8..<(8 + min(Int(declared), file.count - 8))
    var offset = area.lowerBound
    for _ in 0..<64 {
      guard area.upperBound - offset >= 8,
        var block = damage.attempt({ () throws(DataDamage) in try file.cursor(at: offset, count: 8, "MRW block") }),
        let name = damage.attempt({ () throws(DataDamage) in try block.take(4) }),
        let length = damage.attempt({ () throws(DataDamage) in try block.u32() })
      else { break }
      if name.elementsEqual([0x00] + Array("TTW".utf8)) {
        return TIFFDirectories.read(file, at: offset + 8, damage: &damage)
      }
      guard let content = Bounds.range(offset: offset + 8, length: length, within: area.upperBound) else {
        damage.note(
          "MRW block '\(LogText.escaped(bytes: name.dropFirst()))' at \(offset): length \(length) past the end")
        break
      }
      offset = content.upperBound
    }
    return ContainerMetadata()
  }
}
