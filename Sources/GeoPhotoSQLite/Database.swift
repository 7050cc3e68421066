internal import CGeoPhotoSQLite
import Foundation
public import GeoPhotoStore

#if canImport(Glibc)
  import Glibc
#endif

/// One SQLite connection: opened in WAL mode, with a statement cache and closure transactions.
///
/// A connection is used from one thread at a time (it is not `Sendable`); open one per thread
/// or task that needs the database. Closed when released.
public final class Database {
  let handle: OpaquePointer
  public let path: String
  private var cache: [String: Statement] = [:]

  /// How a connection opens its file.
  public enum Mode: Sendable {
    /// Read and write, creating the file when it does not exist.
    case readWriteCreate
    /// Read and write an existing file.
    case readWrite
    /// Only read an existing file.
    case readOnly
    /// Only read a file geophoto did not write (a tile archive): defensive, no triggers or
    /// functions from its schema, bounded values, and each statement stopped after
    /// `untrustedSteps` steps of SQLite's machine (a view can make a query endless).
    case untrusted
  }

  /// The steps of SQLite's machine one statement may take on an untrusted file.
  public static let untrustedSteps: Int32 = 50_000_000
  /// The largest value an untrusted file may hand over.
  public static let untrustedValueBytes: Int32 = 64 << 20

  /// Whether the folder of `path` is on a filesystem mounted read-only.
  static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
    var info = statvfs()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard statvfs(folder, &info) == 0 else { return false }
    // ST_RDONLY: the filesystem is mounted read-only.
    return info.f_flag & 1 != 0
  }

  /// Opens (or creates) the database at `path`, switches it to WAL and sets a busy timeout so
  /// a reader and a writer in other processes wait for each other instead of failing.
  public init(path: String, mode: Mode = .readWriteCreate) throws(SQLiteError) {
    var handle: OpaquePointer?
    let reading = mode == .readOnly || mode == .untrusted
    var flags = (reading ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
    if mode == .readWriteCreate { flags |= SQLITE_OPEN_CREATE }
    let rc = sqlite3_open_v2(path, &handle, flags, nil)
    guard rc == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close_v2(handle)
      throw SQLiteError(code: ResultCode(rawValue: rc), message: message)
    }
    self.handle = handle
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, 5_000)
    if mode == .untrusted {
      try guardUntrusted()
      return
    }
    // journal_mode answers with the mode in force: verify WAL was really enabled (a read-only
    // connection reads whatever mode the file is in).
    if mode != .readOnly {
      let journal = try queryText("PRAGMA journal_mode = WAL")
      guard journal?.lowercased() == "wal" else {
        throw SQLiteError(code: .error, message: "could not enable WAL (journal mode is \(journal ?? "?"))")
      }
    }
    try execute("PRAGMA synchronous = NORMAL")
    try execute("PRAGMA foreign_keys = ON")
    // A writing command's pages are read from the mapped file rather than copied in by a
    // system call each (an export or a kd-tree rebuild reads every page); SQLite caps it at
    // its own limit. A read-only connection is a server's: it lives as long as the server and
    // looks photos up by id, so it reads pages into SQLite's own bounded cache instead. Mapped,
    // every page it ever touched (and the pages around each, which the kernel maps with it)
    // would count as the server's memory, once for each connection of its pool.
    try execute("PRAGMA mmap_size = \(mode == .readOnly ? 0 : Self.mappedBytes)")
    // The system's page cache holds the file already: a read-only connection keeps only the
    // pages it reads most (the B-trees' upper levels) in a cache of its own, so the few a
    // server's pool opens as requests overlap each add little.
    if mode == .readOnly { try execute("PRAGMA cache_size = -\(Self.readerCacheKiB)") }
  }

  /// The defences for a file from elsewhere (SQLite's "Defense Against the Dark Arts").
  private func guardUntrusted() throws(SQLiteError) {
    let rc = gp_sqlite_defensive(handle)
    guard rc == SQLITE_OK else { throw error(rc) }
    sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Self.untrustedValueBytes)
    sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, 100_000)
    sqlite3_limit(handle, SQLITE_LIMIT_COLUMN, 100)
    sqlite3_limit(handle, SQLITE_LIMIT_EXPR_DEPTH, 10)
    sqlite3_limit(handle, SQLITE_LIMIT_COMPOUND_SELECT, 3)
    sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0)
    sqlite3_limit(handle, SQLITE_LIMIT_TRIGGER_DEPTH, 1)
    // Every 1,000 steps the handler counts; past the budget it stops the statement.
    sqlite3_progress_handler(
      handle, 1_000,
      { context in
        guard let context else { return 1 }
        let steps = context.assumingMemoryBound(to: Int32.self)
        steps.pointee += 1
        return steps.pointee > Database.untrustedSteps / 1_000 ? 1 : 0
      }, stepCount)
    try execute("PRAGMA cell_size_check = ON")
    try execute("PRAGMA mmap_size = 0")
    try execute("PRAGMA query_only = ON")
    try execute("PRAGMA cache_size = -\(Self.readerCacheKiB)")
  }

  /// Thousands of steps of the statement running on an untrusted file (its progress handler's
  /// count), reset by `resetStepBudget()`.
  private let stepCount: UnsafeMutablePointer<Int32> = {
    let count = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    count.initialize(to: 0)
    return count
  }()

  /// Gives the next statement on an untrusted file its whole budget of steps.
  public func resetStepBudget() { stepCount.pointee = 0 }

  /// The page cache of a read-only connection, in KiB (SQLite's default is 2,000).
  static let readerCacheKiB = 512

  /// How much of the file a writing connection memory-maps for reading.
  static let mappedBytes = 1 << 31

  deinit {
    cache.removeAll()
    sqlite3_close_v2(handle)
    stepCount.deallocate()
  }

  func error(_ rc: Int32, sql: String? = nil) -> SQLiteError {
    SQLiteError(
      code: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }

  // MARK: - Statements

  /// A prepared statement for `sql`, reused across calls; evicted when a step fails.
  public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
    if let statement = cache[sql] { return statement }
    let statement = try Statement(database: self, sql: sql, persistent: true)
    cache[sql] = statement
    return statement
  }

  /// A statement prepared for one use.
  public func makeStatement(_ sql: String) throws(SQLiteError) -> Statement {
    try Statement(database: self, sql: sql, persistent: false)
  }

  /// Runs one or more SQL statements with no parameters (schema changes, pragmas).
  public func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(handle, sql, nil, nil, &message)
    if rc != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(code: ResultCode(rawValue: rc), message: text, sql: sql)
    }
  }

  /// Runs one statement with parameters through the statement cache.
  public func execute(_ sql: String, _ values: [StoreValue]) throws(SQLiteError) {
    let statement = try cachedStatement(sql)
    do {
      try statement.execute(values)
    } catch {
      cache[sql] = nil
      throw error
    }
  }

  /// Calls `body` for each row of a cached query.
  public func forEachRow(
    _ sql: String, _ values: [StoreValue] = [], _ body: (Statement) throws -> Void
  ) throws {
    let statement = try cachedStatement(sql)
    try statement.bind(values)
    defer { statement.reset() }
    while try statement.step() { try body(statement) }
  }

  /// The first column of the first row as an integer, or `nil` when there is no row.
  public func queryInt64(_ sql: String, _ values: [StoreValue] = []) throws(SQLiteError) -> Int64? {
    let statement = try cachedStatement(sql)
    try statement.bind(values)
    defer { statement.reset() }
    guard try statement.step(), !statement.isNull(0) else { return nil }
    return statement.int64(0)
  }

  /// The first column of the first row as text, or `nil` when there is no row.
  public func queryText(_ sql: String, _ values: [StoreValue] = []) throws(SQLiteError) -> String? {
    let statement = try makeStatement(sql)
    try statement.bind(values)
    guard try statement.step(), !statement.isNull(0) else { return nil }
    return statement.text(0)
  }

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  // MARK: - Transactions

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws
  /// (the first error is the one rethrown).
  ///
  /// `BEGIN IMMEDIATE` takes the write lock up front, so two writers queue on the busy timeout
  /// instead of failing half way with `SQLITE_BUSY`.
  public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
    try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }
}

extension Statement {
  /// Makes the statement ready for its next use and releases its read lock.
  public func reset() { sqlite3_reset(handle) }
}

@available(*, unavailable)
extension Database: Sendable {}
