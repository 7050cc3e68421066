import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTracks

/// CSV tracks and DJI flight logs: exiftool's DJI sample and exiftool-style files against
/// exiftool's own geotagging from the same files; one track written in many spellings against
/// the numbers the test wrote; damaged and hostile files.
@Suite struct CSVTrackTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/corpora/exiftool-images")
  static let dji = "Geotag_DJI_2020-12-02_[07-50-31].csv"
  static var corpusPresent: Bool {
    FileManager.default.fileExists(atPath: corpus.appendingPathComponent(dji).path)
      && FileManager.default.fileExists(atPath: corpus.appendingPathComponent("Text.csv").path)
  }
  static var ready: Bool { ExiftoolGeotag.isInstalled && corpusPresent }

  func corpusBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
  }

  /// Seconds since 1970 of a UTC time written `2020:12:02 07:50:31Z`, read by Foundation.
  func seconds(_ instant: String) -> Double {
    ExiftoolGeotag.format("yyyy:MM:dd HH:mm:ss'Z'").date(from: instant)!.timeIntervalSince1970
  }

  func scratch() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-csv-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// geophoto's position from `fixes` against exiftool's from the file, at each instant.
  func agree(_ fixes: [Fix], _ track: URL, at instants: [Double], environment: [String: String] = [:]) throws {
    let timeline = Timeline(fixes)
    for instant in instants {
      let theirs = try #require(
        try ExiftoolGeotag.position(from: track, at: instant, environment: environment),
        "exiftool placed nothing at \(ExiftoolGeotag.text(instant)) from \(track.lastPathComponent)")
      guard case .placed(let c, let altitude, _)? = timeline.locate(at: instant) else {
        Issue.record("geophoto placed nothing at \(ExiftoolGeotag.text(instant)) from \(track.lastPathComponent)")
        continue
      }
      #expect(
        abs(c.latitude - theirs[0]) < 1e-6 && abs(c.longitude - theirs[1]) < 1e-6,
        "\(track.lastPathComponent) at \(ExiftoolGeotag.text(instant)): \(c) vs \(theirs)")
      #expect(
        (altitude == nil) == (theirs.count == 2), "\(track.lastPathComponent): altitude \(String(describing: altitude))"
      )
      if let altitude, theirs.count == 3 { #expect(abs(altitude - theirs[2]) < 1e-3) }
    }
  }

  // MARK: exiftool's sample and exiftool's conventions

  @Test(.enabled(if: ready, "needs exiftool and ../shared/corpora"))
  func djiLogGivesExiftoolsPositions() throws {
    let bytes = try corpusBytes(Self.dji)
    let file = Self.corpus.appendingPathComponent(Self.dji)
    let start = seconds("2020:12:02 07:50:31Z")
    let utc = try CSVTrackReader.read(bytes, name: Self.dji, zoneOffsetSeconds: 0)
    #expect(utc.fixes.count == 92 && utc.notes.isEmpty)
    #expect(utc.fixes.first?.time == start + 0.3 && utc.fixes.last?.time == start + 10)
    try agree(
      utc.fixes, file, at: [start + 0.35, start + 2, start + 4.04, start + 7.77, start + 10], environment: ["TZ": "UTC"]
    )
    // The file name's wall time in New Zealand's summer zone (+13:00), as exiftool reads it there.
    let auckland = try CSVTrackReader.read(bytes, name: Self.dji, zoneOffsetSeconds: 13 * 3_600)
    #expect(auckland.fixes.first?.time == start - 46_800 + 0.3)
    try agree(auckland.fixes, file, at: [start - 46_800 + 5.55], environment: ["TZ": "Pacific/Auckland"])
    // No zone given: UTC, and a note says so.
    let unzoned = try CSVTrackReader.read(bytes, name: "/some/folder/" + Self.dji)
    #expect(unzoned.fixes == utc.fixes)
    #expect(unzoned.notes == ["the start time in the file name, 2020-12-02T07:50:31, read as UTC (no zone given)"])
    #expect(CSVTrackReader.looksLikeTrack(head: Array(bytes.prefix(200))))
  }

  @Test func aRenamedDJILogSaysItsStartIsMissing() throws {
    let log = "Id,Time(seconds),Time(text),Latitude,Longitude\r\n1,0.3,0m 0.3s,-44.69009395,170.42456545\r\n"
    #expect(
      throws: TrackReadError(
        "dji.csv",
        "the start time is missing: this log counts its times from the start of the flight, which only its original "
          + "file name gives (…_YYYY-MM-DD_[HH-MM-SS].csv)")
    ) {
      try CSVTrackReader.read(Array(log.utf8), name: "dji.csv", zoneOffsetSeconds: 0)
    }
    // Milliseconds since the start, by another exporter's name.
    let ms = "time(millisecond),latitude,longitude\n250,47.3769,8.5417\n7750,47.377,8.5418\n"
    let read = try CSVTrackReader.read(Array(ms.utf8), name: "Log_2024-05-13_[10-00-00].csv", zoneOffsetSeconds: 7_200)
    #expect(read.fixes.map(\.time) == [seconds("2024:05:13 08:00:00Z") + 0.25, seconds("2024:05:13 08:00:07Z") + 0.75])
  }

  @Test func startTimesInFileNamesAreFoundAsExiftoolFindsThem() {
    let cases: [(String, CaptureDate?)] = [
      (
        "Geotag_DJI_2020-12-02_[07-50-31].csv",
        CaptureDate(year: 2020, month: 12, day: 2, hour: 7, minute: 50, second: 31)
      ),
      (
        "/a/2019-01-01/DJIFlightRecord_2021-03-04_[10-11-12].csv",
        CaptureDate(year: 2021, month: 3, day: 4, hour: 10, minute: 11, second: 12)
      ),
      ("2024-05-13 08-41-10.csv", CaptureDate(year: 2024, month: 5, day: 13, hour: 8, minute: 41, second: 10)),
      ("dji.csv", nil), ("2024-05-13.csv", nil), ("2024-13-02_[07-50-31].csv", nil), ("2024-05-13_[25-00-00].csv", nil),
      ("2024-05-1307-50-31", nil),
    ]
    for (name, start) in cases { #expect(CSVTrackReader.startTime(inFileName: name) == start, "\(name)") }
  }

  @Test(.enabled(if: ExiftoolGeotag.isInstalled, "needs exiftool"))
  func exiftoolStyleCSVsGiveExiftoolsPositions() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Its documented headings, a zone, and degrees-minutes-seconds with hemispheres.
    let gps = """
      GPSDateTime,GPSLatitude,GPSLongitude,GPSAltitude,Speed (km/h)
      2024:05:02 08:41:00Z,38.71102,-9.14251,61,3.2
      2024:05:02 10:41:30+02:00,38 42 38.16 N,9 8 27.78 W,58.5,4.0
      2024:05:02 08:42:10Z,38.71302,-9.14451,65,3.0

      """
    // Hemispheres in their own columns, as `exiftool -csv` writes them.
    let refs = """
      SourceFile,GPSDateTime,GPSLatitude,GPSLatitudeRef,GPSLongitude,GPSLongitudeRef,GPSAltitude
      a.jpg,2024:05:02 08:41:00Z,33.86,S,151.2,E,10
      b.jpg,2024:05:02 08:41:40Z,33.87,South,151.21,E,14
      c.jpg,2024:05:02 08:42:00Z,-33.88,S,70.1,W,18

      """
    // Date and time apart, the date day first.
    let dayFirst = """
      date,time,lat,lon,alt
      02/05/2024,08:41:00,38.71102,-9.14251,61
      02/05/2024,08:41:30.5,38.71202,-9.14351,65

      """
    for (name, text, instants, notes) in [
      ("gps.csv", gps, ["2024:05:02 08:41:15Z", "2024:05:02 08:41:50Z", "2024:05:02 08:41:30Z"], [String]()),
      ("refs.csv", refs, ["2024:05:02 08:41:20Z", "2024:05:02 08:41:59Z"], []),
      (
        "dayfirst.csv", dayFirst, ["2024:05:02 08:41:10Z"],
        [
          "dates such as 02/05/2024 read day first (DD/MM/YYYY), as exiftool reads them",
          "2 times without a zone read as UTC",
        ]
      ),
    ] {
      let file = folder.appendingPathComponent(name)
      try text.write(to: file, atomically: true, encoding: .utf8)
      let read = try CSVTrackReader.read(Array(text.utf8), name: name)
      #expect(read.notes == notes, "\(name)")
      try agree(read.fixes, file, at: instants.map(seconds))
    }
    let read = try CSVTrackReader.read(Array(refs.utf8), name: "refs.csv")
    #expect(read.fixes.map(\.coordinate.latitude) == [-33.86, -33.87, -33.88])
    #expect(read.fixes.map(\.coordinate.longitude) == [151.2, 151.21, -70.1])
  }

  // MARK: One track, many spellings

  /// The track the spellings carry, made here: 13 May 2024 from 10:00:00.25 UTC, a fix every
  /// 7.5 s, positions with seven decimals (written and read back exactly), altitudes in metres.
  static let points: [(time: Double, latitude: Double, longitude: Double, altitude: Double)] = (0..<12).map {
    (i: Int) -> (time: Double, latitude: Double, longitude: Double, altitude: Double) in
    let time: Double = 1_715_594_400.25 + 7.5 * Double(i)
    let latitude: Double = Double(473_769_000 + 1_370 * i) / 1e7
    let longitude: Double = Double(-85_417_000 + 2_110 * i) / 1e7
    return (time, latitude, longitude, 408.5 + 1.25 * Double(i))
  }

  /// One line per point, from the point's fields as text.
  func rows(_ row: (_ time: Double, _ latitude: String, _ longitude: String, _ altitude: Double) -> String) -> String {
    Self.points.map {
      row($0.time, String(format: "%.7f", $0.latitude), String(format: "%.7f", $0.longitude), $0.altitude)
    }
    .joined()
  }

  func text(_ instant: Double, _ pattern: String, zone: String = "UTC") -> String {
    let format = ExiftoolGeotag.format(pattern)
    format.timeZone = TimeZone(identifier: zone)
    return format.string(from: ExiftoolGeotag.date(instant))
  }

  func decimalComma(_ number: String) -> String { number.replacingOccurrences(of: ".", with: ",") }

  @Test func oneTrackInManySpellingsGivesTheSameFixes() throws {
    let iso = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
    let spellings: [(String, String, [String])] = [
      ("iso.csv", "time,lat,lon,ele\n" + rows { "\(text($0, iso)),\($1),\($2),\($3)\n" }, []),
      (
        "epoch.csv",
        "timestamp,latitude,longitude,altitude\n" + rows { "\(String(format: "%.2f", $0)),\($1),\($2),\($3)\n" }, []
      ),
      ("epoch-ms.csv", "Timestamp,Lat,Lng,Alt\n" + rows { "\(Int64($0 * 1_000)),\($1),\($2),\($3)\n" }, []),
      (
        "date-time.csv",
        "Date,Time,Lat,Long,Elevation\n"
          + rows { "\(text($0, "yyyy-MM-dd")),\(text($0, "HH:mm:ss.SSS")),\($1),\($2),\($3)\n" },
        ["12 times without a zone read as UTC"]
      ),
      (
        "semicolons.csv",
        "Date Time;Latitude;Longitude;Height\n"
          + rows {
            "\(text($0, "dd/MM/yyyy HH:mm:ss.SSS"));\(decimalComma($1));\($2);\(decimalComma(String($3)))\n"
          },
        ["12 times without a zone read as UTC"]
      ),
      (
        "month-first.csv",
        "datetime(utc),latitude,longitude\n"
          + rows { t, lat, lon, _ in "\(text(t, "MM/dd/yyyy HH:mm:ss.SS")),\(lat),\(lon)\n" },
        ["dates read month first (MM/DD/YYYY): some cannot be day first"]
      ),
      (
        "tabs-feet.csv",
        "lat\tlon\ttime\talt [ft]\n"
          + rows {
            "\($1)\t\($2)\t\(text($0, "yyyy:MM:dd HH:mm:ss.SSSxxx", zone: "Europe/Zurich"))\t\(String(format: "%.6f", $3 / 0.3048))\n"
          }, []
      ),
      (
        "quoted.csv",
        "\u{FEFF}\"Latitude\",\"Longitude\",\"GPS Date Time\",\"Note\"\r\n"
          + rows { t, lat, lon, _ in
            "\"\(lat)\",\"\(lon)\",\"\(text(t, iso))\",\"a, \"\"quoted\"\"\r\nnote; with\ttabs\"\r\n"
          }, []
      ),
      (
        "flight-record.csv",
        "sep=;\nOSD.latitude;OSD.longitude;CUSTOM.dateTime [UTC];OSD.altitude [ft];HOME.latitude\n"
          + rows { "\($1);\($2);\(text($0, "yyyy-MM-dd HH:mm:ss.SSS"));\(String(format: "%.6f", $3 / 0.3048));1.0\n" },
        []
      ),
      (
        "exiftool-csv.csv",
        "SourceFile,GPSDateStamp,GPSTimeStamp,GPSLatitude,GPSLatitudeRef,GPSLongitude,GPSLongitudeRef,GPSAltitude\n"
          + rows {
            "x.jpg,\(text($0, "yyyy:MM:dd")),\(text($0, "HH:mm:ss.SS")),\($1),North,\($2.dropFirst()),W,\($3)\n"
          },
        ["12 times without a zone read as UTC"]
      ),
    ]
    for (name, file, notes) in spellings {
      let read = try CSVTrackReader.read(Array(file.utf8), name: name)
      #expect(read.notes == notes, "\(name)")
      try #require(read.fixes.count == Self.points.count, "\(name): \(read.fixes.count) fixes")
      let hasAltitude = !["month-first.csv", "quoted.csv"].contains(name)
      for (fix, point) in zip(read.fixes, Self.points) {
        #expect(fix.time == point.time, "\(name): \(fix.time) vs \(point.time)")
        #expect(
          fix.coordinate.latitude == point.latitude && fix.coordinate.longitude == point.longitude,
          "\(name): \(fix.coordinate)")
        if hasAltitude {
          #expect(abs((fix.altitude ?? .nan) - point.altitude) < 1e-6, "\(name): \(String(describing: fix.altitude))")
        } else {
          #expect(fix.altitude == nil)
        }
      }
      #expect(CSVTrackReader.looksLikeTrack(head: Array(file.utf8.prefix(120))), "\(name)")
    }
  }

  /// A full time to the second and a count of milliseconds, as Airdata's exports have both: the
  /// count gives the spacing, the times (cut to the second) the start.
  @Test func wholeSecondTimesAndAMillisecondCountGiveTheExactInstants() throws {
    let start = seconds("2024:05:13 10:00:00Z") + 0.375
    /// The file, and the instants of its rows; after `pause` rows the clock runs 10 s on while
    /// the count stands still.
    func file(pause: Int) -> (String, [Double]) {
      var file = "time(millisecond),datetime(utc),latitude,longitude,altitude_above_seaLevel(feet)\n"
      var instants: [Double] = []
      for i in 0..<16 {
        let t = start + 0.125 * Double(i) + (i >= pause ? 10 : 0)
        instants.append(t)
        file += "\(125 * i),\(text(t.rounded(.down), "yyyy-MM-dd HH:mm:ss")),47.\(1000 + i),8.5,1000\n"
      }
      return (file, instants)
    }
    let (steady, instants) = file(pause: 16)
    let read = try CSVTrackReader.read(Array(steady.utf8), name: "airdata.csv")
    #expect(read.fixes.map(\.time) == instants && read.notes.isEmpty)
    #expect(abs((read.fixes.first?.altitude ?? 0) - 304.8) < 1e-3)
    // When the two disagree, the full times alone.
    let (paused, clock) = file(pause: 8)
    let times = try CSVTrackReader.read(Array(paused.utf8), name: "paused.csv").fixes.map(\.time)
    #expect(times == clock.map { $0.rounded(.down) })
  }

  // MARK: Refused, damaged and hostile files

  @Test(.enabled(if: corpusPresent, "needs ../shared/corpora"))
  func exiftoolsTextCSVIsNotATrack() throws {
    let bytes = try corpusBytes("Text.csv")
    #expect(!CSVTrackReader.looksLikeTrack(head: bytes))
    #expect(
      throws: TrackReadError("Text.csv", "not a track CSV (its header has no latitude, longitude or time column)")
    ) {
      try CSVTrackReader.read(bytes, name: "Text.csv")
    }
  }

  @Test func damagedRowsAreSkippedAndCounted() throws {
    let file = [
      "time,lat,lon,alt",  // 1
      "2024-05-13T10:00:00Z,47.1,8.1,400",  // 2: a fix
      "2024-05-13T10:00:05Z,,,400",  // 3: no position
      "2024-05-13T10:00:10Z,0,0,400",  // 4: no fix (0, 0)
      "2024-05-13T10:00:15Z,abc,8.1,400",  // 5: a position that is none
      "2024-05-13T10:00:20Z,91,8.1,400",  // 6: out of range
      "2024-05-13T10:00:25Z,1e400,8.1,400",  // 7: not finite
      "2024-05-13T10:00:30Z,nan,8.1,400",  // 8: not a number
      "yesterday,47.2,8.2,400",  // 9: a time that is none
      "99999999999999999999999,47.2,8.2,400",  // 10: an epoch past any date
      "2024-05-13T10:00:40Z,47.3,8.3,1e400",  // 11: a fix without its altitude
      ",,,",  // 12: blank
      "2024-05-13T10:00:45Z,47.4,8.4,nan",  // 13: a fix without its altitude
      "2024-05-13T10:00:50Z,47.5,-180.000001,400",  // 14: out of range
      "2024-05-13T10:00:55Z,47.6,8.6,\"400\"",  // 15: a fix
      "\"2024-05-13T10:01:00Z,47.7,8.7,400",  // 16: a quote never closed
    ].joined(separator: "\n")
    let read = try CSVTrackReader.read(Array(file.utf8), name: "damaged.csv")
    #expect(read.fixes.map(\.coordinate.latitude) == [47.1, 47.3, 47.4, 47.6])
    #expect(read.fixes.map(\.altitude) == [400, nil, nil, 400])
    #expect(
      read.notes == [
        "2 rows without a position skipped", "5 rows whose position cannot be read skipped (the first on line 5)",
        "2 rows whose time cannot be read skipped (the first on line 9)",
        "1 row with a quote never closed skipped (the first on line 16)",
      ])
  }

  @Test func filesWithNothingUsableSayWhereAndWhy() {
    func read(_ text: String) throws(TrackReadError) { try read(Array(text.utf8)) }
    func read(_ bytes: [UInt8]) throws(TrackReadError) { _ = try CSVTrackReader.read(bytes, name: "f.csv") }
    #expect(throws: TrackReadError("f.csv", line: 3, "no time in \"yesterday\"")) {
      try read("time,lat,lon\n\nyesterday,47.2,8.2\ntomorrow,47.3,8.3\n")
    }
    #expect(throws: TrackReadError("f.csv", line: 2, "no position in \"47.2.1\", \"8.2\"")) {
      try read("date,time,lat,lon\r\n2024-05-13,10:00:00,47.2.1,8.2\r\n")
    }
    #expect(throws: TrackReadError("f.csv", line: 2, "no time in \"25:00:00\", \"2024-05-13\"")) {
      try read("date,time,lat,lon\r\n2024-05-13,25:00:00,47.2,8.2\r\n")
    }
    #expect(throws: TrackReadError("f.csv", "no rows after the header")) { try read("time,lat,lon\n") }
    #expect(throws: TrackReadError("f.csv", "no row has a position")) {
      try read("time,lat,lon\n2024-05-13T10:00:00Z,,\n")
    }
    #expect(throws: TrackReadError("f.csv", "not a track CSV (its header has no time column)")) {
      try read("lat,lon\n1,2\n")
    }
    #expect(throws: TrackReadError("f.csv", "not a track CSV (no header)")) { try read("\r\n  \n") }
    #expect(throws: TrackReadError("f.csv", "UTF-16 text; a CSV track must be saved as UTF-8")) {
      try read("\u{FEFF}lat,lon,time\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }
  }

  @Test func hostileFilesNeverCrash() throws {
    // A 10,000-column header, the track's columns last.
    let wide = (0..<10_000).map { "c\($0)" }.joined(separator: ",") + ",lat,lon,time\n"
    let row = String(repeating: ",", count: 10_000) + "47.1,8.1,2024-05-13T10:00:00Z\n"
    #expect(try CSVTrackReader.read(Array((wide + row).utf8), name: "wide.csv").fixes.count == 1)
    #expect(CSVTrackReader.looksLikeTrack(head: Array(wide.utf8)))
    // A megabyte in one quoted field: an ignored column, then the latitude, then the header.
    let mega = "\"" + String(repeating: "x\"\",\n", count: 200_000) + "\""
    let ignored = "lat,lon,time,note\n47.1,8.1,2024-05-13T10:00:00Z,\(mega)\n47.2,8.2,2024-05-13T10:00:01Z,\n"
    #expect(try CSVTrackReader.read(Array(ignored.utf8), name: "mega.csv").fixes.count == 2)
    #expect(throws: TrackReadError.self) {
      try CSVTrackReader.read(Array("lat,lon,time\n\(mega),8.1,2024-05-13T10:00:00Z\n".utf8), name: "mega.csv")
    }
    #expect(throws: TrackReadError.self) { try CSVTrackReader.read(Array("\(mega),lon,time\n".utf8), name: "m.csv") }
    // Numbers past any range, and no end to a line.
    let extremes = [
      "1e400", "-1e400", "nan", "inf", "-infinity", "0x1p3", "1e-400", String(repeating: "9", count: 400), "", "-", ".",
      "+", "1e", "𝟗", "\u{0}",
    ]
    for value in extremes {
      for file in [
        "lat,lon,time\n\(value),8.1,2024-05-13T10:00:00Z\n", "lat,lon,time\n47.1,8.1,\(value)\n",
        "lat,lon,time(seconds)\n47.1,8.1,\(value)\n", "lat,lon,alt,time\n47.1,8.1,\(value),1715594400\n",
        "date,time,lat,lon\n\(value),\(value),47.1,8.1\n",
      ] {
        _ = try? CSVTrackReader.read(Array(file.utf8), name: "x_2024-05-13_[10-00-00].csv", zoneOffsetSeconds: Int.max)
      }
    }
    _ = try? CSVTrackReader.read(
      Array("lat,lon,time(seconds)\n47.1,8.1,1e10\n".utf8), name: "x_2024-05-13_[10-00-00].csv",
      zoneOffsetSeconds: Int.min)
    let endless = "lat,lon,time\n" + String(repeating: "47.1,", count: 200_000)
    #expect(throws: TrackReadError.self) { try CSVTrackReader.read(Array(endless.utf8), name: "endless.csv") }
    // Bytes that are no text at all.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let noise = (0..<200_000).map { _ -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    _ = try? CSVTrackReader.read(noise, name: "noise.csv")
    _ = try? CSVTrackReader.read(Array("lat,lon,time\n".utf8) + noise, name: "noise.csv")
    for tiny in [
      "", "\"", "\u{FEFF}", "sep=", "sep=;", ",", "\n\n\n", "\"lat\",\"lon\",\"time\"\n\"", "lat;lon;time\n\"\"\"\n",
    ] {
      _ = try? CSVTrackReader.read(Array(tiny.utf8), name: "tiny.csv")
      _ = CSVTrackReader.looksLikeTrack(head: Array(tiny.utf8))
    }
  }

  @Test func headingsAreReadAsTheirNamesSay() {
    #expect(CSVHeading("GPS Date Time") == CSVHeading(name: "datetime", unit: nil))
    #expect(CSVHeading("Time(seconds)") == CSVHeading(name: "time", unit: "seconds"))
    #expect(CSVHeading("OSD.height [ft]") == CSVHeading(name: "height", unit: "ft"))
    #expect(CSVHeading("altitude_above_seaLevel(feet)") == CSVHeading(name: "altitudeabovesealevel", unit: "feet"))
    let dji = CSVColumns(["Id", "Time(seconds)", "Time(text)", "Latitude", "Longitude"].map(CSVHeading.init))
    #expect(dji.relative == 1 && dji.time == nil && dji.latitude == 3 && dji.longitude == 4)
    // The first of the best kind: the drone's position, not the home point's; metres over feet.
    let record = CSVColumns(
      ["HOME.latitude", "OSD.latitude", "OSD.longitude", "alt_msl", "OSD.altitude [ft]", "gpstime"].map(
        CSVHeading.init))
    #expect(record.latitude == 1 && record.longitude == 2 && record.altitude == 4 && record.altitudeInFeet)
    #expect(record.time == 5)
    // A unit that is not a length is not an altitude.
    #expect(CSVColumns(["alt(km)"].map(CSVHeading.init)).altitude == nil)
  }
}
