import GeoPhotoCore
import Testing

/// The capture time's text as the index stores it: read from a row's bytes, and written back
/// digit by digit.
@Suite struct CaptureDateTextTests {
  static func parsed(_ text: String) -> CaptureDate? {
    var text = text
    return text.withUTF8 { CaptureDate(iso8601UTF8: $0) }
  }

  @Test(arguments: [
    (
      "2024-05-03T23:30:00+09:00",
      CaptureDate(year: 2024, month: 5, day: 3, hour: 23, minute: 30, utcOffsetMinutes: 540)
    ),
    ("2019-04-02T00:17:13", CaptureDate(year: 2019, month: 4, day: 2, hour: 0, minute: 17, second: 13)),
    (
      "2001-12-31T23:59:59Z",
      CaptureDate(year: 2001, month: 12, day: 31, hour: 23, minute: 59, second: 59, utcOffsetMinutes: 0)
    ),
    ("1999-01-01T06:00:00-03:30", CaptureDate(year: 1999, month: 1, day: 1, hour: 6, utcOffsetMinutes: -210)),
  ])
  func bytesReadAsTheTextDoes(text: String, expected: CaptureDate) {
    #expect(Self.parsed(text) == expected)
    #expect(Self.parsed(text) == CaptureDate(iso8601: text))
    #expect(expected.iso8601 == text)
  }

  @Test(arguments: [
    "", "2024-13-03T10:00:00", "2024-05-03T10:00:00+15:00", "2023-02-29T10:00:00", "garbage text here!!",
  ])
  func badTextIsNoTime(text: String) {
    #expect(Self.parsed(text) == nil)
  }

  /// Years outside four digits and negative fields take the general writer.
  @Test func fieldsBeyondTheirWidthsAreWrittenWhole() {
    #expect(CaptureDate(year: 12_345, month: 1, day: 2).dateString == "12345-01-02")
    #expect(CaptureDate(year: 987, month: 11, day: 30).dateString == "0987-11-30")
    #expect(CaptureDate(year: 2024, month: 5, day: 3, hour: 4, minute: 5, second: 6).iso8601 == "2024-05-03T04:05:06")
  }
}
