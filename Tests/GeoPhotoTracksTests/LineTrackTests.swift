import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTracks

/// NMEA and IGC logs read by geophoto, placed on a timeline, against exiftool's geotagging
/// from the same files (exiftool reads them itself).
@Suite struct LineTrackTests {
  static let exiftool = "/usr/bin/exiftool"
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/corpora/exiftool-images")
  static var ready: Bool {
    FileManager.default.isExecutableFile(atPath: exiftool)
      && FileManager.default.fileExists(atPath: corpus.appendingPathComponent("Geotag.igc").path)
  }

  func seconds(_ instant: String) -> Double {
    ExiftoolGeotag.format("yyyy:MM:dd HH:mm:ss'Z'").date(from: instant)!.timeIntervalSince1970
  }

  func agree(_ fixes: [Fix], _ track: URL, at instants: [String]) throws {
    let timeline = Timeline(fixes)
    for instant in instants {
      let theirs = try #require(
        try ExiftoolGeotag.position(from: track, at: seconds(instant)), "exiftool placed nothing at \(instant)")
      guard case .placed(let c, let altitude, _)? = timeline.locate(at: seconds(instant)) else {
        Issue.record("geophoto placed nothing at \(instant) in \(track.lastPathComponent)")
        continue
      }
      #expect(
        abs(c.latitude - theirs[0]) < 1e-6 && abs(c.longitude - theirs[1]) < 1e-6, "\(instant): \(c) vs \(theirs)")
      if theirs.count == 3 {
        let a = try #require(altitude, "\(instant): exiftool has an altitude, geophoto none")
        #expect(abs(a - theirs[2]) < 1e-3, "\(instant): \(a) vs \(theirs[2])")
      }
    }
  }

  func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
  }

  @Test(.enabled(if: ready, "needs exiftool and ../shared/corpora"))
  func exiftoolsSamplesGiveExiftoolsPositions() throws {
    let igc = try IGCReader.read(try bytes("Geotag.igc"), name: "Geotag.igc")
    #expect(igc.count == 10)
    try agree(
      igc, Self.corpus.appendingPathComponent("Geotag.igc"),
      at: ["2010:01:05 07:40:00Z", "2010:01:05 07:25:00Z", "2010:01:05 07:55:10Z"])
    let magellan = try NMEAReader.read(try bytes("Geotag.log"), name: "Geotag.log")
    #expect(magellan.fixes.count == 12 && magellan.badChecksums == 0)
    try agree(
      magellan.fixes, Self.corpus.appendingPathComponent("Geotag.log"),
      at: ["2009:04:03 11:10:00Z", "2009:04:03 11:08:50Z", "2009:04:03 11:10:30Z"])
    let rmc = try NMEAReader.read(try bytes("Geotag2.log"), name: "Geotag2.log")
    #expect(rmc.fixes.count == 3)
    try agree(
      rmc.fixes, Self.corpus.appendingPathComponent("Geotag2.log"),
      at: ["2010:04:24 11:27:30Z", "2010:04:24 11:27:50Z"])
  }

  /// A sentence with its checksum.
  func sentence(_ body: String) -> String {
    "$\(body)*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^)) + "\r\n"
  }

  @Test(.enabled(if: ready, "needs exiftool and ../shared/corpora"))
  func rmcAndGGAOverMidnightWithBadSentencesSkipped() throws {
    let good = [
      sentence("GNRMC,235950.00,A,3541.0000,N,13946.0000,E,0.0,0.0,311224,,,A"),
      sentence("GNGGA,235950.00,3541.0000,N,13946.0000,E,1,08,1.0,40.0,M,39.0,M,,"),
      sentence("GNGGA,000010.00,3541.5000,N,13946.5000,E,1,08,1.0,50.0,M,39.0,M,,"),
      sentence("GNRMC,000030.00,A,3542.0000,N,13947.0000,E,0.0,0.0,010125,,,A"),
      sentence("GNGGA,000030.00,3542.0000,N,13947.0000,E,1,08,1.0,60.0,M,39.0,M,,"),
    ]
    // A sentence whose checksum is wrong, with a far-away position: skipped.
    let damaged = "GNGGA,000020.00,1000.0000,S,01000.0000,W,1,08,1.0,9.0,M,39.0,M,,"
    #expect(damaged.utf8.reduce(UInt8(0), ^) != 0)
    let bad = "$\(damaged)*00\r\n"
    let log = good[0] + good[1] + good[2] + bad + good[3] + good[4]
    let result = try NMEAReader.read(Array(log.utf8), name: "day.nmea")
    #expect(result.badChecksums == 1 && result.fixes.count == 5)
    // exiftool, given the log without the damaged sentence.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-nmea-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let clean = folder.appendingPathComponent("day.nmea")
    try good.joined().write(to: clean, atomically: true, encoding: .utf8)
    try agree(result.fixes, clean, at: ["2024:12:31 23:59:55Z", "2025:01:01 00:00:15Z", "2025:01:01 00:00:25Z"])
  }

  @Test func logsThatCannotBePlacedSayWhyAndWhere() {
    let ggaOnly = sentence("GPGGA,120000.00,3541.0000,N,13946.0000,E,1,08,1.0,40.0,M,39.0,M,,")
    #expect(
      throws: TrackReadError("gga.nmea", "no date in the log (only GGA sentences); a log with RMC sentences is needed")
    ) {
      try NMEAReader.read(Array(ggaOnly.utf8), name: "gga.nmea")
    }
    let igc = "AXXX\r\nHFDTE050110\r\nB0723154916430N00643910EA0000000443\r\nB07233549164\r\n"
    #expect(throws: TrackReadError("f.igc", line: 4, "a fix record (B) that is not one")) {
      try IGCReader.read(Array(igc.utf8), name: "f.igc")
    }
    #expect(throws: TrackReadError("n.igc", line: 2, "a fix before the log's date (HFDTE)")) {
      try IGCReader.read(Array("AXXX\nB0723154916430N00643910EA0000000443\n".utf8), name: "n.igc")
    }
    // `nan` is no altitude, and minutes below zero no position.
    let odd =
      sentence("GPRMC,120000.00,A,3541.0000,N,13946.0000,E,0.0,0.0,030524,,,A")
      + sentence("GPGGA,120001.00,3541.0000,N,13946.0000,E,1,08,1.0,nan,M,39.0,M,,")
      + sentence("GPGGA,120002.00,35-1.0000,N,13946.0000,E,1,08,1.0,40.0,M,39.0,M,,")
    let read = try? NMEAReader.read(Array(odd.utf8), name: "odd.nmea")
    #expect(read?.fixes.count == 2 && read?.fixes.last?.altitude == nil)
    #expect(read?.fixes.first?.time == 1_714_737_600)
    // Over midnight: the next day. A negative altitude is an altitude.
    let overnight = "HFDTEDATE:311224,01\nB2359594916430N00643910EA00000-0012\nB0000094916430N00643910EA0000000010\n"
    let fixes = try? IGCReader.read(Array(overnight.utf8), name: "o.igc")
    #expect(fixes?.map(\.time) == [1_735_689_599, 1_735_689_609])
    #expect(fixes?.first?.altitude == -12)
  }
}
