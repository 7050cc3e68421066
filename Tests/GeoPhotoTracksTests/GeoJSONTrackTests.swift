import Foundation
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTracks

/// GeoJSON tracks as togeojson writes them, made by the test from known fixes: read by
/// geophoto, they place instants where exiftool places them from a GPX of the same fixes
/// (exiftool reads no GeoJSON).
@Suite struct GeoJSONTrackTests {
  struct Point {
    var time: Double
    var latitude: Double
    var longitude: Double
    var altitude: Double
  }

  /// 2024-05-03T10:00:00Z.
  static let t0 = 1_714_730_400.0

  /// Two lines (the second across the antimeridian, south), then three lone points.
  static let lines: [[Point]] = [
    [
      Point(time: t0, latitude: 38.7110201, longitude: -9.1425102, altitude: 61),
      Point(time: t0 + 10, latitude: 38.7106, longitude: -9.14105, altitude: 58.5),
      Point(time: t0 + 25, latitude: 38.7101234, longitude: -9.1399999, altitude: 57),
      Point(time: t0 + 40, latitude: 38.7095, longitude: -9.135, altitude: 40.25),
      Point(time: t0 + 60, latitude: 38.709, longitude: -9.13, altitude: 39),
    ],
    [
      Point(time: t0 + 600, latitude: -16.5, longitude: 179.99, altitude: 2),
      Point(time: t0 + 630, latitude: -16.51, longitude: -179.995, altitude: 3),
      Point(time: t0 + 700, latitude: -16.52, longitude: -179.98, altitude: 4),
    ],
  ]
  static let lone: [Point] = [
    Point(time: t0 + 1_000, latitude: 35.6812, longitude: 139.7671, altitude: 12),
    Point(time: t0 + 1_030, latitude: 35.6815, longitude: 139.7675, altitude: 13),
    Point(time: t0 + 1_100, latitude: 35.682, longitude: 139.768, altitude: 14),
  ]

  static func iso(_ time: Double) -> String { ExiftoolGeotag.gpxText(time) }

  static func coordinates(_ line: [Point]) -> String {
    "[" + line.map { "[\($0.longitude), \($0.latitude), \($0.altitude)]" }.joined(separator: ", ") + "]"
  }

  static func times(_ line: [Point]) -> String {
    "[" + line.map { "\"\(iso($0.time))\"" }.joined(separator: ", ") + "]"
  }

  static func lineString(_ line: [Point], key: String) -> String {
    let times =
      key == "times" ? "\"coordinateProperties\": {\"times\": \(times(line))}" : "\"coordTimes\": \(times(line))"
    return "{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": \(coordinates(line))}, "
      + "\"properties\": {\"name\": \"walk\", \(times)}}"
  }

  /// Lone points: an ISO `time`, a `timestamp` in milliseconds, a `time` in seconds.
  static let points: [String] = [
    "{\"type\": \"Feature\", \"properties\": {\"name\": \"a\", \"time\": \"\(iso(lone[0].time))\"}, "
      + "\"geometry\": {\"type\": \"Point\", \"coordinates\": [\(lone[0].longitude), \(lone[0].latitude), \(lone[0].altitude)]}}",
    "{\"type\": \"Feature\", \"geometry\": {\"coordinates\": [\(lone[1].longitude), \(lone[1].latitude), \(lone[1].altitude)], "
      + "\"type\": \"Point\"}, \"properties\": {\"timestamp\": \(Int(lone[1].time) * 1_000)}}",
    "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [\(lone[2].longitude), \(lone[2].latitude), \(lone[2].altitude)]}, "
      + "\"properties\": {\"time\": \(Int(lone[2].time))}}",
  ]

  /// The same tracks, each way GeoJSON writes them.
  static let layouts: [(String, String)] = [
    (
      "LineStrings with coordinateProperties.times and coordTimes, and Points",
      "{\"type\": \"FeatureCollection\", \"features\": [\(lineString(lines[0], key: "times")), "
        + "\(lineString(lines[1], key: "coordTimes")), \(points.joined(separator: ", "))]}"
    ),
    (
      "MultiLineString with nested times, and Points",
      "{\"features\": [{\"type\": \"Feature\", \"properties\": {\"coordinateProperties\": {\"times\": ["
        + lines.map(times).joined(separator: ", ")
        + "]}}, \"geometry\": {\"type\": \"MultiLineString\", \"coordinates\": ["
        + lines.map(coordinates).joined(separator: ", ") + "]}}, \(points.joined(separator: ", "))], "
        + "\"type\": \"FeatureCollection\"}"
    ),
    (
      "MultiLineString with coordTimes, properties last",
      "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"geometry\": {\"type\": \"MultiLineString\", "
        + "\"coordinates\": [" + lines.map(coordinates).joined(separator: ", ")
        + "]}, \"properties\": {\"coordTimes\": ["
        + lines.map(times).joined(separator: ", ") + "]}}, \(points.joined(separator: ", "))]}"
    ),
  ]

  func gpx(_ lines: [[Point]]) -> String {
    var text =
      "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk>\n"
    for line in lines {
      text += "<trkseg>\n"
      for p in line {
        text += "<trkpt lat=\"\(p.latitude)\" lon=\"\(p.longitude)\"><ele>\(p.altitude)</ele>"
        text += "<time>\(Self.iso(p.time))</time></trkpt>\n"
      }
      text += "</trkseg>\n"
    }
    return text + "</trk></gpx>\n"
  }

  @Test func everyLayoutGivesItsFixes() throws {
    let all = (Self.lines.flatMap { $0 } + Self.lone).sorted { $0.time < $1.time }
    for (label, text) in Self.layouts {
      let bytes = Array(text.utf8)
      #expect(GeoJSONTrackReader.sniff(head: bytes), "\(label)")
      for chunk in [1 << 18, 1, 9] {
        let contents = try GeoJSONTrackReader.read(bytes, name: "track.geojson", chunkSize: chunk)
        let fixes = contents.fixes.sorted { $0.time < $1.time }
        #expect(fixes.count == all.count, "\(label): \(fixes.count) fixes")
        for (fix, p) in zip(fixes, all) {
          #expect(
            fix.time == p.time && fix.coordinate.latitude == p.latitude && fix.coordinate.longitude == p.longitude
              && fix.altitude == p.altitude, "\(label): \(fix) for \(p)")
        }
        #expect(contents.notes.isEmpty, "\(label): \(contents.notes)")
      }
    }
  }

  @Test(.enabled(if: ExiftoolGeotag.isInstalled, "needs exiftool"))
  func geoJSONPlacesInstantsWhereExiftoolDoesFromTheSameGPX() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-geojson-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let gpxURL = folder.appendingPathComponent("track.gpx")
    try gpx(Self.lines + [Self.lone]).write(to: gpxURL, atomically: true, encoding: .utf8)
    let offsets = [0.0, 4.5, 10, 17.25, 39.9, 60, 605, 615.5, 629, 650, 1_000, 1_015, 1_064.5, 1_100]
    var theirs: [Double: [Double]] = [:]
    for offset in offsets {
      theirs[offset] = try #require(
        try ExiftoolGeotag.position(from: gpxURL, at: Self.t0 + offset), "exiftool placed nothing at +\(offset) s")
    }
    for (label, text) in Self.layouts {
      // Read from a file, as a user's would be.
      let file = folder.appendingPathComponent("track.geojson")
      try text.write(to: file, atomically: true, encoding: .utf8)
      let timeline = Timeline(try GeoJSONTrackReader.read(path: file.path, name: "track.geojson").fixes)
      for offset in offsets {
        guard case .placed(let c, let altitude, _)? = timeline.locate(at: Self.t0 + offset), let exif = theirs[offset]
        else {
          Issue.record("\(label): geophoto placed nothing at +\(offset) s")
          continue
        }
        // Longitudes compared round the circle: between fixes either side of 180° exiftool may
        // leave one unwrapped (350.87 for −9.13 at +60 s, the fix before the antimeridian line).
        #expect(
          abs(c.latitude - exif[0]) < 1e-6 && abs(remainder(c.longitude - exif[1], 360)) < 1e-6,
          "\(label) +\(offset) s: \(c) vs \(exif)")
        if exif.count == 3 { #expect(abs((altitude ?? .nan) - exif[2]) < 1e-3, "\(label) +\(offset) s altitude") }
      }
    }
  }

  @Test func millisecondsAndFractionsOfSeconds() throws {
    let text = """
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[10, 20], [10.5, 20.5], [11, 21]]},
       "properties": {"coordinateProperties": {"times": ["2024-05-03T10:00:00.250Z", 1714730401500, "2024-05-03T12:00:02.125+02:00"]}}}
      """
    let fixes = try GeoJSONTrackReader.read(Array(text.utf8), name: "t.geojson").fixes
    #expect(fixes.map(\.time) == [Self.t0 + 0.25, Self.t0 + 1.5, Self.t0 + 2.125])
    #expect(fixes.map(\.coordinate.longitude) == [10, 10.5, 11] && fixes.allSatisfy { $0.altitude == nil })
  }

  func read(_ text: String, limit: Int = GeoJSONTrackReader.maximumCoordinates) throws(TrackReadError) -> TrackContents
  {
    try GeoJSONTrackReader.read(
      Array(text.utf8), name: "t.geojson", keeping: nil, chunkSize: 1 << 18, maximumCoordinates: limit)
  }

  static let noTimes =
    "no times: a GeoJSON track needs properties.coordinateProperties.times (or coordTimes) beside its coordinates, "
    + "or a time on each Point"

  @Test func featuresWithoutTimesOrWithTheWrongNumberAreSkipped() throws {
    let good = Self.lineString(Self.lines[0], key: "times")
    let short =
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": \(Self.coordinates(Self.lines[1]))}, "
      + "\"properties\": {\"coordTimes\": \(Self.times(Array(Self.lines[1].prefix(2))))}}"
    let untimed =
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": \(Self.coordinates(Self.lines[1]))}, "
      + "\"properties\": {}}"
    let polygon =
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [[[0, 1], [1, 1], [0, 0]]]}}"
    // MultiLineString times nested otherwise than its lines.
    let crossed =
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"MultiLineString\", \"coordinates\": [[[1, 2], [1, 3]], [[1, 4]]]}, "
      + "\"properties\": {\"coordTimes\": [[\"2024-05-03T10:00:00Z\"], [\"2024-05-03T10:00:01Z\", \"2024-05-03T10:00:02Z\"]]}}"
    let contents = try read(
      "{\"type\": \"FeatureCollection\", \"features\": [\(short), \(good), \(untimed), \(polygon), \(crossed)]}")
    #expect(contents.fixes.map(\.time) == Self.lines[0].map(\.time))
    #expect(
      contents.notes == [
        "2 features whose times and coordinates differ in number skipped", "2 features without times skipped",
      ])
    // Nothing timed: collections, single features and bare geometries say so.
    let geometry = "{\"type\": \"LineString\", \"coordinates\": \(Self.coordinates(Self.lines[1]))}"
    for text in [
      "{\"type\": \"FeatureCollection\", \"features\": [\(untimed), \(polygon)]}", untimed, geometry,
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]}, \"properties\": null}",
    ] {
      #expect(throws: TrackReadError("t.geojson", Self.noTimes), "\(text)") { try read(text) }
    }
    #expect(
      throws: TrackReadError("t.geojson", Self.noTimes + "; 1 feature has times and coordinates differing in number")
    ) {
      try read(short)
    }
    for text in ["{\"locations\": []}", "[1, 2]", "{}", "\"x\""] {
      #expect(throws: TrackReadError("t.geojson", "not GeoJSON (no features and no geometry)"), "\(text)") {
        try read(text)
      }
      #expect(!GeoJSONTrackReader.sniff(head: Array(text.utf8)))
    }
    #expect(!GeoJSONTrackReader.sniff(head: GoogleHistoryFixture.timelineEdits()))
  }

  @Test func hostileFeaturesAreRefusedOrSkipped() throws {
    // Over the limit of coordinates in one feature (10 here; 5,000,000 in use).
    let long = (0..<11).map { _ in Self.lines[0][0] }
    #expect(throws: TrackReadError("t.geojson", "a feature of over 10 coordinates; split the track")) {
      try read(Self.lineString(long, key: "times"), limit: 10)
    }
    #expect(try read(Self.lineString(Array(long.prefix(10)), key: "times"), limit: 10).fixes.count == 10)
    // Positions out of range, strings for numbers, infinite numbers, bad times: skipped and counted.
    let text = """
      {"type": "Feature", "geometry": {"type": "LineString", "coordinates":
        [[10, 91], [181, 10], ["10", "20"], [1e999, 10], [0, 0], [10], [10, 20, 30, 40], [99999999999999999999, 1], [11, 21]]},
       "properties": {"coordTimes": ["2024-05-03T10:00:00Z", "2024-05-03T10:00:01Z", "2024-05-03T10:00:02Z",
         "2024-05-03T10:00:03Z", "2024-05-03T10:00:04Z", "2024-05-03T10:00:05Z", "2024-05-03T10:00:06Z",
         "2024-05-03T10:00:07Z", "not a time"]}}
      """
    for text in [text, text.replacingOccurrences(of: "\"not a time\"", with: "1e300")] {
      let contents = try read(text)
      #expect(contents.fixes.map(\.time) == [Self.t0 + 6])
      #expect(contents.fixes.first?.altitude == 30)
      #expect(contents.notes == ["8 coordinates without a usable position and time skipped"])
    }
    // Depth, NUL and broken UTF-8: errors at their byte.
    let deep = "{\"type\": \"Feature\", \"geometry\": {\"coordinates\": " + String(repeating: "[", count: 100)
    #expect(throws: TrackReadError("t.geojson", byte: 48 + 63, "nested deeper than 64 levels")) { try read(deep) }
    #expect(throws: TrackReadError("t.geojson", byte: 10, "invalid char in json text.")) {
      try GeoJSONTrackReader.read(Array("{\"type\": ".utf8) + [0], name: "t.geojson")
    }
    #expect(throws: TrackReadError("t.geojson", byte: 11, "invalid bytes in UTF8 string.")) {
      try GeoJSONTrackReader.read(Array("{\"type\": \"".utf8) + [0xFF] + Array("\"}".utf8), name: "t.geojson")
    }
  }
}
