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

  /// The same reading of UTF-8 bytes, as JSON and XML readers hold them. The common forms
  /// (`2024-05-02T08:41:10`, a fraction of up to 9 digits, `Z` or `±HH:MM`) are read from the
  /// bytes, the others as text: a `Records.json` has millions of instants.
  public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    if let fast = Self.common(bytes) {
      self = fast
      return
    }
    guard bytes.count <= 64 else { return nil }
    self.init(String(decoding: bytes, as: UTF8.self))
  }

  private static func common(_ b: UnsafeBufferPointer<UInt8>) -> TrackTime? {
    guard b.count >= 19, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
      b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":")
    else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for i in start..<(start + count) {
        let digit = Int(b[i]) &- 48
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2)
    else { return nil }
    var i = 19
    var fraction = 0.0
    if i < b.count && b[i] == UInt8(ascii: ".") {
      var digits = 0
      var value = 0
      i += 1
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
        value = value * 10 + Int(b[i] - 0x30)
        digits += 1
        i += 1
        guard digits <= 9 else { return nil }
      }
      guard digits > 0 else { return nil }
      var scale = 1.0
      for _ in 0..<digits { scale *= 10 }
      fraction = Double(value) / scale
    }
    var offsetMinutes = 0
    var zoned = true
    switch b.count - i {
    case 0: zoned = false
    case 1 where b[i] == UInt8(ascii: "Z"): break
    case 6 where (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) && b[i + 3] == UInt8(ascii: ":"):
      guard let hours = number(i + 1, 2), let minutes = number(i + 4, 2), hours <= 14, minutes < 60 else { return nil }
      offsetMinutes = (b[i] == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    default: return nil
    }
    let date = CaptureDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard date.isValid else { return nil }
    return TrackTime(seconds: Double(date.localSecondsSinceEpoch - offsetMinutes * 60) + fraction, zoned: zoned)
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
