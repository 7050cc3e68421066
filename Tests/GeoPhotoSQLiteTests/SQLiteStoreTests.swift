import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Synchronization
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

  /// A read-only connection (a server's, which lives as long as the server) reads pages into
  /// SQLite's own cache rather than through a mapping of the file, so the pages it touches do
  /// not count as the server's memory.
  @Test func readOnlyConnectionsDoNotMapTheFile() throws {
    let dir = try TemporaryDirectory()
    let path = dir.url.appendingPathComponent("mapped.sqlite").path
    func mapsTheFile() -> Bool {
      // Read to its end (the file says its size is 0).
      let maps = String(
        decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
      return maps.split(separator: "\n").contains { $0.hasSuffix(dir.url.lastPathComponent + "/mapped.sqlite") }
    }
    do {
      let writer = try Database(path: path)
      try writer.execute(
        """
        CREATE TABLE t (x);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
        INSERT INTO t SELECT randomblob(100) FROM n
        """)
    }
    // Closing the last connection moved the rows into the file itself: a connection opened now
    // has none of its pages cached and reads them all from the file.
    let reader = try Database(path: path, mode: .readOnly)
    #expect(try reader.queryInt64("SELECT sum(length(x)) FROM t") == 200_000)
    #expect(!mapsTheFile())
    // What SQLite was told: no mapping and a small cache for a reader; a writer may map.
    #expect(try reader.queryInt64("PRAGMA mmap_size") == 0)
    #expect(try reader.queryInt64("PRAGMA cache_size") == -512)
    #expect(try Database(path: path).queryInt64("PRAGMA mmap_size") ?? 0 > 0)
  }

  @Test func errorsCarryCodesAndSQL() throws {
    let dir = try TemporaryDirectory()
    let db = try Database(path: dir.url.appendingPathComponent("b.sqlite").path)
    try db.execute("CREATE TABLE t (x UNIQUE)")
    try db.execute("INSERT INTO t VALUES (?)", [.integer(1)])
    do {
      try db.execute("INSERT INTO t VALUES (?)", [.integer(1)])
      Issue.record("a duplicate was inserted")
    } catch {
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

/// What only the SQLite store has: its file, and the spatial index kept beside it.
@Suite struct SQLiteStoreTests {
  @Test func spatialIndexIsPersistedAndRefreshed() throws {
    let dir = try TemporaryDirectory()
    let url = dir.url.appendingPathComponent("i.sqlite")
    let store = try SQLitePhotoStore(url: url, create: true)
    try store.write {
      try store.upsert(record("/p/a.jpg", 35.68, 139.76), now: IndexTime(seconds: 0))
      try store.upsert(record("/p/b.jpg", nil, nil), now: IndexTime(seconds: 0))
    }
    try store.refreshDerivedIndexes()
    #expect(SpatialIndexFile.stamp(at: store.spatialFileURL) == (try store.stamp()))
    #expect(try SpatialIndexFile.open(store.spatialFileURL).tree.count == 1)
    // A photo written since is merged by readers until a sync builds the file again (a small
    // index is built again at once).
    try store.write { try store.upsert(record("/p/c.jpg", 35.7, 139.8), now: IndexTime(seconds: 0)) }
    #expect(SpatialIndexFile.stamp(at: store.spatialFileURL) != (try store.stamp()))
    let merged = try store.locatedIndex()
    #expect(merged.count == 2 && merged.changes.added.count == 1 && merged.spatial.count == 1)
    try store.refreshDerivedIndexes()
    #expect(SpatialIndexFile.stamp(at: store.spatialFileURL) == (try store.stamp()))
    #expect(try store.locatedIndex().changes.isEmpty)
    // A file cut short is built again, not trusted.
    let bytes = try Data(contentsOf: store.spatialFileURL)
    try bytes.prefix(bytes.count - 100).write(to: store.spatialFileURL)
    #expect(try store.check(thorough: false).first?.contains("i.sqlite.spatial: damaged") == true)
    #expect(try store.locatedIndex().count == 2)
    #expect(try store.check(thorough: false).isEmpty)
    try Data("junk".utf8).write(to: store.spatialFileURL)
    let fresh = try SQLitePhotoStore(url: url, create: false)
    #expect(try fresh.locatedIndex().nearest(to: Coordinate(latitude: 35.7, longitude: 139.8), limit: 1).count == 1)
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
    try store.write {
      _ = try store.upsert([record("/p/a.jpg", 1, 2), record("/p/b.jpg", 3, 4)], now: IndexTime(seconds: 0))
    }
    try store.refreshDerivedIndexes()
    let stamp = try store.stamp()
    let generation = try store.generation()
    #expect(try store.write { try store.assignPlaces(with: Everywhere()) } == 2)
    #expect(try store.generation() == generation + 1)
    #expect(try store.stamp() == stamp)
    #expect(SpatialIndexFile.stamp(at: store.spatialFileURL) == stamp)
    #expect(try store.locatedIndex().changes.isEmpty)
    // A moved photo does make it stale.
    try store.write { try store.upsert(record("/p/a.jpg", 5, 6), now: IndexTime(seconds: 0)) }
    #expect(try store.stamp() != stamp)
  }

  @Test func aTreeFileFromAnotherDatabaseIsNotUsed() throws {
    let dir = try TemporaryDirectory()
    let url = dir.url.appendingPathComponent("i.sqlite")
    do {
      let first = try SQLitePhotoStore(url: url, create: true)
      try first.write { try first.upsert(record("/p/far.jpg", -40, -70), now: IndexTime(seconds: 0)) }
      try first.refreshDerivedIndexes()
    }
    // The database is deleted and made again; its tree file stays behind.
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    let second = try SQLitePhotoStore(url: url, create: true)
    let id = try second.write {
      try second.upsert(record("/p/unlocated.jpg", nil, nil), now: IndexTime(seconds: 0))
      return try second.upsert(record("/p/near.jpg", 35, 139), now: IndexTime(seconds: 0))
    }
    #expect(id.id == 2)
    #expect(try second.generation() == 2)  // the same generation as the old file
    let found = try second.locatedIndex().nearest(to: Coordinate(latitude: -40, longitude: -70), limit: 5)
    #expect(found.map(\.id) == [id.id])
  }

  /// Files an earlier geophoto kept beside the index go when the spatial index is written.
  @Test func formerFilesAreRemoved() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: dir.url.appendingPathComponent("o.sqlite"), mode: .create)
    for former in store.formerFiles { try Data("old".utf8).write(to: former) }
    try store.write { try store.upsert(record("/p/a.jpg", 1, 2), now: IndexTime(seconds: 0)) }
    try store.refreshDerivedIndexes()
    #expect(store.formerFiles.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
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
      try store.write { try store.upsert(record("/p/a.jpg", 1, 2), now: IndexTime(seconds: 0)) }
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
        try store.upsert(r, now: IndexTime(seconds: 0))
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

  /// A new index is made by every migration in one transaction; an index made one
  /// migration at a time by older geophotos ends with the same schema.
  @Test func aNewIndexHasTheSchemaOfOneMigratedStepByStep() throws {
    func schema(_ database: Database) throws -> [String] {
      var rows: [String] = []
      try database.forEachRow("SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY 1") {
        rows.append($0.text(0))
      }
      return rows
    }
    let dir = try TemporaryDirectory()
    let new = try SQLitePhotoStore(url: dir.url.appendingPathComponent("new.sqlite"), mode: .create)
    for first in [1, 9, Schema.migrator.migrations.count - 1] {
      let older = try TemporaryDirectory()
      let url = try Self.olderIndex(migrations: first, in: older)
      let migrated = try SQLitePhotoStore(url: url, mode: .readWrite)
      #expect(try schema(migrated.database) == schema(new.database), "from migration \(first)")
      #expect(try Migrator.version(of: migrated.database) == Migrator.version(of: new.database))
    }
    #expect(try Migrator.version(of: new.database) == Schema.migrator.migrations.count)
    #expect(try schema(new.database).contains { $0.hasPrefix("trigger photos_moved_insert") })
  }

  /// Photos written many at once (a sync's batches go in as one statement) are in the word
  /// index and carry the positions generation of their write, as those written one by one
  /// and rows inserted by other statements (the trigger marks those).
  @Test func photosWrittenTogetherAreSearchedAndMarked() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: dir.url.appendingPathComponent("b.sqlite"), mode: .create)
    let base = try store.stamp().generation
    let batch =
      (0..<300).map { record("/p/\($0).jpg", 35 + Double($0) / 1_000, 135, title: "Kiyomizu \($0)", hash: "h\($0)") }
      + [record("/p/none.jpg", nil, nil, title: "Kiyomizu without a place")]
    let ids = try store.write { try store.upsert(batch, now: IndexTime(seconds: 0)) }.map(\.id)
    try store.write {
      try store.upsert(record("/q/one.jpg", 35, 135.5, title: "Kiyomizu alone"), now: IndexTime(seconds: 0))
      try store.database.execute(
        """
        INSERT INTO photos (source, source_id, title, latitude, longitude, first_seen, updated)
        VALUES ('local', '/q/raw.jpg', 'Kiyomizu raw', 35, 134.5, 'n', 'n')
        """, [])
    }
    #expect(try store.stamp().generation == base + 2)
    let changes = try #require(try store.changes(since: base))
    #expect(changes.located.count == 302)
    #expect(Set(changes.ids).isSuperset(of: ids.prefix(300)) && !changes.ids.contains(ids[300]))
    let afterFirst = try #require(try store.changes(since: base + 1))
    #expect(Set(afterFirst.located.map(\.id)).count == 2)
    #expect(Set(afterFirst.ids).isDisjoint(with: ids))
    // Each written row once: a row marked with its generation is not written again.
    var marks: [Int64: Int] = [:]
    try store.database.forEachRow("SELECT moved, count(*) FROM photos GROUP BY moved") {
      marks[$0.optionalInt64(0) ?? -1] = Int($0.int64(1))
    }
    #expect(marks == [base + 1: 300, base + 2: 2, -1: 1])
    // The word index finds every photo written with its text, the one without a position too
    // (the row inserted by hand has none).
    var found: [Int64] = []
    try store.database.forEachRow("SELECT rowid FROM photo_text WHERE photo_text MATCH 'kiyomizu' ORDER BY rowid") {
      found.append($0.int64(0))
    }
    #expect(found.count == 302 && Array(found.prefix(301)) == ids)
    let near = NearQuery(
      center: Coordinate(latitude: 35.1, longitude: 135), limit: 3, filter: PhotoFilter(text: try TextQuery("kiyo 100"))
    )
    #expect(try store.nearest(near).map(\.id) == [ids[100]])
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
    #expect(IndexTime(Date(timeIntervalSince1970: 0)).iso8601 == "1970-01-01T00:00:00Z")
    #expect(IndexTime(Date(timeIntervalSince1970: 1_709_251_199.9)).iso8601 == "2024-02-29T23:59:59Z")
    #expect(IndexTime(iso8601: "2024-02-29T23:59:59Z") == IndexTime(seconds: 1_709_251_199))
    #expect(IndexTime(seconds: 100).minus(30) == IndexTime(seconds: 70))
    #expect(IndexTime(seconds: 100).minus(.greatestFiniteMagnitude) == IndexTime(seconds: .min))
  }
}

/// The cluster hierarchy kept in the spatial index, over the kd-tree's points.
@Suite struct SpatialFileTests {
  @Test func theHierarchyIsKeptAndFollowsTheTree() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: dir.url.appendingPathComponent("c.sqlite"), mode: .create)
    try store.write {
      for i in 0..<300 {
        try store.upsert(
          record("/p/\(i).jpg", 35 + Double(i % 17) * 0.01, 139 + Double(i / 17) * 0.01), now: IndexTime(seconds: 0))
      }
    }
    try store.refreshDerivedIndexes()
    let located = try store.locatedIndex()
    let kept = try #require(located.clusters)
    // The same hierarchy as one built over the tree's points now.
    let built = ClusterIndex(pointsOf: located.spatial)
    let world = BoundingBox(west: -180, south: -85, east: 180, north: 85)
    for zoom in 0...17 {
      #expect(kept.items(in: world, zoom: zoom) == built.items(in: world, zoom: zoom), "zoom \(zoom)")
    }
    #expect(kept.pointCount == 300)
    #expect(try store.check(thorough: false).isEmpty)

    // A move is merged until the file is built again (here by the sync's refresh).
    try store.write { try store.upsert(record("/p/0.jpg", -10, 20), now: IndexTime(seconds: 0)) }
    #expect(try store.locatedIndex().changes.count == 2)  // hidden where it was, added where it is
    #expect(try store.check(thorough: false).isEmpty)
    try store.refreshDerivedIndexes()
    #expect(try store.locatedIndex().changes.isEmpty)

    // A reader keeps its mapping while the file is the one there, and maps the file again once
    // it is written anew for the same stamp (as --repair does).
    let first = try #require(try store.locatedIndex().file)
    #expect(try store.locatedIndex(reusing: first).file?.bytes === first.bytes)
    try store.rebuildDerivedIndexes()
    let again = try #require(try store.locatedIndex(reusing: first).file)
    #expect(again.bytes !== first.bytes)
    #expect(again.stamp == first.stamp)

    // Overwritten: reported by check (the checksum), and built again by --repair.
    var bytes = try Data(contentsOf: store.spatialFileURL)
    // A byte of the unit vectors (section 1; its offset is the table's third number).
    let vectors = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 64 + 16, as: UInt64.self)) }
    bytes[vectors + 1_000] ^= 0x5A
    try bytes.write(to: store.spatialFileURL)
    #expect(
      try store.check(thorough: false) == [
        "c.sqlite.spatial is damaged: its checksum does not match its contents (check --repair builds it again)"
      ])
    try store.rebuildDerivedIndexes()
    #expect(try store.check(thorough: false).isEmpty)
    try FileManager.default.removeItem(at: store.spatialFileURL)
    #expect(try store.check(thorough: false) == ["c.sqlite.spatial is missing (check --repair builds it)"])
    #expect(try store.locatedIndex().clusters?.pointCount == 300)
    #expect(try store.check(thorough: false).isEmpty)
  }
}

/// Photos changed since the spatial index was built, merged by readers: answers are those of
/// the rows, found by brute force.
@Suite struct MergedChangesTests {
  static func ranked(_ rows: [Photo], around center: Coordinate, limit: Int) -> [Int64] {
    var scored: [(id: Int64, distance: Double)] = []
    for photo in rows {
      if let c = photo.coordinate { scored.append((photo.id, GreatCircle.distance(center, c))) }
    }
    scored.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.id < $1.id) }
    return scored.prefix(limit).map(\.id)
  }

  @Test func aSmallSyncIsMergedAndAnswersStayExact() throws {
    let dir = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: dir.url.appendingPathComponent("d.sqlite"), mode: .create)
    store.deltaPolicy.minimumPhotos = 0
    store.deltaPolicy.maximumShare = 0.5
    let points = SyntheticLibrary.points(count: 2_000, seed: 5)
    try store.write {
      for (i, p) in points.enumerated() {
        try store.upsert(record("/p/\(i).jpg", p.latitude, p.longitude), now: IndexTime(seconds: 0))
      }
    }
    try store.refreshDerivedIndexes()
    let built = try #require(SpatialIndexFile.stamp(at: store.spatialFileURL))
    // Moved, deleted, added, and one that loses its position.
    try store.write {
      for i in [3, 700, 1_999] {
        try store.upsert(record("/p/\(i).jpg", points[i].latitude + 1, 10), now: IndexTime(seconds: 0))
      }
      for i in [5, 6] { try store.delete(id: Int64(i + 1)) }
      for i in 0..<4 { try store.upsert(record("/new/\(i).jpg", 20 + Double(i), -30), now: IndexTime(seconds: 0)) }
      try store.upsert(record("/p/9.jpg", nil, nil), now: IndexTime(seconds: 0))
    }
    try store.refreshDerivedIndexes()
    #expect(SpatialIndexFile.stamp(at: store.spatialFileURL) == built)  // left as it was
    let located = try store.locatedIndex()
    let rows = try store.locatedPhotos().photos
    let expectedCount = 2_000 - 3 + 4
    #expect(located.count == rows.count)
    #expect(rows.count == expectedCount)
    #expect(located.changes.hidden.count == 6 && located.changes.added.count == 7)
    var rng = SeededGenerator(seed: 3)
    for _ in 0..<40 {
      let center = Coordinate(
        latitude: Double.random(in: -60...70, using: &rng), longitude: Double.random(in: -180..<180, using: &rng))
      let limit = Int.random(in: 1...60, using: &rng)
      #expect(located.nearest(to: center, limit: limit).map(\.id) == Self.ranked(rows, around: center, limit: limit))
      #expect(try store.nearest(to: center, limit: limit).map(\.id) == Self.ranked(rows, around: center, limit: limit))
    }
    for photo in rows { #expect(located.position(of: photo.id).map(located.id(at:)) == photo.id) }
    #expect(located.position(of: 6) == nil && located.position(of: 10) == nil)

    // Building the file again lets the deletions go: changes since the old file are no
    // longer known, and a reader of it would build it again.
    try store.rebuildDerivedIndexes()
    #expect(try store.changes(since: built.generation) == nil)
    #expect(try store.changes(since: try store.stamp().generation)?.isEmpty == true)
  }

  /// A change the default policy merges is one percent of a large index at most; a small
  /// index is always built again.
  @Test func thePolicyMergesSmallChangesToLargeIndexes() {
    let policy = DeltaPolicy()
    #expect(policy.merges(changes: 10, of: 10_000_000))
    #expect(policy.merges(changes: 100_000, of: 10_000_000))
    #expect(!policy.merges(changes: 100_001, of: 20_000_000))
    #expect(!policy.merges(changes: 3_000, of: 200_000))
    #expect(!policy.merges(changes: 1, of: 199_999))
  }
}

/// Rebuilds of the spatial index file from several threads and connections at once: each
/// holds the lock beside the file from reading the rows to renaming the file into place, so
/// the file there is whole (its checksum holds) and of the newest generation, and no
/// temporary file is left.
@Suite struct SpatialFileWritingTests {
  @Test func concurrentRebuildsLeaveTheNewestWholeFile() throws {
    let dir = try TemporaryDirectory()
    let url = dir.url.appendingPathComponent("r.sqlite")
    let writer = try SQLitePhotoStore(url: url, mode: .create)
    try writer.write {
      for i in 0..<2_000 {
        try writer.upsert(record("/p/\(i).jpg", Double(i % 80) - 40, Double(i / 80)), now: IndexTime(seconds: 0))
      }
    }
    try writer.rebuildDerivedIndexes()
    let rounds = 6
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      // Each thread its own connection, as a server's watcher and its background build have.
      do {
        let store = try SQLitePhotoStore(url: url, mode: .readWrite)
        for round in 0..<rounds {
          if worker == 0 {
            try store.write {
              try store.upsert(record("/p/\(round).jpg", 10, Double(round)), now: IndexTime(seconds: 0))
            }
          }
          try store.rebuildDerivedIndexes()
        }
      } catch {
        failures.withLock { $0.append("\(worker): \(error)") }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    // The file in place is of the newest rows (the last build read them after the last write),
    // and whole.
    #expect(SpatialIndexFile.header(at: writer.spatialFileURL)?.stamp == (try writer.stamp()))
    #expect(try writer.check(thorough: true).isEmpty)
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasSuffix(".tmp") }
    #expect(left.isEmpty, "\(left)")
  }

  @Test func theBuildLockExcludesOtherHoldersAndIsReleased() throws {
    let dir = try TemporaryDirectory()
    let file = dir.url.appendingPathComponent("x.spatial")
    let lockPath = file.path + ".lock"
    func free() -> Bool {
      let fd = open(lockPath, O_RDWR)
      defer { close(fd) }
      return fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0
    }
    do {
      let held = SpatialIndexFile.buildLock(beside: file)
      #expect(held != nil)
      // Another open of the file (another thread's or process's) cannot take it meanwhile.
      #expect(!free())
      withExtendedLifetime(held) {}
    }
    #expect(free())
  }

  @Test func atomicFilesNeverShareATemporary() throws {
    let dir = try TemporaryDirectory()
    let destination = dir.url.appendingPathComponent("d.bin")
    let a = try AtomicFile(writingTo: destination)
    let b = try AtomicFile(writingTo: destination)
    try [UInt8](repeating: 1, count: 100).withUnsafeBytes { try a.write($0) }
    try [UInt8](repeating: 2, count: 50).withUnsafeBytes { try b.write($0) }
    try a.commit()
    #expect(try Data(contentsOf: destination) == Data(repeating: 1, count: 100))
    try b.commit()
    #expect(try Data(contentsOf: destination) == Data(repeating: 2, count: 50))
    // Each writer made its own file with O_EXCL: two open at once saw different names.
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
    #expect(names == ["d.bin"])
  }
}
