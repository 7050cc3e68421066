import GeoPhotoCore

/// An instant as track files write one, read as seconds since 1970 (UTC).
///
/// ISO 8601 (`2024-05-02T08:41:10Z`, `…10.120Z`, `…10+01:00`, `…10+0100`, a space for the `T`)
/// and EXIF's `2024:05:02 08:41:10`. A time with no zone is read as UTC, as exiftool reads it,
/// and says so (`zoned` false) so the reader can warn once per file.
public struct TrackTime: Equatable, Sendable {
  public var seconds: Double
  public var zoned: Bool

  public init(seconds: Double, zoned: Bool) {
    self.seconds = seconds
    self.zoned = zoned
  }

  public init?(_ text: some StringProtocol) {
    var body = Substring(text).drop { $0 == " " }
    while body.last == " " { body = body.dropLast() }
    var offsetMinutes = 0
    var zoned = true
    if body.hasSuffix("Z") || body.hasSuffix("z") {
      body = body.dropLast()
    } else if body.count > 19, let offset = Self.offset(body.dropFirst(19)) {
      offsetMinutes = offset.minutes
      body = body.dropLast(offset.length)
    } else {
      zoned = false
    }
    var fraction = 0.0
    if body.count > 19 {
      let tail = body.dropFirst(19)
      guard tail.first == "." || tail.first == ",", tail.count > 1, tail.count <= 10,
        tail.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }), let value = Double("0." + tail.dropFirst())
      else { return nil }
      fraction = value
      body = body.prefix(19)
    }
    guard body.count == 19, let date = CaptureDate(exif: String(body)) else { return nil }
    self.init(seconds: Double(date.localSecondsSinceEpoch - offsetMinutes * 60) + fraction, zoned: zoned)
  }

  /// A zone at the end of the text after the seconds: `+01:00`, `+0100` or `+01`, and the
  /// number of characters it takes.
  private static func offset(_ tail: Substring) -> (minutes: Int, length: Int)? {
    guard let sign = tail.lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
    let zone = tail[sign...]
    let digits = zone.dropFirst().filter { $0 != ":" }
    guard [2, 4].contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      zone.count == digits.count + 1 || (zone.count == 6 && zone.dropFirst(3).first == ":"),
      let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : digits.dropFirst(2)),
      hours <= 14, minutes < 60
    else { return nil }
    return ((zone.first == "-" ? -1 : 1) * (hours * 60 + minutes), zone.count)
  }
}
