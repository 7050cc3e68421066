import Foundation
public import GeoPhotoCore

/// How far a timeline reaches from its fixes: two fixes at most `maxGap` seconds apart are
/// joined (a photo between them is interpolated); past a longer gap, or before the first fix
/// or after the last, the nearest fix is used only within `maxExtrapolation` seconds (0: never).
/// exiftool's `GeoMaxIntSecs` and `GeoMaxExtSecs`.
public struct GapRules: Equatable, Sendable {
  public var maxGap: Double
  public var maxExtrapolation: Double

  public init(maxGap: Double = 1_800, maxExtrapolation: Double = 0) {
    self.maxGap = maxGap
    self.maxExtrapolation = maxExtrapolation
  }
}

/// Where an instant falls on a timeline.
public enum Placement: Equatable, Sendable {
  /// On the timeline: the position and altitude there, and how they were found.
  case placed(Coordinate, altitude: Double?, Method)
  /// Earlier than the first fix by more than the extrapolation allows.
  case beforeTrack(seconds: Double)
  /// Later than the last fix by more than the extrapolation allows.
  case afterTrack(seconds: Double)
  /// Between two fixes further apart than the gap allows, and too far from both.
  case inGap(seconds: Double)

  public enum Method: Equatable, Sendable {
    /// At a fix's own instant.
    case exact
    /// Between two fixes this many seconds apart.
    case interpolated(seconds: Double)
    /// The nearest fix, this many seconds away (within the extrapolation).
    case endFix(seconds: Double)
    /// Inside a stay at one place this many seconds long.
    case visit(seconds: Double)
  }
}

/// Fixes in time order, and the position at any instant as exiftool's geotagging finds it:
/// latitude, longitude and altitude linear in time between the two fixes around the instant
/// (the longitude the short way round the antimeridian), when they are at most `maxGap` apart.
/// Fixes at the same instant: the one given last counts.
///
/// A visit (a stay a location history recorded) places every instant inside it at its place,
/// however long it lasted, before any fix is looked at; its start and end count as fixes too,
/// so a path leaving or reaching it interpolates from its place.
public struct Timeline: Sendable {
  public private(set) var fixes: [Fix]
  /// Visits by start; `reach[i]` is the latest end among `visits[0...i]`.
  private var visits: [Visit]
  private var reach: [Double]

  public init(_ fixes: consuming [Fix], visits: [Visit] = []) {
    let visits = visits.filter { $0.start.isFinite && $0.end.isFinite && $0.start <= $0.end }.sorted {
      ($0.start, $0.end) < ($1.start, $1.end)
    }
    self.visits = visits
    var latest = -Double.infinity
    self.reach = visits.map {
      latest = max(latest, $0.end)
      return latest
    }
    // Worked in place: a history of millions of fixes is not copied when it comes in order.
    var all = fixes
    for visit in visits {
      all.append(Fix(time: visit.start, coordinate: visit.coordinate, source: visit.source))
      all.append(Fix(time: visit.end, coordinate: visit.coordinate, source: visit.source))
    }
    // A fix at no real instant is none.
    all.removeAll { !$0.time.isFinite }
    // A stable sort, only when out of order.
    if zip(all, all.dropFirst()).contains(where: { $0.time > $1.time }) {
      all = all.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
    // The last of each instant kept.
    var kept = 0
    for i in all.indices {
      if kept > 0, all[kept - 1].time == all[i].time {
        all[kept - 1] = all[i]
      } else {
        all[kept] = all[i]
        kept += 1
      }
    }
    all.removeLast(all.count - kept)
    self.fixes = all
  }

  public var isEmpty: Bool { fixes.isEmpty }

  /// The position at `time` (seconds since 1970, UTC) under `rules`; nil for an empty timeline.
  public func locate(at time: Double, rules: GapRules = GapRules()) -> Placement? {
    if let visit = visit(at: time) {
      return .placed(visit.coordinate, altitude: nil, .visit(seconds: visit.end - visit.start))
    }
    guard let first = fixes.first, let last = fixes.last else { return nil }
    if time < first.time {
      let away = first.time - time
      return away <= rules.maxExtrapolation
        ? .placed(first.coordinate, altitude: first.altitude, .endFix(seconds: away))
        : .beforeTrack(seconds: away)
    }
    if time > last.time {
      let away = time - last.time
      return away <= rules.maxExtrapolation
        ? .placed(last.coordinate, altitude: last.altitude, .endFix(seconds: away))
        : .afterTrack(seconds: away)
    }
    // The first fix at or after `time`.
    var low = 0
    var high = fixes.count - 1
    while low < high {
      let middle = (low + high) / 2
      if fixes[middle].time < time { low = middle + 1 } else { high = middle }
    }
    let after = fixes[low]
    if after.time == time { return .placed(after.coordinate, altitude: after.altitude, .exact) }
    let before = fixes[low - 1]
    let span = after.time - before.time
    guard span <= rules.maxGap else {
      let (near, away) =
        time - before.time <= after.time - time ? (before, time - before.time) : (after, after.time - time)
      return away <= rules.maxExtrapolation
        ? .placed(near.coordinate, altitude: near.altitude, .endFix(seconds: away))
        : .inGap(seconds: span)
    }
    let f = (time - before.time) / span
    return .placed(
      Self.interpolate(before.coordinate, after.coordinate, f),
      altitude: before.altitude.flatMap { a in after.altitude.map { b in b * f + a * (1 - f) } },
      .interpolated(seconds: span))
  }

  /// The fixes whose times are within `window`, in time order.
  public func fixes(in window: ClosedRange<Double>) -> ArraySlice<Fix> {
    var low = 0
    var high = fixes.count
    while low < high {
      let middle = (low + high) / 2
      if fixes[middle].time < window.lowerBound { low = middle + 1 } else { high = middle }
    }
    var end = low
    while end < fixes.count, fixes[end].time <= window.upperBound { end += 1 }
    return fixes[low..<end]
  }

  /// The moment within `window` the timeline came nearest `spot`, and how near (metres): on
  /// the straight line between two fixes at most `maxGap` apart (flat locally), or at a fix.
  public func nearestApproach(to spot: Coordinate, within window: ClosedRange<Double>, maxGap: Double)
    -> (time: Double, metres: Double)?
  {
    let near = fixes(in: window)
    var best: (time: Double, metres: Double)?
    let metresPerDegree = 6_371_008.8 * Double.pi / 180
    let scale = cos(spot.latitude * Double.pi / 180)
    // Metres east and north of the spot, the longitude the short way round.
    func local(_ c: Coordinate) -> (x: Double, y: Double) {
      var dLon = c.longitude - spot.longitude
      if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
      return (dLon * scale * metresPerDegree, (c.latitude - spot.latitude) * metresPerDegree)
    }
    func consider(_ time: Double, _ x: Double, _ y: Double) {
      let metres = (x * x + y * y).squareRoot()
      if metres < best?.metres ?? .infinity { best = (time, metres) }
    }
    var previous: Fix?
    for fix in near {
      let b = local(fix.coordinate)
      consider(fix.time, b.x, b.y)
      if let a = previous, fix.time - a.time <= maxGap {
        let p = local(a.coordinate)
        let (dx, dy) = (b.x - p.x, b.y - p.y)
        let length = dx * dx + dy * dy
        if length > 0 {
          let f = max(0, min(1, -(p.x * dx + p.y * dy) / length))
          consider(a.time + (fix.time - a.time) * f, p.x + dx * f, p.y + dy * f)
        }
      }
      previous = fix
    }
    return best
  }

  /// The source of what places `time`: the visit it is inside, else the fix nearest in time
  /// (the earlier of two as near); nil for an empty timeline.
  public func source(at time: Double) -> UInt32? {
    if let visit = visit(at: time) { return visit.source }
    guard !fixes.isEmpty else { return nil }
    var low = 0
    var high = fixes.count
    while low < high {
      let middle = (low + high) / 2
      if fixes[middle].time < time { low = middle + 1 } else { high = middle }
    }
    if low == fixes.count { return fixes[low - 1].source }
    if low == 0 { return fixes[0].source }
    return time - fixes[low - 1].time <= fixes[low].time - time ? fixes[low - 1].source : fixes[low].source
  }

  /// The visit that started last among those `time` is inside.
  func visit(at time: Double) -> Visit? {
    var low = 0
    var high = visits.count
    while low < high {
      let middle = (low + high) / 2
      if visits[middle].start <= time { low = middle + 1 } else { high = middle }
    }
    var i = low - 1
    while i >= 0, reach[i] >= time {
      if visits[i].end >= time { return visits[i] }
      i -= 1
    }
    return nil
  }

  /// The point a fraction `f` of the way from `a` to `b`, each coordinate linear in `f`, the
  /// longitude going the short way round (across the antimeridian when that is shorter).
  static func interpolate(_ a: Coordinate, _ b: Coordinate, _ f: Double) -> Coordinate {
    var (lonA, lonB) = (a.longitude, b.longitude)
    if abs(lonB - lonA) > 180 {
      if lonA < lonB { lonA += 360 } else { lonB += 360 }
    }
    var longitude = lonB * f + lonA * (1 - f)
    if longitude > 180 { longitude -= 360 }
    return Coordinate(latitude: b.latitude * f + a.latitude * (1 - f), longitude: longitude)
  }
}
