import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoFixtures
import Testing

/// IPTC-IIM captions and keywords, read through libiptcdata and compared with exiftool.
@Suite struct IPTCTests {
  static let exiftool = "/usr/bin/exiftool"

  /// What exiftool reads from IPTC in each file, by path.
  static func reference(_ paths: [String], charset: String? = nil) throws -> [String: IPTCMetadata] {
    var arguments = ["-m", "-json", "-IPTC:ObjectName", "-IPTC:Caption-Abstract", "-IPTC:Keywords"]
    if let charset { arguments += ["-charset", "iptc=\(charset)"] }
    let run = try ToolRun(Self.exiftool, arguments + paths)
    let entries = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
    var result: [String: IPTCMetadata] = [:]
    for e in entries {
      func text(_ v: Any?) -> String? {
        let s = (v as? String) ?? (v as? NSNumber).map { "\($0)" }
        return s?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
      }
      let keywords = ((e["Keywords"] as? [Any]) ?? (e["Keywords"].map { [$0] } ?? [])).compactMap(text)
      var unique: [String] = []
      for k in keywords where !unique.contains(k) { unique.append(k) }
      let m = IPTCMetadata(title: text(e["ObjectName"]), caption: text(e["Caption-Abstract"]), keywords: unique)
      if m != IPTCMetadata() { result[e["SourceFile"] as? String ?? ""] = m }
    }
    return result
  }

  static func read(_ bytes: [UInt8]) -> IPTCMetadata? {
    bytes.withUnsafeBytes { head in
      guard case .complete(let segments) = JPEGSegments.scan(head, fileSize: head.count),
        let range = segments.photoshop
      else { return nil }
      return IPTCReader.read(photoshopResources: UnsafeRawBufferPointer(rebasing: head[range]))
    }
  }

  /// Every corpus JPEG with IPTC: the same title, caption and keywords as exiftool.
  @Test(
    .enabled(if: Corpus.isAvailable, "needs ../shared/corpora"),
    .enabled(
      if: FileManager.default.fileExists(atPath: IPTCTests.exiftool), "needs exiftool (Scripts/install-deps.sh test)"))
  func corpusFilesReadAsExiftoolReadsThem() throws {
    let folders = ["photoprism-testdata", "exiftool-images", "exif-samples", "exiv2-samples"].map { Corpus.url($0) }
    var jpegs: [String] = []
    for folder in folders {
      let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
      jpegs += files.filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
        .map { folder.appendingPathComponent($0).path }
    }
    let expected = try Self.reference(jpegs)
    #expect(expected.count >= 8, "the corpora hold IPTC in several files")
    // These two keep IPTC in a trailer after the image (AFCP, FotoStation), not in APP13.
    let trailers: Set<String> = ["AFCP.jpg", "FotoStation.jpg"]
    for (path, want) in expected where !trailers.contains((path as NSString).lastPathComponent) {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(Self.read(bytes) == want, "\(path)")
    }
    // And the photo's metadata takes them: keywords, and the caption where nothing else gave one.
    let iptc2014 = Corpus.url("photoprism-testdata/iptc-2014.jpg")
    if case .metadata(let m) = try Corpus.metadata("photoprism-testdata/iptc-2014.jpg"),
      let want = expected[iptc2014.path]
    {
      #expect(Set(want.keywords).isSubset(of: Set(m.keywords)))
      #expect(m.description != nil)
    } else {
      Issue.record("iptc-2014.jpg did not read")
    }
  }

  /// Latin-1 without a declared character set, and UTF-8 declared, both as exiftool writes them.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: IPTCTests.exiftool), "needs exiftool (Scripts/install-deps.sh test)"))
  func characterSetsAreDecoded() throws {
    let dir = try TemporaryDirectory()
    let latin = dir.url.appendingPathComponent("latin.jpg")
    let utf8 = dir.url.appendingPathComponent("utf8.jpg")
    for url in [latin, utf8] { try SampleJPEG.write(to: url) { $0.make = "Test" } }
    let values = [
      "-IPTC:ObjectName=Zürich Großmünster", "-IPTC:Caption-Abstract=Blick über die Limmat",
      "-IPTC:Keywords=Zürich", "-IPTC:Keywords=Kirche", "-IPTC:Keywords=Zürich",
    ]
    _ = try ToolRun(Self.exiftool, ["-q", "-overwrite_original", "-charset", "iptc=Latin"] + values + [latin.path])
    _ = try ToolRun(
      Self.exiftool,
      ["-q", "-overwrite_original", "-charset", "iptc=UTF8", "-IPTC:CodedCharacterSet=UTF8"] + values + [utf8.path])
    let want = IPTCMetadata(
      title: "Zürich Großmünster", caption: "Blick über die Limmat", keywords: ["Zürich", "Kirche"])
    #expect(try Self.reference([latin.path], charset: "Latin")[latin.path] == want)
    #expect(try Self.reference([utf8.path])[utf8.path] == want)
    for url in [latin, utf8] {
      #expect(Self.read([UInt8](try Data(contentsOf: url))) == want, "\(url.lastPathComponent)")
      guard case .metadata(let m) = Corpus.metadata(bytes: [UInt8](try Data(contentsOf: url))) else {
        Issue.record("\(url.lastPathComponent) did not read")
        continue
      }
      #expect(m.title == want.title && m.description == want.caption && m.keywords == want.keywords)
    }
  }

  /// Damaged resources are no metadata, never a crash.
  @Test func damagedBlocksAreNothing() {
    let header = Array("Photoshop 3.0\0".utf8)
    for body in [
      [], Array("8BIM".utf8), Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF],
      Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, 8, 0x1C, 0x02, 0x19, 0xFF, 0xFF, 0, 0, 0],
      Array("XXXX".utf8) + [UInt8](repeating: 0, count: 20),
    ] {
      let block = header + body
      #expect(block.withUnsafeBytes { IPTCReader.read(photoshopResources: $0) } == nil)
    }
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
