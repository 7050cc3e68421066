public import GeoPhotoCore

/// Places photos on a GPS track by time.
///
/// A photo's instant is its capture time in UTC (from `OffsetTimeOriginal`, or the camera's
/// zone given by the user; never the machine's zone) plus the camera clock's error. Between
/// two fixes the position is interpolated along the great circle; a photo before the first
/// fix, after the last, or between fixes further apart than `maximumGap` gets no position.
public struct TrackCorrelator: Sendable {
  public let fixes: [RoutePoint]
  public var maximumGap: Double
  /// Seconds added to camera times to get true time (a camera 2 minutes slow needs +120).
  public var clockOffset: Double
  /// Minutes east of UTC for photos whose capture time carries no zone.
  public var defaultUTCOffsetMinutes: Int?

  public enum Outcome: Equatable, Sendable {
    case located(Coordinate, between: (Double, Double))
    case noTime
    case noZone
    case beforeTrack
    case afterTrack
    case gapTooLong(seconds: Double)

    public static func == (a: Outcome, b: Outcome) -> Bool {
      switch (a, b) {
      case (.located(let c1, let t1), .located(let c2, let t2)): return c1 == c2 && t1 == t2
      case (.noTime, .noTime), (.noZone, .noZone), (.beforeTrack, .beforeTrack), (.afterTrack, .afterTrack): return true
      case (.gapTooLong(let x), .gapTooLong(let y)): return x == y
      default: return false
      }
    }
  }

  public struct NoTimes: Error, CustomStringConvertible {
    public var description: String { "the track has no timed points: it cannot place photos by time" }
  }

  /// The longest gap between fixes a position is interpolated across, unless asked otherwise
  /// (seconds; exiftool's default).
  public static let defaultMaximumGap = 1_800.0

  public init(
    track: [RoutePoint], maximumGap: Double = defaultMaximumGap, clockOffset: Double = 0,
    defaultUTCOffsetMinutes: Int? = nil
  )
    throws(NoTimes)
  {
    let timed = track.filter { $0.time != nil }.sorted { ($0.time ?? 0) < ($1.time ?? 0) }
    guard !timed.isEmpty else { throw NoTimes() }
    fixes = timed
    self.maximumGap = maximumGap
    self.clockOffset = clockOffset
    self.defaultUTCOffsetMinutes = defaultUTCOffsetMinutes
  }

  /// The photo's instant (seconds since the epoch, UTC) or why there is none.
  public func instant(of date: CaptureDate?) -> Result<Double, Failure> {
    guard let date else { return .failure(.noTime) }
    if let instant = date.instant { return .success(Double(instant) + clockOffset) }
    guard let offset = defaultUTCOffsetMinutes else { return .failure(.noZone) }
    return .success(Double(date.localSecondsSinceEpoch - offset * 60) + clockOffset)
  }

  public enum Failure: Error { case noTime, noZone }

  public func locate(_ date: CaptureDate?) -> Outcome {
    switch instant(of: date) {
    case .failure(.noTime): return .noTime
    case .failure(.noZone): return .noZone
    case .success(let t): return locate(at: t)
    }
  }

  public func locate(at t: Double) -> Outcome {
    guard let first = fixes.first?.time, let last = fixes.last?.time else { return .beforeTrack }
    if t < first { return .beforeTrack }
    if t > last { return .afterTrack }
    // The last fix at or before t.
    var lo = 0
    var hi = fixes.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if (fixes[mid].time ?? 0) <= t { lo = mid } else { hi = mid - 1 }
    }
    let a = fixes[lo]
    let ta = a.time ?? 0
    if ta == t || lo == fixes.count - 1 { return .located(a.coordinate, between: (ta, ta)) }
    let b = fixes[lo + 1]
    let tb = b.time ?? 0
    guard tb - ta <= maximumGap else { return .gapTooLong(seconds: tb - ta) }
    return .located(Self.interpolate(a.coordinate, b.coordinate, fraction: (t - ta) / (tb - ta)), between: (ta, tb))
  }

  /// The point `fraction` of the way from `a` to `b` along the great circle.
  static func interpolate(_ a: Coordinate, _ b: Coordinate, fraction f: Double) -> Coordinate {
    let va = GreatCircle.unitVector(a)
    let vb = GreatCircle.unitVector(b)
    let dot = max(-1, min(1, va.x * vb.x + va.y * vb.y + va.z * vb.z))
    let angle = acos(dot)
    guard angle > 1e-12 else { return a }
    let s = sin(angle)
    let wa = sin((1 - f) * angle) / s
    let wb = sin(f * angle) / s
    let x = wa * va.x + wb * vb.x
    let y = wa * va.y + wb * vb.y
    let z = wa * va.z + wb * vb.z
    return Coordinate(latitude: asin(max(-1, min(1, z))) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
  }
}

#if canImport(Glibc)
  import Glibc
#endif
