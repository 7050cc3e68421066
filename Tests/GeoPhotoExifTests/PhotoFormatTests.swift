import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoExif

/// The format registry: each format's facts written once, and everything else reading them.
@Suite struct PhotoFormatTests {
  @Test func eachExtensionBelongsToOneFormat() {
    let all = PhotoFormat.allExtensions
    #expect(Set(all).count == all.count)
    #expect(
      Set(all) == [
        "jpg", "jpeg", "png", "tif", "tiff", "dng", "webp", "heic", "heif", "cr2", "nef", "nrw", "arw", "sr2", "srf",
        "pef", "srw", "3fr", "erf", "mef", "mos", "iiq", "dcr", "kdc", "orf", "rw2", "rwl", "cr3", "raf", "mrw",
        "hif", "avif", "jxl", "mov", "mp4", "m4v", "3gp", "3g2",
      ])
    for format in PhotoFormat.allCases {
      for ext in format.extensions {
        #expect(PhotoFormat(fileName: "IMG_1.\(ext)") == format)
        #expect(PhotoFormat(fileName: "IMG_1.\(ext.uppercased())") == format)
      }
    }
    #expect(PhotoFormat(fileName: "notes.txt") == nil)
    #expect(PhotoFormat(fileName: "jpg") == nil)
    #expect(PhotoFormat(fileName: "archive.jpg.xmp") == nil)
  }

  /// First bytes as the formats' specifications give them.
  @Test func signatures() {
    let cases: [([UInt8], PhotoFormat?)] = [
      ([0xFF, 0xD8, 0xFF, 0xE1], .jpeg),
      ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png),
      (Array("II*\0".utf8) + [8, 0, 0, 0], .tiff),
      (Array("MM\0*".utf8) + [0, 0, 0, 8], .tiff),
      (Array("IIRO".utf8) + [8, 0, 0, 0], .raw),  // Olympus ORF
      (Array("IIRS".utf8) + [8, 0, 0, 0], .raw),
      (Array("MMOR".utf8) + [0, 0, 0, 8], .raw),
      ([0x49, 0x49, 0x55, 0x00, 0x18, 0, 0, 0], .raw),  // Panasonic RW2
      (Array("IIU".utf8), nil),
      (Array("RIFF".utf8) + [0x20, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
      ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heif),
      ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8), .heif),
      ([0, 0, 0, 0x18] + Array("ftypMiHE".utf8) + [0, 0, 0, 0] + Array("mif1".utf8), .heif),  // by a compatible brand
      ([0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8), .cr3),
      ([0, 0, 0, 0x14] + Array("ftypqt  ".utf8) + [0, 0, 2, 0] + Array("qt  ".utf8), .video),
      ([0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2avc1mp41".utf8), .video),
      ([0, 0, 0, 0x14] + Array("ftyp3gp4".utf8) + [0, 0, 2, 0] + Array("3gp4".utf8), .video),
      ([0, 0, 0, 0x08] + Array("wide".utf8) + [0, 0, 0, 0x10] + Array("mdat".utf8), .video),  // QuickTime, no ftyp
      (Array("FUJIFILMCCD-RAW 0201".utf8), .raf),
      ([0] + Array("MRM".utf8) + [0, 0, 0, 0x40], .mrw),
      ([0xFF, 0x0A, 0xFA, 0x7F], .jpegXL),  // bare codestream
      ([0, 0, 0, 0x0C] + Array("JXL ".utf8) + [0x0D, 0x0A, 0x87, 0x0A], .jpegXL),
      (Array("RIFF".utf8) + [0x20, 0, 0, 0] + Array("WAVEfmt ".utf8), nil),
      (Array("hello, not a photo".utf8), nil),
      ([0xFF], nil),
      ([], nil),
    ]
    for (bytes, format) in cases { #expect(PhotoFormat(signature: bytes) == format, "\(bytes)") }
  }

  @Test func errorTextsNameTheFormat() {
    #expect(PhotoReadError.notA(.jpeg).description == "not a JPEG file")
    #expect(PhotoReadError.notA(.heif).description == "not a HEIF file")
    #expect(
      PhotoFormat.summary
        == "JPEG, PNG, TIFF/DNG, TIFF-based camera RAW (CR2, NEF, ARW, ORF, RW2, …), Canon CR3, Fujifilm RAF, "
        + "Minolta MRW, WebP, HEIC/HEIF/AVIF, JPEG XL and videos (MOV, MP4, M4V, 3GP)")
    #expect(PhotoReadError.notA(.raw).description == "not a camera RAW file")
  }

  /// The fuzz binary's targets are the registry's formats, the two block readers, the XMP
  /// merge, the thumbnail decoders, previews, tracks, vector tiles and their archives, and the tile
  /// and snapshot parameters.
  @Test func theFuzzTargetsAreTheRegistry() throws {
    let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/geophoto-fuzz")
    // The test target depends on geophoto-fuzz: building the tests builds it.
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no geophoto-fuzz at \(binary.path)")
    let lines = try ToolRun(binary.path, [], environment: ["GEOPHOTO_FUZZ_LIST": "1"]).stdout
      .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(
      lines.map { $0[0] } == PhotoFormat.allCases.map(\.fuzzTarget) + ["exif", "xmp", "xmp-merge"]
        + ["thumbnail-jpeg", "thumbnail-png", "thumbnail-webp", "thumbnail-heif", "thumbnail-jxl"]
        + ["previews", "tracks", "track-csv", "google-history", "geojson-track", "mvt", "pmtiles", "tile", "snapshot"])
    for (line, format) in zip(lines, PhotoFormat.allCases) {
      #expect(Set(format.extensions).isSubset(of: line.dropFirst()))
    }
  }
}
