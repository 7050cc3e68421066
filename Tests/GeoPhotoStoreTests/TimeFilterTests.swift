import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoStore

/// Time filters on both stores, against a brute-force oracle whose periods come from
/// Foundation's Gregorian calendar, not from geophoto's date code.
@Suite struct TimeFilterTests {
  static let now = IndexTime(seconds: 1_796_083_200)  // 2026-12-01T00:00:00Z

  /// Wall-clock seconds of a date in UTC arithmetic, by Foundation.
  static func wall(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let date = calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))
    return Int(date?.timeIntervalSince1970 ?? 0)
  }

  /// A photo's capture time as the oracle sees it: its wall clock and, with an offset, its instant.
  struct Taken {
    var wall: Int
    var offsetMinutes: Int?
    var instant: Int? { offsetMinutes.map { wall - $0 * 60 } }
  }

  /// One filter case: geophoto's text, and the oracle's period edges (wall clock, offset).
  struct Case {
    var since: String?
    var until: String?
    var from: (wall: Int, offset: Int?)?
    var to: (wall: Int, offset: Int?)?  // exclusive end
  }

  static func passes(_ t: Taken?, _ c: Case) -> Bool {
    guard let t else { return false }
    if let from = c.from {
      if let offset = from.offset, let instant = t.instant {
        if instant < from.wall - offset * 60 { return false }
      } else if t.wall < from.wall {
        return false
      }
    }
    if let to = c.to {
      if let offset = to.offset, let instant = t.instant {
        if instant >= to.wall - offset * 60 { return false }
      } else if t.wall >= to.wall {
        return false
      }
    }
    return true
  }

  static let cases: [Case] = [
    Case(since: "2024", until: nil, from: (wall(2024, 1, 1), nil), to: nil),
    Case(since: nil, until: "2023", from: nil, to: (wall(2024, 1, 1), nil)),
    Case(since: "2024-03", until: "2024-05", from: (wall(2024, 3, 1), nil), to: (wall(2024, 6, 1), nil)),
    Case(since: "2024-05-03", until: "2024-05-03", from: (wall(2024, 5, 3), nil), to: (wall(2024, 5, 4), nil)),
    Case(since: "2024-02", until: "2024-02", from: (wall(2024, 2, 1), nil), to: (wall(2024, 3, 1), nil)),  // leap
    Case(since: "2024-05-03T14:30", until: nil, from: (wall(2024, 5, 3, 14, 30), nil), to: nil),
    Case(
      since: "2024-05-03T09:00+09:00", until: "2024-05-03T18:00:00Z", from: (wall(2024, 5, 3, 9), 540),
      to: (wall(2024, 5, 3, 18, 0, 1), 0)),
    Case(since: nil, until: "2023-12-31T23:59", from: nil, to: (wall(2024, 1, 1), nil)),
  ]

  @Test(arguments: StoreKind.available)
  func nearestWithTimeFiltersIsTheBruteForceAnswer(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    var rng = SeededGenerator(seed: 2_024_0503)
    var written: [(id: Int64, c: Coordinate, taken: Taken?)] = []
    let start = Self.wall(2023, 6, 1)
    let span = Self.wall(2024, 7, 1) - start
    try store.write {
      for i in 0..<500 {
        let c = Coordinate(
          latitude: Double.random(in: 35.5...35.9, using: &rng), longitude: Double.random(in: 139.5...140, using: &rng))
        var taken: Taken?
        switch i % 5 {
        case 0: taken = nil
        case 1, 2: taken = Taken(wall: start + Int.random(in: 0..<span, using: &rng), offsetMinutes: nil)
        default:
          taken = Taken(
            wall: start + Int.random(in: 0..<span, using: &rng),
            offsetMinutes: 15 * Int.random(in: -48...56, using: &rng))
        }
        if i < 20 {  // edges: 23:30 and 00:30 around 3 May, in Tokyo and floating
          taken = Taken(
            wall: Self.wall(2024, 5, i % 2 == 0 ? 3 : 4, i % 2 == 0 ? 23 : 0, 30), offsetMinutes: i % 4 < 2 ? 540 : nil)
        }
        var r = record("/t/\(i).jpg", c.latitude, c.longitude)
        r.photo.takenAt = taken.map { CaptureDate(secondsSinceEpoch: $0.wall, utcOffsetMinutes: nil) }
        r.photo.takenAt?.utcOffsetMinutes = taken?.offsetMinutes
        written.append((try store.upsert(r, now: Self.now).id, c, taken))
      }
    }
    try store.refreshDerivedIndexes()
    let q = Coordinate(latitude: 35.7, longitude: 139.7)
    for c in Self.cases {
      let range = TimeRange(since: try c.since.map { try TimeBound($0) }, until: try c.until.map { try TimeBound($0) })
      let kept = written.filter { Self.passes($0.taken, c) }
      let hits: [(id: Int64, d: Double)] = kept.map { (id: $0.id, d: GreatCircle.distance(q, $0.c)) }
      let expected: [Int64] = hits.sorted { a, b in a.d < b.d || (a.d == b.d && a.id < b.id) }.map(\.id)
      let label = "since \(c.since ?? "-") until \(c.until ?? "-")"
      #expect(!expected.isEmpty, "\(label): a case that matches nothing proves little")
      for limit in [1, 25, 1_000] {
        let got = try store.nearest(NearQuery(center: q, limit: limit, filter: PhotoFilter(time: range)))
        let want = Array(expected.prefix(limit))
        #expect(got.map(\.id) == want, "\(label) limit \(limit): \(got.count) vs \(want.count)")
      }
    }
    // The same rule judges a photo in memory (the server's snapshot).
    for c in Self.cases {
      let range = TimeRange(since: try c.since.map { try TimeBound($0) }, until: try c.until.map { try TimeBound($0) })
      let photos = try store.photos(ids: written.map(\.id))
      let kept = Set(photos.filter { PhotoFilter(time: range).includes($0) }.map(\.id))
      #expect(kept == Set(written.filter { Self.passes($0.taken, c) }.map(\.id)))
    }
  }

  @Test func boundsReadAsTheyAreWritten() throws {
    #expect(try TimeBound("2024").start == Int64(Self.wall(2024, 1, 1)))
    #expect(try TimeBound("2024").end == Int64(Self.wall(2025, 1, 1)))
    #expect(try TimeBound("2023-12").end == Int64(Self.wall(2024, 1, 1)))
    #expect(try TimeBound("2024-05-03T14:30:15").end == Int64(Self.wall(2024, 5, 3, 14, 30, 16)))
    #expect(try TimeBound("2024-05-03T14:30+09:00").offsetMinutes == 540)
    #expect(try TimeBound("2024-05-03T14:30Z").offsetMinutes == 0)
    #expect(try TimeBound("2024-05-03T14:30-04:30").offsetMinutes == -270)
    for bad in [
      "", "24", "2024-5", "2024-13", "2024-02-30", "2024-05-03T25:00", "2024-05-03+09:00", "May 2024",
      "2024-05-03T14", "2024-05-03 14:30", "2024-05-03T14:30+9",
    ] {
      #expect(throws: InputParser.Failure.self, "\(bad)") { try TimeBound(bad) }
    }
    #expect(throws: InputParser.Failure.self) { try TimeBound.day("2024-05") }
    // A photo at 23:30 on 3 May in Tokyo is on 3 May, whatever zone asks.
    let tokyo = CaptureDate(year: 2024, month: 5, day: 3, hour: 23, minute: 30, utcOffsetMinutes: 540)
    #expect(TimeRange(on: try TimeBound.day("2024-05-03")).matches(tokyo))
    #expect(!TimeRange(on: try TimeBound.day("2024-05-04")).matches(tokyo))
    #expect(!TimeRange(since: try TimeBound("2000")).matches(nil))  // no capture time never matches
  }

  /// The camera filter on both stores: make or model containing the text, any case.
  @Test(arguments: StoreKind.available)
  func nearestWithACameraFilterIsTheBruteForceAnswer(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    var rng = SeededGenerator(seed: 77)
    let cameras: [(String?, String?)] = [
      ("FUJIFILM", "X100V"), ("Canon", "EOS R5"), ("Apple", "iPhone 15 Pro"), (nil, nil), ("SONY", "ILCE-7M4"),
      ("Fujifilm", "X-T5"),
    ]
    var written: [(id: Int64, c: Coordinate, make: String?, model: String?)] = []
    try store.write {
      for i in 0..<300 {
        let c = Coordinate(
          latitude: Double.random(in: 35.5...35.9, using: &rng), longitude: Double.random(in: 139.5...140, using: &rng))
        let (make, model) = cameras[i % cameras.count]
        var r = record("/c/\(i).jpg", c.latitude, c.longitude)
        r.photo.cameraMake = make
        r.photo.cameraModel = model
        written.append((try store.upsert(r, now: Self.now).id, c, make, model))
      }
    }
    try store.refreshDerivedIndexes()
    let q = Coordinate(latitude: 35.7, longitude: 139.7)
    for text in ["fuji", "FUJIFILM X", "iphone 15", "eos", "7m4", "nikon", "x-t"] {
      let needle = text.lowercased()
      let kept = written.filter { w in
        "\(w.make ?? "") \(w.model ?? "")".lowercased().range(of: needle) != nil
      }
      let hits: [(id: Int64, d: Double)] = kept.map { (id: $0.id, d: GreatCircle.distance(q, $0.c)) }
      let expected: [Int64] = hits.sorted { a, b in a.d < b.d || (a.d == b.d && a.id < b.id) }.prefix(20).map(\.id)
      let got = try store.nearest(NearQuery(center: q, limit: 20, filter: PhotoFilter(camera: text)))
      #expect(got.map(\.id) == expected, "\(text)")
    }
  }
}
