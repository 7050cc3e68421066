import Foundation
import GeoPhotoBackends
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoStore

/// The rules every index follows, run against each kind: SQLite, and PostgreSQL/PostGIS when
/// the test cluster is up (always under `make test`). Expected values come from the test's
/// own data (brute-force distances, the rows it wrote), never from the store under test.
@Suite struct StoreContractTests {
  static let now = IndexTime(seconds: 1_777_636_800)  // 2026-05-01T12:00:00Z

  func remote(_ id: String, _ source: PhotoSource, _ lat: Double, _ lon: Double) -> PhotoRecord {
    PhotoRecord(
      photo: Photo(
        id: 0, source: source, sourceID: id, coordinate: Coordinate(latitude: lat, longitude: lon), title: id,
        url: "https://example.org/\(id)", attribution: "Ann"))
  }

  @Test(arguments: StoreKind.available)
  func generationAdvancesOnlyWhenPhotosChange(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let g0 = try store.generation()
    let first = try store.write { try store.upsert(record("/p/a.jpg", 35.68, 139.76), now: Self.now) }
    #expect(first.inserted)
    let g1 = try store.generation()
    #expect(g1 == g0 + 1)
    try store.write { try store.recordSyncRoot("/p", now: Self.now) }
    #expect(try store.generation() == g1)
    try store.write { try store.delete(id: 999_999) }
    #expect(try store.generation() == g1)
    try store.write { try store.delete(id: first.id) }
    #expect(try store.generation() == g1 + 1)
    #expect(try store.counts() == PhotoCounts(photos: 0, located: 0, problems: 0))
  }

  @Test(arguments: StoreKind.available)
  func upsertKeepsIDsAndFailedWritesChangeNothing(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let a = try store.write { try store.upsert(record("/p/a.jpg", 1, 2, title: "first"), now: Self.now) }
    let again = try store.write { try store.upsert(record("/p/a.jpg", 3, 4, title: "second"), now: Self.now) }
    #expect(a.id == again.id && a.inserted && !again.inserted)
    #expect(try store.photo(id: a.id)?.title == "second")
    #expect(try store.photo(id: a.id)?.coordinate == Coordinate(latitude: 3, longitude: 4))
    let g = try store.generation()
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try store.write {
        try store.upsert(record("/p/b.jpg", 5, 6), now: Self.now)
        try store.delete(id: a.id)
        throw Boom()
      }
    }
    #expect(try store.counts().photos == 1)
    #expect(try store.photo(id: a.id) != nil)
    #expect(try store.generation() == g)
    // Another connection sees the same rows.
    let other = try reopen(store)
    #expect(try other.photo(id: a.id)?.title == "second" && other.generation() == g)
  }

  @Test(arguments: StoreKind.available)
  func manyUpsertsAtOnceAnswerInOrder(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let old = try store.write { try store.upsert(record("/m/old.jpg", 1, 1, title: "before"), now: Self.now) }
    // More than one statement's worth, one already known, one listed twice (the last wins).
    var batch = (0..<1_203).map { record("/m/\($0).jpg", Double($0 % 80), Double($0 % 170), hash: "h\($0)") }
    batch.insert(record("/m/old.jpg", 2, 2, title: "after"), at: 600)
    batch.append(record("/m/7.jpg", 3, 3, title: "again"))
    let g = try store.generation()
    let results = try store.write { try store.upsert(batch, now: Self.now) }
    #expect(try results.count == batch.count && store.generation() == g + 1)
    #expect(results[600] == Upserted(id: old.id, inserted: false))
    #expect(results[7].id == results[batch.count - 1].id)
    #expect(Set(results.map(\.id)).count == 1_204)
    // As if one after another: the known photo and the second listing are updates.
    #expect(results.enumerated().allSatisfy { $0.element.inserted == ![600, batch.count - 1].contains($0.offset) })
    #expect(try store.counts().photos == 1_204)
    #expect(try store.photo(id: old.id)?.title == "after" && store.photo(id: results[7].id)?.title == "again")
    #expect(try store.photo(id: results[1_000].id)?.sourceID == batch[1_000].photo.sourceID)
    #expect(try store.write { try store.upsert([], now: Self.now) }.isEmpty)
  }

  @Test(arguments: StoreKind.available)
  func knownFilesAndForgettingAreScopedToTheirRoot(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    // '/a0', '/a-b', '/a.b' and '/A' sort near '/a/' in some collations, never under it.
    let paths = [
      "/a/x.jpg", "/a/sub/y.jpg", "/ab/z.jpg", "/a0.jpg", "/a-b/v.jpg", "/a.b/u.jpg", "/A/t.jpg", "/b/w.jpg",
    ]
    try store.write {
      for (i, p) in paths.enumerated() { try store.upsert(record(p, nil, nil, hash: "h\(i)"), now: Self.now) }
      try store.recordSyncRoot("/a", now: Self.now)
      try store.recordSyncRoot("/a/sub", now: Self.now)
      try store.recordSyncRoot("/ab", now: Self.now)
    }
    let known = try store.knownFiles(under: "/a")
    #expect(known.map(\.path).sorted() == ["/a/sub/y.jpg", "/a/x.jpg"])
    #expect(
      known.first { $0.path == "/a/x.jpg" }?.state == FileState(size: 10, changedNanoseconds: 5, contentHash: "h0"))
    #expect(try store.syncRoots().map(\.path) == ["/a", "/a/sub", "/ab"])
    #expect(try store.syncRoots().first?.lastSynced == Self.now)
    #expect(try store.write { try store.forgetLocalPhotos(under: "/a") } == 2)
    #expect(try store.counts().photos == paths.count - 2)
    #expect(try store.syncRoots().map(\.path) == ["/ab"])
  }

  @Test(arguments: StoreKind.available)
  func anEstimatedPositionLastsUntilTheFileHasGPS(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    var early = record("/trip/1.jpg", nil, nil)
    early.photo.takenAt = CaptureDate(iso8601: "2024-05-03T09:00:00+09:00")
    var late = record("/trip/2.jpg", nil, nil)
    late.photo.takenAt = CaptureDate(iso8601: "2024-05-03T10:00:00+09:00")
    let undated = record("/trip/0.jpg", nil, nil)
    let (a, b, c) = try store.write {
      (
        try store.upsert(late, now: Self.now).id, try store.upsert(early, now: Self.now).id,
        try store.upsert(undated, now: Self.now).id
      )
    }
    try store.write { try store.upsert(record("/elsewhere/3.jpg", nil, nil), now: Self.now) }
    // Undated first, then by date.
    #expect(try store.localPhotos(under: "/trip", .toGeotag).map(\.id) == [c, b, a])
    #expect(try store.localPhotos(under: nil, .toGeotag).count == 4)

    let g = try store.generation()
    let spot = Coordinate(latitude: 35.0, longitude: 135.0)
    let source = EstimateSource(kind: .track, name: "day1.gpx", method: .interpolated(seconds: 12.5))
    func estimate(_ id: Int64) throws {
      try store.write { try store.setEstimatedLocation(id: id, spot, altitude: 41.5, source: source, now: Self.now) }
    }
    try estimate(a)
    #expect(try store.generation() == g + 1)
    var estimated = try #require(try store.photo(id: a))
    #expect(estimated.locationEstimated && estimated.altitude == 41.5 && estimated.estimateSource == source)
    #expect(try store.nearest(to: spot, limit: 1).first?.id == a)
    #expect(try store.recordedLocationCount(under: "/trip") == 0)
    // A sync that reads the file again (still without GPS) keeps the estimate, its altitude and source...
    try store.write { try store.upsert(late, now: Self.now) }
    #expect(try store.photo(id: a)?.coordinate == spot)
    try store.write { try store.update(id: a, with: late, now: Self.now) }
    estimated = try #require(try store.photo(id: a))
    #expect(estimated.coordinate == spot && estimated.altitude == 41.5 && estimated.estimateSource == source)
    // ...and so does one that reads back the same position (a sidecar geotag wrote)...
    var sidecar = late
    sidecar.photo.coordinate = Coordinate(latitude: 35.000_000_01, longitude: 135.0)
    try store.write { try store.upsert(sidecar, now: Self.now) }
    #expect(try store.photo(id: a)?.estimateSource == source)
    // ...until the file gains its own position, which replaces it.
    var tagged = late
    tagged.photo.coordinate = Coordinate(latitude: 34, longitude: 134)
    try store.write { try store.upsert(tagged, now: Self.now) }
    let photo = try #require(try store.photo(id: a))
    #expect(photo.coordinate == Coordinate(latitude: 34, longitude: 134) && !photo.locationEstimated)
    #expect(photo.estimateSource == nil && photo.altitude == nil)
    #expect(try store.recordedLocationCount(under: "/trip") == 1 && store.recordedLocationCount(under: "/none") == 0)
    // A recorded position is never overwritten by an estimate, nor cleared as one.
    try estimate(a)
    #expect(try store.photo(id: a)?.coordinate == Coordinate(latitude: 34, longitude: 134))
    #expect(try store.localPhotos(under: "/trip", .toGeotag).map(\.id) == [c, b])
    // Clearing removes estimates only.
    try estimate(b)
    #expect(try store.write { try store.clearEstimatedLocations(ids: [a, b, c], now: Self.now) } == 1)
    let cleared = try #require(try store.photo(id: b))
    #expect(cleared.coordinate == nil && !cleared.locationEstimated && cleared.estimateSource == nil)
    #expect(try store.photo(id: a)?.coordinate == Coordinate(latitude: 34, longitude: 134))
  }

  @Test(arguments: StoreKind.available)
  func placesAreNamedOnceAndAgainWhenAPhotoMoves(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let (a, _) = try store.write {
      (
        try store.upsert(record("/p/a.jpg", 35.68, 139.76), now: Self.now).id,
        try store.upsert(record("/p/b.jpg", 48.85, 2.35), now: Self.now).id
      )
    }
    try store.write { try store.upsert(record("/p/none.jpg", nil, nil), now: Self.now) }
    let namer = TestNamer(identity: 7)
    #expect(try store.hasPhotosToPlace(gazetteer: 7))
    #expect(try store.write { try store.assignPlaces(with: namer) } == 2)
    #expect(try !store.hasPhotosToPlace(gazetteer: 7))
    #expect(try store.write { try store.assignPlaces(with: namer) } == 0)
    #expect(try store.photo(id: a)?.place?.name == "Tokyo" && store.photo(id: a)?.place?.distance == 12.5)
    #expect(try store.records(after: 0, limit: 10).first { $0.id == a }?.record.placedWith == 7)
    // Unchanged data keeps its place; a new position asks again; a new gazetteer renames all.
    try store.write { try store.upsert(record("/p/a.jpg", 35.68, 139.76, title: "renamed"), now: Self.now) }
    #expect(try !store.hasPhotosToPlace(gazetteer: 7))
    #expect(try store.photo(id: a)?.place?.name == "Tokyo")
    try store.write { try store.upsert(record("/p/a.jpg", 35.7, 139.7), now: Self.now) }
    #expect(try store.write { try store.assignPlaces(with: namer) } == 1)
    #expect(try store.write { try store.assignPlaces(with: TestNamer(identity: 8)) } == 2)
  }

  /// Naming again with another edition of the gazetteer looks at every photo but writes only
  /// those it names differently; the rest keep their mark, which stands for both editions.
  @Test(arguments: StoreKind.available)
  func anotherEditionWritesOnlyThePhotosItRenames(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    var rng = SeededGenerator(seed: 1_512)
    var records: [PhotoRecord] = []
    // More than one batch, so naming one overlaps reading the next.
    for i in 0..<(PlaceRenaming.batchSize + 300) {
      var r = record(
        "/p/\(i).jpg", Double.random(in: 30...39.99, using: &rng), Double.random(in: 130...139.99, using: &rng),
        hash: "h\(i)")
      // Every third photo has a floating capture time, read in its place's zone.
      if i % 3 == 0 { r.photo.takenAt = CaptureDate(year: 2024, month: 7, day: 1, hour: 12) }
      records.append(r)
    }
    records.append(record("/p/none.jpg", nil, nil, hash: "hn"))
    let located = records.count - 1
    try store.write { _ = try store.upsert(records, now: Self.now) }
    let first = CellNamer(identity: 21, renamed: [])
    let renamedCells: Set<Int> = [31_131, 35_135, 39_139, 33_137]
    let second = CellNamer(identity: 22, renamed: renamedCells)
    #expect(try store.write { try store.assignPlaces(with: first) } == located)
    let generation = try store.generation()
    #expect(try store.write { try store.assignPlaces(with: second) } == located)
    #expect(try store.generation() == generation + 1)
    #expect(try !store.hasPhotosToPlace(gazetteer: 22) && store.hasPhotosToPlace(gazetteer: 21))
    #expect(try store.write { try store.assignPlaces(with: second) } == 0)
    let inRenamedCells = records.filter {
      $0.photo.coordinate.map { renamedCells.contains(CellNamer.cell($0)) } ?? false
    }
    #expect(!inRenamedCells.isEmpty)
    let written = try store.records(after: 0, limit: records.count + 1)
    // Exactly the photos in renamed cells carry the new mark, and every photo its new name.
    #expect(written.filter { $0.record.placedWith == 22 }.count == inRenamedCells.count)
    for (_, r) in written {
      guard let c = r.photo.coordinate else {
        #expect(r.photo.place == nil && r.placedWith == nil)
        continue
      }
      #expect(r.photo.place == second.place(for: c))
      if r.photo.takenAt != nil {
        #expect(r.photo.takenAt?.utcOffsetMinutes == 9 * 60 && r.photo.timeZone == "Asia/Tokyo")
      }
    }
    // Back to the first edition: only what the second changed is named again.
    #expect(try store.write { try store.assignPlaces(with: first) } == inRenamedCells.count)
    for (_, r) in try store.records(after: 0, limit: records.count + 1) {
      if let c = r.photo.coordinate { #expect(r.photo.place == first.place(for: c)) }
    }
    #expect(try !store.hasPhotosToPlace(gazetteer: 21))
  }

  /// A record named before it is written carries its place in: nothing is left to name.
  @Test(arguments: StoreKind.available)
  func aNamedRecordIsWrittenWithItsPlace(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let namer = TestNamer(identity: 9)
    var tokyo = record("/p/t.jpg", 35.68, 139.76)
    try tokyo.name(with: namer)
    var paris = record("/p/p.jpg", 48.85, 2.35)
    try paris.name(with: namer)
    var none = record("/p/none.jpg", nil, nil)
    try none.name(with: namer)
    #expect(none.placedWith == nil)
    let generation = try store.generation()
    let ids = try store.write { try store.upsert([tokyo, paris, none], now: Self.now).map(\.id) }
    #expect(try store.generation() == generation + 1)
    #expect(try !store.hasPhotosToPlace(gazetteer: 9))
    #expect(try store.photo(id: ids[0])?.place?.label == "Tokyo, Tokyo, JP")
    #expect(try store.photo(id: ids[1])?.place == nil)
    // An update by id that was named moves the place with the photo.
    var moved = record("/p/t.jpg", 48.86, 2.36)
    try moved.name(with: namer)
    try store.write { try store.update(id: ids[0], with: moved, now: Self.now) }
    #expect(try store.photo(id: ids[0])?.place == nil && !store.hasPhotosToPlace(gazetteer: 9))
  }

  @Test(arguments: StoreKind.available)
  func nearestMatchesBruteForceWithSourcesAndRadius(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    var rng = SeededGenerator(seed: 20_261_201)  // a failure reproduces
    var written: [(id: Int64, source: PhotoSource, c: Coordinate)] = []
    try store.write {
      for i in 0..<300 {
        let c = Coordinate(
          latitude: Double.random(in: 35.5...35.9, using: &rng), longitude: Double.random(in: 139.5...140, using: &rng))
        let source: PhotoSource = [.local, .flickr, .commons][i % 3]
        let r =
          source == .local
          ? record("/n/\(i).jpg", c.latitude, c.longitude) : remote("\(i)", source, c.latitude, c.longitude)
        written.append((try store.upsert(r, now: Self.now).id, source, c))
      }
      // A burst at one spot: ties broken by id.
      for i in 0..<4 {
        let c = Coordinate(latitude: 35.7, longitude: 139.7)
        written.append(
          (try store.upsert(record("/burst/\(i).jpg", c.latitude, c.longitude), now: Self.now).id, .local, c))
      }
    }
    try store.refreshDerivedIndexes()
    let q = Coordinate(latitude: 35.7, longitude: 139.7)
    func expected(_ limit: Int, _ radius: Double?, _ sources: Set<PhotoSource>?) -> [Int64] {
      var hits: [(id: Int64, d: Double)] = []
      for w in written where sources?.contains(w.source) ?? true {
        let d = GreatCircle.distance(q, w.c)
        if let radius, d > radius { continue }
        hits.append((w.id, d))
      }
      hits.sort { a, b in a.d < b.d || (a.d == b.d && a.id < b.id) }
      return hits.prefix(limit).map { $0.id }
    }
    for (limit, radius, sources) in [
      (20, nil, nil), (10, 3_000.0, nil), (15, nil, Set([PhotoSource.flickr])),
      (500, 5_000.0, Set([PhotoSource.local, .commons])), (3, nil, Set([PhotoSource.local])),
    ] as [(Int, Double?, Set<PhotoSource>?)] {
      let got = try store.nearest(
        NearQuery(center: q, limit: limit, radius: radius, filter: PhotoFilter(sources: sources)))
      #expect(got.map(\.id) == expected(limit, radius, sources), "limit \(limit) radius \(String(describing: radius))")
    }
    #expect(try store.nearest(NearQuery(center: q, limit: 5, filter: PhotoFilter(sources: [.flickr]))).count == 5)
    // A source no photo has: nothing, not everything.
    #expect(
      try store.nearest(NearQuery(center: q, limit: 5, filter: PhotoFilter(sources: [PhotoSource(rawValue: "x")])))
        .isEmpty)
    #expect(try store.nearest(to: q, limit: 0).isEmpty)
    #expect(try store.hasLocatedPhotos())
    #expect(try store.countsBySource().map(\.source) == [.commons, .flickr, .local])
  }

  @Test(arguments: StoreKind.available)
  func theIndexAlongARouteHoldsEveryPhotoNearIt(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let route = [Coordinate(latitude: 35.0, longitude: 135.0), Coordinate(latitude: 35.0, longitude: 135.1)]
    var near: [Int64] = []
    try store.write {
      for i in 0..<50 {
        // Every 200 m along the line, 150 m north of it: within 200 m of the route.
        let c = Coordinate(latitude: 35.0 + 150 / 111_195, longitude: 135.0 + Double(i) * 0.002)
        near.append(try store.upsert(record("/r/\(i).jpg", c.latitude, c.longitude), now: Self.now).id)
      }
      try store.upsert(record("/far/x.jpg", 36, 135.05), now: Self.now)
      try store.upsert(remote("f1", .flickr, 35.0, 135.05), now: Self.now)
    }
    try store.refreshDerivedIndexes()
    let index = try store.spatialIndex(along: route, within: 200, filter: PhotoFilter(sources: [.local]))
    for id in near {
      let c = try #require(try store.photo(id: id)?.coordinate)
      #expect(index.within(radius: 0.01, of: c).map(\.id) == [id])
    }
    // Every photo near the route is in it, whatever else a store adds.
    let indexed = Set(index.within(radius: 6_000, of: Coordinate(latitude: 35.0, longitude: 135.05)).map(\.id))
    #expect(Set(near).isSubset(of: indexed))
  }

  /// A copy writes rows as they are: what another index knew (places, estimates, the
  /// gazetteer mark, file states) comes through, and a photo already there is overwritten.
  @Test(arguments: StoreKind.available)
  func copiesKeepEverythingARecordHolds(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    var placed = record("/p/placed.jpg", 35.68, 139.76, title: "Placed", hash: "hp")
    placed.photo.place = PlaceName(name: "Tokyo", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 658.4)
    placed.photo.locationEstimated = true
    placed.placedWith = 42
    placed.problem = nil
    let old = try store.write { try store.upsert(record("/p/placed.jpg", 1, 1, title: "Old"), now: Self.now).id }
    let ids = try store.copy([placed, remote("42", .flickr, -1, -2)])
    #expect(ids.count == 2 && ids[0] == old)
    let copied = try #require(try store.records(after: 0, limit: 10).first { $0.id == old }?.record)
    var expected = placed
    expected.photo.id = old
    #expect(copied == expected)
    #expect(try store.hasPhotosToPlace(gazetteer: 42))  // the remote photo has no mark
    #expect(try store.counts().photos == 2)
  }

  @Test(arguments: StoreKind.available)
  func recordsAndLocatedPhotosReadTheWholeIndex(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    var unreadable = record("/p/broken.jpg", nil, nil, hash: "hb")
    unreadable.problem = "not a JPEG"
    var full = record("/p/full.jpg", -33.8568, 151.2153, title: "Opera House, \"Sydney\"", hash: "hf")
    full.photo.altitude = 4.5
    full.photo.takenAt = CaptureDate(iso8601: "2024-01-02T03:04:05+11:00")
    full.photo.cameraMake = "Canon"
    full.photo.cameraModel = "EOS R5"
    full.photo.width = 8192
    full.photo.height = 5464
    full.photo.orientation = 6
    let ids = try store.write {
      [
        try store.upsert(full, now: Self.now).id, try store.upsert(unreadable, now: Self.now).id,
        try store.upsert(remote("File:A.jpg", .commons, 1, 2), now: Self.now).id,
      ]
    }
    #expect(try store.counts() == PhotoCounts(photos: 3, located: 2, problems: 1))
    let all = try store.records(after: 0, limit: 10)
    #expect(all.map(\.id) == ids.sorted())
    var expectedFull = full
    expectedFull.photo.id = ids[0]
    #expect(all.first { $0.id == ids[0] }?.record == expectedFull)
    #expect(all.first { $0.id == ids[1] }?.record.problem == "not a JPEG")
    #expect(try store.records(after: ids[0], limit: 1).map(\.id) == [ids[1]])
    let located = try store.locatedPhotos()
    #expect(located.generation == (try store.generation()))
    #expect(located.photos.map(\.id) == [ids[0], ids[2]])
    #expect(try store.photos(ids: [ids[2], 999_999, ids[0]]).map(\.id) == [ids[2], ids[0]])
  }

  @Test(arguments: StoreKind.available)
  func fetchedAreasCoverSmallerCirclesInside(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let center = Coordinate(latitude: 35.68, longitude: 139.76)
    try store.write {
      try store.recordFetchedArea(
        provider: .flickr, center: center, radius: 5_000, photos: 12, at: IndexTime(seconds: 1_000))
    }
    #expect(try store.hasFetched(provider: .flickr, center: center, radius: 5_000, since: IndexTime(seconds: 900)))
    // About 2 km east: a circle 50 m short of the edge is inside, 50 m past it pokes out.
    let east = Coordinate(latitude: 35.68, longitude: 139.76 + 2_000 / (111_195 * cos(35.68 * .pi / 180)))
    let room = 5_000 - GreatCircle.distance(center, east)
    #expect(try store.hasFetched(provider: .flickr, center: east, radius: room - 50, since: IndexTime(seconds: 900)))
    #expect(try !store.hasFetched(provider: .flickr, center: east, radius: room + 50, since: IndexTime(seconds: 900)))
    #expect(try !store.hasFetched(provider: .commons, center: center, radius: 10, since: IndexTime(seconds: 900)))
    #expect(try !store.hasFetched(provider: .flickr, center: center, radius: 10, since: IndexTime(seconds: 1_001)))
    // Not a photo change.
    #expect(try store.generation() == 1)
  }
}

/// The factory picks a backend by the `--db` value, as the backends registered it.
@Suite struct StoreFactoryTests {
  let factory = StoreFactory.standard

  @Test func valuesNameTheirBackend() throws {
    #expect(try factory.resolve("/data/index.sqlite").backend.name == "SQLite")
    #expect(try factory.resolve("relative/index.sqlite").location == "relative/index.sqlite")
    #expect(
      try factory.resolve("sqlite:~/trip.sqlite", expandTilde: { $0.replacing("~", with: "/h") }).location
        == "/h/trip.sqlite")
    let pg = try factory.resolve("postgres://ann@db/photos")
    #expect(pg.backend.name == "PostgreSQL" && pg.location == "postgres://ann@db/photos")
    #expect(try factory.resolve("postgresql:///photos?host=/run/pg").backend.name == "PostgreSQL")
    // A path that merely contains "://" further on is still a path.
    #expect(try factory.resolve("./odd://name.sqlite").backend.name == "SQLite")
    #expect(try factory.normalize("sqlite:/a/b.sqlite") == "/a/b.sqlite")
  }

  @Test func unknownSchemesAndEmptyValuesAreRefused() {
    #expect(throws: StoreError.self) { try factory.resolve("") }
    do {
      _ = try factory.resolve("mysql://ann@db/photos")
      Issue.record("took a MySQL URL")
    } catch {
      #expect(
        error.description
          == "'mysql://…' is not an index geophoto knows: use a file path, sqlite:PATH or postgres://… or postgresql://…"
      )
    }
  }

  @Test func messagesNeverShowAPassword() {
    #expect(factory.redacted("postgres://ann:hunter22@db/photos") == "postgres://ann:REDACTED@db/photos")
    #expect(factory.redacted("/data/index.sqlite") == "/data/index.sqlite")
    #expect(factory.localDirectory("/data/index.sqlite") == "/data")
    #expect(factory.localDirectory("postgres://db/photos") == nil)
  }

  @Test func aMissingIndexIsMissingUnlessCreated() throws {
    let dir = try TemporaryDirectory()
    let path = dir.url.appendingPathComponent("sub/index.sqlite").path
    for mode in [StoreOpenMode.readWrite, .readOnly] {
      do {
        _ = try factory.open(path, mode: mode)
        Issue.record("opened a missing index in \(mode)")
      } catch let error as StoreError {
        #expect(error.kind == .missing)
      }
    }
    let store = try factory.open(path, mode: .create)
    #expect(try store.counts().photos == 0 && store.location == path)
  }
}

/// Names a position after its one-degree cell, in Tokyo's zone; `renamed` cells get another
/// name (another edition of the gazetteer).
struct CellNamer: PlaceNamer {
  var identity: Int64
  var renamed: Set<Int>

  static func cell(_ c: Coordinate) -> Int { Int(c.latitude.rounded(.down)) * 1_000 + Int(c.longitude.rounded(.down)) }

  func place(for c: Coordinate) -> PlaceName? {
    let cell = Self.cell(c)
    return PlaceName(
      name: renamed.contains(cell) ? "Cell \(cell) (renamed)" : "Cell \(cell)", admin1: "Tokyo", admin2: "",
      countryCode: "JP", distance: Double(cell % 97), population: 1_000, timeZone: "Asia/Tokyo", geonameID: cell)
  }
}

/// Names everything south of 40° Tokyo, nothing north of it.
struct TestNamer: PlaceNamer {
  var identity: Int64

  func place(for c: Coordinate) -> PlaceName? {
    c.latitude > 40 ? nil : PlaceName(name: "Tokyo", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 12.5)
  }
}
