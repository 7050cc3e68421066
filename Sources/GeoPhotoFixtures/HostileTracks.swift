extension HostileFiles {
  /// JSON tracks (Google location history in each shape, GeoJSON) with extreme values where
  /// readers take numbers, instants and nesting: E7 coordinates of 20 digits, instants just
  /// outside the years 1800 to 2200 geophoto takes, positions at the poles, arrays nested a thousand deep, a
  /// NUL and bytes that are not UTF-8 in strings. The seeds of the track fuzz targets.
  public static var tracks: [File] {
    let t0: Int64 = 1_714_639_260_120
    let points = [
      GoogleHistoryFixture.Point(milliseconds: t0, latitudeE7: 387_110_200, longitudeE7: -91_425_100, accuracy: 12),
      GoogleHistoryFixture.Point(milliseconds: t0 + 30_000, latitudeE7: 900_000_000, longitudeE7: 1_800_000_000),
      GoogleHistoryFixture.Point(milliseconds: t0 + 60_000, latitudeE7: -900_000_000, longitudeE7: -1_800_000_000),
    ]
    let stays = [
      GoogleHistoryFixture.Stay(
        startMilliseconds: t0, endMilliseconds: t0 + 600_000, latitudeE7: 387_110_200, longitudeE7: -91_425_100)
    ]
    let moves = [GoogleHistoryFixture.Move(start: points[0], end: points[1], path: [points[0], points[2]])]
    func text(_ string: String) -> [UInt8] { Array(string.utf8) }
    return [
      File(
        name: "records-e7-digits.json",
        bytes: text(
          #"{"locations": [{"latitudeE7": 99999999999999999999, "longitudeE7": -99999999999999999999, "#
            + #""timestampMs": "-99999999999999999999", "accuracy": 1e999}]}"#),
        field: "E7 coordinates and timestampMs of 20 digits"),
      File(
        name: "records-extreme-times.json",
        bytes: text(
          #"{"locations": [{"latitudeE7": 1, "longitudeE7": 1, "timestampMs": "-5364662400001"}, "#
            + #"{"latitudeE7": 1, "longitudeE7": 1, "timestamp": "2201-01-01T00:00:00.000+14:00"}]}"#),
        field: "instants just outside the years 1800 to 2200"),
      File(
        name: "records-deep.json",
        bytes: text(#"{"locations": [{"activity": "# + String(repeating: "[", count: 1_000)),
        field: "arrays nested 1000 deep in a record"),
      File(
        name: "records-nul.json",
        bytes: text(#"{"locations": [{"timestamp": "2024"#) + [0, 0xFF, 0xC3] + text(#""}]}"#),
        field: "a NUL and bytes that are not UTF-8 in a string"),
      File(
        name: "records-bom.json", bytes: GoogleHistoryFixture.records(points, style: .init(byteOrderMark: true)),
        field: "a byte order mark, positions at the poles and the antimeridian"),
      File(
        name: "semantic-ms.json",
        bytes: GoogleHistoryFixture.semantic(stays: stays + stays + stays, moves: moves, milliseconds: true),
        field: "every place form of a visit, TimestampMs"),
      File(
        name: "timeline-android.json",
        bytes: GoogleHistoryFixture.androidTimeline(stays: stays, moves: moves, signals: points, offsetMinutes: -840),
        field: "offsets of -14:00"),
      File(
        name: "timeline-ios.json",
        bytes: GoogleHistoryFixture.iosTimeline(stays: stays, moves: moves, offsetMinutes: 840),
        field: "offsets of +14:00, a path before its start"),
      File(name: "timeline-edits.json", bytes: GoogleHistoryFixture.timelineEdits(), field: "Timeline Edits"),
      File(
        name: "track-times.geojson",
        bytes: text(
          #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "MultiLineString", "#
            + #""coordinates": [[[180, 90, 1e308], [-180, -90]], [[1e999, 1]]]}, "properties": {"coordinateProperties": "#
            + #"{"times": [["2024-05-03T10:00:00Z", 1e300], [-99999999999999999999]]}, "coordTimes": [1]}}, "#
            + #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"time": 1e11}}]}"#
        ),
        field: "coordinates at the ends of the earth, instants of 1e300"),
      File(
        name: "track-deep.geojson",
        bytes: text(
          #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": "#
            + String(repeating: "[", count: 1_000)),
        field: "coordinates nested 1000 deep"),
    ]
  }
}
