/// The capture time of each point of a `SpatialIndex`, in tree order, so a time filter
/// tests two numbers per candidate instead of looking the photo up.
public struct PointTimes: Sendable {
  /// No time of this kind (a floating capture time has no instant; a photo may have none).
  public static let none = Int64.min

  /// UTC seconds since 1970, or `none`.
  public let instants: [Int64]
  /// Wall-clock seconds since 1970 (the local time as if it were UTC), or `none`.
  public let locals: [Int64]

  public init(instants: [Int64], locals: [Int64]) {
    precondition(instants.count == locals.count, "one instant and one local time per point")
    self.instants = instants
    self.locals = locals
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

extension SpatialIndex {
  /// Builds the tree with each point's capture time (`instants` and `locals` in the order
  /// of `ids`, `PointTimes.none` where there is none), carried in tree order.
  public init(building ids: [Int64], vectors: [Double], tags: [UInt8], instants: [Int64], locals: [Int64]) {
    precondition(instants.count == ids.count && locals.count == ids.count, "one time per id")
    // Build over positions, then read ids and times through them.
    var tree = SpatialIndex(building: (0..<Int64(ids.count)).map { $0 }, vectors: vectors, tags: tags)
    let order = tree.ids.map { Int($0) }
    tree.adopt(ids: order.map { ids[$0] })
    tree.times = PointTimes(instants: order.map { instants[$0] }, locals: order.map { locals[$0] })
    self = tree
  }
}
