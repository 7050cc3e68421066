import GeoPhotoCore

/// NMEA 0183 logs, as GPS loggers and phones write them, and Magellan's track sentences.
///
/// - `RMC` gives the date, the time (UTC) and the position (status `A`; `V` is no fix);
/// - `GGA` the time, the position and the altitude above mean sea level (quality 0 is no fix),
///   on the date of the last `RMC` (a day later when its time went back past midnight);
/// - `$PMGNTRK` the position, altitude (metres or feet), time and date.
///
/// Any talker (`GP`, `GN`, `GL`, …). A sentence whose checksum (`*hh`, the XOR of the bytes
/// between `$` and `*`) does not match is skipped and counted; other sentences are ignored. A log
/// with positions but no date (only `GGA`) cannot be placed in time and is refused.
public enum NMEAReader {
  public struct Result: Sendable {
    public var fixes: [Fix]
    /// Sentences skipped for a checksum that did not match.
    public var badChecksums: Int
  }

  public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> Result {
    var fixes: [Fix] = []
    var bad = 0
    var undated = 0
    // The last RMC's day (seconds since 1970 at its midnight) and time of day.
    var day: Double?
    var lastTimeOfDay = 0.0
    for (_, text) in lines(of: bytes) {
      guard let dollar = text.firstIndex(of: UInt8(ascii: "$")) else { continue }
      var body = text[(dollar + 1)...]
      if let star = body.firstIndex(of: UInt8(ascii: "*")) {
        let given = body[(star + 1)...].prefix(2)
        let sum = body[..<star].reduce(UInt8(0), ^)
        guard given.count == 2, let value = UInt8(String(decoding: given, as: UTF8.self), radix: 16), value == sum
        else {
          bad += 1
          continue
        }
        body = body[..<star]
      }
      let fields = body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      guard let kind = fields.first, kind.count >= 3 else { continue }
      func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
      switch kind {
      case _ where kind.hasSuffix("RMC") && kind.count == 5:
        guard field(2) == "A", let timeOfDay = Self.timeOfDay(field(1)), let date = Self.date(field(9), timeOfDay: 0),
          let coordinate = Self.position(field(3), field(4), field(5), field(6))
        else { continue }
        day = date
        lastTimeOfDay = timeOfDay
        fixes.append(Fix(time: date + timeOfDay, coordinate: coordinate))
      case _ where kind.hasSuffix("GGA") && kind.count == 5:
        guard field(6) != "0", !field(6).isEmpty, let timeOfDay = Self.timeOfDay(field(1)),
          let coordinate = Self.position(field(2), field(3), field(4), field(5))
        else { continue }
        guard var midnight = day else {
          undated += 1
          continue
        }
        if timeOfDay < lastTimeOfDay - 2 { midnight += 86_400 }
        let altitude = field(10) == "M" || field(10).isEmpty ? Self.number(field(9)) : nil
        fixes.append(Fix(time: midnight + timeOfDay, coordinate: coordinate, altitude: altitude))
      case "PMGNTRK":
        guard field(8) == "A", let timeOfDay = Self.timeOfDay(field(7)), let date = Self.date(field(10), timeOfDay: 0),
          let coordinate = Self.position(field(1), field(2), field(3), field(4))
        else { continue }
        let altitude = Self.number(field(5)).map { field(6) == "F" ? $0 * 0.3048 : $0 }
        fixes.append(Fix(time: date + timeOfDay, coordinate: coordinate, altitude: altitude))
      default:
        continue
      }
    }
    if fixes.isEmpty {
      if undated > 0 {
        throw TrackReadError(name, "no date in the log (only GGA sentences); a log with RMC sentences is needed")
      }
      throw TrackReadError(
        name, bad > 0 ? "no sentence with a position has a matching checksum" : "no position in the log")
    }
    return Result(fixes: fixes, badChecksums: bad)
  }

  /// `hhmmss` or `hhmmss.ss` as seconds into the day.
  static func timeOfDay(_ text: String) -> Double? {
    let digits = Array(text.utf8)
    guard digits.count >= 6, digits.prefix(6).allSatisfy({ (0x30...0x39).contains($0) }),
      let hours = Int(text.prefix(2)), let minutes = Int(text.dropFirst(2).prefix(2)),
      let seconds = Double(text.dropFirst(4)), hours < 24, minutes < 60, seconds < 61
    else { return nil }
    return Double(hours * 3_600 + minutes * 60) + seconds
  }

  /// `ddmmyy` as the seconds since 1970 of that day's midnight (UTC), plus `timeOfDay`.
  static func date(_ text: String, timeOfDay: Double) -> Double? {
    guard text.utf8.count == 6, let day = Int(text.prefix(2)), let month = Int(text.dropFirst(2).prefix(2)),
      let year = Int(text.dropFirst(4))
    else { return nil }
    return epochSeconds(day: day, month: month, twoDigitYear: year, seconds: timeOfDay)
  }

  /// `ddmm.mmmm,N` and `dddmm.mmmm,E` as a coordinate.
  static func position(_ latitude: String, _ north: String, _ longitude: String, _ east: String) -> Coordinate? {
    guard let lat = degrees(latitude), let lon = degrees(longitude), ["N", "S"].contains(north),
      ["E", "W"].contains(east)
    else { return nil }
    let c = Coordinate(latitude: north == "S" ? -lat : lat, longitude: east == "W" ? -lon : lon)
    guard abs(c.latitude) <= 90, abs(c.longitude) <= 180 else { return nil }
    return c
  }

  /// Degrees and minutes run together (`4415.163` is 44° 15.163′) as degrees.
  static func degrees(_ text: String) -> Double? {
    let whole = text.prefix { $0 != "." }
    guard whole.count >= 3, let degrees = Int(whole.dropLast(2)), let minutes = Double(text.dropFirst(whole.count - 2)),
      minutes >= 0, minutes < 60
    else { return nil }
    return Double(degrees) + minutes / 60
  }

  /// A finite number (Swift reads `nan` and `inf` as numbers too).
  static func number(_ text: String) -> Double? { Double(text).flatMap { $0.isFinite ? $0 : nil } }
}
