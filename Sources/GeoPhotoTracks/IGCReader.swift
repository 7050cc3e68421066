import GeoPhotoCore

/// IGC flight logs (FAI's format, written by gliding and paragliding instruments): the date
/// from the `HFDTE` header (`HFDTE050110` or `HFDTEDATE:050110,01`), then one fix per `B` record
/// (`B HHMMSS DDMMmmmN DDDMMmmmE V PPPPP GGGGG`: UTC time, position in degrees and thousandths of
/// minutes, validity, pressure and GNSS altitude in metres). A time earlier than the one before
/// it is past midnight: the next day. A log without a date is refused, and a `B` record that is
/// not one is an error naming its line.
public enum IGCReader {
  public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> [Fix] {
    var midnight: Double?
    var lastTimeOfDay = -1.0
    var fixes: [Fix] = []
    for (number, line) in lines(of: bytes) {
      let text = String(decoding: line, as: UTF8.self)
      if text.hasPrefix("HFDTE") {
        let digits = text.dropFirst(5).drop { !$0.isNumber }.prefix(6)
        guard digits.count == 6, let day = Int(digits.prefix(2)), let month = Int(digits.dropFirst(2).prefix(2)),
          let year = Int(digits.dropFirst(4)),
          let date = epochSeconds(day: day, month: month, twoDigitYear: year, seconds: 0)
        else { throw TrackReadError(name, line: number, "a date header that is no date") }
        midnight = date
        lastTimeOfDay = -1
        continue
      }
      guard text.hasPrefix("B") else { continue }
      let b = Array(text.utf8)
      guard b.count >= 35, let timeOfDay = NMEAReader.timeOfDay(String(text.dropFirst(1).prefix(6))),
        let latitude = Self.degrees(b[7..<14], b[14], digits: 2, positive: "N", negative: "S"),
        let longitude = Self.degrees(b[15..<23], b[23], digits: 3, positive: "E", negative: "W"),
        abs(latitude) <= 90, abs(longitude) <= 180
      else { throw TrackReadError(name, line: number, "a fix record (B) that is not one") }
      guard var day = midnight else { throw TrackReadError(name, line: number, "a fix before the log's date (HFDTE)") }
      if timeOfDay < lastTimeOfDay {
        day += 86_400
        midnight = day
      }
      lastTimeOfDay = timeOfDay
      // The GNSS altitude, when the fix is three-dimensional (A) and the instrument gives one.
      let gnss = Int(String(decoding: b[30..<35], as: UTF8.self))
      let altitude = b[24] == UInt8(ascii: "A") ? gnss.flatMap { $0 == 0 ? nil : Double($0) } : nil
      fixes.append(
        Fix(time: day + timeOfDay, coordinate: Coordinate(latitude: latitude, longitude: longitude), altitude: altitude)
      )
    }
    guard !fixes.isEmpty else {
      throw TrackReadError(
        name, midnight == nil ? "not an IGC log with a date and fixes" : "no fix records (B) in the log")
    }
    return fixes
  }

  /// `DDMMmmm` (or `DDDMMmmm`) and a hemisphere letter as signed degrees.
  static func degrees(
    _ digits: ArraySlice<UInt8>, _ hemisphere: UInt8, digits degreeDigits: Int, positive: Character, negative: Character
  )
    -> Double?
  {
    guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    let text = String(decoding: digits, as: UTF8.self)
    guard let d = Int(text.prefix(degreeDigits)), let thousandths = Int(text.dropFirst(degreeDigits)) else {
      return nil
    }
    let minutes = Double(thousandths) / 1_000
    guard minutes < 60 else { return nil }
    let value = Double(d) + minutes / 60
    switch Character(UnicodeScalar(hemisphere)) {
    case positive: return value
    case negative: return -value
    default: return nil
    }
  }
}
