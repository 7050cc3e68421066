import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoFixtures
import Testing

/// Embedded previews found by `EmbeddedPreviews`, against what exiftool extracts.
@Suite struct EmbeddedPreviewTests {
  static let exiftool = "/usr/bin/exiftool"

  /// `exiftool -b -TAG file`: the tag's bytes.
  func extracted(_ tag: String, from path: String) throws -> [UInt8] {
    // Into a file, not a pipe: the bytes are binary, and a read is not cut short by a signal.
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("gp-preview-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.exiftool)
    p.arguments = ["-b", "-\(tag)", path]
    p.standardOutput = try FileHandle(forWritingTo: out)
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    return [UInt8](try Data(contentsOf: out))
  }

  @Test(
    "the preview exiftool extracts is the largest found",
    .enabled(if: Corpus.isAvailable, "../shared/corpora is missing"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: exiftool), "exiftool is not installed"),
    arguments: [("exiftool-images/FujiFilm.raf", "PreviewImage"), ("exiftool-images/Panasonic.rw2", "JpgFromRaw")])
  func matchesExiftool(file: String, tag: String) throws {
    let path = Corpus.url(file).path
    let reference = try extracted(tag, from: path)
    #expect(reference.starts(with: [0xFF, 0xD8]), "exiftool extracted no \(tag) from \(file)")
    let bytes = try ReadableFile(path: path)
    let found = EmbeddedPreviews.jpegs(in: bytes)
    let largest = try #require(found.first)
    #expect(bytes.bytes(at: largest.lowerBound, count: largest.count) == reference)
  }

  @Test("previews are found in a SubIFD and in IFD1, inside the file only")
  func tiffDirectories() throws {
    // A little-endian TIFF: IFD0 (one SubIFD, next IFD1), the SubIFD with a JPEG, IFD1 with
    // a second JPEG, and a third entry pointing past the end of the file.
    let big: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x11, count: 300) + [0xFF, 0xD9]
    let small: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 0x22, count: 40) + [0xFF, 0xD9]
    func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: UInt32) -> [UInt8] {
      le16(tag) + le16(type) + le32(count) + le32(value)
    }
    let (bigAt, smallAt) = (112, 112 + big.count)
    // The header, then IFD0 at 8 (SubIFDs → 26, next → 56), 18 bytes.
    var file: [UInt8] = Array("II".utf8) + [42, 0] + le32(8)
    file += le16(1) + entry(0x014A, 4, 1, 26) + le32(56)
    // The SubIFD at 26: JPEGInterchangeFormat and its length, the big JPEG; 30 bytes.
    file += le16(2) + entry(0x0201, 4, 1, UInt32(bigAt)) + entry(0x0202, 4, 1, UInt32(big.count)) + le32(0)
    // IFD1 at 56: the small JPEG, and a strip past the end of the file; 54 bytes.
    file += le16(4) + entry(0x0201, 4, 1, UInt32(smallAt)) + entry(0x0202, 4, 1, UInt32(small.count))
    file += entry(0x0111, 4, 1, 1_000_000) + entry(0x0117, 4, 1, 500) + le32(0)
    #expect(file.count == 110)
    file += [0, 0] + big + small
    let found = EmbeddedPreviews.jpegs(in: MemoryBytes(file))
    #expect(found == [bigAt..<(bigAt + big.count), smallAt..<(smallAt + small.count)])
  }

  /// A JPEG as cameras write one: an EXIF thumbnail, and an MPF index listing two large
  /// thumbnails, a disparity image and an undefined one (a phone's gain map). exiftool reads
  /// the same file: each image it extracts is the one put there, and the previews found are the
  /// thumbnail and the two large thumbnails, no other.
  @Test(
    "a JPEG's EXIF thumbnail and MPF large thumbnails are its previews",
    .enabled(if: FileManager.default.isExecutableFile(atPath: exiftool), "exiftool is not installed"))
  func jpegPreviews() throws {
    func jpeg(_ fill: UInt8, _ count: Int) -> [UInt8] {
      [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: fill, count: count) + [0xFF, 0xD9]
    }
    let thumbnail = jpeg(0x11, 3_000)
    var exif = ExifBlockBuilder()
    exif.thumbnail = thumbnail
    let images: [(type: MultiPictureJPEG.ImageType, jpeg: [UInt8])] = [
      (.largeThumbnailVGA, jpeg(0x22, 20_000)), (.disparity, jpeg(0x33, 9_000)),
      (.largeThumbnailFullHD, jpeg(0x44, 90_000)), (.undefined, jpeg(0x55, 40_000)),
    ]
    let file = MultiPictureJPEG.make(primary: SampleJPEG.plain, exif: exif.build(), images: images)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("gp-mpf-\(UUID().uuidString).jpg").path
    try Data(file).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try extracted("ThumbnailImage", from: path) == thumbnail)
    // exiftool names the first large thumbnail PreviewImage, and the others by their place.
    for (n, image) in images.enumerated() {
      let tag = n == 0 ? "PreviewImage" : "MPImage\(n + 2)"
      let bytes = try extracted(tag, from: path)
      #expect(bytes == image.jpeg, "\(tag): \(bytes.count) bytes extracted, \(image.jpeg.count) put")
    }
    let found = EmbeddedPreviews.jpegs(in: MemoryBytes(file)).map { Array(file[$0]) }
    #expect(found.map(\.count) == [90_006, 20_006, 3_006])
    #expect(found == [images[2].jpeg, images[0].jpeg, thumbnail])
    // Cut short inside the first further image: the large thumbnails' ranges are past the end,
    // and left out.
    let cut = Array(file.prefix(file.count - 150_000))
    #expect(EmbeddedPreviews.jpegs(in: MemoryBytes(cut)).map { Array(cut[$0]) } == [thumbnail])
  }

  @Test("a preview past the end of the file is no preview")
  func hostilePreviews() throws {
    for file in HostileFiles.previews {
      let found = EmbeddedPreviews.jpegs(in: MemoryBytes(file.bytes))
      // The EXIF thumbnail, whole; not the large thumbnail whose offset is near 2^32.
      #expect(found.map(\.count) == [SampleJPEG.plain.count], "\(file.name) (\(file.field))")
    }
  }

  @Test(
    "damaged RAW files give no preview and no crash", .enabled(if: Corpus.isAvailable, "../shared/corpora is missing"))
  func malformed() throws {
    let folder = Corpus.url("exiv2-malformed")
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      let data = try Data(contentsOf: folder.appendingPathComponent(name))
      let bytes = MemoryBytes([UInt8](data))
      for range in EmbeddedPreviews.jpegs(in: bytes) {
        #expect(range.lowerBound >= 0 && range.upperBound <= data.count, "\(name)")
      }
    }
  }

  func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
  func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}
