import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoSQLite
import GeoPhotoStore
import GeoPhotoTracks
import Testing

@testable import GeoPhotoGeotag

/// A photo's instant from its recorded offset or the camera's zone, corrected for its clock.
@Suite struct PhotoClockTests {
  /// Seconds since 1970 of a UTC date, computed by Foundation: the oracle.
  func utc(_ text: String) -> Int {
    let format = ISO8601DateFormatter()
    return Int(format.date(from: text)!.timeIntervalSince1970)
  }

  func local(_ text: String) -> Int { utc(text + "Z") }

  @Test func namedZonesApplyDaylightSavingAndGiveBothInstantsWhereClocksChanged() throws {
    let berlin = try CameraZone(parsing: "Europe/Berlin")
    // Winter (+01:00) and summer (+02:00).
    #expect(berlin.instants(ofLocal: local("2024-01-15T12:00:00")) == [utc("2024-01-15T11:00:00Z")])
    #expect(berlin.instants(ofLocal: local("2024-07-15T12:00:00")) == [utc("2024-07-15T10:00:00Z")])
    // 02:30 on 31 March 2024 never showed (02:00 went to 03:00): either offset around it.
    #expect(
      berlin.instants(ofLocal: local("2024-03-31T02:30:00"))
        == [utc("2024-03-31T00:30:00Z"), utc("2024-03-31T01:30:00Z")])
    // 02:30 on 27 October 2024 showed twice, at +02:00 and then at +01:00.
    #expect(
      berlin.instants(ofLocal: local("2024-10-27T02:30:00"))
        == [utc("2024-10-27T00:30:00Z"), utc("2024-10-27T01:30:00Z")])
    #expect(
      try CameraZone(parsing: "-03:30").instants(ofLocal: local("2024-01-15T12:00:00")) == [utc("2024-01-15T15:30:00Z")]
    )
    #expect(throws: CameraZone.Unknown.self) { try CameraZone(parsing: "Mars/Olympus") }
    #expect(throws: CameraZone.Unknown.self) { try CameraZone(parsing: "+25:00") }
  }

  @Test func clockCorrectionsReadTheirTextAndDriftAsExiftoolsGeosyncDoes() throws {
    #expect(ClockCorrection.parse("+00:02:00") == 120)
    #expect(ClockCorrection.parse("-00:00:45") == -45)
    #expect(ClockCorrection.parse("+1 02:00:00") == 93_600)
    #expect(ClockCorrection.parse("-90") == -90)
    for bad in ["", "+1:2", "00:02:00x", "+00:60:00", "+99999 00:00:00", "nan", "+00:00:nan", "1e300"] {
      #expect(ClockCorrection.parse(bad) == nil, "\(bad)")
    }
    #expect(ClockCorrection.text(93_600) == "+1 02:00:00" && ClockCorrection.text(-45) == "-00:00:45")
    // exiftool's -geosync with +10 s checked at 08:00 and +30 s at 10:00: +20 s at 09:00,
    // and the line carried on beyond the checks (+40 s at 11:00, 0 s at 07:00).
    let at8 = Double(utc("2024-05-02T08:00:00Z"))
    let drift = ClockCorrection(checks: [(at8 + 7_200, 30), (at8, 10)])
    #expect(drift.offset(at: at8 + 3_600) == 20)
    #expect(drift.offset(at: at8 + 10_800) == 40)
    #expect(drift.offset(at: at8 - 3_600) == 0)
    #expect(ClockCorrection(offset: -45).offset(at: 0) == -45)
  }

  @Test func aPhotosInstantIsItsRecordedOneUnlessThatOffsetCameFromAnEstimate() throws {
    var photo = Photo(id: 1, source: .local, sourceID: "/p/a.jpg", title: "a")
    let clock = GeotagEngine.Clock(zone: .offset(minutes: 60), correction: ClockCorrection(offset: 30))
    #expect(GeotagEngine.instants(of: photo, clock: clock) == .failure(.init(outcome: .noTime)))
    photo.takenAt = CaptureDate(iso8601: "2024-05-02T10:00:00+09:00")
    #expect(GeotagEngine.instants(of: photo, clock: clock) == .success([Double(utc("2024-05-02T01:00:30Z"))]))
    // An offset that an earlier estimate's place gave is read again in the camera's zone.
    photo.locationEstimated = true
    photo.offsetSource = .place
    #expect(GeotagEngine.instants(of: photo, clock: clock) == .success([Double(utc("2024-05-02T09:00:30Z"))]))
    photo.takenAt?.utcOffsetMinutes = nil
    #expect(GeotagEngine.instants(of: photo, clock: .init()) == .failure(.init(outcome: .noZone)))
  }
}

/// The engine over a real index: photos placed with their sources, outcomes counted, the
/// gap rules obeyed, ambiguous local times resolved or refused.
@Suite struct GeotagEngineTests {
  static let now = IndexTime(seconds: 1_714_730_400)

  func seconds(_ text: String) -> Double { Double(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970) }

  func store(_ photos: [(String, String?, Coordinate?)], in dir: TemporaryDirectory) throws -> SQLitePhotoStore {
    let store = try SQLitePhotoStore(url: dir.url.appendingPathComponent("g.sqlite"), create: true)
    try store.write {
      for (path, taken, position) in photos {
        var photo = Photo(id: 0, source: .local, sourceID: path, coordinate: position, title: path)
        photo.takenAt = taken.flatMap { CaptureDate(iso8601: $0) }
        _ = try store.upsert(
          PhotoRecord(photo: photo, file: FileState(size: 1, changedNanoseconds: 1, contentHash: path)), now: Self.now)
      }
    }
    return store
  }

  @Test func photosArePlacedWithTheirSourcesAndTheOthersCountedByReason() throws {
    let dir = try TemporaryDirectory()
    // Berlin, 31 March 2024: a walk 00:00–00:02Z, then from 01:29 to 01:31Z; clocks went
    // forward at 01:00Z (02:00 local).
    let walk = [
      Fix(time: seconds("2024-03-31T00:00:00Z"), coordinate: Coordinate(latitude: 52.5, longitude: 13.4), source: 1),
      Fix(time: seconds("2024-03-31T00:02:00Z"), coordinate: Coordinate(latitude: 52.6, longitude: 13.4), source: 1),
      Fix(time: seconds("2024-03-31T01:29:00Z"), coordinate: Coordinate(latitude: 52.7, longitude: 13.5), source: 2),
      Fix(time: seconds("2024-03-31T01:31:00Z"), coordinate: Coordinate(latitude: 52.7, longitude: 13.7), source: 2),
    ]
    let positions = GeotagEngine.Positions(
      timeline: Timeline(walk), sources: [1: (.track, "night.gpx"), 2: (.track, "later.nmea")])
    let store = try store(
      [
        ("/p/a.jpg", "2024-03-31T01:01:00+01:00", nil),  // 00:01Z: half way on night.gpx
        ("/p/b.jpg", "2024-03-31T03:30:00", nil),  // local, after the change: 01:30Z on later.nmea
        ("/p/c.jpg", "2024-03-31T02:30:00", nil),  // never showed: 00:30Z (gap) or 01:30Z (placed)
        ("/p/d.jpg", "2024-03-31T01:30:00", nil),  // 00:30Z: in the gap
        ("/p/e.jpg", "2024-03-30T12:00:00+01:00", nil),  // before the track
        ("/p/f.jpg", "2024-04-01T12:00:00+01:00", nil),  // after it
        ("/p/g.jpg", nil, nil),  // no time
        ("/p/h.jpg", "2024-03-31T01:01:00+01:00", Coordinate(latitude: 1, longitude: 2)),  // located
        ("/q/i.jpg", "2024-03-31T01:01:00+01:00", nil),  // not under /p
      ], in: dir)
    let engine = GeotagEngine(store: store)
    let clock = GeotagEngine.Clock(zone: try CameraZone(parsing: "Europe/Berlin"))
    let dry = try engine.geotag(.under("/p"), positions: positions, clock: clock, rules: GapRules(), dryRun: true)
    #expect(dry.considered == 7)
    #expect(
      dry.counts == [.placed: 3, .alreadyLocated: 1, .noTime: 1, .inGap: 1, .beforeTrack: 1, .afterTrack: 1])
    let placed = Dictionary(uniqueKeysWithValues: dry.placed.map { ($0.photo.path ?? "", $0) })
    let a = try #require(placed["/p/a.jpg"])
    #expect(abs(a.coordinate.latitude - 52.55) < 1e-12 && a.coordinate.longitude == 13.4)
    #expect(a.source == EstimateSource(kind: .track, name: "night.gpx", method: .interpolated(seconds: 120)))
    #expect(a.instant == seconds("2024-03-31T00:01:00Z"))
    for path in ["/p/b.jpg", "/p/c.jpg"] {
      let p = try #require(placed[path])
      #expect(abs(p.coordinate.longitude - 13.6) < 1e-12 && p.source.name == "later.nmea", "\(path)")
    }
    #expect(try store.photo(id: a.photo.id)?.coordinate == nil)  // a dry run writes nothing

    let real = try engine.geotag(.under("/p"), positions: positions, clock: clock, rules: GapRules(), dryRun: false)
    #expect(real.counts[.placed] == 3)
    let stored = try #require(try store.photo(id: a.photo.id))
    #expect(stored.locationEstimated && stored.estimateSource == a.source && stored.coordinate == a.coordinate)
    // Placed again: the estimates are considered again, nothing else changes.
    let again = try engine.geotag(.under("/p"), positions: positions, clock: clock, rules: GapRules(), dryRun: true)
    #expect(again.counts == dry.counts)
  }

  @Test func anAmbiguousTimeBothOfWhoseInstantsArePlacedFarApartIsLeftUnplaced() throws {
    let dir = try TemporaryDirectory()
    // 27 October 2024, 02:30 Berlin showed at 00:30Z and at 01:30Z; the track is 20 km apart then.
    let track = Timeline([
      Fix(time: seconds("2024-10-27T00:00:00Z"), coordinate: Coordinate(latitude: 52.5, longitude: 13.4)),
      Fix(time: seconds("2024-10-27T02:00:00Z"), coordinate: Coordinate(latitude: 52.5, longitude: 13.4)),
      Fix(time: seconds("2024-10-27T00:30:00Z"), coordinate: Coordinate(latitude: 52.5, longitude: 13.4)),
      Fix(time: seconds("2024-10-27T01:30:00Z"), coordinate: Coordinate(latitude: 52.68, longitude: 13.4)),
    ])
    let store = try store([("/p/fold.jpg", "2024-10-27T02:30:00", nil)], in: dir)
    let report = try GeotagEngine(store: store).geotag(
      .all, positions: .init(timeline: track, sources: [:]),
      clock: .init(zone: try CameraZone(parsing: "Europe/Berlin")), rules: GapRules(maxGap: 7_200), dryRun: true)
    #expect(report.counts == [.inconsistentZone: 1])
    // With a fixed offset there is one instant, and it is placed.
    let fixed = try GeotagEngine(store: store).geotag(
      .all, positions: .init(timeline: track, sources: [:]), clock: .init(zone: .offset(minutes: 60)),
      rules: GapRules(maxGap: 7_200), dryRun: true)
    #expect(fixed.counts == [.placed: 1] && fixed.placed.first?.coordinate.latitude == 52.68)
  }

  /// The phone's photos as a track: recorded positions with instants become fixes; estimated
  /// ones never do; a camera photo between two phone photos is placed between them.
  @Test func photosWithRecordedPositionsAreATrackAndEstimatesNeverFeedEstimates() throws {
    let dir = try TemporaryDirectory()
    let store = try store(
      [
        ("/phone/1.heic", "2024-05-02T10:00:00+01:00", Coordinate(latitude: 38.70, longitude: -9.14)),
        ("/phone/2.heic", "2024-05-02T10:10:00+01:00", Coordinate(latitude: 38.72, longitude: -9.12)),
        ("/phone/3.heic", "2024-05-02T10:40:00", Coordinate(latitude: 1, longitude: 1)),  // no instant
        ("/camera/a.jpg", "2024-05-02T10:04:00+01:00", nil),
        ("/camera/b.jpg", "2024-05-02T10:12:00+01:00", nil),
      ], in: dir)
    // b is placed by hand first: an estimate, which must not become a fix.
    let engine = GeotagEngine(store: store)
    let b = try #require(try engine.candidates(.files(["/camera/b.jpg"])).photos.first)
    _ = try engine.place(.files(["/camera/b.jpg"]), at: Coordinate(latitude: 50, longitude: 50), dryRun: false)
    #expect(try store.photo(id: b.id)?.estimateSource == .byHand)
    let photos = try GeotagEngine.PhotoFixes(store: store, under: nil)
    #expect(photos.fixes.map(\.name) == ["1.heic", "2.heic"])
    let report = try engine.geotag(
      .under("/camera"), positions: .init(tracks: TrackLibrary.Result(), photos: photos), clock: .init(),
      rules: GapRules(), dryRun: true)
    let a = try #require(report.placed.first { $0.photo.path == "/camera/a.jpg" })
    // 4 of 10 minutes from 1 to 2.
    #expect(abs(a.coordinate.latitude - 38.708) < 1e-9 && abs(a.coordinate.longitude - -9.132) < 1e-9)
    #expect(a.source == EstimateSource(kind: .photos, name: "1.heic", method: .interpolated(seconds: 600)))
    // b (two minutes after the last phone photo) is after the track; its hand placement stays
    // an estimate to place again.
    #expect(report.counts[.afterTrack] == 1)
  }

  @Test func handPlacementsAndClearingTouchEstimatesOnly() throws {
    let dir = try TemporaryDirectory()
    let store = try store(
      [
        ("/p/a.jpg", "2024-05-02T10:00:00+01:00", nil), ("/p/b.jpg", nil, nil),
        ("/p/c.jpg", nil, Coordinate(latitude: 1, longitude: 2)),
      ], in: dir)
    let engine = GeotagEngine(store: store)
    let kyoto = Coordinate(latitude: 35.0116, longitude: 135.7681)
    let report = try engine.place(.files(["/p/a.jpg", "/p/c.jpg", "/p/missing.jpg"]), at: kyoto, dryRun: false)
    #expect(report.counts == [.placed: 1, .alreadyLocated: 1] && report.missing == ["/p/missing.jpg"])
    #expect(try store.nearest(to: kyoto, limit: 5, maximumDistance: 1_000).count == 1)
    #expect(try engine.clear(.under("/p"), dryRun: true).map(\.path) == ["/p/a.jpg"])
    #expect(try store.nearest(to: kyoto, limit: 5, maximumDistance: 1_000).count == 1)  // a dry run clears nothing
    #expect(try engine.clear(.all, dryRun: false).count == 1)
    #expect(try store.nearest(to: kyoto, limit: 5, maximumDistance: 1_000).isEmpty)
    #expect(try store.localPhotos(under: "/p", .recorded).map(\.path) == ["/p/c.jpg"])
  }

  /// `--tz auto` across the border between Elvas (Portugal, UTC+1 in summer) and Badajoz
  /// (Spain, UTC+2), with the zones the test's own rule gives (west of 7.05° W is Portugal).
  /// The track: Elvas at 10:00Z, across the border at 10:30Z, Badajoz 11:00–13:00Z, back in
  /// Elvas 14:00–16:00Z; a fix every 5 minutes.
  @Test func theTracksOwnZonePlacesLocalTimesAndRefusesTimesThatFitTwoPlaces() throws {
    let elvas = Coordinate(latitude: 38.8815, longitude: -7.16282)
    let badajoz = Coordinate(latitude: 38.87789, longitude: -6.97061)
    let start = seconds("2024-07-01T10:00:00Z")
    func at(_ minutes: Int) -> Coordinate {
      let f: Double =
        switch minutes {
        case ..<60: Double(minutes) / 60
        case 60..<180: 1
        case 180..<240: 1 - Double(minutes - 180) / 60
        default: 0
        }
      return Coordinate(
        latitude: elvas.latitude + (badajoz.latitude - elvas.latitude) * f,
        longitude: elvas.longitude + (badajoz.longitude - elvas.longitude) * f)
    }
    let fixes = stride(from: 0, through: 360, by: 5).map {
      Fix(time: start + Double($0 * 60), coordinate: at($0), source: 1)
    }
    let positions = GeotagEngine.Positions(timeline: Timeline(fixes), sources: [1: (.track, "border.gpx")])
    let lisbon = try #require(TimeZone(identifier: "Europe/Lisbon"))
    let madrid = try #require(TimeZone(identifier: "Europe/Madrid"))
    let clock = GeotagEngine.Clock(zone: .auto) { $0.longitude < -7.05 ? lisbon : madrid }
    func photo(_ local: String) -> Photo {
      var photo = Photo(id: 1, source: .local, sourceID: "/p/\(local).jpg", title: local)
      photo.takenAt = CaptureDate(iso8601: "2024-07-01T\(local)")
      return photo
    }
    func placed(_ local: String) -> GeotagEngine.Placed? {
      try? GeotagEngine.place(photo(local), on: positions, clock: clock, rules: GapRules()).get()
    }
    // 13:00 local: 11:00Z in Badajoz (Madrid's +2 fits); 12:00Z (Lisbon's +1) is in Spain too.
    #expect(placed("13:00:00")?.instant == start + 3_600)
    // 11:00 local: 09:00Z is before the track; 10:00Z (Lisbon's +1) is in Elvas.
    #expect(placed("11:00:00")?.instant == start && placed("11:00:00")?.coordinate == elvas)
    // 12:40 local: 10:40Z, just inside Spain (Madrid's +2); 11:40Z would be Spain, not +1.
    #expect(placed("12:40:00")?.instant == start + 2_400)
    // 15:00 local fits both: 13:00Z in Badajoz at +2, and 14:00Z in Elvas at +1.
    #expect(
      GeotagEngine.place(photo("15:00:00"), on: positions, clock: clock, rules: GapRules())
        == .failure(.init(outcome: .inconsistentZone)))
    // 05:00 local: 03:00Z or 04:00Z, hours before the track.
    #expect(
      GeotagEngine.place(photo("05:00:00"), on: positions, clock: clock, rules: GapRules())
        == .failure(.init(outcome: .beforeTrack)))
    // A track in no zone the rule knows: no zone fits.
    let nowhere = GeotagEngine.Clock(zone: .auto) { _ in nil }
    #expect(
      GeotagEngine.place(photo("13:00:00"), on: positions, clock: nowhere, rules: GapRules())
        == .failure(.init(outcome: .noZone)))
  }

  /// `--sync`: by the time a photo shows, by where it was taken (a camera 83 s slow recovered
  /// from a pass the track made), and two checks drifting.
  @Test func syncPointsGiveTheCameraClocksCorrection() throws {
    let dir = try TemporaryDirectory()
    // A walk due east along the equator-free 38.7° N, 10 m a second, a fix every 10 s,
    // 10:00:00Z to 10:30:00Z.
    let start = seconds("2024-05-02T10:00:00Z")
    let fixes = stride(from: 0, through: 1_800, by: 10).map { t in
      Fix(time: start + Double(t), coordinate: Coordinate(latitude: 38.7, longitude: -9.2 + Double(t) * 10 / 86_900))
    }
    let positions = GeotagEngine.Positions(timeline: Timeline(fixes), sources: [:])
    // The camera is 83 s slow: the photo taken at 10:12:03Z says 11:10:40 (+01:00).
    let store = try store(
      [
        ("/p/clock.jpg", "2024-05-02T11:10:40+01:00", nil), ("/p/spot.jpg", "2024-05-02T11:10:40+01:00", nil),
        ("/p/late.jpg", "2024-05-02T11:20:00", nil),
      ], in: dir)
    let engine = GeotagEngine(store: store)
    // Where the track was at 10:12:03Z (723 s in): the spot.
    let spot = Coordinate(latitude: 38.7, longitude: -9.2 + 7_230 / 86_900)
    let byPlace = try engine.correction(
      from: [("/p/spot.jpg", .place(spot))], positions: positions, zone: nil, maxGap: 1_800)
    #expect(abs(byPlace.correction.offset(at: 0) - 83) < 1, "\(byPlace.notes)")
    #expect(byPlace.notes.first?.contains("passed 0 m away") == true)
    let byTime = try engine.correction(
      from: [("/p/clock.jpg", .time("11:12:03"))], positions: positions, zone: nil, maxGap: 1_800)
    #expect(byTime.correction.offset(at: 0) == 83)
    #expect(
      try engine.correction(
        from: [("/p/clock.jpg", .time("2024-05-02T10:12:03Z"))], positions: positions, zone: nil, maxGap: 1_800
      ).correction.offset(at: 0) == 83)
    // A local time needs the camera's zone; a drift from two checks (83 s slow at 10:10:40Z,
    // 103 s slow at 10:20:00Z as +01:00).
    #expect(throws: GeotagEngine.SyncProblem.self) {
      try engine.correction(from: [("/p/late.jpg", .time("11:21:43"))], positions: positions, zone: nil, maxGap: 1_800)
    }
    let drift = try engine.correction(
      from: [("/p/clock.jpg", .time("11:12:03")), ("/p/late.jpg", .time("11:21:43"))], positions: positions,
      zone: .offset(minutes: 60), maxGap: 1_800)
    let early = seconds("2024-05-02T10:10:40Z")
    #expect(drift.correction.offset(at: early) == 83 && drift.correction.offset(at: early + 560) == 103)
    #expect(abs(drift.correction.offset(at: early + 280) - 93) < 1e-9)
    // Looked for only within the gap of the camera's time: 60 s finds the track 230 m off,
    // and says so; a camera time hours from the track finds nothing.
    let narrow = try engine.correction(
      from: [("/p/spot.jpg", .place(spot))], positions: positions, zone: nil, maxGap: 60)
    #expect(narrow.notes.first?.hasSuffix("(far: check the place)") == true)
    #expect(throws: GeotagEngine.SyncProblem.self) {
      try engine.correction(
        from: [("/p/late.jpg", .place(spot))], positions: positions, zone: .offset(minutes: 300), maxGap: 60)
    }
    // Not in the index.
    #expect(throws: GeotagEngine.SyncProblem.self) {
      try engine.correction(from: [("/p/none.jpg", .time("10:00"))], positions: positions, zone: nil, maxGap: 60)
    }
  }
}

/// The moment a track came nearest a spot, against a scan of each segment cut in a thousand.
@Suite struct NearestApproachTests {
  @Test func theNearestMomentIsTheScansWithinASecond() {
    var rng = SeededGenerator(seed: 83)
    for _ in 0..<50 {
      var t = 1_714_640_000.0
      var c = Coordinate(
        latitude: Double.random(in: -60...60, using: &rng), longitude: Double.random(in: -170...170, using: &rng))
      var fixes: [Fix] = []
      for _ in 0..<20 {
        fixes.append(Fix(time: t, coordinate: c))
        t += Double.random(in: 5...120, using: &rng).rounded()
        c = Coordinate(
          latitude: c.latitude + Double.random(in: -0.002...0.002, using: &rng),
          longitude: c.longitude + Double.random(in: -0.002...0.002, using: &rng))
      }
      let spot = Coordinate(
        latitude: fixes[10].coordinate.latitude + Double.random(in: -0.001...0.001, using: &rng),
        longitude: fixes[10].coordinate.longitude + Double.random(in: -0.001...0.001, using: &rng))
      var best = (time: 0.0, metres: Double.infinity)
      for (a, b) in zip(fixes, fixes.dropFirst()) {
        for k in 0...1_000 {
          let f = Double(k) / 1_000
          let p = Coordinate(
            latitude: a.coordinate.latitude + (b.coordinate.latitude - a.coordinate.latitude) * f,
            longitude: a.coordinate.longitude + (b.coordinate.longitude - a.coordinate.longitude) * f)
          let d = GreatCircle.distance(p, spot)
          if d < best.metres { best = (a.time + (b.time - a.time) * f, d) }
        }
      }
      let found = Timeline(fixes).nearestApproach(to: spot, within: fixes[0].time...t, maxGap: 1_800)
      #expect(
        found.map { abs($0.time - best.time) < 1 && abs($0.metres - best.metres) < 0.5 } == true,
        "\(String(describing: found)) vs \(best)")
    }
  }
}

@Suite struct RetentionWindowsTests {
  /// Against a check of every centre's own window.
  @Test func aRangeMeetsAWindowExactlyWhenItMeetsSomeCentresReach() {
    var rng = SeededGenerator(seed: 14)
    for _ in 0..<200 {
      let centres = (0..<Int.random(in: 0...20, using: &rng)).map { _ in
        Double.random(in: 0...100_000, using: &rng).rounded()
      }
      let reach = Double.random(in: 0...5_000, using: &rng).rounded()
      let windows = RetentionWindows(centres: centres, reach: reach)
      for _ in 0..<50 {
        let start = Double.random(in: -10_000...110_000, using: &rng).rounded()
        let range =
          start...(start + (Bool.random(using: &rng) ? 0 : Double.random(in: 0...3_000, using: &rng).rounded()))
        let expected = centres.contains { range.lowerBound <= $0 + reach && $0 - reach <= range.upperBound }
        #expect(windows.meets(range) == expected)
      }
    }
  }
}
