import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoSync

/// Damaged, odd and regression files from the corpora, read as sync reads them, against
/// exiftool's reading in the corpora's GPS manifest: a reader that reads past a damaged field
/// into garbage, or drops a position exiftool still finds, fails here.
@Suite(.enabled(if: CorpusManifest.beside != nil, "needs ../shared/corpora (its README holds the GPS manifest)"))
struct CorpusAgreementTests {
  static let folders = ["exiv2-malformed", "exif-samples/jpg/invalid", "exif-samples/jpg/tests", "exiftool-images"]

  /// Where geophoto and exiftool part by design, each with the reason.
  static let differences: [String: String] = [
    // Exiv2's own metadata format: no photo, so not a file geophoto indexes.
    "exiv2-malformed/issue_1934_poc1.exv": "an Exiv2 .exv file"
  ]

  /// The position exiftool reads, as geophoto keeps it: a latitude beyond ±90° or a longitude
  /// beyond ±180° is no position.
  static func expected(_ path: String) -> (latitude: Double, longitude: Double)? {
    guard differences[path] == nil, let p = CorpusManifest.beside?.position(of: path) else { return nil }
    return abs(p.latitude) <= 90 && abs(p.longitude) <= 180 ? p : nil
  }

  @Test(arguments: folders)
  func positionsAreExiftools(folder: String) throws {
    let directory = FormatSamples.corpora.appendingPathComponent(folder)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(!names.isEmpty)
    var located = 0
    for name in names where !name.hasSuffix(".md") && name != "README" {
      let path = directory.appendingPathComponent(name).path
      let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
      let read = PhotoFileReader.read(FoundFile(path: path, size: size, modifiedNanoseconds: 0))
      let got = read.record.photo.coordinate
      let relative = folder + "/" + name
      if let want = Self.expected(relative) {
        located += 1
        let c = try #require(
          got, "\(relative): exiftool reads \(want), geophoto none (\(read.record.problem ?? "no problem"))")
        #expect(abs(c.latitude - want.latitude) < 1e-6 && abs(c.longitude - want.longitude) < 1e-6, "\(relative)")
      } else {
        #expect(got == nil, "\(relative): geophoto reads \(got.map { "\($0)" } ?? ""), exiftool no position")
      }
    }
    // Every file the manifest locates in the folder was looked at.
    let listed = CorpusManifest.beside?.rows.keys.filter { $0.hasPrefix(folder + "/") && Self.expected($0) != nil }
    #expect(located == listed?.count)
  }
}
