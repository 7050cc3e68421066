import Foundation
import GeoPhotoCore
import GeoPhotoRoutes
import Testing

@testable import GeoPhotoGeotag

@Suite struct TrackCorrelatorTests {
  // Fixes at 2024-05-03 00:00:00Z, +60 s and +4000 s (a long gap before the last).
  let t0 = Double(CaptureDate(year: 2024, month: 5, day: 3).localSecondsSinceEpoch)
  var track: [RoutePoint] {
    [
      RoutePoint(Coordinate(latitude: 35.0, longitude: 139.0), time: t0 + 60),
      RoutePoint(Coordinate(latitude: 35.001, longitude: 139.0), time: t0),  // out of order on purpose
      RoutePoint(Coordinate(latitude: 35.1, longitude: 139.1), time: t0 + 4_000),
    ]
  }

  func date(_ secondsAfter: Int, offset: Int?) -> CaptureDate {
    var d = CaptureDate(secondsSinceEpoch: Int(t0) + secondsAfter + (offset ?? 0) * 60, utcOffsetMinutes: nil)
    d.utcOffsetMinutes = offset
    return d
  }

  @Test func interpolatesBetweenFixes() throws {
    let c = try TrackCorrelator(track: track)
    // Photo taken at 09:00:30 +09:00 = 00:00:30Z: half way between the first two fixes.
    guard case .located(let p, let between) = c.locate(date(30, offset: 540)) else {
      Issue.record("not located")
      return
    }
    #expect(abs(p.latitude - 35.0005) < 1e-7 && abs(p.longitude - 139.0) < 1e-9)
    #expect(between == (t0, t0 + 60))
    // Exactly on a fix.
    #expect(c.locate(date(0, offset: 0)) == .located(Coordinate(latitude: 35.001, longitude: 139.0), between: (t0, t0)))
  }

  @Test func neverGuessesOutsideTheTrack() throws {
    let c = try TrackCorrelator(track: track)
    #expect(c.locate(date(-1, offset: 0)) == .beforeTrack)
    #expect(c.locate(date(4_001, offset: 0)) == .afterTrack)
    #expect(c.locate(date(2_000, offset: 0)) == .gapTooLong(seconds: 3_940))
    #expect(c.locate(nil) == .noTime)
    #expect(c.locate(date(30, offset: nil)) == .noZone)  // floating time, no --tz
    let wide = try TrackCorrelator(track: track, maximumGap: 4_000)
    guard case .located = wide.locate(date(2_000, offset: 0)) else {
      Issue.record("a wider gap limit should interpolate")
      return
    }
  }

  @Test func cameraZoneAndClockOffset() throws {
    // A floating 11:00:30 from a camera in UTC+11, whose clock ran 30 s fast.
    let c = try TrackCorrelator(track: track, clockOffset: -30, defaultUTCOffsetMinutes: 660)
    let floating = date(60, offset: 660)  // local 11:01:00
    var noZone = floating
    noZone.utcOffsetMinutes = nil
    guard case .located(let p, _) = c.locate(noZone) else {
      Issue.record("not located")
      return
    }
    #expect(abs(p.latitude - 35.0005) < 1e-7)  // 00:01:00 − 30 s = 00:00:30Z
  }

  @Test func trackWithoutTimesIsRefused() {
    #expect(throws: TrackCorrelator.NoTimes.self) {
      try TrackCorrelator(track: [RoutePoint(Coordinate(latitude: 1, longitude: 2))])
    }
  }

  @Test func greatCircleInterpolation() {
    let mid = TrackCorrelator.interpolate(
      Coordinate(latitude: 0, longitude: 179), Coordinate(latitude: 0, longitude: -179), fraction: 0.5)
    #expect(abs(mid.latitude) < 1e-9 && abs(abs(mid.longitude) - 180) < 1e-9)
  }
}
