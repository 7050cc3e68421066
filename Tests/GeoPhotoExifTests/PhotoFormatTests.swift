import Foundation
import Testing

@testable import GeoPhotoExif

/// The format registry: each format's facts written once, and everything else reading them.
@Suite struct PhotoFormatTests {
  @Test func eachExtensionBelongsToOneFormat() {
    let all = PhotoFormat.allExtensions
    #expect(Set(all).count == all.count)
    #expect(Set(all) == ["jpg", "jpeg", "png", "tif", "tiff", "dng", "webp", "heic", "heif"])
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
      (Array("RIFF".utf8) + [0x20, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
      ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heif),
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
    #expect(PhotoFormat.summary == "JPEG, PNG, TIFF/DNG, WebP and HEIC/HEIF")
  }

  /// The fuzz binary's targets are the registry's formats and the two block readers.
  @Test func theFuzzTargetsAreTheRegistry() throws {
    let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/geophoto-fuzz")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build geophoto-fuzz first: swift build")
    let process = Process()
    process.executableURL = binary
    process.environment = ["GEOPHOTO_FUZZ_LIST": "1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    process.waitUntilExit()
    #expect(lines.map { $0[0] } == PhotoFormat.allCases.map(\.fuzzTarget) + ["exif", "xmp"])
    for (line, format) in zip(lines, PhotoFormat.allCases) {
      #expect(Set(format.extensions).isSubset(of: line.dropFirst()))
    }
  }
}
