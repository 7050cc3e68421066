import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTracks

/// GPX, KML, TCX and Garmin logbook tracks read by geophoto and placed on a timeline, against
/// exiftool's geotagging from the same files, and against the numbers a test wrote.
@Suite struct XMLTrackTests {
  static let corpus = LineTrackTests.corpus
  static var ready: Bool { LineTrackTests.ready }

  func seconds(_ instant: String) -> Double {
    ExiftoolGeotag.format("yyyy:MM:dd HH:mm:ss'Z'").date(from: instant)!.timeIntervalSince1970
  }

  func read(_ name: String) throws -> TrackContents {
    try XMLTrackReader.read([UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name))), name: name)
  }

  /// A folder for files a test writes, removed afterwards by the caller's defer.
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("gp-xmltrack-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test(.enabled(if: ready, "needs exiftool and ../shared/corpora"))
  func exiftoolsSamplesGiveExiftoolsPositions() throws {
    // Newest first: exiftool does not join the first two fixes in the file (17:10:05 and
    // 17:09:55), taking the file's first as a track's start; geophoto sorts before it joins.
    let gpx = try read("Geotag.gpx")
    #expect(gpx.fixes.count == 9)
    try LineTrackTests().agree(
      gpx.fixes, Self.corpus.appendingPathComponent("Geotag.gpx"),
      at: ["2003:05:24 17:09:30Z", "2003:05:24 17:09:04Z", "2003:05:24 17:09:20Z", "2003:05:24 17:09:50Z"])
    let kml = try read("Geotag.kml")
    #expect(kml.fixes.count >= 3)
    try LineTrackTests().agree(
      kml.fixes, Self.corpus.appendingPathComponent("Geotag.kml"), at: ["2013:11:13 09:04:00Z", "2013:11:13 09:03:50Z"])
    let logbook = try read("Geotag.xml")
    #expect(logbook.fixes.count == 2)
    // The two fixes are exactly 30 minutes apart: the gap rule's boundary joins them.
    try LineTrackTests().agree(
      logbook.fixes, Self.corpus.appendingPathComponent("Geotag.xml"),
      at: ["2004:08:28 13:45:30Z", "2004:08:28 14:00:00Z", "2004:08:28 14:15:00Z"])
  }

  @Test(.enabled(if: ExiftoolGeotag.isInstalled, "exiftool is not installed"))
  func aTCXGivesExiftoolsPositions() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let tcx = """
      <?xml version="1.0" encoding="UTF-8"?>
      <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
      <Activities><Activity Sport="Biking"><Id>2024-05-02T08:00:00Z</Id><Lap StartTime="2024-05-02T08:00:00Z"><Track>
      <Trackpoint><Time>2024-05-02T08:00:00Z</Time><Position><LatitudeDegrees>38.7110200</LatitudeDegrees>\
      <LongitudeDegrees>-9.1425100</LongitudeDegrees></Position><AltitudeMeters>58.2</AltitudeMeters></Trackpoint>
      <Trackpoint><Time>2024-05-02T08:00:30Z</Time><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>
      <Trackpoint><Time>2024-05-02T08:01:00Z</Time><Position><LatitudeDegrees>38.7125</LatitudeDegrees>\
      <LongitudeDegrees>-9.1390</LongitudeDegrees></Position><AltitudeMeters>61.0</AltitudeMeters></Trackpoint>
      <Trackpoint><Time>2024-05-02T08:03:00Z</Time><Position><LatitudeDegrees>38.7150</LatitudeDegrees>\
      <LongitudeDegrees>-9.1350</LongitudeDegrees></Position><AltitudeMeters>70.5</AltitudeMeters></Trackpoint>
      </Track></Lap></Activity></Activities></TrainingCenterDatabase>
      """
    let url = dir.appendingPathComponent("ride.tcx")
    try tcx.write(to: url, atomically: true, encoding: .utf8)
    let contents = try XMLTrackReader.read(Array(tcx.utf8), name: "ride.tcx")
    // The point without a position is no fix, and the activity's Id is no time of one.
    #expect(contents.fixes.count == 3)
    try LineTrackTests().agree(
      contents.fixes, url, at: ["2024:05:02 08:00:15Z", "2024:05:02 08:00:30Z", "2024:05:02 08:02:10Z"])
  }

  @Test(.enabled(if: ExiftoolGeotag.isInstalled, "exiftool is not installed"))
  func aGPXWithWaypointsSegmentsAndZonesGivesExiftoolsPositions() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    // A waypoint with a time between two track segments; times with an offset and fractions;
    // a route point (no time) that is no fix; a name in Latin-1 bytes.
    var gpx = Array(
      """
      <?xml version="1.0" encoding="ISO-8859-1"?>
      <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="38.7200" lon="-9.1300"><time>2024-05-02T08:58:00+01:00</time><name>Caf
      """.utf8)
    gpx.append(0xE9)
    gpx += Array(
      """
      </name></wpt>
      <rte><rtept lat="1" lon="1"/></rte>
      <trk><trkseg>
      <trkpt lat="38.7110200" lon="-9.1425100"><ele>58.2</ele><time>2024-05-02T08:00:00.500Z</time></trkpt>
      <trkpt lat="38.7125" lon="-9.1390"><ele>61</ele><time>2024-05-02T08:05:00Z</time></trkpt>
      </trkseg><trkseg>
      <trkpt lat="38.7250" lon="-9.1250"><ele>80</ele><time>2024-05-02T08:20:00Z</time></trkpt>
      </trkseg></trk></gpx>

      """.utf8)
    let url = dir.appendingPathComponent("walk.gpx")
    try Data(gpx).write(to: url)
    let contents = try XMLTrackReader.read(gpx, name: "walk.gpx")
    #expect(contents.fixes.count == 4)
    #expect(contents.fixes.contains { $0.time == seconds("2024:05:02 07:58:00Z") && $0.altitude == nil })
    try LineTrackTests().agree(
      contents.fixes, url,
      at: ["2024:05:02 07:59:00Z", "2024:05:02 08:02:00Z", "2024:05:02 08:15:00Z", "2024:05:02 08:00:00Z"])
  }

  @Test(.enabled(if: ExiftoolGeotag.isInstalled, "exiftool is not installed"))
  func aKMLTrackWithItsTimesGroupedGivesExiftoolsPositions() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let kml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document><Placemark>
      <gx:Track><altitudeMode>absolute</altitudeMode>
      <when>2024-05-02T10:00:00+02:00</when><when>2024-05-02T10:01:00+02:00</when><when>2024-05-02T10:03:00+02:00</when>
      <gx:coord>2.2945 48.8584 35</gx:coord><gx:coord>2.2950 48.8590 40</gx:coord><gx:coord>2.3000 48.8600 52</gx:coord>
      </gx:Track></Placemark></Document></kml>
      """
    let url = dir.appendingPathComponent("paris.kml")
    try kml.write(to: url, atomically: true, encoding: .utf8)
    let contents = try XMLTrackReader.read(Array(kml.utf8), name: "paris.kml")
    #expect(contents.fixes.count == 3 && contents.fixes.allSatisfy { $0.altitude != nil })
    try LineTrackTests().agree(contents.fixes, url, at: ["2024:05:02 08:00:30Z", "2024:05:02 08:02:00Z"])
  }

  @Test func kmlPlacemarksAreFixesVisitsAndSpreadLines() throws {
    let kml = """
      <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
      <Placemark><TimeStamp><when>2024-05-02T08:00:00Z</when></TimeStamp><Point><coordinates>-9.1425,38.7110,12</coordinates></Point></Placemark>
      <Placemark><TimeSpan><begin>2024-05-02T09:00:00Z</begin><end>2024-05-02T11:00:00Z</end></TimeSpan>
        <Point><coordinates>-9.1300,38.7200</coordinates></Point></Placemark>
      <Placemark><TimeSpan><begin>2024-05-02T11:00:00Z</begin><end>2024-05-02T11:30:00Z</end></TimeSpan>
        <LineString><coordinates>-9.1300,38.7200 -9.1200,38.7300 -9.1100,38.7400 -9.1000,38.7500</coordinates></LineString></Placemark>
      <Placemark><TimeStamp><when>2024-05</when></TimeStamp><Point><coordinates>1,1</coordinates></Point></Placemark>
      </Document></kml>
      """
    let contents = try XMLTrackReader.read(Array(kml.utf8), name: "history.kml")
    let t = seconds("2024:05:02 08:00:00Z")
    // Clamped to the ground (KML's default): no altitude.
    #expect(contents.fixes.first == Fix(time: t, coordinate: Coordinate(latitude: 38.7110, longitude: -9.1425)))
    #expect(
      contents.visits == [
        Visit(start: t + 3_600, end: t + 10_800, coordinate: Coordinate(latitude: 38.72, longitude: -9.13))
      ])
    // Four points over 30 minutes: 10 minutes apart.
    #expect(contents.fixes.map(\.time) == [t, t + 10_800, t + 11_400, t + 12_000, t + 12_600])
    #expect(contents.fixes[2].coordinate == Coordinate(latitude: 38.73, longitude: -9.12))
    // A month is no instant.
    #expect(contents.notes.contains("1 points without a time skipped"))
  }

  @Test func badDocumentsAreRefusedNamingWhereAndWhy() throws {
    func error(_ text: String) -> String {
      do {
        _ = try XMLTrackReader.read(Array(text.utf8), name: "t.gpx")
        return "read"
      } catch { return error.description }
    }
    let good = "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2024-05-02T08:00:00Z</time></trkpt>"
    #expect(error(good + "</trkseg></trk></gpx>") == "read")
    #expect(error(good + "\n</trkseg>\n</trk") == "t.gpx:3: malformed XML")
    #expect(error("<!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx/>") == "t.gpx: the XML has a document type definition")
    #expect(error("{\"type\": \"FeatureCollection\"}") == "t.gpx: not a GPX, KML or TCX document")
    #expect(error("<svg><trkpt lat=\"1\" lon=\"2\"/></svg>") == "t.gpx: not a GPX, KML or TCX document")
    #expect(
      error(
        "<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"2\"><time>2024-05-02T08:00:00Z</time></trkpt></trkseg></trk></gpx>")
        == "t.gpx: no point with a time and a position in this GPX document")
    #expect(
      error(
        "<gpx><trk><trkseg><trkpt lat=\"nan\" lon=\"2\"><time>2024-05-02T08:00:00Z</time></trkpt></trkseg></trk></gpx>")
        == "t.gpx: no point with a time and a position in this GPX document")
  }

  /// A GPX of many megabytes (libxml2 refuses one pushed as a single chunk): every point read.
  @Test func aLargeGPXIsReadWhole() throws {
    var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
    let start = 1_714_521_600
    let stamp = ExiftoolGeotag.format("yyyy-MM-dd'T'HH:mm:ss'Z'")
    for i in 0..<200_000 {
      gpx += "<trkpt lat=\"38.\(1_000_000 + i)\" lon=\"-9.\(1_000_000 + i)\"><ele>12.5</ele>"
      gpx += "<time>\(stamp.string(from: ExiftoolGeotag.date(Double(start + i))))</time></trkpt>\n"
    }
    gpx += "</trkseg></trk></gpx>\n"
    #expect(gpx.utf8.count > 19_000_000)
    let contents = try XMLTrackReader.read(Array(gpx.utf8), name: "big.gpx")
    #expect(contents.fixes.count == 200_000)
    #expect(contents.fixes.last?.time == Double(start + 199_999))
    #expect(contents.fixes.last?.coordinate == Coordinate(latitude: 38.1199999, longitude: -9.1199999))
  }
}
