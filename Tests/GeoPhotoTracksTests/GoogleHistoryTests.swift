import Foundation
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTracks

typealias GooglePoint = GoogleHistoryFixture.Point
typealias GoogleStay = GoogleHistoryFixture.Stay
typealias GoogleMove = GoogleHistoryFixture.Move

/// Google's location history in each shape, written by `GoogleHistoryFixture` from known
/// numbers: what geophoto reads back is those numbers (positions to 1e-7°, instants to the
/// millisecond), whatever the layout, and a pretty `Records.json` places instants where
/// exiftool places them.
@Suite struct GoogleHistoryTests {
  /// 2024-05-02T08:41:00.120Z.
  static let t0: Int64 = 1_714_639_260_120

  static func point(_ seconds: Int64, _ lat: Int, _ lon: Int, accuracy: Int? = 12) -> GooglePoint {
    GooglePoint(milliseconds: t0 + seconds * 1_000, latitudeE7: lat, longitudeE7: lon, accuracy: accuracy)
  }

  /// Records a minute or less apart, in Lisbon, Sydney and Anchorage (every sign), one
  /// without an accuracy and one less accurate than 200 m.
  static let records: [GooglePoint] = [
    point(0, 387_110_200, -91_425_100),
    point(30, 387_106_000, -91_410_500, accuracy: 35),
    point(75, 387_101_234, -91_399_999, accuracy: nil),
    point(100, 387_200_000, -91_300_000, accuracy: 1_500),
    point(130, 387_095_000, -91_350_000, accuracy: 200),
    point(3_600, -338_688_197, 1_512_092_955),
    point(3_661, -338_690_001, 1_512_100_000),
    point(7_200, 612_180_556, -1_499_002_778),
  ]

  /// What a reader must give for `points`: the ones at most 200 m out.
  static func usable(_ points: [GooglePoint]) -> [GooglePoint] { points.filter { ($0.accuracy ?? 0) <= 200 } }

  func expect(
    _ fixes: [Fix], equal points: [GooglePoint], _ context: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let got = fixes.sorted {
      ($0.time, $0.coordinate.latitude, $0.coordinate.longitude) < (
        $1.time, $1.coordinate.latitude, $1.coordinate.longitude
      )
    }
    let points = points.sorted {
      ($0.milliseconds, $0.latitudeE7, $0.longitudeE7) < ($1.milliseconds, $1.latitudeE7, $1.longitudeE7)
    }
    #expect(
      got.count == points.count, "\(context): \(got.count) fixes for \(points.count)", sourceLocation: sourceLocation)
    for (fix, point) in zip(got, points) {
      #expect(
        (fix.time * 1_000).rounded() == Double(point.milliseconds)
          && abs(fix.time * 1_000 - Double(point.milliseconds)) < 0.01
          && abs(fix.coordinate.latitude - Double(point.latitudeE7) / 1e7) < 1e-7
          && abs(fix.coordinate.longitude - Double(point.longitudeE7) / 1e7) < 1e-7 && fix.altitude == nil,
        "\(context): \(fix) for \(point)", sourceLocation: sourceLocation)
    }
  }

  func expect(
    _ visits: [Visit], equal stays: [GoogleStay], _ context: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let got = visits.sorted { $0.start < $1.start }
    #expect(
      got.count == stays.count, "\(context): \(got.count) visits for \(stays.count)", sourceLocation: sourceLocation)
    for (visit, stay) in zip(got, stays.sorted { $0.startMilliseconds < $1.startMilliseconds }) {
      #expect(
        (visit.start * 1_000).rounded() == Double(stay.startMilliseconds)
          && (visit.end * 1_000).rounded() == Double(stay.endMilliseconds)
          && abs(visit.coordinate.latitude - Double(stay.latitudeE7) / 1e7) < 1e-7
          && abs(visit.coordinate.longitude - Double(stay.longitudeE7) / 1e7) < 1e-7,
        "\(context): \(visit) for \(stay)", sourceLocation: sourceLocation)
    }
  }

  // MARK: Records.json

  @Test func recordsInEveryLayoutGiveTheirNumbers() throws {
    let styles: [(String, GoogleHistoryFixture.RecordsStyle)] = [
      ("pretty", .init()),
      ("minified", .init(pretty: false)),
      ("byte order mark", .init(byteOrderMark: true)),
      ("minified with a mark", .init(pretty: false, byteOrderMark: true)),
      ("timestampMs", .init(milliseconds: true)),
      ("timestamp first", .init(timeFirst: true)),
      ("timestamp first, minified, ms", .init(pretty: false, milliseconds: true, timeFirst: true)),
      ("no activity", .init(nestedActivity: false)),
    ]
    for (label, style) in styles {
      let bytes = GoogleHistoryFixture.records(Self.records, style: style)
      let contents = try GoogleHistoryReader.read(bytes, name: "Records.json")
      // The nested activity's own timestamp (2.1 s earlier) is not the record's.
      expect(contents.fixes, equal: Self.usable(Self.records), label)
      #expect(contents.visits.isEmpty)
      #expect(contents.notes.contains("1 position less accurate than 200 m dropped"), "\(label): \(contents.notes)")
      #expect(GoogleHistoryReader.sniff(head: Array(bytes.prefix(4_096))) == .records, "\(label)")
    }
    // Whatever the chunks.
    let bytes = GoogleHistoryFixture.records(Self.records, style: .init(byteOrderMark: true))
    for chunk in [1, 2, 3, 7, 100, 4_096] {
      expect(
        try GoogleHistoryReader.read(bytes, name: "Records.json", chunkSize: chunk).fixes,
        equal: Self.usable(Self.records),
        "chunks of \(chunk)")
    }
  }

  /// The fixture's instants are the text a test expects (checked with Foundation, not geophoto).
  @Test func theFixturesInstantsAreTheirMilliseconds() {
    let format = ISO8601DateFormatter()
    format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    for ms: Int64 in [Self.t0, 0, 951_782_400_000, 4_102_444_799_999, -1_000, 1_709_164_800_001] {
      let text = GoogleHistoryFixture.iso(ms)
      #expect(format.date(from: text).map { ($0.timeIntervalSince1970 * 1_000).rounded() } == Double(ms), "\(text)")
      let local = GoogleHistoryFixture.iso(ms, offsetMinutes: -330)
      #expect(format.date(from: local).map { ($0.timeIntervalSince1970 * 1_000).rounded() } == Double(ms), "\(local)")
    }
    #expect(GoogleHistoryFixture.iso(Self.t0) == "2024-05-02T08:41:00.120Z")
    #expect(GoogleHistoryFixture.iso(Self.t0, offsetMinutes: 60) == "2024-05-02T09:41:00.120+01:00")
    #expect(GoogleHistoryFixture.degrees(-91_425_100) == "-9.1425100")
    #expect(GoogleHistoryFixture.degrees(-5) == "-0.0000005")
  }

  @Test(.enabled(if: ExiftoolGeotag.isInstalled, "needs exiftool"))
  func prettyRecordsPlaceInstantsWhereExiftoolDoes() throws {
    // exiftool reads a pretty Records.json line by line: no nested activity (it would take
    // its timestamp), every record accurate (it does not filter).
    let points = Self.usable(Self.records).filter { $0.accuracy != nil }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-records-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Records.json")
    try GoogleHistoryFixture.writeRecords(points, style: .init(nestedActivity: false), to: file)
    let contents = try GoogleHistoryReader.read(path: file.path, name: "Records.json")
    let timeline = Timeline(contents.fixes)
    let base = Double(Self.t0) / 1_000
    for offset in [0.0, 12.5, 29.9, 30, 52.25, 129, 3_600, 3_630.5, 3_661] {
      let instant = base + offset
      let theirs = try #require(
        try ExiftoolGeotag.position(from: file, at: instant), "exiftool placed nothing at +\(offset) s")
      guard case .placed(let c, _, _)? = timeline.locate(at: instant) else {
        Issue.record("geophoto placed nothing at +\(offset) s")
        continue
      }
      #expect(
        abs(c.latitude - theirs[0]) < 1e-6 && abs(c.longitude - theirs[1]) < 1e-6, "+\(offset) s: \(c) vs \(theirs)")
    }
  }

  @Test func theRetentionFilterKeepsTheHoursAskedForAndTheirNeighbours() throws {
    let points = (0..<100).map { Self.point(Int64($0) * 60, 387_110_200 + $0 * 100, -91_425_100 - $0 * 100) }
    let bytes = GoogleHistoryFixture.records(points)
    let base = Double(Self.t0) / 1_000
    // Minutes 40 to 45, asked for: 39 and 46 come along.
    let window = (base + 40 * 60 - 1)...(base + 45 * 60 + 1)
    let contents = try GoogleHistoryReader.read(bytes, name: "Records.json") { window.overlaps($0) }
    expect(contents.fixes, equal: Array(points[39...46]), "filtered")
    #expect(contents.notes.contains("kept 8 of 100 fixes (the others far from the times asked for)"))
    // Visits overlapping the window are kept, the others not.
    let stays = [
      GoogleStay(startMilliseconds: Self.t0, endMilliseconds: Self.t0 + 50 * 60_000, latitudeE7: 1, longitudeE7: 2),
      GoogleStay(
        startMilliseconds: Self.t0 + 60 * 60_000, endMilliseconds: Self.t0 + 70 * 60_000, latitudeE7: 3, longitudeE7: 4),
    ]
    let android = GoogleHistoryFixture.androidTimeline(stays: stays, moves: [], signals: points)
    let kept = try GoogleHistoryReader.read(android, name: "Timeline.json") { window.overlaps($0) }
    expect(kept.visits, equal: [stays[0]], "filtered visits")
    expect(kept.fixes, equal: Array(points[39...46]), "filtered signals")
  }

  // MARK: Semantic Location History

  /// Three stays (their places given each way the semantic history gives them) and two
  /// moves with timed paths, one path point too inaccurate.
  static let stays: [GoogleStay] = [
    GoogleStay(
      startMilliseconds: t0, endMilliseconds: t0 + 3_600_000, latitudeE7: 387_110_200, longitudeE7: -91_425_100),
    GoogleStay(
      startMilliseconds: t0 + 5_400_000, endMilliseconds: t0 + 9_000_123, latitudeE7: 387_095_000,
      longitudeE7: -91_350_000),
    GoogleStay(
      startMilliseconds: t0 + 10_800_000, endMilliseconds: t0 + 10_800_000, latitudeE7: -338_688_197,
      longitudeE7: 1_512_092_955),
  ]

  static let moves: [GoogleMove] = [
    GoogleMove(
      start: point(3_600, 387_110_200, -91_425_100, accuracy: nil),
      end: point(5_400, 387_095_000, -91_350_000, accuracy: nil),
      path: [
        point(3_660, 387_108_000, -91_420_000, accuracy: 9), point(3_720, 387_105_500, -91_410_000, accuracy: 900),
        point(3_840, 387_100_000, -91_390_000, accuracy: nil), point(3_840, 387_099_000, -91_389_000, accuracy: 20),
      ]),
    GoogleMove(
      start: point(9_000, 387_095_000, -91_350_000, accuracy: nil),
      end: point(10_800, -338_688_197, 1_512_092_955, accuracy: nil),
      path: [point(9_600, 10_000_000, 20_000_000, accuracy: 30)]),
  ]

  /// The fixes the moves give: each start and end, and each usable path point.
  static var moveFixes: [GooglePoint] {
    usable(moves.flatMap { [$0.start, $0.end] + $0.path })
  }

  @Test func semanticHistoryGivesItsVisitsAndPaths() throws {
    for milliseconds in [false, true] {
      let bytes = GoogleHistoryFixture.semantic(stays: Self.stays, moves: Self.moves, milliseconds: milliseconds)
      let contents = try GoogleHistoryReader.read(bytes, name: "2024_MAY.json")
      let label = milliseconds ? "TimestampMs" : "Timestamp"
      expect(contents.visits, equal: Self.stays, label)
      expect(contents.fixes, equal: Self.moveFixes, label)
      #expect(GoogleHistoryReader.sniff(head: Array(bytes.prefix(4_096))) == .semantic)
      expect(
        try GoogleHistoryReader.read(bytes, name: "2024_MAY.json", chunkSize: 5).fixes, equal: Self.moveFixes,
        "\(label), chunks of 5")
    }
  }

  // MARK: On-device exports

  @Test func androidExportGivesVisitsActivitiesPathsAndRawSignals() throws {
    let signals = Self.records
    for offset in [60, -420, 0, 345] {
      let bytes = GoogleHistoryFixture.androidTimeline(
        stays: Self.stays, moves: Self.moves, signals: signals, offsetMinutes: offset)
      let contents = try GoogleHistoryReader.read(bytes, name: "Timeline.json")
      expect(contents.visits, equal: Self.stays, "offset \(offset)")
      // Frequent places (no time), Wi-Fi scans and activity records give nothing; path points
      // have no accuracy here, only raw signals do.
      let moves = Self.moves.flatMap { [$0.start, $0.end] + $0.path }
      expect(contents.fixes, equal: moves + Self.usable(signals), "offset \(offset)")
      #expect(contents.notes.contains("1 position less accurate than 200 m dropped"), "\(contents.notes)")
      #expect(GoogleHistoryReader.sniff(head: Array(bytes.prefix(4_096))) == .androidTimeline)
    }
  }

  /// iOS path points lie on whole minutes from their move's start, and two may share one.
  static let iosMoves: [GoogleMove] = [
    GoogleMove(
      start: point(3_600, 387_110_200, -91_425_100, accuracy: nil),
      end: point(5_400, 387_095_000, -91_350_000, accuracy: nil),
      path: [
        point(3_600, 387_110_200, -91_425_100, accuracy: nil), point(3_660, 387_108_000, -91_420_000, accuracy: nil),
        point(3_660, 387_107_000, -91_419_000, accuracy: nil), point(9_600, 387_100_000, -91_390_000, accuracy: nil),
      ]),
    GoogleMove(
      start: point(9_000, 387_095_000, -91_350_000, accuracy: nil),
      end: point(10_800, -338_688_197, 1_512_092_955, accuracy: nil),
      path: [
        point(9_120, 387_090_000, -91_340_000, accuracy: nil),
        point(10_800, -338_688_190, 1_512_092_950, accuracy: nil),
      ]),
  ]

  @Test func iosExportGivesVisitsActivitiesAndPathsAtTheirMinutes() throws {
    for offset in [60, -300] {
      let bytes = GoogleHistoryFixture.iosTimeline(stays: Self.stays, moves: Self.iosMoves, offsetMinutes: offset)
      let contents = try GoogleHistoryReader.read(bytes, name: "location-history.json")
      expect(contents.visits, equal: Self.stays, "offset \(offset)")
      expect(
        contents.fixes, equal: Self.usable(Self.iosMoves.flatMap { [$0.start, $0.end] + $0.path }), "offset \(offset)")
      #expect(GoogleHistoryReader.sniff(head: Array(bytes.prefix(4_096))) == .iosTimeline)
      for chunk in [1, 13] {
        #expect(
          try GoogleHistoryReader.read(bytes, name: "l.json", chunkSize: chunk).fixes.count == contents.fixes.count)
      }
    }
  }

  @Test func timelineEditsAreRecognisedAndRefused() {
    let edits = GoogleHistoryFixture.timelineEdits()
    #expect(GoogleHistoryReader.sniff(head: edits) == .timelineEdits)
    #expect(throws: TrackReadError.self) { try GoogleHistoryReader.read(edits, name: "Timeline Edits.json") }
    do {
      _ = try GoogleHistoryReader.read(edits, name: "Timeline Edits.json")
    } catch {
      #expect(error.description.hasPrefix("Timeline Edits.json: Timeline Edits (timelineEdits) are "))
      #expect(error.description.contains("not a location history geophoto reads"))
    }
  }

  @Test func otherFilesAreNoGoogleHistory() throws {
    for text in [#"{"type": "FeatureCollection", "features": []}"#, "[1, 2]", "[]", #"{"a": {"locations": []}}"#, "3"] {
      #expect(GoogleHistoryReader.sniff(head: Array(text.utf8)) == nil, "\(text)")
      #expect(
        throws: TrackReadError(
          "x.json",
          "not a Google location history (no locations, timelineObjects or semanticSegments at the top, "
            + "nor an array of timeline segments)")
      ) { try GoogleHistoryReader.read(Array(text.utf8), name: "x.json") }
    }
    #expect(GoogleHistoryReader.sniff(head: Array("<?xml version=\"1.0\"?><gpx>".utf8)) == nil)
    // A head cut anywhere still tells.
    #expect(GoogleHistoryReader.sniff(head: Array("{\n  \"locations\": [{\n    \"latit".utf8)) == .records)
    #expect(GoogleHistoryReader.sniff(head: Array("[{\"endTime\": \"2024".utf8)) == .iosTimeline)
    #expect(GoogleHistoryReader.sniff(head: Array("{\"rawSignals\": [".utf8)) == .androidTimeline)
  }

  // MARK: Memory

  /// A 64 MB Records.json read with a retention filter: the process grows by far less than
  /// the file (the most resident while reading, over the least of three readings, so a test
  /// running beside this one does not count).
  @Test(.enabled(if: ResidentMemory.processKilobytes() != nil, "needs /proc/self/status"))
  func aLargeRecordsFileIsReadInLittleMemory() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-records-big-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Records.json")
    let walk = GoogleHistoryFixture.Walk(count: 170_000, start: Self.t0)
    let size = try GoogleHistoryFixture.writeRecords(walk, to: file)
    #expect(size > 60_000_000)
    // The hour asked for, from the walk's numbers.
    let base = Double(Self.t0) / 1_000
    let window = (base + 86_400)...(base + 90_000)
    let expected = walk.filter {
      ($0.accuracy ?? 0) <= 200 && window.contains(Double($0.milliseconds) / 1_000)
    }.count
    var growths: [Int] = []
    for _ in 0..<3 {
      let before = try #require(ResidentMemory.processKilobytes())
      var most = before
      var calls = 0
      let contents = try GoogleHistoryReader.read(path: file.path, name: "Records.json") { span in
        calls += 1
        if calls % 20_000 == 0 { most = max(most, ResidentMemory.processKilobytes() ?? 0) }
        return window.overlaps(span)
      }
      most = max(most, ResidentMemory.processKilobytes() ?? 0)
      #expect(contents.fixes.count == expected + 2)
      growths.append(most - before)
      if most - before < 30_000 { break }
    }
    #expect(try #require(growths.min()) < 30_000, "grew by \(growths) KB reading \(size) bytes")
  }

  // MARK: Hostile files

  func read(_ text: String) throws(TrackReadError) -> TrackContents {
    try GoogleHistoryReader.read(Array(text.utf8), name: "Records.json")
  }

  static let good = #"{"latitudeE7": 387110200, "longitudeE7": -91425100, "timestamp": "2024-05-02T08:41:00.120Z"}"#

  @Test func extremeNumbersAreSkippedAndCounted() throws {
    let bad = [
      #"{"latitudeE7": 99999999999999999999, "longitudeE7": 1, "timestamp": "2024-05-02T08:41:01Z"}"#,
      #"{"latitudeE7": 900000001, "longitudeE7": 1, "timestamp": "2024-05-02T08:41:02Z"}"#,
      #"{"latitudeE7": 1, "longitudeE7": -1800000001, "timestamp": "2024-05-02T08:41:03Z"}"#,
      #"{"latitudeE7": 0, "longitudeE7": 0, "timestamp": "2024-05-02T08:41:04Z"}"#,
      #"{"latitudeE7": 1e400, "longitudeE7": 1, "timestamp": "2024-05-02T08:41:05Z"}"#,
      #"{"latitudeE7": "387110200", "longitudeE7": "x", "timestamp": "2024-05-02T08:41:06Z"}"#,
      #"{"latitudeE7": 1, "longitudeE7": 1, "timestampMs": "-99999999999999999999"}"#,
      #"{"latitudeE7": 1, "longitudeE7": 1, "timestampMs": "999999999999999999"}"#,
      #"{"latitudeE7": 1, "longitudeE7": 1, "timestampMs": "12.5"}"#,
      #"{"latitudeE7": 1, "longitudeE7": 1, "timestamp": "2024-13-02T08:41:00Z"}"#,
      #"{"latitudeE7": 1, "longitudeE7": 1, "timestamp": 5}"#,
      #"{"latitudeE7": 1, "longitudeE7": 1}"#,
      #"{"latitudeE7": 1, "timestamp": "2024-05-02T08:41:00Z"}"#,
      #"{"latitudeE7": 1, "longitudeE7": 1, "timestamp": "2024-05-02T08:41:00Z", "accuracy": 1e999}"#,
    ]
    let contents = try read(#"{"locations": ["# + ([Self.good] + bad).joined(separator: ",") + "]}")
    #expect(contents.fixes.map(\.time) == [1_714_639_260.12])
    #expect(contents.notes.contains("13 records without a usable position and time skipped"), "\(contents.notes)")
    #expect(contents.notes.contains("1 position less accurate than 200 m dropped"), "\(contents.notes)")
    // Negative milliseconds are before 1970, and fine.
    let early = try read(#"{"locations": [{"latitudeE7": 1, "longitudeE7": 1, "timestampMs": "-1500"}]}"#)
    #expect(early.fixes.map(\.time) == [-1.5])
    // Nothing usable: an error that says so.
    #expect(
      throws: TrackReadError(
        "Records.json",
        "no usable position and time in the Google location history records (Records.json) (13 unusable, "
          + "1 less accurate than 200 m)")
    ) { try read(#"{"locations": ["# + bad.joined(separator: ",") + "]}") }
    #expect(
      throws: TrackReadError(
        "Records.json", "no usable position and time in the Google location history records (Records.json)")
    ) { try read(#"{"locations": []}"#) }
  }

  @Test func damagedFilesSayWhereInBytes() {
    let nested = String(repeating: "[", count: 70)
    let cases: [(String, [UInt8], Int, String)] = [
      // The 65th level is the 62nd array in the record (itself at level 3); the offset is past it.
      (
        "deep", Array(#"{"locations": [{"activity": "#.utf8) + Array(nested.utf8), 28 + 62,
        "nested deeper than 64 levels"
      ),
      (
        "NUL", Array(#"{"locations": [{"a"#.utf8) + [0] + Array(#"": 1}]}"#.utf8), 18,
        "invalid character inside string."
      ),
      ("NUL outside", Array(#"{"locations": ["#.utf8) + [0], 16, "invalid char in json text."),
      (
        "UTF-8", Array(#"{"locations": [{"timestamp": ""#.utf8) + [0xC3, 0x28] + Array(#""}]}"#.utf8), 32,
        "invalid bytes in UTF8 string."
      ),
      (
        "truncated", Array(Self.good.utf8.prefix(40)).withPrefix(#"{"locations": ["#), 15 + 40,
        "the file ends inside the JSON text (truncated?)"
      ),
    ]
    for (label, bytes, offset, message) in cases {
      #expect(throws: TrackReadError("Records.json", byte: offset, message), "\(label)") {
        try GoogleHistoryReader.read(bytes, name: "Records.json")
      }
      #expect(throws: TrackReadError("Records.json", byte: offset, message), "\(label), byte by byte") {
        try GoogleHistoryReader.read(bytes, name: "Records.json", chunkSize: 1)
      }
    }
    #expect(TrackReadError("Records.json", byte: 812_345, "x").description == "Records.json: byte 812345: x")
  }
}

extension GoogleHistoryTests {
  /// The fuzzers' seeds: each read whole and byte by byte by both readers, never a crash; what
  /// each must say.
  @Test func theHostileTrackFilesAreReadOrRefused() throws {
    for file in HostileFiles.tracks {
      for chunk in [1 << 18, 1] {
        _ = try? GoogleHistoryReader.read(file.bytes, name: file.name, chunkSize: chunk)
        _ = try? GeoJSONTrackReader.read(file.bytes, name: file.name, chunkSize: chunk)
      }
    }
    func google(_ name: String) throws -> Result<TrackContents, TrackReadError> {
      let file = try #require(HostileFiles.tracks.first { $0.name == name })
      return Result { () throws(TrackReadError) in try GoogleHistoryReader.read(file.bytes, name: name) }
    }
    #expect(try google("records-deep.json").failure?.message == "nested deeper than 64 levels")
    #expect(try google("records-nul.json").failure?.message == "invalid character inside string.")
    #expect(try google("records-e7-digits.json").failure?.message.hasPrefix("no usable position and time") == true)
    #expect(try google("records-extreme-times.json").failure?.message.hasPrefix("no usable position and time") == true)
    // Fixes at the poles and on the antimeridian are fixes.
    #expect(try google("records-bom.json").get().fixes.count == 3)
    #expect(try google("timeline-ios.json").get().visits.count == 1)
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

extension Array where Element == UInt8 {
  fileprivate func withPrefix(_ text: String) -> [UInt8] { Array(text.utf8) + self }
}
