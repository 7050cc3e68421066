/// A track file that cannot be read, and where: `day1.nmea:412: …`, or the file alone.
public struct TrackReadError: Error, Equatable, CustomStringConvertible, Sendable {
  public var name: String
  public var line: Int?
  public var message: String

  public init(_ name: String, line: Int? = nil, _ message: String) {
    self.name = name
    self.line = line
    self.message = message
  }

  public var description: String { line.map { "\(name):\($0): \(message)" } ?? "\(name): \(message)" }
}

/// The text lines of a file's bytes (LF or CRLF), numbered from 1, without their line ends.
func lines(of bytes: [UInt8]) -> [(number: Int, text: ArraySlice<UInt8>)] {
  var result: [(Int, ArraySlice<UInt8>)] = []
  var start = 0
  var number = 1
  for i in bytes.indices where bytes[i] == 0x0A {
    var end = i
    if end > start, bytes[end - 1] == 0x0D { end -= 1 }
    result.append((number, bytes[start..<end]))
    start = i + 1
    number += 1
  }
  if start < bytes.count {
    var end = bytes.count
    if bytes[end - 1] == 0x0D { end -= 1 }
    result.append((number, bytes[start..<end]))
  }
  return result
}

/// Seconds since 1970 (UTC) of a day given as day, month and two-digit year (80–99 the 1900s)
/// and seconds into it; nil for a date that does not exist.
func epochSeconds(day: Int, month: Int, twoDigitYear: Int, seconds: Double) -> Double? {
  let year = twoDigitYear >= 80 ? 1900 + twoDigitYear : 2000 + twoDigitYear
  guard (1...12).contains(month), day >= 1, day <= daysIn(month, year) else { return nil }
  // Days from 1970-01-01 to the date (the civil-from-days inverse, proleptic Gregorian).
  let y = month <= 2 ? year - 1 : year
  let era = (y >= 0 ? y : y - 399) / 400
  let yoe = y - era * 400
  let mp = (month + 9) % 12
  let doy = (153 * mp + 2) / 5 + day - 1
  let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
  let days = era * 146_097 + doe - 719_468
  return Double(days) * 86_400 + seconds
}

private func daysIn(_ month: Int, _ year: Int) -> Int {
  switch month {
  case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
  case 4, 6, 9, 11: return 30
  default: return 31
  }
}
