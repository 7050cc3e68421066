public import Foundation

/// Where a capture time's UTC offset comes from.
public enum OffsetSource: String, Hashable, Sendable, CaseIterable {
  /// Recorded with the time (EXIF `OffsetTimeOriginal`, an XMP or video date with an offset, a
  /// Takeout or QuickTime instant).
  case camera
  /// Worked out from the GPS time the camera recorded beside its local time.
  case gps
  /// The time zone of the place the photo was taken at (the camera recorded a local time only).
  case place
  /// The nautical zone of the longitude (`Etc/GMT±N`): no place within reach.
  case sea
}

/// A local time the zone skips (a clock set forward) or has twice (a clock set back).
public enum LocalTimeAmbiguity: String, Hashable, Sendable, CaseIterable {
  case gap, fold
}

extension CaptureDate {
  /// This wall-clock time read in `zone`: the same date and time with that zone's offset at
  /// that moment, daylight saving included. A time the zone skips or has twice takes the
  /// earlier of the instants it could mean (the larger offset) and says which it was.
  public func placed(in zone: TimeZone) -> (date: CaptureDate, ambiguity: LocalTimeAmbiguity?) {
    let local = localSecondsSinceEpoch
    // The offsets in force around this time; each is right when it maps back to this time.
    func offset(at instant: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) }
    let nearby = Set([offset(at: local - 86_400), offset(at: local + 86_400), offset(at: local)])
    let candidates = Set(nearby.map { offset(at: local - $0) } + nearby)
    let valid = candidates.filter { offset(at: local - $0) == $0 }.sorted()
    var date = self
    let ambiguity: LocalTimeAmbiguity?
    let chosen: Int
    switch valid.count {
    case 1:
      chosen = valid[0]
      ambiguity = nil
    case 0:
      // In a gap: the larger of the offsets on either side, the earlier instant.
      chosen = candidates.max() ?? 0
      ambiguity = .gap
    default:
      chosen = valid.max() ?? 0
      ambiguity = .fold
    }
    date.utcOffsetMinutes = chosen / 60
    return (date, ambiguity)
  }

  /// The nautical time zone of a longitude: `Etc/GMT-9` for 135° E (IANA's signs are
  /// inverted), 15° per hour, ±12 at the antimeridian.
  public static func nauticalZone(longitude: Double) -> String {
    let hours = max(-12, min(12, Int((longitude / 15).rounded())))
    return hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
  }
}
