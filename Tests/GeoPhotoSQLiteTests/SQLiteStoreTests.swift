import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

@testable import GeoPhotoSQLite

@Suite struct DatabaseTests {
  @Test func walIsOnAndMigrationsAreVersioned() throws {
    let dir = try TemporaryDirectory()
    let path = dir.url.appendingPathComponent("a.sqlite").path
    do {
      let db = try Database(path: path)
      #expect(try db.queryText("PRAGMA journal_mode") == "wal")
      try Migrator([.init("one", sql: "CREATE TABLE t (x)"), .init("two", sql: "ALTER TABLE t ADD COLUMN y")]).migrate(
        db)
      #expect(try Migrator.version(of: db) == 2)
      // Running again is a no-op.
      try Migrator([.init("one", sql: "CREATE TABLE t (x)"), .init("two", sql: "ALTER TABLE t ADD COLUMN y")]).migrate(
        db)
    }
    let db = try Database(path: path)
    #expect(throws: SQLiteError.self) { try Migrator([.init("one", sql: "CREATE TABLE t (x)")]).migrate(db) }
  }

  @Test func errorsCarryCodesAndSQL() throws {
    let dir = try TemporaryDirectory()
    let db = try Database(path: dir.url.appendingPathComponent("b.sqlite").path)
    try db.execute("CREATE TABLE t (x UNIQUE)")
    try db.execute("INSERT INTO t VALUES (?)", [.integer(1)])
    do {
      try db.execute("INSERT INTO t VALUES (?)", [.integer(1)])
      Issue.record("a duplicate was inserted")
    } catch let error as SQLiteError {
      #expect(ResultCode.constraint ~= error.code)
      #expect(error.code != .constraint)  // the extended code, SQLITE_CONSTRAINT_UNIQUE
      #expect(error.sql == "INSERT INTO t VALUES (?)")
    }
  }

  @Test func transactionsRollBackOnError() throws {
    let dir = try TemporaryDirectory()
    let db = try Database(path: dir.url.appendingPathComponent("c.sqlite").path)
    try db.execute("CREATE TABLE t (x)")
    struct Boom: Error {}
    #expect(throws: Boom.self) {
      try db.transaction {
        try db.execute("INSERT INTO t VALUES (1)", [])
        throw Boom()
      }
    }
    #expect(try db.queryInt64("SELECT count(*) FROM t") == 0)
  }
}

/// What only the SQLite store has: its file, and the kd-tree kept beside it.
@Suite struct SQLiteStoreTests {
  @Test func spatialIndexIsPersistedAndRefreshed() throws {
    let dir = try TemporaryDirectory()
    let url = dir.url.appendingPathComponent("i.sqlite")
    let store = try SQLitePhotoStore(url: url, create: true)
    try store.write {
      try store.upsert(record("/p/a.jpg", 35.68, 139.76), now: "n")
      try store.upsert(record("/p/b.jpg", nil, nil), now: "n")
    }
    try store.refreshDerivedIndexes()
    #expect(SpatialIndexFile.stamp(at: store.spatialIndexURL) == (try store.stamp()))
    let loaded = try #require(SpatialIndexFile.read(from: store.spatialIndexURL, stamp: try store.stamp()))
    #expect(loaded.count == 1)
    // A stale file is not used.
    try store.write { try store.upsert(record("/p/c.jpg", 35.7, 139.8), now: "n") }
    #expect(SpatialIndexFile.read(from: store.spatialIndexURL, stamp: try store.stamp()) == nil)
    #expect(try store.spatialIndex().count == 2)
    // A damaged file is rebuilt, not trusted.
    var bytes = try Data(contentsOf: store.spatialIndexURL)
    bytes[bytes.count - 2 * 16 - 2 * 2] = 9  // an impossible split axis (two points: axes, tags, then times)
    try bytes.write(to: store.spatialIndexURL)
    #expect(SpatialIndexFile.read(from: store.spatialIndexURL, stamp: try store.stamp()) == nil)
    #expect(try store.spatialIndex().count == 2)
    try Data("junk".utf8).write(to: store.spatialIndexURL)
    let fresh = try SQLitePhotoStore(url: url, create: false)
    #expect(try fresh.spatialIndex().nearest(to: Coordinate(latitude: 35.7, longitude: 139.8), limit: 1).count == 1)
  }

  /// Naming places changes photos (the generation) but not positions: the tree file stays
  /// fresh and is not rebuilt.
  @Test func renamingPlacesKeepsTheTree() throws {
    struct Everywhere: PlaceNamer {
      let identity: Int64 = 5
      func place(for c: Coordinate) -> PlaceName? {
        PlaceName(name: "Somewhere", admin1: "", admin2: "", countryCode: "XX", distance: 1)
      }
    }
    let dir = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: dir.url.appendingPathComponent("r.sqlite"), mode: .create)
    try store.write { _ = try store.upsert([record("/p/a.jpg", 1, 2), record("/p/b.jpg", 3, 4)], now: "n") }
    try store.refreshDerivedIndexes()
    let stamp = try store.stamp()
    let generation = try store.generation()
    #expect(try store.write { try store.assignPlaces(with: Everywhere()) } == 2)
    #expect(try store.generation() == generation + 1)
    #expect(try store.stamp() == stamp)
    #expect(SpatialIndexFile.read(from: store.spatialIndexURL, stamp: try store.stamp()) != nil)
    // A moved photo does make it stale.
    try store.write { try store.upsert(record("/p/a.jpg", 5, 6), now: "n") }
    #expect(try store.stamp() != stamp)
  }

  @Test func aTreeFileFromAnotherDatabaseIsNotUsed() throws {
    let dir = try TemporaryDirectory()
    let url = dir.url.appendingPathComponent("i.sqlite")
    do {
      let first = try SQLitePhotoStore(url: url, create: true)
      try first.write { try first.upsert(record("/p/far.jpg", -40, -70), now: "n") }
      try first.refreshDerivedIndexes()
    }
    // The database is deleted and made again; its tree file stays behind.
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    let second = try SQLitePhotoStore(url: url, create: true)
    let id = try second.write {
      try second.upsert(record("/p/unlocated.jpg", nil, nil), now: "n")
      return try second.upsert(record("/p/near.jpg", 35, 139), now: "n")
    }
    #expect(id.id == 2)
    #expect(try second.generation() == 2)  // the same generation as the old file
    let found = try second.spatialIndex().nearest(to: Coordinate(latitude: -40, longitude: -70), limit: 5)
    #expect(found.map(\.id) == [id.id])
  }

  @Test func notADatabaseIsAClearError() throws {
    let dir = try TemporaryDirectory()
    let url = dir.url.appendingPathComponent("notes.txt")
    try Data(String(repeating: "this is not sqlite\n", count: 100).utf8).write(to: url)
    do {
      _ = try SQLitePhotoStore(url: url, create: false)
      Issue.record("opened a text file as an index")
    } catch let error as StoreError {
      #expect(error.kind == .notAnIndex && error.description.contains("is not a geophoto index"))
    }
    #expect(throws: StoreError(.missing, "no index at \(dir.url.path)/missing.sqlite")) {
      try SQLitePhotoStore(url: dir.url.appendingPathComponent("missing.sqlite"), create: false)
    }
  }

  /// A read-only open never migrates and never writes: an index from an older geophoto is
  /// refused with what to do, a current one is read, and writes fail.
  @Test func readOnlyOpensNeverMigrate() throws {
    let dir = try TemporaryDirectory()
    // An index as an older geophoto left it: its first migrations only.
    let url = try Self.olderIndex(migrations: 2, in: dir)
    do {
      _ = try SQLitePhotoStore(url: url, mode: .readOnly)
      Issue.record("a read-only open took an older schema")
    } catch let error as StoreError {
      #expect(error.kind == .olderSchema)
      #expect(error.description.contains("run 'geophoto sync'"))
    }
    #expect(try Migrator.version(of: Database(path: url.path, mode: .readOnly)) == 2)  // untouched
    // A writing open upgrades it; then a read-only one reads it.
    do {
      let store = try SQLitePhotoStore(url: url, mode: .readWrite)
      try store.write { try store.upsert(record("/p/a.jpg", 1, 2), now: "n") }
    }
    let reader = try SQLitePhotoStore(url: url, mode: .readOnly)
    #expect(try reader.counts().photos == 1)
    #expect(throws: (any Error).self) { try reader.write { try reader.delete(id: 1) } }
    #expect(try reader.counts().photos == 1)
    #expect(throws: StoreError.self) {
      try SQLitePhotoStore(url: dir.url.appendingPathComponent("none"), mode: .readOnly)
    }
  }

  /// Capture times as UTC instants (independent values from Python's datetime), NULL for
  /// floating times: written by every write, and filled in for an index made before the column.
  static let instants: [(String, Int64?)] = [
    ("2024-05-03T14:05:09+09:00", 1_714_712_709), ("2023-12-31T23:59:59-03:30", 1_704_079_799),
    ("1999-01-01T00:00:00Z", 915_148_800), ("2024-05-03T14:05:09", nil),
  ]

  func takenUTC(_ db: Database) throws -> [String: Int64?] {
    var result: [String: Int64?] = [:]
    try db.forEachRow("SELECT taken_at, taken_utc FROM photos") { result[$0.text(0)] = $0.optionalInt64(1) }
    return result
  }

  @Test func captureTimesAreKeptInUTC() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: dir.url.appendingPathComponent("t.sqlite"), mode: .create)
    try store.write {
      for (i, (text, _)) in Self.instants.enumerated() {
        var r = record("/p/\(i).jpg", 1, 2)
        r.photo.takenAt = CaptureDate(iso8601: text)
        try store.upsert(r, now: "n")
      }
    }
    let got = try takenUTC(store.database)
    for (text, instant) in Self.instants { #expect(got[text] == .some(instant), "\(text)") }
  }

  /// An index file in `dir` as the first `count` migrations left it (an older geophoto's),
  /// with what `body` writes into it.
  static func olderIndex(
    migrations count: Int, in dir: TemporaryDirectory, _ body: (Database) throws -> Void = { _ in }
  ) throws -> URL {
    let url = dir.url.appendingPathComponent("old.sqlite")
    let db = try Database(path: url.path)
    try Migrator(Array(Schema.migrator.migrations.prefix(count))).migrate(db)
    try body(db)
    return url
  }

  /// The time-zone migration: recorded offsets are the camera's; local times only are named
  /// again, so that they are read in their places' zones.
  @Test func anOlderIndexMarksItsCaptureTimes() throws {
    let dir = try TemporaryDirectory()
    let before = try #require(Schema.migrator.migrations.firstIndex { $0.name == "capture time zones" })
    let url = try Self.olderIndex(migrations: before, in: dir) { db in
      for (path, taken, utc) in [
        ("/p/a.jpg", "2024-05-03T09:12:00+09:00", "1714695120"), ("/p/b.jpg", "2024-05-04T11:00:00", "NULL"),
      ] {
        try db.execute(
          """
          INSERT INTO photos (source, source_id, path, title, latitude, longitude, taken_at, taken_utc, place_gazetteer,
            first_seen, updated)
          VALUES ('local', '\(path)', '\(path)', 't', 35, 135, '\(taken)', \(utc), 7, 'n', 'n')
          """, [])
      }
    }
    let store = try SQLitePhotoStore(url: url, mode: .readWrite)
    var rows: [String: (String?, Int64?)] = [:]
    try store.database.forEachRow("SELECT source_id, offset_source, place_gazetteer FROM photos") {
      rows[$0.text(0)] = ($0.optionalText(1), $0.optionalInt64(2))
    }
    #expect(rows["/p/a.jpg"]! == ("camera", 7))
    #expect(rows["/p/b.jpg"]! == (nil, nil))
  }

  @Test func anOlderIndexGetsItsUTCTimesFilledIn() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.olderIndex(migrations: 4, in: dir) { db in
      for (i, (text, _)) in Self.instants.enumerated() {
        try db.execute(
          "INSERT INTO photos (source, source_id, title, taken_at, first_seen, updated) VALUES ('local', ?, 't', ?, 'n', 'n')",
          [.text("/p/\(i).jpg"), .text(text)])
      }
    }
    let store = try SQLitePhotoStore(url: url, mode: .readWrite)
    let got = try takenUTC(store.database)
    for (text, instant) in Self.instants { #expect(got[text] == .some(instant), "\(text)") }
  }

  /// The text migration computes the searched text of the photos already there.
  @Test func anOlderIndexGetsItsTextSearchable() throws {
    let dir = try TemporaryDirectory()
    // Before the text columns and their index.
    let before = try #require(Schema.migrator.migrations.firstIndex { $0.name == "searched text" })
    let url = try Self.olderIndex(migrations: before, in: dir) { db in
      try db.execute(
        """
        INSERT INTO photos (source, source_id, path, title, latitude, longitude, place_name, place_cc, keywords,
          first_seen, updated)
        VALUES ('local', '/p/IMG_7.jpg', '/p/IMG_7.jpg', 'Kyōto temple', 35, 135, 'Higashiyama', 'JP', 'gardens', 'n', 'n')
        """, [])
    }
    let store = try SQLitePhotoStore(url: url, mode: .readWrite)
    let found = try OlderIndexPhoto.matches(in: store)
    #expect(found == Dictionary(uniqueKeysWithValues: OlderIndexPhoto.words.map { ($0, 1) }), "\(found)")
  }

  @Test func errorsShownToUsersCarryNoSQL() throws {
    let dir = try TemporaryDirectory()
    let db = try Database(path: dir.url.appendingPathComponent("e.sqlite").path)
    do {
      try db.execute("SELECT secret_column FROM nowhere", [])
      Issue.record("a bad statement ran")
    } catch {
      #expect("\(error)".contains("no such table: nowhere"))
      #expect(!"\(error)".contains("SELECT"))
      #expect(String(reflecting: error).contains("SELECT secret_column FROM nowhere"))
    }
  }

  @Test func timestampsAreUTC() {
    #expect(indexTimestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    #expect(indexTimestamp(Date(timeIntervalSince1970: 1_709_251_199)) == "2024-02-29T23:59:59Z")
  }
}

/// The cluster hierarchy kept beside the index, over the kd-tree's points.
@Suite struct ClusterIndexFileTests {
  @Test func theHierarchyIsKeptAndFollowsTheTree() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: dir.url.appendingPathComponent("c.sqlite"), mode: .create)
    try store.write {
      for i in 0..<300 {
        try store.upsert(record("/p/\(i).jpg", 35 + Double(i % 17) * 0.01, 139 + Double(i / 17) * 0.01), now: "n")
      }
    }
    try store.refreshDerivedIndexes()
    let tree = try store.spatialIndex()
    let kept = try #require(ClusterIndexFile.read(from: store.clusterIndexURL, stamp: try store.stamp(), tree: tree))
    // The same hierarchy as one built over the tree's points now.
    let built = ClusterIndex(pointsOf: tree)
    let world = BoundingBox(west: -180, south: -85, east: 180, north: 85)
    for zoom in 0...17 {
      #expect(kept.items(in: world, zoom: zoom) == built.items(in: world, zoom: zoom), "zoom \(zoom)")
    }
    #expect(try store.locatedIndex().clusters?.pointCount == 300)
    #expect(try store.check(thorough: false).isEmpty)

    // Stale after a move; a tree of other points is not matched either.
    try store.write { try store.upsert(record("/p/0.jpg", -10, 20), now: "n") }
    #expect(ClusterIndexFile.read(from: store.clusterIndexURL, stamp: try store.stamp(), tree: tree) == nil)
    #expect(try store.check(thorough: false).contains { $0.contains("c.sqlite.kdtree is older") })
    try store.refreshDerivedIndexes()
    let moved = try store.spatialIndex()
    #expect(ClusterIndexFile.read(from: store.clusterIndexURL, stamp: try store.stamp(), tree: moved) != nil)
    #expect(ClusterIndexFile.read(from: store.clusterIndexURL, stamp: try store.stamp(), tree: tree) == nil)

    // Damaged: reported by check, rebuilt by the next reader, and by --repair.
    var bytes = try Data(contentsOf: store.clusterIndexURL)
    bytes.removeLast(bytes.count / 3)
    try bytes.write(to: store.clusterIndexURL)
    #expect(
      try store.check(thorough: false) == [
        "c.sqlite.clusters is damaged or does not match c.sqlite.kdtree (check --repair rebuilds it)"
      ])
    #expect(try store.locatedIndex().clusters?.pointCount == 300)
    #expect(try store.check(thorough: false).isEmpty)
    try FileManager.default.removeItem(at: store.clusterIndexURL)
    #expect(try store.check(thorough: false) == ["c.sqlite.clusters is missing (check --repair builds it)"])
    try store.rebuildDerivedIndexes()
    #expect(try store.check(thorough: false).isEmpty)
  }
}
