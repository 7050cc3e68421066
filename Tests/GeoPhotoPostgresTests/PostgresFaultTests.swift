import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoServer
import GeoPhotoStore
import GeoPhotoSync
import Synchronization
import Testing

@testable import GeoPhotoPostgres

/// A folder of `count` located JPEGs, removed when released.
final class PhotoFolder: Sendable {
  let url: URL

  init(_ count: Int, latitude: Double = 35) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-pgfault-\(UUID().uuidString)")
    for i in 0..<count {
      try SampleJPEG.write(to: url.appendingPathComponent(String(format: "IMG_%04d.jpg", i))) {
        $0.coordinate = Coordinate(latitude: latitude + Double(i) * 0.001, longitude: 139)
        $0.imageDescription = "photo \(i)"
      }
    }
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// Rows per (source, source id): more than one would be a duplicate.
func duplicates(_ store: PostgresPhotoStore) throws -> Int {
  Int(
    try store.query("SELECT count(*) - count(DISTINCT (source, source_id)) FROM photos") { $0.first?.int64(at: 0) }
      ?? -1)
}

/// The server stopped and restarted under running work: each test has a cluster of its own,
/// since a restart would cut every other test's connections.
@Suite(
  .serialized,
  .enabled(if: postgresTestURL != nil, "needs PostgreSQL: run through 'make test' (Scripts/with-postgres.sh)"))
struct PostgresRestartTests {
  @Test func aSyncCutOffByTheDatabaseSaysSoAndARerunCompletesIt() throws {
    let cluster = try PrivateCluster()
    let folder = try PhotoFolder(40)
    let store = try PostgresPhotoStore(url: cluster.url)
    let engine = SyncEngine(store: store, jobs: 2)
    engine.batchSize = 10
    engine.progress = { p in if p.done == 10 { try? cluster.stop() } }
    do {
      _ = try engine.sync(roots: [folder.url.path])
      Issue.record("the sync went on without its database")
    } catch {
      let text = "\(error)"
      #expect(text.contains("cannot connect to postgresql://geophoto@/geophoto_test"), "\(text)")
    }
    try cluster.start()
    let after = try PostgresPhotoStore(url: cluster.url)
    // The first batch landed whole; nothing of the second did.
    #expect(try after.counts().photos == 10)
    let rerun = try SyncEngine(store: after, jobs: 2).sync(roots: [folder.url.path])
    #expect((rerun.added, rerun.unchanged, rerun.updated) == (30, 10, 0))
    #expect(try after.counts() == PhotoCounts(photos: 40, located: 40, problems: 0))
    #expect(try duplicates(after) == 0)
  }

  @Test func aSyncRidesOutARestartBetweenBatches() throws {
    let cluster = try PrivateCluster()
    let folder = try PhotoFolder(30)
    let store = try PostgresPhotoStore(url: cluster.url)
    let engine = SyncEngine(store: store, jobs: 2)
    engine.batchSize = 10
    let restarts = Mutex(0)
    engine.progress = { p in
      if p.done == 10 {
        try? cluster.restart()
        restarts.withLock { $0 += 1 }
      }
    }
    let summary = try engine.sync(roots: [folder.url.path])
    #expect(restarts.withLock { $0 } == 1)
    #expect(summary.added == 30)
    #expect(try store.counts().photos == 30 && duplicates(store) == 0)
  }

  @Test func aWrongPasswordIsOneLineWithoutThePassword() throws {
    let cluster = try PrivateCluster()
    try cluster.requirePassword(role: "ann", password: "right-horse")
    let base = cluster.url.replacingOccurrences(of: "//geophoto@", with: "//ann:%@@")
    do {
      _ = try PostgresPhotoStore(url: base.replacingOccurrences(of: "%@", with: "wrong-battery"))
      Issue.record("logged in with a wrong password")
    } catch {
      let text = "\(error)"
      #expect(text.hasPrefix("cannot connect to postgresql://ann:REDACTED@/geophoto_test"))
      #expect(text.contains("password authentication failed for user \"ann\""))
      #expect(!text.contains("wrong-battery") && !text.contains("\n"))
    }
    // Without PostGIS, then without pg_trgm, which ann may not create, the error says what to
    // do; the right password gets in once a superuser has made both and let ann create tables.
    try PostgresConnection(url: cluster.url).execute("GRANT CREATE ON SCHEMA public TO ann")
    for (title, name) in [("PostGIS", "postgis"), ("pg_trgm", "pg_trgm")] {
      do {
        _ = try PostgresPhotoStore(url: base.replacingOccurrences(of: "%@", with: "right-horse"))
        Issue.record("created \(name) without the right to")
      } catch {
        #expect("\(error)".contains("\(title) is not available") && "\(error)".contains("CREATE EXTENSION \(name)"))
      }
      try PostgresConnection(url: cluster.url).execute("CREATE EXTENSION \(name)")
    }
    let store = try PostgresPhotoStore(url: base.replacingOccurrences(of: "%@", with: "right-horse"))
    #expect(try store.counts().photos == 0)
  }

  @Test func aServerKeepsServingThroughARestartAndThenSeesNewPhotos() throws {
    let cluster = try PrivateCluster()
    let writer = try PostgresPhotoStore(url: cluster.url)
    func add(_ name: String, _ lat: Double) throws {
      try writer.write {
        try writer.upsert(
          PhotoRecord(
            photo: Photo(
              id: 0, source: .local, sourceID: "/p/\(name)",
              coordinate: Coordinate(latitude: lat, longitude: 10), title: name)), now: IndexTime.now())
      }
    }
    for i in 0..<5 { try add("\(i).jpg", Double(i)) }
    let pool = PostgresPool(url: cluster.url)
    let holder = LoadedIndexHolder { try PostgresPhotoStore(pool: pool) }
    try holder.refresh()
    let before = holder.snapshot
    #expect(before.count == 5)

    try cluster.stop()
    do {
      try holder.refresh()
      Issue.record("refreshed from a stopped database")
    } catch {
      #expect("\(error)".contains("postgresql://geophoto@/geophoto_test"))
    }
    // Still answering from the snapshot it had.
    #expect(holder.snapshot === before)

    try cluster.start()
    try add("new.jpg", 50)
    #expect(try holder.refresh() != nil)
    #expect(holder.snapshot.count == 6 && holder.snapshot.generation > before.generation)
    #expect(pool.openConnections <= pool.options.maximumConnections)
  }
}

/// Several writers at once on the shared test cluster.
@Suite(.enabled(if: postgresTestURL != nil, "needs PostgreSQL: run through 'make test' (Scripts/with-postgres.sh)"))
struct PostgresConcurrencyTests {
  @Test func twoSyncsOfDifferentFoldersAndAFetchAtOnce() throws {
    let url = try scratchPostgresURL()
    _ = try PostgresPhotoStore(url: url)
    let a = try PhotoFolder(30, latitude: 10)
    let b = try PhotoFolder(30, latitude: 20)
    let folders = [a.url.path, b.url.path]
    let summaries = Mutex<[Int: SyncSummary]>([:])
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 3) { worker in
      do {
        // Each worker is its own "process": its own store and connections.
        let store = try PostgresPhotoStore(url: url)
        if worker < 2 {
          let engine = SyncEngine(store: store, jobs: 1)
          engine.batchSize = 5
          let summary = try engine.sync(roots: [folders[worker]])
          summaries.withLock { $0[worker] = summary }
        } else {
          for batch in 0..<10 {
            try store.write {
              for i in 0..<5 {
                let id = "\(batch * 5 + i)"
                try store.upsert(
                  PhotoRecord(
                    photo: Photo(
                      id: 0, source: .flickr, sourceID: id, coordinate: Coordinate(latitude: -10, longitude: 5),
                      title: id)), now: IndexTime.now())
              }
            }
          }
        }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    #expect(summaries.withLock { $0 }.values.map(\.added) == [30, 30])
    let store = try PostgresPhotoStore(url: url)
    #expect(try store.counts().photos == 110)
    let bySource = try store.countsBySource()
    #expect(bySource.map(\.source) == [.flickr, .local] && bySource.map(\.photos) == [50, 60])
    #expect(try store.knownFiles(under: SyncEngine.canonicalRoot(a.url.path)).count == 30)
    #expect(try duplicates(store) == 0)
  }

  @Test func twoSyncsOfTheSameFolderWriteEachPhotoOnce() throws {
    let url = try scratchPostgresURL()
    _ = try PostgresPhotoStore(url: url)
    let folder = try PhotoFolder(40)
    let root = folder.url.path
    let summaries = Mutex<[SyncSummary]>([])
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      do {
        let engine = SyncEngine(store: try PostgresPhotoStore(url: url), jobs: 1)
        engine.batchSize = 4
        let summary = try engine.sync(roots: [root])
        summaries.withLock { $0.append(summary) }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    let done = summaries.withLock { $0 }
    // Each sync accounts for every file; between them each photo was inserted exactly once.
    #expect(done.count == 2 && done.allSatisfy { $0.added + $0.updated + $0.unchanged == 40 })
    #expect(done.map(\.added).reduce(0, +) == 40)
    let store = try PostgresPhotoStore(url: url)
    #expect(try store.counts().photos == 40 && duplicates(store) == 0)
  }
}

/// The pool's limits and timeouts.
@Suite(.enabled(if: postgresTestURL != nil, "needs PostgreSQL: run through 'make test' (Scripts/with-postgres.sh)"))
struct PostgresPoolTests {
  @Test func aCallerWaitsForAFreeConnectionThenGivesUpClearly() throws {
    var options = PostgresPool.Options()
    options.maximumConnections = 2
    options.acquireTimeout = 0.3
    let pool = PostgresPool(url: try #require(postgresTestURL), options: options)
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for _ in 0..<2 {
      DispatchQueue.global().async(group: group) {
        _ = try? pool.withConnection { connection in
          holding.signal()
          release.wait()
          return try connection.execute("SELECT 1")
        }
      }
    }
    holding.wait()
    holding.wait()
    do {
      _ = try pool.withConnection { try $0.execute("SELECT 1") }
      Issue.record("got a third connection from a pool of two")
    } catch {
      #expect("\(error)".contains("all 2 connections to postgresql://geophoto@/geophoto_test"))
    }
    // A connection given back goes to whoever waits.
    let waited = Mutex<[[String?]]?>(nil)
    DispatchQueue.global().async(group: group) {
      let rows = try? pool.withConnection { try $0.execute("SELECT 42").texts }
      waited.withLock { $0 = rows }
    }
    release.signal()
    release.signal()
    group.wait()
    #expect(waited.withLock { $0 } == [["42"]])
    #expect(pool.openConnections == 2)
  }

  @Test func aStatementRunningPastItsTimeoutIsCancelled() throws {
    var options = PostgresPool.Options()
    options.statementTimeout = 1
    let pool = PostgresPool(url: try #require(postgresTestURL), options: options)
    do {
      _ = try pool.withConnection { try $0.execute("SELECT pg_sleep(10)") }
      Issue.record("a 10 s statement ran to the end")
    } catch let error as PostgresError {
      // 57014 is query_canceled: the server stopped it at the timeout, not at its end.
      #expect(error.sqlState == "57014" && !error.isConnectionFailure)
      #expect(error.description.contains("statement timeout"), "\(error)")
    }
    // The connection is still good for the next statement.
    #expect(try pool.withConnection { try $0.execute("SELECT 1").texts } == [["1"]])
  }
}
