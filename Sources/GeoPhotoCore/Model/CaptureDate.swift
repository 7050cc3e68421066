/// When a photo was taken: the camera's wall-clock time, plus its UTC offset when known.
///
/// EXIF `DateTimeOriginal` carries no zone. Without `OffsetTimeOriginal` (or a GPS time to
/// infer it from) the time is kept floating: geophoto never assumes the machine's zone.
public struct CaptureDate: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int
  /// Minutes east of UTC, or `nil` when the zone is unknown.
  public var utcOffsetMinutes: Int?

  public init(
    year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
    utcOffsetMinutes: Int? = nil
  ) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
    self.utcOffsetMinutes = utcOffsetMinutes
  }

  /// Parses the EXIF form `YYYY:MM:DD HH:MM:SS` (also with `-` in the date or `T` between).
  /// Blank, all-zero and out-of-range values give `nil`.
  public init?(exif text: String) {
    if let fast = CaptureDate(fixedWidth: text) {
      self = fast
      return
    }
    let fields = text.split(whereSeparator: { ":- T".contains($0) })
    guard fields.count >= 3 else { return nil }
    let numbers = fields.prefix(6).map { Int($0.trimmingSpaces) }
    guard numbers.allSatisfy({ $0 != nil }) else { return nil }
    let n = numbers.map { $0 ?? 0 }
    let parts = n + Array(repeating: 0, count: max(0, 6 - n.count))
    self.init(
      year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
      second: parts[5])
    guard isValid else { return nil }
  }

  /// The common exact form `YYYY?MM?DD?HH?MM?SS` (19 characters, any separators), read
  /// without splitting strings: indexes load hundreds of thousands of these.
  private init?(fixedWidth text: String) {
    var text = text
    guard let date = text.withUTF8(Self.fixedWidth) else { return nil }
    self = date
  }

  /// `init(fixedWidth:)` of the text's bytes.
  private static func fixedWidth(_ b: UnsafeBufferPointer<UInt8>) -> CaptureDate? {
    guard b.count == 19 else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var v = 0
      for i in start..<(start + count) {
        let d = Int(b[i]) - 48
        guard d >= 0 && d <= 9 else { return nil }
        v = v * 10 + d
      }
      return v
    }
    guard let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2), let h = number(11, 2),
      let mi = number(14, 2), let s = number(17, 2)
    else { return nil }
    let date = CaptureDate(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    return date.isValid ? date : nil
  }

  /// `init(iso8601:)` of UTF-8 bytes, as an index's row lends them.
  public init?(iso8601UTF8 bytes: UnsafeBufferPointer<UInt8>) {
    if let fast = Self.fixedWidthISO8601(bytes) {
      self = fast
      return
    }
    self.init(iso8601: String(decoding: bytes, as: UTF8.self))
  }

  private init?(fixedWidthISO8601 text: String) {
    var text = text
    guard let parsed = text.withUTF8(Self.fixedWidthISO8601) else { return nil }
    self = parsed
  }

  /// `YYYY-MM-DDTHH:MM:SS`, then nothing, `Z` or `±HH:MM`, read byte by byte.
  private static func fixedWidthISO8601(_ b: UnsafeBufferPointer<UInt8>) -> CaptureDate? {
    let count = b.count
    guard count == 19 || count == 20 || count == 25,
      var date = Self.fixedWidth(UnsafeBufferPointer(rebasing: b[..<19]))
    else { return nil }
    switch count {
    case 19: return date
    case 20:
      guard b[19] == UInt8(ascii: "Z") else { return nil }
      date.utcOffsetMinutes = 0
      return date
    default:
      func digit(_ i: Int) -> Int? {
        let d = Int(b[i]) - 48
        return d >= 0 && d <= 9 ? d : nil
      }
      guard b[19] == UInt8(ascii: "+") || b[19] == UInt8(ascii: "-"), b[22] == UInt8(ascii: ":"),
        let h1 = digit(20), let h2 = digit(21), let m1 = digit(23), let m2 = digit(24)
      else { return nil }
      let (h, m) = (h1 * 10 + h2, m1 * 10 + m2)
      guard h <= 14, m < 60 else { return nil }
      date.utcOffsetMinutes = (b[19] == UInt8(ascii: "-") ? -1 : 1) * (h * 60 + m)
      return date
    }
  }

  /// The wall-clock time of an instant (seconds since the Unix epoch) in a zone `utcOffsetMinutes`
  /// east of UTC; with `nil` the time is given in UTC but recorded as floating.
  public init(secondsSinceEpoch: Int, utcOffsetMinutes: Int?) {
    let local = secondsSinceEpoch + (utcOffsetMinutes ?? 0) * 60
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    let rest = local - days * 86_400
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    self.init(
      year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d, hour: rest / 3600, minute: rest % 3600 / 60,
      second: rest % 60, utcOffsetMinutes: utcOffsetMinutes)
  }

  /// Parses `±HH:MM` (EXIF `OffsetTimeOriginal`) into minutes east of UTC.
  public static func parseOffset(_ text: String) -> Int? {
    let t = text.trimmingSpaces
    guard t.count == 6, let sign = t.first, sign == "+" || sign == "-" else { return nil }
    let body = t.dropFirst()
    let hm = body.split(separator: ":")
    guard hm.count == 2, let h = Int(hm[0]), let m = Int(hm[1]), (0...14).contains(h),
      (0..<60).contains(m)
    else { return nil }
    return (sign == "-" ? -1 : 1) * (h * 60 + m)
  }

  public var isValid: Bool {
    (1800...2200).contains(year) && (1...12).contains(month)
      && (1...CaptureDate.daysIn(month: month, year: year)).contains(day)
      && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of the local calendar date (proleptic Gregorian).
  var daysSinceEpoch: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// Seconds since 1970-01-01T00:00:00 of the wall-clock time, as if it were UTC.
  public var localSecondsSinceEpoch: Int {
    daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second
  }

  /// The instant in seconds since the Unix epoch, when the offset is known.
  public var instant: Int? {
    utcOffsetMinutes.map { localSecondsSinceEpoch - $0 * 60 }
  }

  /// `2024-05-03`
  public var dateString: String { withText(dateOnly: true) { String(decoding: $0, as: UTF8.self) } }

  /// ISO 8601: `2024-05-03T14:05:09+09:00`, or without an offset when the zone is unknown.
  public var iso8601: String { withText(dateOnly: false) { String(decoding: $0, as: UTF8.self) } }

  /// `iso8601`'s bytes (digits and `-:T+Z` only: nothing to escape) for `body`, without
  /// making a string.
  public func withISO8601<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { withText(dateOnly: false, body) }

  /// The text of `iso8601` (of `dateString` when `dateOnly`), made in a buffer on the stack
  /// without string formatting, for `body`: every answer writes one or two per photo.
  private func withText<R>(dateOnly: Bool, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    // At most 7 bytes per number (a sign and 6 digits) and 6 separators: 63 bytes.
    var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &scratch) { buffer in
      var n = 0
      func put(_ byte: UInt8) {
        buffer[n] = byte
        n += 1
      }
      // Zero-padded to `width`, the lowest 6 digits at most.
      func put(_ value: Int, width: Int) {
        // Every field of a real date: two or four digits, written without a loop.
        if width == 2, UInt(bitPattern: value) < 100 {
          buffer[n] = UInt8(ascii: "0") + UInt8(value / 10)
          buffer[n + 1] = UInt8(ascii: "0") + UInt8(value % 10)
          n += 2
          return
        }
        if width == 4, UInt(bitPattern: value) < 10_000 {
          buffer[n] = UInt8(ascii: "0") + UInt8(value / 1000)
          buffer[n + 1] = UInt8(ascii: "0") + UInt8(value / 100 % 10)
          buffer[n + 2] = UInt8(ascii: "0") + UInt8(value / 10 % 10)
          buffer[n + 3] = UInt8(ascii: "0") + UInt8(value % 10)
          n += 4
          return
        }
        if value < 0 { put(UInt8(ascii: "-")) }
        var v = value.magnitude
        var digits = 1
        var rest = v / 10
        while rest > 0 && digits < 6 {
          digits += 1
          rest /= 10
        }
        digits = max(digits, width)
        for i in stride(from: n + digits - 1, through: n, by: -1) {
          buffer[i] = UInt8(ascii: "0") + UInt8(v % 10)
          v /= 10
        }
        n += digits
      }
      put(year, width: 4)
      put(UInt8(ascii: "-"))
      put(month, width: 2)
      put(UInt8(ascii: "-"))
      put(day, width: 2)
      if !dateOnly {
        put(UInt8(ascii: "T"))
        put(hour, width: 2)
        put(UInt8(ascii: ":"))
        put(minute, width: 2)
        put(UInt8(ascii: ":"))
        put(second, width: 2)
        if let offset = utcOffsetMinutes {
          if offset == 0 {
            put(UInt8(ascii: "Z"))
          } else {
            put(UInt8(ascii: offset < 0 ? "-" : "+"))
            put(abs(offset) / 60, width: 2)
            put(UInt8(ascii: ":"))
            put(abs(offset) % 60, width: 2)
          }
        }
      }
      return body(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
    }
  }

  /// Parses an ISO 8601 date-time as metadata writers spell it: `2024-05-01T12:20:30+0200`,
  /// `2024-05-01T12:20:30.125-04:00`, `2024-05-01T16:20:30Z`, or with no offset (floating).
  /// Fractions of a second are dropped.
  public init?(timestamp text: String) {
    let t = text.trimmingSpaces
    guard t.count >= 19, var date = CaptureDate(exif: String(t.prefix(19))) else { return nil }
    var rest = t.dropFirst(19)
    if rest.first == "." { rest = rest.dropFirst().drop { $0.isASCII && $0.isNumber } }
    switch rest.count {
    case 0: date.utcOffsetMinutes = nil
    case 1:
      guard rest == "Z" else { return nil }
      date.utcOffsetMinutes = 0
    case 3, 5:  // +HH, +HHMM
      let digits = rest.dropFirst()
      guard
        let o = CaptureDate.parseOffset(String(rest.prefix(3)) + ":" + (digits.count == 4 ? digits.suffix(2) : "00"))
      else { return nil }
      date.utcOffsetMinutes = o
    case 6:
      guard let o = CaptureDate.parseOffset(String(rest)) else { return nil }
      date.utcOffsetMinutes = o
    default: return nil
    }
    self = date
  }

  /// Parses the form produced by `iso8601` (the form the index stores).
  public init?(iso8601 text: String) {
    // What indexes hold: `YYYY-MM-DDTHH:MM:SS`, then nothing, `Z` or `±HH:MM`, read byte by
    // byte (every photo read from an index goes through here); anything else below.
    if let fast = CaptureDate(fixedWidthISO8601: text) {
      self = fast
      return
    }
    var body = Substring(text)
    var offset: Int?
    if body.hasSuffix("Z") {
      offset = 0
      body = body.dropLast()
    } else if body.count > 19 {
      let tail = String(body.suffix(6))
      guard let o = CaptureDate.parseOffset(tail) else { return nil }
      offset = o
      body = body.dropLast(6)
    }
    guard var date = CaptureDate(exif: String(body)) else { return nil }
    date.utcOffsetMinutes = offset
    self = date
  }

  public var description: String { iso8601 }

  public static func < (a: CaptureDate, b: CaptureDate) -> Bool {
    (a.instant ?? a.localSecondsSinceEpoch) < (b.instant ?? b.localSecondsSinceEpoch)
  }
}

extension StringProtocol {
  var trimmingSpaces: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\0" || f == "\t" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\0" || l == "\t" { s = s.dropLast() }
    return String(s)
  }
}
