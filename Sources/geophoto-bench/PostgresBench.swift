import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoPostgres
import GeoPhotoSQLite
import GeoPhotoStore
import Synchronization

/// The same 1M photos in PostgreSQL/PostGIS beside the SQLite index: the copy, `near` end to
/// end, one query in process, and queries per second from two clients.
///
/// Needs a database: `make bench` starts a throwaway cluster (Scripts/with-postgres.sh) and
/// sets GEOPHOTO_TEST_POSTGRES_URL; without it the part says so and is skipped.
func benchPostgres(points: [Coordinate]) throws {
  print("PostGIS: the same 1M photos in PostgreSQL (local cluster on a Unix socket, 2 cores shared)")
  guard postgresTestURL != nil else {
    print("  no PostgreSQL (run through 'make bench', which starts one): skipped")
    return
  }
  let url = try scratchPostgresURL()
  let db = try nearIndex(points: points)
  let copy = try runProcess(".build/release/geophoto", ["migrate", "--from", "sqlite:\(db.path)", "--to", url])
  row(
    "geophoto migrate, 1M photos SQLite → PostGIS", String(format: "%.1f s", Double(copy) / 1e9),
    String(format: "%.0f photos/s", Double(points.count) / (Double(copy) / 1e9)))
  let admin = try PostgresConnection(url: url)
  try admin.execute("VACUUM ANALYZE photos")

  let sqliteWalls = try nearWalls(database: db.path)
  let postgresWalls = try nearWalls(database: url)
  let sqliteMedian = milliseconds(sqliteWalls[sqliteWalls.count / 2])
  let postgresMedian = milliseconds(postgresWalls[postgresWalls.count / 2])
  row(
    "geophoto near --limit 50 --db postgres://: median / max",
    String(format: "%.1f / %.1f ms", postgresMedian, milliseconds(postgresWalls.last ?? 0)),
    String(format: "SQLite %.1f ms (%.1f×)", sqliteMedian, postgresMedian / sqliteMedian))

  // One query in process: the k = 50 nearest and their rows, as `near` and `serve` need them.
  let qs = queries(points, count: 2_000)
  let postgres = try PostgresPhotoStore(url: url)
  let sqlite = try SQLiteNear(db)
  var postgresSamples: [UInt64] = []
  var sqliteSamples: [UInt64] = []
  var checksum: Int64 = 0
  for q in qs.prefix(1_000) {
    let (a, t) = try timed { try postgres.photos(ids: postgres.nearest(to: q, limit: k).map(\.id)) }
    postgresSamples.append(t)
    let (b, u) = try timed { try sqlite.nearest(to: q) }
    sqliteSamples.append(u)
    checksum &+= (a.first?.id ?? 0) &+ (b.first?.id ?? 0)
  }
  let pg = Percentiles(postgresSamples)
  let lite = Percentiles(sqliteSamples)
  row(
    "k=50 nearest with rows, in process, p50 / p99: PostGIS",
    String(format: "%.0f / %.0f µs", pg.p50, pg.p99), "")
  row(
    "  SQLite index (kd-tree + rows)", String(format: "%.0f / %.0f µs", lite.p50, lite.p99),
    String(format: "PostGIS %.0f× slower", pg.p50 / lite.p50))

  let postgresRate = try throughput(queries: qs) { try PostgresNear(url: url) }
  let sqliteRate = try throughput(queries: qs) { try SQLiteNear(db) }
  row(
    "k=50 with rows, 2 clients: PostGIS", String(format: "%.0f queries/s", postgresRate),
    String(format: "SQLite index %.0f queries/s", sqliteRate))
  print("  (checksum \(checksum))")
}

/// One client's way of answering a k = 50 query with rows.
protocol NearClient {
  func nearest(to c: Coordinate) throws -> [Photo]
}

/// The SQLite path of `near`: the kd-tree file, then the rows.
final class SQLiteNear: NearClient {
  let store: SQLitePhotoStore
  let index: SpatialIndex
  init(_ url: URL) throws {
    store = try SQLitePhotoStore(url: url, create: false)
    index = try store.locatedIndex().spatial
  }
  func nearest(to c: Coordinate) throws -> [Photo] {
    try store.photos(ids: index.nearest(to: c, limit: k).map(\.id))
  }
}

/// The PostGIS path of `near`: `<->` ordering, then the rows.
final class PostgresNear: NearClient {
  let store: PostgresPhotoStore
  init(url: String) throws { store = try PostgresPhotoStore(url: url) }
  func nearest(to c: Coordinate) throws -> [Photo] {
    try store.photos(ids: store.nearest(to: c, limit: k).map(\.id))
  }
}

/// Queries per second from two threads, each with a client of its own, over `queries`.
func throughput(queries: [Coordinate], client: @escaping @Sendable () throws -> any NearClient) throws -> Double {
  let failures = Mutex<[String]>([])
  let ready = DispatchGroup()
  let start = DispatchSemaphore(value: 0)
  let finished = DispatchGroup()
  let begin = Mutex<UInt64>(0)
  for part in 0..<2 {
    ready.enter()
    finished.enter()
    Thread {
      defer { finished.leave() }
      do {
        let c = try client()
        ready.leave()
        start.wait()
        for q in queries[(part * queries.count / 2)..<((part + 1) * queries.count / 2)] { _ = try c.nearest(to: q) }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }.start()
  }
  ready.wait()
  begin.withLock { $0 = now() }
  start.signal()
  start.signal()
  finished.wait()
  if let failure = failures.withLock({ $0.first }) { throw BenchError(failure) }
  return Double(queries.count) / (Double(now() - begin.withLock { $0 }) / 1e9)
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
