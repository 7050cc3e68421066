import Foundation
import GeoPhotoCore
import Testing

@testable import GeoPhotoStore

/// A fresh directory per test, removed afterwards.
final class TemporaryDirectory {
  let url: URL
  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(at: url) }
}

func record(_ path: String, _ lat: Double?, _ lon: Double?, title: String = "t", hash: String = "h") -> PhotoRecord {
  let coordinate = lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } }
  return PhotoRecord(
    photo: Photo(id: 0, source: .local, sourceID: path, path: path, coordinate: coordinate, title: title),
    file: FileState(size: 10, changedNanoseconds: 5, contentHash: hash))
}

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
    bytes[bytes.count - 1] = 9  // an impossible split axis
    try bytes.write(to: store.spatialIndexURL)
    #expect(SpatialIndexFile.read(from: store.spatialIndexURL, stamp: try store.stamp()) == nil)
    #expect(try store.spatialIndex().count == 2)
    try Data("junk".utf8).write(to: store.spatialIndexURL)
    let fresh = try SQLitePhotoStore(url: url, create: false)
    #expect(try fresh.spatialIndex().nearest(to: Coordinate(latitude: 35.7, longitude: 139.8), limit: 1).count == 1)
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
    } catch let error as StoreOpenError {
      #expect(error.description.contains("is not a geophoto index"))
    }
    #expect(throws: StoreOpenError.self) {
      try SQLitePhotoStore(url: dir.url.appendingPathComponent("missing.sqlite"), create: false)
    }
  }

  @Test func timestampsAreUTC() {
    #expect(indexTimestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    #expect(indexTimestamp(Date(timeIntervalSince1970: 1_709_251_199)) == "2024-02-29T23:59:59Z")
  }
}
