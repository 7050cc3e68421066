import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

@testable import GeoPhotoPostgres

/// Against a real PostgreSQL/PostGIS: `make test` starts a throwaway cluster
/// (Scripts/with-postgres.sh) and sets the URL.
let postgresURL = ProcessInfo.processInfo.environment["GEOPHOTO_TEST_POSTGRES_URL"]

/// A fresh schema per test: the tables of one test never meet another's.
func freshStore() throws -> PostgresPhotoStore {
  try PostgresPhotoStore(url: try scratchPostgresURL())
}

@Suite(.enabled(if: postgresURL != nil, "needs PostgreSQL: run through 'make test' (Scripts/with-postgres.sh)"))
struct PostgresStoreTests {
  @Test func nearestMatchesABruteForceSphericalOrder() throws {
    let store = try freshStore()
    var rng = SystemRandomNumberGenerator()
    var photos: [Photo] = []
    for i in 0..<600 {
      let c = Coordinate(
        latitude: Double.random(in: 35.5...35.9, using: &rng), longitude: Double.random(in: 139.5...140.0, using: &rng))
      photos.append(Photo(id: 0, source: .local, sourceID: "/p/\(i).jpg", coordinate: c, title: "p\(i)"))
    }
    // A burst at one spot: ties broken by id.
    for i in 0..<5 {
      photos.append(
        Photo(
          id: 0, source: .local, sourceID: "/burst/\(i).jpg", coordinate: Coordinate(latitude: 35.7, longitude: 139.7),
          title: "b"))
    }
    let ids = try store.copy(photos)
    #expect(try store.counts().photos == 605)
    let coordinates = Dictionary(uniqueKeysWithValues: zip(ids, photos.compactMap(\.coordinate)))
    for q in [Coordinate(latitude: 35.7, longitude: 139.7), Coordinate(latitude: 35.6, longitude: 139.9)] {
      let got = try store.nearest(to: q, limit: 20)
      typealias Hit = (id: Int64, d: Double)
      let all: [Hit] = coordinates.map { entry -> Hit in (entry.key, GreatCircle.distance(q, entry.value)) }
      let sorted: [Hit] = all.sorted { a, b in a.d < b.d || (a.d == b.d && a.id < b.id) }
      let expected = Array(sorted.prefix(20))
      #expect(got.map { $0.id } == expected.map { $0.id })
      for (g, e) in zip(got, expected) { #expect(abs(g.distance - e.d) < 0.01) }
    }
    let within = try store.nearest(
      to: Coordinate(latitude: 35.7, longitude: 139.7), limit: 1_000, maximumDistance: 2_000)
    let inside = coordinates.values.filter {
      GreatCircle.distance(Coordinate(latitude: 35.7, longitude: 139.7), $0) <= 2_000
    }
    #expect(within.count == inside.count)
  }

  @Test func theLimitCutsThroughATieByID() throws {
    let store = try freshStore()
    let q = Coordinate(latitude: 48.85, longitude: 2.35)
    var photos: [Photo] = []
    var rng = SystemRandomNumberGenerator()
    for i in 0..<200 {
      let c = Coordinate(
        latitude: Double.random(in: 48.7...49.0, using: &rng), longitude: Double.random(in: 2.2...2.5, using: &rng))
      photos.append(Photo(id: 0, source: .local, sourceID: "/r/\(i).jpg", coordinate: c, title: "r"))
    }
    // Nine photos at one spot, interleaved with the others so their ids are not consecutive.
    let spot = Coordinate(latitude: 48.86, longitude: 2.36)
    for i in 0..<9 {
      photos.insert(
        Photo(id: 0, source: .local, sourceID: "/tie/\(i).jpg", coordinate: spot, title: "t"), at: i * 20)
    }
    let ids = try store.copy(photos)
    let all = zip(ids, photos).map { (id: $0, d: GreatCircle.distance(q, $1.coordinate!)) }
    let sorted = all.sorted { $0.d < $1.d || ($0.d == $1.d && $0.id < $1.id) }
    let spotDistance = GreatCircle.distance(q, spot)
    let closer = sorted.filter { $0.d < spotDistance - 0.01 }.count
    // The limit ends inside the tie: the four of the nine with the smallest ids make it.
    let limit = closer + 4
    let got = try store.nearest(to: q, limit: limit)
    #expect(got.map(\.id) == sorted.prefix(limit).map(\.id))
    #expect(Set(got.suffix(4).map(\.id)) == Set(sorted.filter { abs($0.d - spotDistance) < 0.01 }.prefix(4).map(\.id)))
  }

  @Test func nearestUsesTheSpatialIndexOnALargeTable() throws {
    let store = try freshStore()
    try store.run(
      """
      INSERT INTO photos (source, source_id, latitude, longitude, title)
      SELECT 'local', 'g' || i, lat, lon, 'g'
      FROM (SELECT i, -80 + (i % 160)::float8, -180 + (i / 160) * 0.36 AS lon FROM generate_series(0, 159999) i)
        AS s(i, lat, lon)
      """)
    try store.run("ANALYZE photos")
    for radius in [nil, 5_000.0] {
      let query = PostgresSQL.nearest(
        NearQuery(center: Coordinate(latitude: 35.68, longitude: 139.76), limit: 50, radius: radius))
      let plan = try store.query("EXPLAIN " + query.sql, query.parameters) { $0.compactMap { $0.text(at: 0) } }
        .joined(separator: "\n")
      #expect(plan.contains("Order By: (geog <->"), "\(plan)")
      #expect(!plan.contains("Seq Scan"), "\(plan)")
    }
  }

  @Test func upsertsUpdateInsteadOfDuplicating() throws {
    let store = try freshStore()
    let g0 = try store.generation()
    let photo = Photo(
      id: 0, source: .flickr, sourceID: "53001", coordinate: Coordinate(latitude: 1, longitude: 2), title: "a")
    #expect(try !store.hasLocatedPhotos())
    try store.copy([Photo(id: 0, source: .local, sourceID: "/p/unlocated.jpg", title: "no GPS")])
    #expect(try !store.hasLocatedPhotos())
    let first = try store.copy([photo])
    #expect(try store.hasLocatedPhotos())
    var changed = photo
    changed.title = "b"
    changed.coordinate = Coordinate(latitude: 3, longitude: 4)
    let second = try store.copy([changed])
    let count = try store.countsBySource().first { $0.source == .flickr }?.photos
    #expect(first == second && count == 1)
    #expect(try store.generation() == g0 + 3)
    let nearest = try store.nearest(to: Coordinate(latitude: 3, longitude: 4), limit: 1)
    #expect((nearest.first?.distance ?? 1) < 0.001)
  }

  @Test func everyFieldComesBackAsWritten() throws {
    let store = try freshStore()
    let full = Photo(
      id: 0, source: .commons, sourceID: "File:Tōkyō Station.jpg",
      coordinate: Coordinate(latitude: 35.681236, longitude: 139.767125), altitude: 12.5,
      takenAt: CaptureDate(iso8601: "2024-05-03T10:15:30+09:00"), title: "Tokyo Station, it's \"Marunouchi\"",
      cameraMake: "FUJIFILM", cameraModel: "X-T5", width: 6240, height: 4160, orientation: 6,
      url: "https://commons.wikimedia.org/wiki/File:T.jpg", thumbnailURL: "https://upload.wikimedia.org/t.jpg",
      attribution: "Ann, {CC BY-SA 4.0}", license: "CC BY-SA 4.0", locationEstimated: true,
      place: PlaceName(name: "Tokyo", admin1: "Tokyo", admin2: "Chiyoda", countryCode: "JP", distance: 1234.5))
    let bare = Photo(id: 0, source: .local, sourceID: "/photos/no-gps.jpg", title: "")
    let ids = try store.copy([full, bare])
    var expected = [full, bare]
    for i in expected.indices { expected[i].id = ids[i] }
    #expect(try store.photos(ids: ids) == expected)
    // A copied record keeps its file state, problem and the gazetteer that named its place.
    let record = PhotoRecord(
      photo: full, file: FileState(size: 9, changedNanoseconds: 8, contentHash: "c"), problem: "p", placedWith: 42)
    let copied = try #require(try store.copy([record]).first)
    var expectedRecord = record
    expectedRecord.photo.id = copied
    #expect(try store.records(after: 0, limit: 5).first { $0.id == copied }?.record == expectedRecord)
  }

  @Test func largeBatchesSpanStatementsAndWriteARepeatedPhotoOnce() throws {
    let store = try freshStore()
    let n = PostgresPhotoStore.rowsPerStatement * 2 + 500
    var photos = (0..<n).map { i in
      Photo(
        id: 0, source: .local, sourceID: "/b/\(i).jpg",
        coordinate: Coordinate(latitude: Double(i % 170) - 85, longitude: Double(i % 360) - 180), title: "v1")
    }
    // The same photo again, later in the batch and with a new title: one row, the last version.
    var again = photos[10]
    again.title = "v2"
    photos.append(again)
    let ids = try store.copy(photos)
    #expect(ids.count == n + 1 && ids[10] == ids[n] && Set(ids).count == n && !ids.contains(0))
    #expect(try store.counts().photos == n)
    #expect(try store.photos(ids: [ids[10]]).first?.title == "v2")
    let stored = try store.photos(ids: Array(ids.prefix(n)))
    #expect(stored.map(\.sourceID) == photos.prefix(n).map(\.sourceID))
  }

  @Test func tablesFurtherDownTheSearchPathAreNotMistakenForOurs() throws {
    let url = try #require(postgresURL)
    let admin = try PostgresConnection(url: url)
    let (a, b) = ("sp_\(UUID().uuidString.prefix(8).lowercased())", "sp_\(UUID().uuidString.prefix(8).lowercased())")
    try admin.execute("CREATE SCHEMA \(a); CREATE SCHEMA \(b)")
    let first = try PostgresPhotoStore(url: url + "&options=-csearch_path%3D\(a),public")
    try first.copy([Photo(id: 0, source: .flickr, sourceID: "1", title: "in a")])
    // b comes first, a behind it: geophoto makes its own tables in b.
    let second = try PostgresPhotoStore(url: url + "&options=-csearch_path%3D\(b),\(a),public")
    #expect(try second.counts().photos == 0 && first.counts().photos == 1)
    #expect(try admin.execute("SELECT to_regclass('\(b).photos') IS NOT NULL").texts == [["t"]])
  }

  /// A scratch database with the schema as the first `count` migrations left it (an older
  /// geophoto's), and a connection to it.
  static func olderIndex(migrations count: Int) throws -> (url: String, connection: PostgresConnection) {
    let url = try scratchPostgresURL()
    let old = try PostgresConnection(url: url)
    // Under the migrators' lock: another test's store may be creating it at the same moment.
    try old.execute(
      "SELECT pg_advisory_lock(7420001); CREATE EXTENSION IF NOT EXISTS postgis WITH SCHEMA public; "
        + "SELECT pg_advisory_unlock(7420001)")
    try old.execute("CREATE TABLE geophoto_migrations (version INT PRIMARY KEY, name TEXT NOT NULL)")
    for (i, m) in PostgresSchema.migrations.prefix(count).enumerated() {
      try old.execute(m.sql)
      try m.fill?(old)
      try old.execute("INSERT INTO geophoto_migrations VALUES ($1::int, $2)", [.integer(Int64(i + 1)), .text(m.name)])
    }
    return (url, old)
  }

  /// Capture times as UTC instants (independent values from Python's datetime), NULL for
  /// floating times: written by upserts and copies, and filled in by the migration.
  @Test func captureTimesAreKeptInUTC() throws {
    let instants: [(String, Int64?)] = [
      ("2024-05-03T14:05:09+09:00", 1_714_712_709), ("2023-12-31T23:59:59-03:30", 1_704_079_799),
      ("1999-01-01T00:00:00Z", 915_148_800), ("2024-05-03T14:05:09", nil),
    ]
    let (url, old) = try Self.olderIndex(migrations: 4)
    for (i, (text, _)) in instants.enumerated() {
      try old.execute(
        "INSERT INTO photos (source, source_id, title, taken_at) VALUES ('local', $1, 't', $2)",
        [.text("/old/\(i).jpg"), .text(text)])
    }
    let store = try PostgresPhotoStore(url: url, mode: .readWrite)
    try store.write {
      for (i, (text, _)) in instants.enumerated() {
        var r = PhotoRecord(photo: Photo(id: 0, source: .local, sourceID: "/new/\(i).jpg", title: "t"))
        r.photo.takenAt = CaptureDate(iso8601: text)
        try store.upsert(r, now: IndexTime.now())
      }
    }
    let rows = try store.query("SELECT source_id, taken_at, taken_utc FROM photos") { rows in
      rows.map { ($0.text(at: 0) ?? "", $0.text(at: 1) ?? "", $0.int64(at: 2)) }
    }
    #expect(rows.count == 2 * instants.count)
    for (_, text, utc) in rows {
      #expect(instants.first { $0.0 == text }?.1 == utc, "\(text)")
    }
  }

  /// The text migration computes the searched text of the photos already there.
  @Test func anOlderIndexGetsItsTextSearchable() throws {
    let before = try #require(PostgresSchema.migrations.firstIndex { $0.name == "text search" })
    let (url, old) = try Self.olderIndex(migrations: before)
    try old.execute(
      """
      INSERT INTO photos (source, source_id, path, title, latitude, longitude, place_name, place_cc, keywords)
      VALUES ('local', '/p/IMG_7.jpg', '/p/IMG_7.jpg', 'Kyōto temple', 35, 135, 'Higashiyama', 'JP', 'gardens')
      """)
    let store = try PostgresPhotoStore(url: url, mode: .readWrite)
    let found = try OlderIndexPhoto.matches(in: store)
    #expect(found == Dictionary(uniqueKeysWithValues: OlderIndexPhoto.words.map { ($0, 1) }), "\(found)")
  }

  @Test func anIndexFromTheFirstReleaseIsUpgradedInPlace() throws {
    // The schema as the first two migrations left it, with a photo in it.
    let (url, old) = try Self.olderIndex(migrations: 2)
    try old.execute(
      """
      INSERT INTO photos (source, source_id, path, latitude, longitude, geog, title)
      VALUES ('local', '/p/a.jpg', '/p/a.jpg', 1, 2, ST_SetSRID(ST_MakePoint(2, 1), 4326)::geography, 'kept')
      """)
    let store = try PostgresPhotoStore(url: url)
    #expect(try PostgresSchema.schemaVersion(old) == PostgresSchema.migrations.count)
    #expect(try store.knownFiles(under: "/p").map(\.path) == ["/p/a.jpg"])
    #expect(try store.nearest(to: Coordinate(latitude: 1, longitude: 2), limit: 1).count == 1)
    #expect(try store.photos(ids: [1]).first?.title == "kept")
  }

  @Test func aSchemaFromANewerGeophotoIsRefused() throws {
    let url = try scratchPostgresURL()
    _ = try PostgresPhotoStore(url: url)
    try PostgresConnection(url: url).execute("INSERT INTO geophoto_migrations VALUES (99, 'from the future')")
    do {
      _ = try PostgresPhotoStore(url: url)
      Issue.record("opened a schema from a newer geophoto")
    } catch {
      #expect("\(error)".contains("schema (version 99) is newer than this geophoto knows"))
    }
  }

  @Test func folderRangesIgnoreTheDatabaseLocale() throws {
    // In an ICU en-US database "/A/t.jpg" sorts between "/a/" and "/a0": a range in the
    // database's own collation would count it as under "/a".
    let url = try #require(postgresURL)
    let name = "icu_\(UUID().uuidString.prefix(8).lowercased())"
    try PostgresConnection(url: url).execute(
      "CREATE DATABASE \(name) LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8' TEMPLATE template0")
    let store = try PostgresPhotoStore(url: url.replacingOccurrences(of: "/geophoto_test", with: "/\(name)"))
    let now = IndexTime(seconds: 1_777_636_800)  // 2026-05-01T12:00:00Z
    try store.write {
      for path in ["/a/x.jpg", "/A/t.jpg", "/a-b/v.jpg", "/a0.jpg", "/a/sub/y.jpg"] {
        try store.upsert(
          PhotoRecord(
            photo: Photo(id: 0, source: .local, sourceID: path, title: ""),
            file: FileState(size: 1, changedNanoseconds: 1, contentHash: "h")), now: now)
      }
      try store.recordSyncRoot("/a", now: now)
      try store.recordSyncRoot("/A", now: now)
    }
    #expect(try store.knownFiles(under: "/a").map(\.path).sorted() == ["/a/sub/y.jpg", "/a/x.jpg"])
    #expect(try store.localPhotos(under: "/a", .toGeotag).count == 2)
    #expect(try store.write { try store.forgetLocalPhotos(under: "/a") } == 2)
    #expect(try store.syncRoots().map(\.path) == ["/A"])
  }

  @Test func connectionErrorsAreClearAndHideThePassword() throws {
    do {
      _ = try PostgresConnection(
        url: "postgresql://ann:hunter22@/nosuchdb?host=/nonexistent-socket-dir", connectTimeout: 2)
      Issue.record("connected to nothing")
    } catch {
      #expect(error.message.hasPrefix("cannot connect to postgresql://ann:REDACTED@/nosuchdb"))
      #expect(!error.message.contains("hunter22"))
    }
    let url = try #require(postgresURL)
    do {
      _ = try PostgresConnection(url: url.replacingOccurrences(of: "/geophoto_test", with: "/missing_db"))
      Issue.record("connected to a missing database")
    } catch {
      #expect(error.message.contains("missing_db"))
    }
  }
}

@Suite struct RedactionTests {
  @Test func passwordsAreRedacted() {
    #expect(redactingPassword("postgres://ann:secret@db.example/photos") == "postgres://ann:REDACTED@db.example/photos")
    #expect(redactingPassword("postgres://ann@db.example/photos") == "postgres://ann@db.example/photos")
    #expect(redactingPassword("postgres:///photos?host=/tmp") == "postgres:///photos?host=/tmp")
    #expect(
      redactingPassword("postgresql://db:5432/photos?user=ann&password=s3cret&sslmode=require")
        == "postgresql://db:5432/photos?user=ann&password=REDACTED&sslmode=require")
    #expect(
      redactingPassword("postgres://db:5432/photos?application_name=a@b")
        == "postgres://db:5432/photos?application_name=a@b")
    #expect(redactingPassword("postgres://ann:p@ss@db/photos") == "postgres://ann:REDACTED@db/photos")
  }
}
