import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTracks

/// `Timeline.locate` against a plain scan written here, and against exiftool's own geotagging
/// of the same fixes written as a GPX.
@Suite struct TimelineTests {
  /// The placement by a scan over every fix, from the rules as the issue and exiftool state
  /// them: not the binary search under test.
  func scanned(_ fixes: [Fix], _ t: Double, _ rules: GapRules) -> Placement? {
    guard !fixes.isEmpty else { return nil }
    var before: Fix?
    var after: Fix?
    for fix in fixes {
      if fix.time <= t, before == nil || fix.time >= before!.time { before = fix }
      if fix.time >= t, after == nil || fix.time < after!.time { after = fix }
    }
    if let b = before, b.time == t { return .placed(b.coordinate, altitude: b.altitude, .exact) }
    switch (before, after) {
    case (nil, let a?):
      return a.time - t <= rules.maxExtrapolation
        ? .placed(a.coordinate, altitude: a.altitude, .endFix(seconds: a.time - t)) : .beforeTrack(seconds: a.time - t)
    case (let b?, nil):
      return t - b.time <= rules.maxExtrapolation
        ? .placed(b.coordinate, altitude: b.altitude, .endFix(seconds: t - b.time)) : .afterTrack(seconds: t - b.time)
    case (let b?, let a?):
      let span = a.time - b.time
      if span > rules.maxGap {
        let near = t - b.time <= a.time - t ? b : a
        let away = abs(t - near.time)
        return away <= rules.maxExtrapolation
          ? .placed(near.coordinate, altitude: near.altitude, .endFix(seconds: away)) : .inGap(seconds: span)
      }
      let f = (t - b.time) / span
      var (lonB, lonA) = (b.coordinate.longitude, a.coordinate.longitude)
      if lonA - lonB > 180 { lonB += 360 } else if lonB - lonA > 180 { lonA += 360 }
      var lon = lonB + (lonA - lonB) * f
      if lon > 180 { lon -= 360 }
      let lat = b.coordinate.latitude + (a.coordinate.latitude - b.coordinate.latitude) * f
      let alt = b.altitude.flatMap { x in a.altitude.map { y in x + (y - x) * f } }
      return .placed(Coordinate(latitude: lat, longitude: lon), altitude: alt, .interpolated(seconds: span))
    case (nil, nil):
      return nil
    }
  }

  func close(_ a: Placement?, _ b: Placement?) -> Bool {
    switch (a, b) {
    case (.placed(let c, let x, let m)?, .placed(let d, let y, let n)?):
      let altitudes = (x == nil && y == nil) || (x != nil && y != nil && abs(x! - y!) < 1e-6)
      return m == n && abs(c.latitude - d.latitude) < 1e-9 && abs(c.longitude - d.longitude) < 1e-9 && altitudes
    default:
      return a == b
    }
  }

  @Test func placementsAreThoseOfAScanOverEveryFix() {
    var rng = SeededGenerator(seed: 34)
    for round in 0..<200 {
      let n = Int.random(in: 1...40, using: &rng)
      var t = 1_700_000_000.0
      var fixes: [Fix] = []
      for _ in 0..<n {
        // Gaps of 0 (a repeated instant) to an hour; some points near the antimeridian.
        t += [0, 1, 30, 600, 1_700, 1_900, 3_600][Int.random(in: 0...6, using: &rng)]
        let lon =
          round % 3 == 0
          ? Double.random(in: 179...180, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
          : Double.random(in: -180...180, using: &rng)
        fixes.append(
          Fix(
            time: t, coordinate: Coordinate(latitude: Double.random(in: -80...80, using: &rng), longitude: lon),
            altitude: Bool.random(using: &rng) ? Double.random(in: -10...3_000, using: &rng) : nil))
      }
      // What the timeline keeps at a repeated instant: the fix given last.
      var unique: [Fix] = []
      for fix in fixes {
        if let i = unique.firstIndex(where: { $0.time == fix.time }) { unique[i] = fix } else { unique.append(fix) }
      }
      let timeline = Timeline(fixes)
      let rules = GapRules(maxGap: 1_800, maxExtrapolation: round % 2 == 0 ? 0 : 900)
      for _ in 0..<30 {
        let at = Double.random(in: (fixes[0].time - 2_000)...(t + 2_000), using: &rng).rounded() + 0.25
        #expect(close(timeline.locate(at: at, rules: rules), scanned(unique, at, rules)), "round \(round), t \(at)")
      }
      for fix in unique {
        #expect(close(timeline.locate(at: fix.time, rules: rules), scanned(unique, fix.time, rules)))
      }
    }
  }

  @Test(.enabled(if: ExiftoolGeotag.isInstalled, "exiftool is not installed"))
  func positionsAreExiftoolsWithinAMillionthOfADegree() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-timeline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // 2024-05-03T10:00:00Z on: fixes 60 s apart, one across the antimeridian, then a gap of an
    // hour, then two more.
    let start = 1_714_730_400.0
    let fixes = [
      Fix(time: start, coordinate: Coordinate(latitude: 35.681236, longitude: 139.767125), altitude: 40),
      Fix(time: start + 60, coordinate: Coordinate(latitude: 35.690921, longitude: 139.700258), altitude: 52.5),
      Fix(time: start + 120, coordinate: Coordinate(latitude: -16.5, longitude: 179.9), altitude: 10),
      Fix(time: start + 180, coordinate: Coordinate(latitude: -16.7, longitude: -179.8), altitude: 12),
      Fix(time: start + 3_780, coordinate: Coordinate(latitude: -17.0, longitude: -179.5), altitude: 0),
      Fix(time: start + 3_840, coordinate: Coordinate(latitude: -17.25, longitude: -179.25), altitude: 5),
    ]
    var gpx =
      "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
    for fix in fixes {
      gpx += "<trkpt lat=\"\(fix.coordinate.latitude)\" lon=\"\(fix.coordinate.longitude)\"><ele>\(fix.altitude!)</ele>"
      gpx += "<time>\(ExiftoolGeotag.gpxText(fix.time))</time></trkpt>\n"
    }
    gpx += "</trkseg></trk></gpx>\n"
    let gpxURL = folder.appendingPathComponent("track.gpx")
    try gpx.write(to: gpxURL, atomically: true, encoding: .utf8)
    let timeline = Timeline(fixes)
    var (placed, unplaced) = (0, 0)
    for rules in [GapRules(maxGap: 1_800, maxExtrapolation: 0), GapRules(maxGap: 1_800, maxExtrapolation: 600)] {
      for offset in [0, 15.5, 60, 99.25, 150, 170.75, 500, 3_300, 3_800.5, 3_900, -30] {
        let t = start + offset
        let mine = timeline.locate(at: t, rules: rules)
        let theirs = try ExiftoolGeotag.position(from: gpxURL, at: t, rules: rules)
        switch mine {
        case .placed(let c, let altitude, _)?:
          let e = try #require(theirs, "exiftool placed nothing at +\(offset) s, geophoto \(c)")
          #expect(abs(c.latitude - e[0]) < 1e-6 && abs(c.longitude - e[1]) < 1e-6, "+\(offset) s: \(c) vs \(e)")
          if let altitude, e.count == 3 { #expect(abs(altitude - e[2]) < 1e-3, "+\(offset) s") }
          placed += 1
        default:
          unplaced += 1
          #expect(theirs == nil, "+\(offset) s: geophoto \(String(describing: mine)), exiftool \(theirs ?? [])")
        }
      }
    }
    // Both kinds were compared: interpolations, end fixes and the antimeridian, and instants in
    // the gap or before the track.
    #expect(placed >= 14 && unplaced >= 4, "\(placed) placed, \(unplaced) not")
  }

  /// Visits against a scan written here: an instant inside one or more visits is at the one
  /// that started last; outside every visit, the fixes and the visits' ends place it.
  @Test func visitsHoldTheirPlaceForTheirWholeStay() {
    var rng = SeededGenerator(seed: 3_434)
    for round in 0..<100 {
      let base = 1_700_000_000.0
      var fixes: [Fix] = []
      var t = base
      for _ in 0..<Int.random(in: 0...12, using: &rng) {
        t += Double.random(in: 10...2_400, using: &rng).rounded()
        fixes.append(Fix(time: t, coordinate: Coordinate(latitude: Double(fixes.count), longitude: 10)))
      }
      var visits: [Visit] = []
      for k in 0..<Int.random(in: 1...5, using: &rng) {
        let start = base + Double.random(in: 0...20_000, using: &rng).rounded()
        let length = Double.random(in: 0...10_800, using: &rng).rounded()
        visits.append(
          Visit(start: start, end: start + length, coordinate: Coordinate(latitude: -Double(k + 1), longitude: 20)))
      }
      let timeline = Timeline(fixes, visits: visits)
      let ends = visits.flatMap {
        [Fix(time: $0.start, coordinate: $0.coordinate), Fix(time: $0.end, coordinate: $0.coordinate)]
      }
      var unique: [Fix] = []
      for fix in fixes + ends {
        if let i = unique.firstIndex(where: { $0.time == fix.time }) { unique[i] = fix } else { unique.append(fix) }
      }
      for _ in 0..<40 {
        let at = base + Double.random(in: -1_000...32_000, using: &rng).rounded() + (Bool.random(using: &rng) ? 0.5 : 0)
        // The containing visit with the latest start (then the latest end, as the timeline sorts).
        let inside = visits.enumerated().filter { $0.element.start <= at && at <= $0.element.end }.max {
          ($0.element.start, $0.element.end, $0.offset) < ($1.element.start, $1.element.end, $1.offset)
        }?.element
        let expected: Placement? =
          inside.map { .placed($0.coordinate, altitude: nil, .visit(seconds: $0.end - $0.start)) }
          ?? scanned(unique, at, GapRules())
        #expect(close(timeline.locate(at: at), expected), "round \(round), t \(at - base)")
      }
    }
  }
}
