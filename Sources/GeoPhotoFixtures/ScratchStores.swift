public import Foundation
import GeoPhotoPostgres
import GeoPhotoSQLite
public import GeoPhotoStore
import Glibc

/// The kinds of index the store-level tests run against: SQLite always, PostgreSQL/PostGIS
/// when `make test` started a cluster for them (Scripts/with-postgres.sh).
public enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
  case sqlite
  case postgres

  /// The kinds this run can test; CI always has both.
  public static var available: [StoreKind] { postgresTestURL == nil ? [.sqlite] : allCases }

  public var description: String { rawValue }
}

/// The test cluster's URL, when there is one.
public let postgresTestURL = ProcessInfo.processInfo.environment["GEOPHOTO_TEST_POSTGRES_URL"]

/// `url` with a new, empty schema first on its search path: the tables of one test never
/// meet another's, though all share the cluster.
public func scratchPostgresURL(on url: String? = postgresTestURL) throws -> String {
  guard let url else { throw ScratchError("no PostgreSQL for the tests: run through 'make test'") }
  let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  try PostgresConnection(url: url).execute("CREATE SCHEMA \(schema)")
  return url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema),public"
}

/// A new, empty index of `kind`; a SQLite file goes in `directory`.
public func makeScratchStore(_ kind: StoreKind, in directory: URL) throws -> any PhotoStore {
  switch kind {
  case .sqlite:
    return try SQLitePhotoStore(
      url: directory.appendingPathComponent("index-\(UUID().uuidString).sqlite"), mode: .create)
  case .postgres:
    let store = try PostgresPhotoStore(url: try scratchPostgresURL(), mode: .create)
    store.spatialCacheFolder = directory.appendingPathComponent("spatial-cache")
    return store
  }
}

/// The index of `kind` at `location` (a SQLite path or a scratch PostgreSQL URL), created
/// when there is none: to fill a workspace's index before commands read it.
public func openStore(_ kind: StoreKind, at location: String) throws -> any PhotoStore {
  switch kind {
  case .sqlite: return try SQLitePhotoStore(url: URL(fileURLWithPath: location), mode: .create)
  case .postgres: return try PostgresPhotoStore(url: location, mode: .create)
  }
}

/// A second store on the same index, as another thread or process opens it.
public func reopen(_ store: any PhotoStore) throws -> any PhotoStore { try store.reopened() }

/// Opens the same index again at each call, as a server's reload check does.
public func reopener(for store: any PhotoStore) -> @Sendable () throws -> (any PhotoStore)? {
  if let sqlite = store as? SQLitePhotoStore {
    let url = sqlite.url
    return { try SQLitePhotoStore(url: url, mode: .readOnly) }
  }
  if let postgres = store as? PostgresPhotoStore {
    let pool = PostgresPool(url: postgres.pool.url)
    let folder = postgres.spatialCacheFolder
    return {
      let store = try PostgresPhotoStore(pool: pool, mode: .readOnly)
      store.spatialCacheFolder = folder
      return store
    }
  }
  return { nil }
}

public struct ScratchError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// A PostgreSQL/PostGIS cluster of a test's own (Scripts/postgres-cluster.sh), for tests that
/// stop and restart the server, which would upset every other test on the shared cluster.
/// Removed when released.
public final class PrivateCluster {
  public let directory: URL
  public let url: String
  private let script: URL

  public init() throws {
    script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scripts/postgres-cluster.sh")
    // Short: a Unix socket path must fit in 107 bytes.
    directory = URL(fileURLWithPath: "/tmp/gp-\(UUID().uuidString.prefix(8).lowercased())")
    url = try Self.run(script, "start", directory.path).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  deinit { _ = try? Self.run(script, "remove", directory.path) }

  /// Stops the server at once: every connection is cut.
  public func stop() throws { _ = try Self.run(script, "stop", directory.path) }
  public func start() throws { _ = try Self.run(script, "start", directory.path) }
  /// Makes `role` log in with `password` (scram-sha-256) while everyone else is trusted.
  public func requirePassword(role: String, password: String) throws {
    try PostgresConnection(url: url).execute("CREATE ROLE \(role) LOGIN PASSWORD '\(password)'")
    let hba = directory.appendingPathComponent("data/pg_hba.conf")
    let rules = try String(contentsOf: hba, encoding: .utf8)
    try ("local all \(role) scram-sha-256\n" + rules).write(to: hba, atomically: false, encoding: .utf8)
    _ = try Self.run(script, "reload", directory.path)
  }

  /// Stops the server at once and starts it again.
  public func restart() throws { _ = try Self.run(script, "restart", directory.path) }

  /// Runs the script with its output in files and waits with waitpid: the server it starts
  /// outlives the script and must hold nothing of ours open.
  @discardableResult
  static func run(_ script: URL, _ arguments: String...) throws -> String {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("gp-cluster-\(UUID().uuidString)")
    let err = out.appendingPathExtension("err")
    defer {
      try? FileManager.default.removeItem(at: out)
      try? FileManager.default.removeItem(at: err)
    }
    let command = ([script.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
      .joined(separator: " ")
    let shell = "\(command) >'\(out.path)' 2>'\(err.path)' </dev/null"
    var pid: pid_t = 0
    let parts: [String] = ["/bin/sh", "-c", shell]
    let argv: [UnsafeMutablePointer<CChar>?] = parts.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else {
      throw ScratchError("cannot run \(script.path)")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    guard status == 0 else {
      let errors = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
      throw ScratchError("postgres-cluster.sh \(arguments.joined(separator: " ")) failed: \(errors)")
    }
    return (try? String(contentsOf: out, encoding: .utf8)) ?? ""
  }
}
