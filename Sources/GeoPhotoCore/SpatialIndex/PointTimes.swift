/// The capture time of each point of a `SpatialIndex`, in tree order, so a time filter
/// tests two numbers per candidate instead of looking the photo up.
public struct PointTimes: Sendable {
  /// No time of this kind (a floating capture time has no instant; a photo may have none).
  public static let none = Int64.min

  /// UTC seconds since 1970, or `none`.
  public let instants: Column<Int64>
  /// Wall-clock seconds since 1970 (the local time as if it were UTC), or `none`.
  public let locals: Column<Int64>

  public init(instants: Column<Int64>, locals: Column<Int64>) {
    precondition(instants.count == locals.count, "one instant and one local time per point")
    self.instants = instants
    self.locals = locals
  }

  public init(instants: [Int64], locals: [Int64]) {
    self.init(instants: Column(instants), locals: Column(locals))
  }

  /// The two numbers of a capture time.
  public static func values(_ takenAt: CaptureDate?) -> (instant: Int64, local: Int64) {
    guard let takenAt else { return (none, none) }
    return (takenAt.instant.map(Int64.init) ?? none, Int64(takenAt.localSecondsSinceEpoch))
  }

  /// Whether the point at `position` is inside `range`.
  @inlinable
  public func matches(_ position: Int, _ range: TimeRange) -> Bool {
    let instant = instants[position]
    let local = locals[position]
    return range.matches(instant: instant == Self.none ? nil : instant, local: local == Self.none ? nil : local)
  }
}

/// A `TimeRange` as four numbers a search compares inline: the same rule as
/// `TimeRange.matches(instant:local:)`, without optionals or the bounds' text.
public struct TimeWindow: Sendable {
  let sinceByInstant: Bool
  let sinceInstant: Int64
  let sinceLocal: Int64
  let untilByInstant: Bool
  let untilInstant: Int64
  let untilLocal: Int64

  /// The earliest wall clock a point inside can have, and (exclusive) the latest: an
  /// instant's bound widened by the largest offsets (UTC−12 to UTC+14), since a point's wall
  /// clock is its instant plus its offset; for splits by time.
  let earliestLocal: Int64
  let latestLocal: Int64

  public init(_ range: TimeRange) {
    let widest: Int64 = 14 * 3_600
    sinceByInstant = range.since?.offsetMinutes != nil
    sinceInstant = range.since.map { $0.start - Int64($0.offsetMinutes ?? 0) * 60 } ?? .min
    sinceLocal = range.since?.start ?? .min
    untilByInstant = range.until?.offsetMinutes != nil
    untilInstant = range.until.map { $0.end - Int64($0.offsetMinutes ?? 0) * 60 } ?? .max
    untilLocal = range.until?.end ?? .max
    earliestLocal = sinceByInstant ? min(sinceLocal, sinceInstant - widest) : sinceLocal
    latestLocal = untilByInstant ? max(untilLocal, untilInstant + widest) : untilLocal
  }

  /// Whether a point with these two numbers (`PointTimes.none` where there is none) is inside.
  @inline(__always)
  public func matches(instant: Int64, local: Int64) -> Bool {
    guard local != PointTimes.none else { return false }
    let afterSince =
      sinceByInstant && instant != PointTimes.none ? instant >= sinceInstant : local >= sinceLocal
    let beforeUntil =
      untilByInstant && instant != PointTimes.none ? instant < untilInstant : local < untilLocal
    return afterSince && beforeUntil
  }
}

extension SpatialIndex {
  /// The levels of a tree built with times that split by capture time: the top ones.
  public static let timeLevels = 3

  /// Builds the tree with each point's capture time (`instants` and `locals` in the order
  /// of `ids`, `PointTimes.none` where there is none), carried in tree order.
  public init(
    building ids: [Int64], vectors: [Double], tags: [UInt8], instants: [Int64], locals: [Int64], leafSize: Int = 16
  ) {
    precondition(instants.count == ids.count && locals.count == ids.count, "one time per id")
    // Build over positions, then read ids and times through them. The last few levels above
    // the leaves split by capture time, so a time filter skips whole ranges.
    var points = [Double](repeating: 0, count: ids.count * 4)
    for i in ids.indices {
      points[4 * i] = vectors[3 * i]
      points[4 * i + 1] = vectors[3 * i + 1]
      points[4 * i + 2] = vectors[3 * i + 2]
      points[4 * i + 3] = Double(locals[i])
    }
    var tree = SpatialIndex(
      building: (0..<Int64(ids.count)).map { $0 }, points: points, dimensions: 4, tags: tags, leafSize: leafSize,
      timeLevels: Self.timeLevels)
    let order = tree.ids.map { Int($0) }
    tree.adopt(ids: order.map { ids[$0] })
    tree.times = PointTimes(instants: order.map { instants[$0] }, locals: order.map { locals[$0] })
    self = tree
  }
}
