import GeoPhotoCore

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
/// as logs write them, plus `seconds` into it; nil for a date that does not exist.
func epochSeconds(day: Int, month: Int, twoDigitYear: Int, seconds: Double) -> Double? {
  guard (0...99).contains(twoDigitYear) else { return nil }
  let date = CaptureDate(year: twoDigitYear >= 80 ? 1900 + twoDigitYear : 2000 + twoDigitYear, month: month, day: day)
  guard date.isValid else { return nil }
  return Double(date.localSecondsSinceEpoch) + seconds
}
