public import GeoPhotoTracks

/// The spans of time a run can place photos in: around each photo's local time, wide enough
/// for any zone (±14 h), the gap and extrapolation rules, and the clock's correction. A track
/// reader keeps only the fixes and visits that meet one, so a location history of years costs
/// the memory of the days the photos were taken.
public struct RetentionWindows: Sendable {
  /// Disjoint spans in time order.
  public private(set) var spans: [ClosedRange<Double>] = []

  /// The widest a zone puts a local time from its instant.
  public static let zoneReach = 14.0 * 3_600

  /// Windows of `reach` seconds either side of each of `centres`.
  public init(centres: [Double], reach: Double) { self.init(centres.map { ($0, reach) }) }

  /// A window around each centre, as far either side as its reach.
  public init(_ windows: [(centre: Double, reach: Double)]) {
    let sorted = windows.filter { $0.centre.isFinite && $0.reach.isFinite && $0.reach >= 0 }
      .map { ($0.centre - $0.reach)...($0.centre + $0.reach) }.sorted { $0.lowerBound < $1.lowerBound }
    for span in sorted {
      if let last = spans.last, span.lowerBound <= last.upperBound {
        spans[spans.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
      } else {
        spans.append(span)
      }
    }
  }

  /// Whether `range` (an instant, or a visit's stay) meets a window.
  public func meets(_ range: ClosedRange<Double>) -> Bool {
    var low = 0
    var high = spans.count
    // The first span that ends at or after the range's start.
    while low < high {
      let middle = (low + high) / 2
      if spans[middle].upperBound < range.lowerBound { low = middle + 1 } else { high = middle }
    }
    return low < spans.count && spans[low].lowerBound <= range.upperBound
  }
}

extension GeotagEngine {
  /// The windows the photos of `scope` can be placed in under `clock` and `rules`: a
  /// recorded instant's reach is the gap rules and the clock's correction; a local time's
  /// adds any zone's.
  public func retention(_ scope: Scope, clock: Clock, rules: GapRules) throws -> RetentionWindows {
    let correction = clock.correction.checks.map { abs($0.offset) }.max() ?? 0
    let reach = rules.maxGap + rules.maxExtrapolation + correction + 60
    return RetentionWindows(
      try candidates(scope).photos.compactMap { photo in
        if let instant = Self.recordedInstant(of: photo) { return (Double(instant), reach) }
        return photo.takenAt.map { (Double($0.localSecondsSinceEpoch), reach + RetentionWindows.zoneReach) }
      })
  }
}
