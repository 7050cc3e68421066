import Foundation
import GeoPhotoCore
import Testing

@testable import GeoPhotoExif

/// Values from the corpora README's GPS manifest (exiftool 12.57, `-n`): the oracle.
struct ManifestRow: Sendable, CustomTestStringConvertible {
  var path: String
  var latitude: Double
  var longitude: Double
  var altitude: Double?
  var dateTimeOriginal: String?
  var testDescription: String { path }
}

let manifestJPEGs: [ManifestRow] = [
  .init(
    path: "exif-samples/jpg/Kodak_CX7530.jpg", latitude: -0.3713, longitude: 36.0564166666667,
    dateTimeOriginal: "2005-08-13T09:47:23"),
  .init(
    path: "exif-samples/jpg/gps/DSCN0010.jpg", latitude: 43.4674483333333, longitude: 11.8851266666639,
    dateTimeOriginal: "2008-10-22T16:28:39"),
  .init(path: "exif-samples/jpg/gps/DSCN0012.jpg", latitude: 43.4671566666639, longitude: 11.8853949999972),
  .init(path: "exif-samples/jpg/gps/DSCN0021.jpg", latitude: 43.4670816666639, longitude: 11.8845383333306),
  .init(path: "exif-samples/jpg/gps/DSCN0025.jpg", latitude: 43.468365, longitude: 11.8816349999722),
  .init(path: "exif-samples/jpg/gps/DSCN0027.jpg", latitude: 43.4684416666667, longitude: 11.881515),
  .init(path: "exif-samples/jpg/gps/DSCN0029.jpg", latitude: 43.4682433333306, longitude: 11.8801716666389),
  .init(path: "exif-samples/jpg/gps/DSCN0038.jpg", latitude: 43.4672549999972, longitude: 11.8792133333333),
  .init(path: "exif-samples/jpg/gps/DSCN0040.jpg", latitude: 43.4660116666389, longitude: 11.8791116666389),
  .init(
    path: "exif-samples/jpg/gps/DSCN0042.jpg", latitude: 43.464455, longitude: 11.8814783333333,
    dateTimeOriginal: "2008-10-22T17:00:07"),
  .init(
    path: "exif-samples/jpg/hdr/iphone_hdr_NO.jpg", latitude: 40.4469722222222, longitude: -3.72475277777778,
    altitude: 639.5878788),
  .init(
    path: "exif-samples/jpg/hdr/iphone_hdr_YES.jpg", latitude: 40.4469722222222, longitude: -3.72475277777778,
    altitude: 639.6111111),
  .init(
    path: "exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg", latitude: 60.1467055555556, longitude: 24.9067722222222,
    dateTimeOriginal: "2022-08-14T14:12:31+03:00"),
  .init(
    path: "exif-samples/jpg/tests/67-0_length_string.jpg", latitude: 51.025, longitude: 7.59194444444444, altitude: 340),
  .init(
    path: "exif-samples/jpg/tests/87_OSError.jpg", latitude: 43.7855944333333, longitude: 11.2346194333333,
    altitude: 42.123),
  .init(
    path: "exiftool-images/Apple.jpg", latitude: 53.3828472222222, longitude: -1.45667777777778, altitude: 72.36649215),
  .init(path: "exiftool-images/GPS.jpg", latitude: 54.9896666666667, longitude: -1.91416666666667),
  .init(path: "exiftool-images/GoPro.jpg", latitude: 40.6584191999722, longitude: -73.9933542999722, altitude: -3.983),
  .init(
    path: "exiftool-images/Google.jpg", latitude: 40.4000694444444, longitude: -3.71464722222222, altitude: 634,
    dateTimeOriginal: "2023-10-06T22:53:51+02:00"),
  .init(path: "exiftool-images/Ricoh2.jpg", latitude: 42.034575, longitude: -0.507502777777778, altitude: 117),
  .init(path: "exiv2-malformed/issue_1912_poc.jpg", latitude: 36.4483333333333, longitude: -116.000120135181),
  .init(path: "exiv2-malformed/pr_1994_poc2.jpg", latitude: 47.8318, longitude: 12.9880566666667, altitude: 412),
  .init(path: "exiv2-samples/FurnaceCreekInn.jpg", latitude: 36.4483333333333, longitude: -116.855, altitude: -14.28),
  .init(path: "exiv2-samples/exiv2-bug2565.jpg", latitude: 37.7860544722222, longitude: -122.390975194444, altitude: 0),
  .init(path: "exiv2-samples/exiv2-bug528.jpg", latitude: 47.6161166666667, longitude: 1.51692777777778, altitude: 86),
  .init(
    path: "photoprism-testdata/Iceland-P3.jpg", latitude: 65.0555777777778, longitude: -16.6257027777778,
    altitude: 904.1),
  .init(
    path: "photoprism-testdata/Iceland-sRGB.jpg", latitude: 65.0555777777778, longitude: -16.6257027777778,
    altitude: 904.1),
  .init(
    path: "photoprism-testdata/digikam.jpg", latitude: 52.4605216977778, longitude: 13.3314018247222, altitude: 84.47),
  .init(path: "photoprism-testdata/gps-2000.jpg", latitude: -38.4051947833333, longitude: 144.188958),
  .init(path: "photoprism-testdata/huawei-gps-error.jpg", latitude: 48.3027777777778, longitude: 8.9275),
  .init(path: "photoprism-testdata/orientation.jpg", latitude: 43.6958333333333, longitude: 7.27138888888889),
  .init(path: "photoprism-testdata/panorama360.jpg", latitude: 59.8408333333333, longitude: 30.51),
  .init(
    path: "photoprism-testdata/photoshop.jpg", latitude: 52.4596900938889, longitude: 13.3218317030556, altitude: 0),
  .init(
    path: "photoprism-testdata/ship.jpg", latitude: 53.1234898888889, longitude: 18.0015204444444, altitude: 63.589),
  .init(path: "photoprism-testdata/smallFiji.JPG", latitude: -17.7732777777778, longitude: 177.36575, altitude: 1),
  .init(path: "photoprism-testdata/ladybug.jpg", latitude: 51.2548516666667, longitude: 7.38946833333333),
]

/// Files whose GPS block holds no usable position.
let withoutLocation = [
  "exiftool-images/InfiRay.jpg",  // GPS IFD with empty values
  "photoprism-testdata/snow.jpg",  // empty values, direction only
  "exif-samples/jpg/tests/45-gps_ifd.jpg",  // empty GPS IFD
  "photoprism-testdata/image-2011.jpg",  // exactly (0, 0)
  "photoprism-testdata/buggy_panorama.jpg",  // latitude 213.64
  "exiftool-images/Canon.jpg",  // Interop tags share numbers with GPS tags
  "exif-samples/jpg/Canon_40D.jpg",  // GPSVersionID only
  "exiftool-images/Motorola.jpg",
]

@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpora"))
struct CorpusTests {
  @Test(arguments: manifestJPEGs)
  func gpsMatchesExiftool(row: ManifestRow) throws {
    guard case .metadata(let m) = try Corpus.metadata(row.path) else {
      Issue.record("\(row.path) was not read as a JPEG")
      return
    }
    let c = try #require(m.coordinate, "\(row.path) has no coordinate")
    #expect(abs(c.latitude - row.latitude) < 1e-6)
    #expect(abs(c.longitude - row.longitude) < 1e-6)
    if let altitude = row.altitude {
      let got = try #require(m.altitude)
      #expect(abs(got - altitude) < 1e-3)
    }
    if let date = row.dateTimeOriginal { #expect(m.takenAt?.iso8601 == date) }
  }

  @Test(arguments: withoutLocation)
  func noUsableLocation(path: String) throws {
    guard case .metadata(let m) = try Corpus.metadata(path) else {
      Issue.record("\(path) was not read as a JPEG")
      return
    }
    #expect(m.coordinate == nil)
  }

  @Test func wrappedAltitudeIsDropped() throws {
    guard case .metadata(let m) = try Corpus.metadata("photoprism-testdata/altitude.jpg") else {
      Issue.record("not read")
      return
    }
    #expect(abs((m.coordinate?.latitude ?? 0) - 45.7528495555556) < 1e-6)
    #expect(m.altitude == nil)
  }

  @Test func cameraFieldsAndOffsets() throws {
    guard case .metadata(let g) = try Corpus.metadata("exiftool-images/Google.jpg"),
      case .metadata(let n) = try Corpus.metadata("exif-samples/jpg/gps/DSCN0010.jpg")
    else {
      Issue.record("not read")
      return
    }
    #expect(g.takenAt?.utcOffsetMinutes == 120)
    #expect(n.cameraMake == "NIKON")
    #expect(n.cameraModel == "COOLPIX P6000")
    #expect(n.takenAt?.utcOffsetMinutes == nil)
    #expect(n.width == 640 && n.height == 480)
  }

  /// Every malformed or odd file, and every truncation of it: a truncated file never gains a
  /// position, nor one other than the whole file's (a reader that reads past the end of what
  /// it was given, or into another field, shows here). A hang ends at the time limit.
  @Test(
    .timeLimit(.minutes(2)),
    arguments: ["exiv2-malformed", "exif-samples/jpg/invalid", "exif-samples/jpg/tests", "exiftool-images"])
  func truncatedFilesNeverGainAPosition(folder: String) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Corpus.url(folder).path)
    #expect(!files.isEmpty)
    var located = 0
    for name in files.sorted() {
      let url = Corpus.url(folder).appendingPathComponent(name)
      guard let data = try? Data(contentsOf: url) else { continue }
      let bytes = [UInt8](data)
      let whole = Self.coordinate(Corpus.metadata(bytes: bytes))
      if whole != nil { located += 1 }
      for cut in [1, 2, 3, 4, 20, 200, bytes.count / 2, max(0, bytes.count - 1)] where cut < bytes.count {
        let part = Self.coordinate(bytes.prefix(cut).withUnsafeBytes { MetadataReader.jpeg($0, fileSize: cut) })
        #expect(part == nil || part == whole, "\(folder)/\(name) cut at \(cut): \(part.map { "\($0)" } ?? "")")
      }
    }
    // Truncation is tried on located files too, not only on files without a position.
    if folder != "exif-samples/jpg/invalid" { #expect(located > 0) }
  }

  static func coordinate(_ outcome: MetadataReader.Outcome) -> Coordinate? {
    if case .metadata(let m) = outcome { return m.coordinate }
    return nil
  }
}
