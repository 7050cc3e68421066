import Testing

@testable import GeoPhotoCore

@Suite struct InputParserTests {
  @Test(arguments: [
    ("35.68,139.76", 35.68, 139.76), ("35.68, 139.76", 35.68, 139.76), (" -33.8568 ,151.2153", -33.8568, 151.2153),
    ("+1,-2", 1, -2), ("90,180", 90, -180), ("-90,-180", -90, -180), ("0,0", 0, 0), (".5,-.25", 0.5, -0.25),
  ])
  func acceptsCoordinates(text: String, lat: Double, lon: Double) throws {
    let c = try InputParser.coordinate(text)
    #expect(c.latitude == lat && c.longitude == lon)
  }

  @Test(arguments: [
    "", "35.68", "35.68,", ",139.76", "35.68,139.76,1", "nan,0", "0,inf", "1e1,2", "0x10,5", "abc,def",
    "35.68;139.76", "91,0", "0,180.5", "-90.0001,0", "35..6,1", "--1,2", "1,2-",
  ])
  func rejectsBadCoordinates(text: String) {
    #expect(throws: InputParser.Failure.self) { try InputParser.coordinate(text) }
  }

  @Test func outOfRangeMessagesNameTheValue() {
    #expect(throws: InputParser.Failure("latitude 91 is out of range (-90...90)")) {
      try InputParser.coordinate("91,0")
    }
    #expect(throws: InputParser.Failure("longitude -181 is out of range (-180...180)")) {
      try InputParser.coordinate("0,-181")
    }
  }

  @Test(arguments: [("500", 500.0), ("500m", 500), ("2km", 2000), ("2.5 km", 2500), ("1mi", 1609.344), ("3KM", 3000)])
  func acceptsDistances(text: String, metres: Double) throws {
    #expect(try InputParser.distance(text) == metres)
  }

  @Test(arguments: ["", "0", "-5km", "km", "5 parsecs", "nan", "1e3", "30000km"])
  func rejectsBadDistances(text: String) {
    #expect(throws: InputParser.Failure.self) { try InputParser.distance(text) }
  }
}

@Suite struct CaptureDateTests {
  @Test func parsesExifForm() throws {
    let d = try #require(CaptureDate(exif: "2024:05:03 14:05:09"))
    #expect(d.iso8601 == "2024-05-03T14:05:09")
    #expect(d.dateString == "2024-05-03")
  }

  @Test(arguments: [
    "", "    :  :     :  :  ", "0000:00:00 00:00:00", "2024:13:01 00:00:00", "2023:02:29 10:00:00", "garbage",
  ])
  func rejectsUnknownDates(text: String) {
    #expect(CaptureDate(exif: text) == nil)
  }

  @Test func offsetsAndInstants() throws {
    #expect(CaptureDate.parseOffset("+09:00") == 540)
    #expect(CaptureDate.parseOffset("-05:30") == -330)
    #expect(CaptureDate.parseOffset("09:00") == nil)
    #expect(CaptureDate.parseOffset("+25:00") == nil)
    var d = try #require(CaptureDate(exif: "1970:01:02 09:00:00"))
    #expect(d.instant == nil)
    d.utcOffsetMinutes = 540
    #expect(d.instant == 86_400)
    #expect(d.iso8601 == "1970-01-02T09:00:00+09:00")
    #expect(CaptureDate(iso8601: d.iso8601) == d)
    d.utcOffsetMinutes = 0
    #expect(CaptureDate(iso8601: "1970-01-02T09:00:00Z") == d)
    #expect(CaptureDate(iso8601: "2024-02-29T23:59:59")?.localSecondsSinceEpoch == 1_709_251_199)
  }

  /// The text of random capture times, against the same fields spelled by `String(format:)`.
  @Test func captureTimesSpellEveryField() {
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let offset: Int? = Bool.random(using: &rng) ? nil : Int.random(in: -14 * 60...14 * 60, using: &rng)
      let d = CaptureDate(
        year: Int.random(in: 1...9_999, using: &rng), month: Int.random(in: 1...12, using: &rng),
        day: Int.random(in: 1...28, using: &rng), hour: Int.random(in: 0...23, using: &rng),
        minute: Int.random(in: 0...59, using: &rng), second: Int.random(in: 0...59, using: &rng),
        utcOffsetMinutes: offset)
      let day = String(format: "%04d-%02d-%02d", d.year, d.month, d.day)
      var zone = ""
      if let offset {
        zone =
          offset == 0 ? "Z" : String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
      }
      #expect(d.dateString == day)
      #expect(d.iso8601 == day + String(format: "T%02d:%02d:%02d", d.hour, d.minute, d.second) + zone)
      #expect(d.withISO8601 { Array($0) } == Array(d.iso8601.utf8))
    }
  }

  /// Capture times as indexes keep them, against instants computed with Python's datetime.
  @Test func indexCaptureTimesReadBack() {
    let cases: [(String, Int?, Int?)] = [
      ("2024-05-03T14:05:09+09:00", 1_714_712_709, 540), ("2023-12-31T23:59:59-03:30", 1_704_079_799, -210),
      ("1999-01-01T00:00:00Z", 915_148_800, 0), ("2024-05-03T14:05:09", nil, nil),
    ]
    for (text, instant, offset) in cases {
      let date = CaptureDate(iso8601: text)
      #expect(date != nil && date?.instant == instant && date?.utcOffsetMinutes == offset, "\(text)")
      #expect(date?.iso8601 == text)
    }
    for bad in ["2024-13-03T14:05:09", "2024-05-03T14:05:09+15:00", "2024-05-03T14:05:09+0900"] {
      #expect(CaptureDate(iso8601: bad) == nil, "\(bad)")
    }
  }

  /// One rule for every box, from the command line or a map: wrapped longitudes brought back,
  /// a box 360° wide the whole world, and each bad box refused naming what is wrong.
  @Test func boxes() throws {
    func box(_ text: String) throws -> [Double] {
      let b = try InputParser.boundingBox(text)
      return [b.west, b.south, b.east, b.north]
    }
    #expect(try box("139.6,35.6,139.9,35.8") == [139.6, 35.6, 139.9, 35.8])
    #expect(try box("170,-20,200,-10") == [170, -20, -160, -10])  // a map panned east past 180
    #expect(try box("-190,0,-170,1") == [170, 0, -170, 1])
    #expect(try box("-200,-90,200,90") == [-180, -90, 180, 90])
    #expect(try box("0,0,180,90") == [0, 0, 180, 90])
    #expect(try box("1,5,2,5") == [1, 5, 2, 5])  // south = north: a line of latitude
    for (text, words) in [
      ("1,2,3", "not a box"), ("a,b,c,d", "not a box"), ("1,2,3,4,5", "not a box"), ("nan,1,2,3", "not a box"),
      ("1,50,3,40", "south ≤ north"), ("1,-95,3,4", "±90"), ("600,1,2,3", "±540"),
    ] {
      #expect(throws: InputParser.Failure.self, "\(text)") { try InputParser.boundingBox(text) }
      do {
        _ = try InputParser.boundingBox(text)
      } catch {
        #expect(error.description.contains(words), "\(text): \(error.description)")
      }
    }
  }
}
