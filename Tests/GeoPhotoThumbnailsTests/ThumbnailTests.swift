import Foundation
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoThumbnails

/// The corpora of real camera files beside the project (test data, read by relative path).
let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("../../../shared/corpora")

func corpusFile(_ path: String) -> String? {
  let url = corpora.appendingPathComponent(path)
  return FileManager.default.fileExists(atPath: url.path) ? url.path : nil
}

/// A thumbnail's pixel size, read back by the JPEG decoder.
func size(_ jpeg: [UInt8]) throws -> (width: Int, height: Int) {
  try jpeg.withUnsafeBytes { try JPEGCodec.size(of: $0) }
}

@Suite struct RasterTests {
  /// 3 × 2 pixels numbered 1…6 row by row (each pixel's three bytes carry its number).
  let numbered = Raster(width: 3, height: 2, pixels: (1...6).flatMap { [UInt8($0), UInt8($0), UInt8($0)] })

  func numbers(_ r: Raster) -> [[Int]] {
    (0..<r.height).map { y in (0..<r.width).map { x in Int(r.pixels[(y * r.width + x) * 3]) } }
  }

  /// What each EXIF orientation shows when turned upright, worked out by hand from the
  /// orientation tag's definition (row 0 and column 0 of the stored image are at the named sides).
  @Test(arguments: [
    (1, [[1, 2, 3], [4, 5, 6]]),
    (2, [[3, 2, 1], [6, 5, 4]]),
    (3, [[6, 5, 4], [3, 2, 1]]),
    (4, [[4, 5, 6], [1, 2, 3]]),
    (5, [[1, 4], [2, 5], [3, 6]]),
    (6, [[4, 1], [5, 2], [6, 3]]),
    (7, [[6, 3], [5, 2], [4, 1]]),
    (8, [[3, 6], [2, 5], [1, 4]]),
  ])
  func everyOrientationIsTurnedUpright(orientation: Int, expected: [[Int]]) {
    #expect(numbers(numbered.uprighted(orientation: orientation)) == expected)
  }

  /// A shrink that writes each pixel at its upright place gives what shrinking and then
  /// turning (each checked above against hand-worked values) gives.
  @Test(arguments: 1...8)
  func shrinkingUprightIsShrinkingThenTurning(orientation: Int) {
    var pixels: [UInt8] = []
    for n in 0..<24 { pixels += [UInt8(n * 10), UInt8(255 - n * 10), UInt8(n * 5)] }
    let raster = Raster(width: 6, height: 4, pixels: pixels)
    for (w, h) in [(3, 2), (4, 3), (6, 4), (1, 1)] {
      let fused = raster.shrunk(toWidth: w, height: h, orientation: orientation)
      #expect(fused == raster.shrunk(toWidth: w, height: h).uprighted(orientation: orientation), "\(w)×\(h)")
    }
  }

  @Test func shrinkingAveragesWhatEachPixelCovers() {
    // 4 × 2 → 2 × 1: each target pixel the mean of a 2 × 2 block.
    let r = Raster(
      width: 4, height: 2,
      pixels: [10, 20, 30, 50, 60, 70].flatMap { _ in [UInt8]() } + [
        0, 0, 0, 100, 100, 100, 200, 200, 200, 40, 40, 40,
        100, 100, 100, 200, 200, 200, 0, 0, 0, 40, 40, 40,
      ])
    #expect(numbers(r.shrunk(toWidth: 2, height: 1)) == [[100, 70]])
    // 3 × 1 → 2 × 1: the middle pixel is split half and half.
    let three = Raster(width: 3, height: 1, pixels: [0, 0, 0, 90, 90, 90, 180, 180, 180])
    #expect(numbers(three.shrunk(toWidth: 2, height: 1)) == [[30, 150]])
    #expect(three.fitted(longestSide: 256) == (3, 1))
    #expect(Raster(width: 4000, height: 3000, red: 0, green: 0, blue: 0).fitted(longestSide: 256) == (256, 192))
    #expect(Raster(width: 1080, height: 1920, red: 0, green: 0, blue: 0).fitted(longestSide: 256) == (144, 256))
  }
}

@Suite struct ThumbnailMakerTests {
  let maker = ThumbnailMaker()

  /// A 12-megapixel JPEG, left half red and right half blue.
  static let twelveMegapixels: [UInt8] = {
    var raster = Raster(width: 4000, height: 3000, red: 220, green: 30, blue: 30)
    for y in 0..<3000 {
      for x in 2000..<4000 {
        let p = (y * 4000 + x) * 3
        raster.pixels[p] = 30
        raster.pixels[p + 1] = 30
        raster.pixels[p + 2] = 220
      }
    }
    return (try? JPEGCodec.encode(raster, quality: 90)) ?? []
  }()

  @Test(arguments: ThumbnailMaker.sizes)
  func aLargeJPEGShrinksToTheLongestSideWithItsColoursInPlace(longestSide: Int) throws {
    let jpeg = try Self.twelveMegapixels.withUnsafeBytes {
      try maker.thumbnail(of: $0, orientation: 1, longestSide: longestSide)
    }
    #expect(try size(jpeg) == (longestSide, longestSide * 3 / 4))
    let pixels = try jpeg.withUnsafeBytes { try JPEGCodec.decode($0, atLeast: 10_000) }
    let left = (pixels.height / 2 * pixels.width + pixels.width / 4) * 3
    let right = (pixels.height / 2 * pixels.width + pixels.width * 3 / 4) * 3
    #expect(pixels.pixels[left] > 180 && pixels.pixels[left + 2] < 80)
    #expect(pixels.pixels[right] < 80 && pixels.pixels[right + 2] > 180)
    // Turned a quarter: portrait, red on top (orientation 6 turns clockwise: the left side
    // goes to the top).
    let turned = try Self.twelveMegapixels.withUnsafeBytes {
      try maker.thumbnail(of: $0, orientation: 6, longestSide: longestSide)
    }
    #expect(try size(turned) == (longestSide * 3 / 4, longestSide))
    let upright = try turned.withUnsafeBytes { try JPEGCodec.decode($0, atLeast: 10_000) }
    let top = (upright.height / 4 * upright.width + upright.width / 2) * 3
    #expect(upright.pixels[top] > 180 && upright.pixels[top + 2] < 80)
  }

  /// Real camera files: their sizes as exiftool reads them (ImageWidth × ImageHeight and
  /// Orientation), the thumbnail's from those.
  @Test(
    .enabled(if: corpusFile("exif-samples") != nil, "needs ../shared/corpora"),
    arguments: [
      ("photoprism-testdata/altitude.jpg", 2112, 1584, 1),
      ("exif-samples/jpg/hdr/canon_hdr_YES.jpg", 2048, 1536, 6),
      ("exif-samples/jpg/orientation/portrait_8.jpg", 600, 450, 8),
      ("photoprism-testdata/tweethog.png", 1395, 960, 1),
      ("photoprism-testdata/gopher-preview.jpg", 1080, 1920, 1),
      // HEIF: turned by the container's rotation where it has one (iPhone 13: irot, and EXIF 6
      // says the same, applied once), else by EXIF (iPhone 7: EXIF 6 alone).
      ("exif-samples/heic/mobile/iphone_13_pro_max.HEIC", 4032, 3024, 6),
      ("photoprism-testdata/iphone_7.heic", 4032, 3024, 6),
      ("exif-samples/heic/IMG_5195.HEIC", 2566, 3313, 1),
      ("exiv2-samples/Stonehenge.heic", 300, 200, 1),
      ("exiv2-samples/exiv2-bug1199.webp", 1200, 800, 1),
    ])
  func cameraFilesGiveThumbnailsOfTheirShape(path: String, width: Int, height: Int, orientation: Int) throws {
    let file = try #require(corpusFile(path), "\(path) is not in the corpora")
    let jpeg = try maker.thumbnail(ofFile: file, orientation: orientation, longestSide: 256)
    let turned = orientation >= 5
    let (w, h) = turned ? (height, width) : (width, height)
    let expected = w >= h ? (256, (h * 256 + w / 2) / w) : ((w * 256 + h / 2) / h, 256)
    #expect(try size(jpeg) == expected)
  }

  /// AVIF, HEIC and JPEG XL samples made by the format tools from one 64 × 64 source
  /// (`Scripts/make-format-samples.sh`): thumbnails of that size, not enlarged.
  @Test(.enabled(if: FormatSamples.unavailable == nil, "needs the corpora, exiftool, ffmpeg, heif-enc and cjxl"))
  func avifHEICAndJPEGXLSamplesGiveTheirPixels() throws {
    let samples = try FormatSamples.make(in: FileManager.default.temporaryDirectory)
    defer { try? FileManager.default.removeItem(at: samples) }
    for name in ["added.avif", "copied-avif.avif", "copied-heic.heic", "bare.jxl", "plain.jxl", "brob.jxl"] {
      let jpeg = try maker.thumbnail(
        ofFile: samples.appendingPathComponent(name).path, orientation: 1, longestSide: 256)
      #expect(try size(jpeg) == (64, 64), "\(name)")
    }
  }

  @Test func aDecompressionBombIsRefusedBeforeItsPixels() throws {
    // A PNG whose header says 50,000 × 50,000 RGB: 7.5 GB decoded.
    let png = SamplePNG.header(width: 50_000, height: 50_000)
    #expect(throws: ThumbnailError.tooLarge(width: 50_000, height: 50_000, limit: 100_000_000)) {
      try png.withUnsafeBytes { try maker.thumbnail(of: $0, orientation: 1, longestSide: 256) }
    }
    #expect(try size(ThumbnailMaker.placeholder(longestSide: 256)) == (256, 256))
  }

  @Test func damagedAndUnknownFilesAreErrorsNotCrashes() throws {
    let garbage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 200)
    #expect(throws: ThumbnailError.self) {
      try garbage.withUnsafeBytes { try maker.thumbnail(of: $0, orientation: 1, longestSide: 256) }
    }
    // Half a JPEG decodes as far as it goes (the missing rows grey), at the whole one's size.
    let half = Array(Self.twelveMegapixels.prefix(Self.twelveMegapixels.count / 2))
    let halfThumbnail = try half.withUnsafeBytes { try maker.thumbnail(of: $0, orientation: 1, longestSide: 256) }
    let wholeThumbnail = try Self.twelveMegapixels.withUnsafeBytes {
      try maker.thumbnail(of: $0, orientation: 1, longestSide: 256)
    }
    #expect(try size(halfThumbnail) == size(wholeThumbnail))
    // Every HEIF brand the format registry knows goes to libheif (which refuses this empty
    // box), not to "unsupported": one recognition of formats for metadata and pictures.
    for brand in ["heic", "mif1", "mif2", "avif", "avci", "heif"] {
      let file: [UInt8] = [0, 0, 0, 16] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0] + Array(repeating: 0, count: 64)
      let error = #expect(throws: ThumbnailError.self) {
        try file.withUnsafeBytes { try maker.thumbnail(of: $0, orientation: 1, longestSide: 256) }
      }
      if case .unsupported = error { Issue.record("\(brand): \(String(describing: error))") }
    }
    let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Array(repeating: 0, count: 16)
    #expect(throws: ThumbnailError.unsupported("TIFF")) {
      try tiff.withUnsafeBytes { try maker.thumbnail(of: $0, orientation: 1, longestSide: 256) }
    }
    #expect(throws: ThumbnailError.self) {
      try maker.thumbnail(ofFile: "/nonexistent/photo.jpg", orientation: 1, longestSide: 256)
    }
  }

  /// Every malformed file of the corpus (JPEG, PNG, WebP, HEIF, TIFF, …): a thumbnail that is a
  /// whole JPEG no larger than asked, or a `ThumbnailError` saying why not. (Decoding is capped at
  /// 8 megapixels here: the corpus holds whole 33-megapixel camera HEIFs, which take the debug
  /// build half a minute each.)
  @Test(.enabled(if: corpusFile("exiv2-malformed") != nil, "needs ../shared/corpora"))
  func malformedFilesGiveAThumbnailOrAThumbnailError() throws {
    let malformed = corpora.appendingPathComponent("exiv2-malformed")
    let names = try FileManager.default.contentsOfDirectory(atPath: malformed.path)
    var capped = ThumbnailMaker()
    capped.maximumPixels = 8_000_000
    var made = 0
    var refused = 0
    for name in names.sorted() {
      do {
        let jpeg = try capped.thumbnail(
          ofFile: malformed.appendingPathComponent(name).path, orientation: 1, longestSide: 256)
        let (width, height) = try size(jpeg)
        #expect(max(width, height) <= 256 && min(width, height) > 0, "\(name): \(width)×\(height)")
        made += 1
      } catch is ThumbnailError {
        refused += 1
      } catch {
        Issue.record("\(name): \(error) is not a ThumbnailError")
      }
    }
    // Some damaged files still hold a picture; most are refused.
    #expect(made > 0 && refused > made, "\(made) made, \(refused) refused")
  }

  @Test func keptThumbnailsFollowTheFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-thumbs-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cache = ThumbnailCache(directory: folder)
    var made = 0
    let first = try cache.thumbnail(id: 1_234, size: 256, stamp: "a") { () throws(ThumbnailError) in
      made += 1
      return [1, 2, 3]
    }
    let again = try cache.thumbnail(id: 1_234, size: 256, stamp: "a") { () throws(ThumbnailError) in
      made += 1
      return [9]
    }
    #expect(first == [1, 2, 3] && again == [1, 2, 3] && made == 1)
    // A new version of the file: made again, and the old one let go.
    _ = try cache.thumbnail(id: 1_234, size: 256, stamp: "b") { () throws(ThumbnailError) in [4, 5] }
    #expect(cache.has(id: 1_234, size: 256, stamp: "b") && !cache.has(id: 1_234, size: 256, stamp: "a"))
    #expect(!cache.has(id: 1_234, size: 1_024, stamp: "b"))
    let bucket = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("256/234").path)
    #expect(bucket == ["1234-b.jpg"])
  }
}
