import GeoPhotoCore
import Testing

/// ISO 6709 points as video metadata writes them, and the timestamps beside them.
@Suite struct ISO6709Tests {
  @Test func decimalDegreesWithAndWithoutAltitude() throws {
    let eiffel = try #require(ISO6709Point("+48.8584+002.2945+035.500/"))
    #expect(eiffel.coordinate == Coordinate(latitude: 48.8584, longitude: 2.2945) && eiffel.altitude == 35.5)
    let android = try #require(ISO6709Point("+13.2979+100.9032/"))  // no altitude (nextcloud/maps#182)
    #expect(android.coordinate == Coordinate(latitude: 13.2979, longitude: 100.9032) && android.altitude == nil)
    let south = try #require(ISO6709Point("-33.8568-070.6693-012.250/"))
    #expect(south.coordinate == Coordinate(latitude: -33.8568, longitude: -70.6693) && south.altitude == -12.25)
    #expect(ISO6709Point("+35.6812+139.7671+040.000CRSWGS_84/")?.altitude == 40)
    #expect(ISO6709Point("+35.6812+139.7671")?.coordinate.latitude == 35.6812)  // no solidus
  }

  @Test func minutesAndSecondsForms() throws {
    // 48°51.5' N, 2°17.67' E and 48°51'30" N, 2°17'40" E.
    let minutes = try #require(ISO6709Point("+4851.50+00217.67/"))
    #expect(abs(minutes.coordinate.latitude - (48 + 51.5 / 60)) < 1e-12)
    #expect(abs(minutes.coordinate.longitude - (2 + 17.67 / 60)) < 1e-12)
    let seconds = try #require(ISO6709Point("-334130-0704010/"))
    #expect(abs(seconds.coordinate.latitude + (33 + 41.0 / 60 + 30.0 / 3600)) < 1e-12)
    #expect(abs(seconds.coordinate.longitude + (70 + 40.0 / 60 + 10.0 / 3600)) < 1e-12)
  }

  @Test func rejectsWhatIsNotAPoint() {
    for text in [
      "", "48.8584,2.2945", "+91.0+000.0/", "+48.85+190.0/", "+4861.0+00200.0/", "+48.8584/", "+48.8.5+002.2/",
      "+48.8584+002.2945junk",
    ] {
      #expect(ISO6709Point(text) == nil, "\(text)")
    }
  }

  @Test func timestampsWithEveryOffsetSpelling() {
    #expect(CaptureDate(timestamp: "2024-05-01T12:20:30+0200")?.iso8601 == "2024-05-01T12:20:30+02:00")
    #expect(CaptureDate(timestamp: "2024-05-01T12:20:30-04:00")?.iso8601 == "2024-05-01T12:20:30-04:00")
    #expect(CaptureDate(timestamp: "2024-05-01T16:20:30Z")?.utcOffsetMinutes == 0)
    #expect(CaptureDate(timestamp: "2024-05-01T16:20:30.125+09")?.utcOffsetMinutes == 540)
    #expect(CaptureDate(timestamp: "2024:05:01 12:20:30")?.utcOffsetMinutes == nil)  // floating
    #expect(CaptureDate(timestamp: "2024-05-01T12:20:30+2") == nil)
    #expect(CaptureDate(timestamp: "0000-00-00T00:00:00Z") == nil)
  }
}
