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
        "pef", "srw", "3fr", "erf", "mef", "mos", "iiq", "dcr", "kdc", "orf", "rw2", "rwl",
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
        == "JPEG, PNG, TIFF/DNG, TIFF-based camera RAW (CR2, NEF, ARW, ORF, RW2, …), WebP and HEIC/HEIF")
    #expect(PhotoReadError.notA(.raw).description == "not a camera RAW file")
  }

  /// The fuzz binary's targets are the registry's formats and the two block readers.
  @Test func theFuzzTargetsAreTheRegistry() throws {
    let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/geophoto-fuzz")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build geophoto-fuzz first: swift build")
    let lines = try ToolRun(binary.path, [], environment: ["GEOPHOTO_FUZZ_LIST": "1"]).stdout
      .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(lines.map { $0[0] } == PhotoFormat.allCases.map(\.fuzzTarget) + ["exif", "xmp"])
    for (line, format) in zip(lines, PhotoFormat.allCases) {
      #expect(Set(format.extensions).isSubset(of: line.dropFirst()))
    }
  }

  /// TIFF-based RAW files with a position exiftool wrote, read as exiftool reads them back
  /// (its `-n -json` values are the reference). There is no ORF sample and exiftool does not
  /// write into a DNG given Olympus's magic, so the ORF case checks that such a file reads as
  /// the DNG it was made from.
  @Test(
    .enabled(
      if: Corpus.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool"),
      "needs ../shared/corpora and exiftool (make test installs it)"))
  func rawFilesAgreeWithExiftool() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gp-raw-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var names: [String] = []
    for sample in ["Nikon.nef", "CanonRaw.cr2", "Panasonic.rw2", "PhaseOne.iiq", "DNG.dng"] {
      let target = dir.appendingPathComponent(sample)
      try FileManager.default.copyItem(at: Corpus.url("exiftool-images/\(sample)"), to: target)
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
      names.append(sample)
    }
    let write = try ToolRun(
      "/usr/bin/exiftool",
      [
        "-q", "-m", "-overwrite_original", "-GPSLatitude=35.6812", "-GPSLatitudeRef=N", "-GPSLongitude=139.7671",
        "-GPSLongitudeRef=E", "-GPSAltitude=12.5", "-GPSAltitudeRef=0",
      ] + names.map { dir.appendingPathComponent($0).path })
    #expect(write.status == 0, "exiftool: \(write.stderr)")
    let read = try ToolRun(
      "/usr/bin/exiftool",
      ["-n", "-json", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-Make", "-Model"]
        + names.map { dir.appendingPathComponent($0).path })
    let reference = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [[String: Any]])
    #expect(reference.count == names.count)
    for entry in reference {
      let path = try #require(entry["SourceFile"] as? String)
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let format = try #require(PhotoFormat(signature: Array(bytes.prefix(16))), "\(path)")
      let m = MetadataReader.container(MemoryBytes(bytes), format: format)
      let name = (path as NSString).lastPathComponent
      if let lat = entry["GPSLatitude"] as? Double, let lon = entry["GPSLongitude"] as? Double {
        let c = try #require(m.coordinate, "\(name): no position")
        #expect(abs(c.latitude - lat) < 1e-9 && abs(c.longitude - lon) < 1e-9, "\(name)")
        #expect(m.altitude.map { abs($0 - ((entry["GPSAltitude"] as? Double) ?? .nan)) < 1e-9 } == true, "\(name)")
      } else {
        Issue.record("exiftool wrote no position into \(name)")
      }
      #expect(m.cameraMake == (entry["Make"] as? String), "\(name)")
      #expect(m.cameraModel == (entry["Model"] as? String), "\(name)")
    }
    var orf = [UInt8](try Data(contentsOf: dir.appendingPathComponent("DNG.dng")))
    let dng = MetadataReader.container(MemoryBytes(orf), format: .tiff)
    // Olympus's magic in the sample's byte order (it is big-endian: MMOR).
    orf.replaceSubrange(0..<4, with: Array((orf[0] == 0x4D ? "MMOR" : "IIRO").utf8))
    #expect(PhotoFormat(signature: Array(orf.prefix(16))) == .raw)
    let olympus = MetadataReader.container(MemoryBytes(orf), format: .raw)
    #expect(olympus == dng && olympus.coordinate != nil, "\(olympus) vs \(dng)")
    #expect(MetadataReader.container(MemoryBytes(orf), format: .tiff).coordinate == nil)  // the magic matters
  }
}
