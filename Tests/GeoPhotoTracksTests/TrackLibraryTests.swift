import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTracks

/// Track files found by their content, folders read whole, KMZ archives, and the errors for
/// files that are no track or are damaged.
@Suite struct TrackLibraryTests {
  static let corpus = LineTrackTests.corpus
  static var hasCorpus: Bool {
    FileManager.default.fileExists(atPath: corpus.appendingPathComponent("Geotag.gpx").path)
  }
  static let python = "/usr/bin/python3"

  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("gp-tracklib-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  func copy(_ name: String, to folder: URL, as newName: String) throws {
    try FileManager.default.copyItem(
      at: Self.corpus.appendingPathComponent(name), to: folder.appendingPathComponent(newName))
  }

  @Test(.enabled(if: hasCorpus, "needs ../shared/corpora"))
  func formatsAreToldByContentNotName() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    try copy("Geotag.gpx", to: dir, as: "track.txt")
    try copy("Geotag.log", to: dir, as: "track.gpx")
    try copy("Geotag.igc", to: dir, as: "flight")
    try copy("Geotag.kml", to: dir, as: "a.xml")
    try copy("Geotag.xml", to: dir, as: "b.kml")
    let points = (0..<4).map {
      GoogleHistoryFixture.Point(
        milliseconds: 1_714_640_000_000 + Int64($0) * 60_000, latitudeE7: 387_110_200 + $0, longitudeE7: -91_425_100)
    }
    try Data(GoogleHistoryFixture.records(points)).write(to: dir.appendingPathComponent("history.txt"))
    try Data(
      """
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[2.29, 48.85], [2.30, 48.86]]},
       "properties": {"coordTimes": ["2024-05-02T08:00:00Z", "2024-05-02T08:01:00Z"]}}
      """.utf8
    ).write(to: dir.appendingPathComponent("walk.json"))
    let result = TrackLibrary.load([dir.path])
    #expect(result.errors.isEmpty, "\(result.errors)")
    let formats = Dictionary(uniqueKeysWithValues: result.tracks.map { ($0.name, $0.format) })
    #expect(
      formats == [
        "track.txt": .gpx, "track.gpx": .nmea, "flight": .igc, "a.xml": .kml, "b.kml": .garminLogbook,
        "history.txt": .googleHistory, "walk.json": .geoJSON,
      ])
    #expect(result.fixes.count == 9 + 12 + 10 + 3 + 2 + 4 + 2)
  }

  @Test(.enabled(if: hasCorpus, "needs ../shared/corpora"))
  func aFolderIsReadWholeAndEachBadFileIsNamed() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("day2"), withIntermediateDirectories: true)
    try copy("Geotag.gpx", to: dir, as: "day1.gpx")
    try copy("Geotag.igc", to: dir.appendingPathComponent("day2"), as: "flight.igc")
    try copy("Text.csv", to: dir, as: "photos.csv")
    try copy("Geotag_DJI_2020-12-02_[07-50-31].csv", to: dir, as: "Geotag_DJI_2020-12-02_[07-50-31].csv")
    try copy("Geotag3.log", to: dir, as: "bramor.log")
    try copy("Garmin.fit", to: dir, as: "ride.fit")
    try "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">\n<time>2024-05-02T08:00:00Z</time>\n".write(
      to: dir.appendingPathComponent("cut.gpx"), atomically: true, encoding: .utf8)
    try "secret".write(to: dir.appendingPathComponent(".hidden.gpx"), atomically: true, encoding: .utf8)
    let result = TrackLibrary.load([dir.path, dir.appendingPathComponent("missing.gpx").path])
    #expect(Set(result.tracks.map(\.name)) == ["day1.gpx", "flight.igc", "Geotag_DJI_2020-12-02_[07-50-31].csv"])
    let notATrack =
      "not a track (none of GPX, KML, KMZ, TCX, Garmin logbook, NMEA, IGC, CSV, Google location history, GeoJSON)"
    #expect(
      Set(result.errors.map(\.description)) == [
        "bramor.log: \(notATrack)", "photos.csv: \(notATrack)", "ride.fit: \(notATrack)", "cut.gpx:3: malformed XML",
        "\(dir.appendingPathComponent("missing.gpx").path): no such file or folder",
      ])
  }

  /// A KMZ zipped by Python's zipfile (deflated, with an image beside the KML): the same fixes
  /// as the KML it holds.
  @Test(.enabled(if: hasCorpus && FileManager.default.isExecutableFile(atPath: python), "needs python3 and corpora"))
  func aKMZHoldsTheFixesOfItsKML() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let kml = Self.corpus.appendingPathComponent("Geotag.kml").path
    let expected = try XMLTrackReader.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: kml))), name: "k")
    for (entry, method) in [("doc.kml", "ZIP_DEFLATED"), ("files/history.kml", "ZIP_STORED")] {
      let kmz = dir.appendingPathComponent("h-\(method).kmz").path
      _ = try ToolRun(
        Self.python,
        [
          "-c",
          """
          import sys, zipfile
          with zipfile.ZipFile(sys.argv[1], 'w', zipfile.\(method)) as z:
              z.writestr('files/icon.png', b'\\x89PNG' * 100)
              z.write(sys.argv[2], sys.argv[3])
          """,
          kmz, kml, entry,
        ])
      let loaded = try TrackLibrary.read(kmz)
      #expect(loaded.format == .kmz)
      #expect(loaded.contents.fixes == expected.fixes)
    }
  }

  @Test func damagedAndHostileArchivesAreRefused() throws {
    // A stored entry "doc.kml" built here byte by byte, then damaged in each field.
    let kml = Array(
      "<kml><Placemark><TimeStamp><when>2024-05-02T08:00:00Z</when></TimeStamp><Point><coordinates>1,2</coordinates></Point></Placemark></kml>"
        .utf8)
    func zip(method: UInt16 = 0, data: [UInt8], size: UInt32? = nil, crc: UInt32? = nil, offset: UInt32 = 0) -> [UInt8]
    {
      func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
      func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
      let name = Array("doc.kml".utf8)
      let checksum = crc ?? Self.crc32(kml)
      let common =
        le16(20) + le16(0) + le16(method) + le32(0) + le32(checksum) + le32(UInt32(data.count))
        + le32(size ?? UInt32(kml.count)) + le16(UInt16(name.count)) + le16(0)
      let local = le32(0x0403_4B50) + common + name + data
      let central = le32(0x0201_4B50) + le16(20) + common + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + name
      let end =
        le32(0x0605_4B50) + le16(0) + le16(0) + le16(1) + le16(1) + le32(UInt32(central.count))
        + le32(UInt32(local.count)) + le16(0)
      return local + central + end
    }
    func outcome(_ bytes: [UInt8]) -> String {
      do { return "\(try TrackLibrary.read(bytes, name: "h.kmz").fixes.count) fixes" } catch {
        return error.description
      }
    }
    #expect(outcome(zip(data: kml)) == "1 fixes")
    #expect(outcome(zip(data: kml, crc: 1)) == "h.kmz: doc.kml: checksum does not match")
    #expect(outcome(zip(data: kml, offset: 0xFFFF_FFF0)).hasPrefix("h.kmz: "))
    #expect(outcome(zip(method: 8, data: [0x03, 0x00], size: 100_000)) == "h.kmz: doc.kml: claims 100000 bytes from 2")
    #expect(outcome(zip(method: 8, data: [0x03, 0x00], size: 0xFFFF_FFF0)) == "h.kmz: doc.kml is larger than 512 MiB")
    #expect(outcome(zip(method: 8, data: [1, 2, 3, 4, 5])).hasPrefix("h.kmz: doc.kml: the compressed data is damaged"))
    #expect(outcome(zip(method: 12, data: kml)) == "h.kmz: doc.kml: compression method 12 (not supported)")
    #expect(outcome(Array(zip(data: kml).dropLast(30))) == "h.kmz: no ZIP end record")
  }

  /// CRC-32 (IEEE) written here, bit by bit.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
