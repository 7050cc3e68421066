import Foundation
import Testing

@testable import GeoPhotoTracks

@Suite struct TrackTimeTests {
  /// Foundation's reading of the same instant, the oracle.
  func foundation(_ text: String) -> Double {
    let format = ISO8601DateFormatter()
    format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = format.date(from: text) { return date.timeIntervalSince1970 }
    format.formatOptions = [.withInternetDateTime]
    return format.date(from: text)!.timeIntervalSince1970
  }

  @Test func zonedFormsAgreeWithFoundation() throws {
    for text in [
      "2024-05-02T08:41:10Z", "2024-05-02T08:41:10.120Z", "2024-05-02T09:55:12.000+01:00",
      "2013-11-13T01:03:34.245-08:00",
      "2024-12-31T23:59:59+14:00", "2024-02-29T00:00:00-09:30",
    ] {
      let time = try #require(TrackTime(text), "\(text)")
      #expect(time.zoned)
      #expect(abs(time.seconds - foundation(text)) < 1e-6, "\(text)")
    }
    #expect(TrackTime("2024-05-02T09:55:12+0100")?.seconds == foundation("2024-05-02T08:55:12Z"))
    #expect(TrackTime("2024-05-02 09:55:12+01")?.seconds == foundation("2024-05-02T08:55:12Z"))
  }

  @Test func zonelessTimesAreUTCAndSaySo() throws {
    let time = try #require(TrackTime("2024:05:02 08:41:10.5"))
    #expect(!time.zoned && time.seconds == foundation("2024-05-02T08:41:10.5Z"))
    #expect(TrackTime("2024-05-02T08:41:10")?.zoned == false)
  }

  @Test func notTimesAreRefused() {
    for text in [
      "", "2024-05-02", "2024-13-02T08:41:10Z", "2024-02-30T08:41:10Z", "2024-05-02T08:41:10.Z",
      "2024-05-02T08:41:10+15:00",
      "2024-05-02T08:41:10.1e5Z", "2024-05-02T08:41:10+01:0", "yesterday", "2024-05-02T08:41:10.nanZ",
    ] {
      #expect(TrackTime(text) == nil, "\(text)")
    }
  }

  /// The reading of bytes (a fast path for the common forms) is the reading of text.
  @Test func bytesAreReadAsTheirText() {
    var texts = [
      "2024-05-02T08:41:10Z", "2024-05-02T08:41:10.120Z", "2024-05-02T09:55:12.000+01:00", "2024-05-02 09:55:12-09:30",
      "2024-05-02T08:41:10", "2024-05-02T08:41:10.5", "2024-05-02T08:41:10.123456789Z",
      "2024-05-02T08:41:10.1234567890Z",
      "2024-05-02T08:41:10.Z", "2024-05-02T08:41:10z", "2024-05-02T08:41:10,5Z", "2024-05-02T08:41:10+0100",
      "2024-05-02T08:41:10+01", "2024-05-02T08:41:10+15:00", "2024-05-02T08:41:10+01:60", "2024:05:02 08:41:10",
      " 2024-05-02T08:41:10Z ", "2024-02-30T08:41:10Z", "2024-05-02T24:00:00Z", "2016-12-31T23:59:60Z",
      "1799-12-31T23:59:59Z", "1800-01-01T00:00:00Z", "2200-12-31T23:59:59.999-14:00", "2201-01-01T00:00:00Z",
      "2024-05-02T08:41:1OZ", "2024-05-02T08:41:10+01:00 ", "", "2024",
    ]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let zone = ["Z", "", "+05:45", "-12:00", "+14:00"].randomElement(using: &random)!
      let fraction = ["", ".5", ".120", ".000000001", ".999999999"].randomElement(using: &random)!
      texts.append(
        String(
          format: "%04d-%02d-%02dT%02d:%02d:%02d", Int.random(in: 1799...2201), Int.random(in: 0...13),
          Int.random(in: 0...32), Int.random(in: 0...24), Int.random(in: 0...60), Int.random(in: 0...61)) + fraction
          + zone)
    }
    for text in texts {
      var copy = text
      let fromBytes = copy.withUTF8 { TrackTime(utf8: $0) }
      #expect(fromBytes == TrackTime(text), "\(text)")
    }
  }
}
