internal import CGeoPhotoPQ
import Foundation
public import GeoPhotoStore

/// A PostgreSQL failure: the SQLSTATE when the server gave one, and a message without secrets.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
  public var sqlState: String?
  public var message: String
  private var lostConnection: Bool

  public init(sqlState: String? = nil, _ message: String, connectionFailure: Bool = false) {
    self.sqlState = sqlState
    self.message = message
    self.lostConnection = connectionFailure
  }

  public var description: String { message }

  /// Whether the connection itself failed (server gone, restarted, unreachable) rather than
  /// the statement: the cases a fresh connection may cure.
  public var isConnectionFailure: Bool {
    guard !lostConnection else { return true }
    guard let sqlState else { return false }
    // Class 08: connection exceptions; 57P01-57P03: the server shut down or is starting.
    return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
  }
}

/// `postgres://user:secret@host/db` with the password replaced, for every URL geophoto prints.
public func redactingPassword(_ url: String) -> String {
  var text = url
  if let scheme = text.range(of: "://") {
    // The user information ends at the last '@' before the path, query or fragment.
    let end = text[scheme.upperBound...].firstIndex { "/?#".contains($0) } ?? text.endIndex
    let authority = text[scheme.upperBound..<end]
    if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
      text = String(text[..<colon]) + ":REDACTED" + String(text[at...])
    }
  }
  // libpq also takes the password as a query parameter.
  if let question = text.firstIndex(of: "?") {
    let parameters = text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
      .map { $0.lowercased().hasPrefix("password=") ? "password=REDACTED" : String($0) }
    text = String(text[...question]) + parameters.joined(separator: "&")
  }
  return text
}

/// One connection through libpq, closed when released. Not for concurrent use: one per
/// thread, like SQLite connections.
public final class PostgresConnection {
  private let handle: OpaquePointer
  public let url: String
  /// Rows the last INSERT, UPDATE or DELETE touched.
  public private(set) var affectedRows = 0

  /// Connects, turning libpq's failures into one line: a wrong host, bad credentials, a
  /// missing database. The password never appears in the message.
  public init(url: String, connectTimeout: Int = 10, statementTimeout: Int? = nil) throws(PostgresError) {
    self.url = url
    let withTimeout = url + (url.contains("?") ? "&" : "?") + "connect_timeout=\(connectTimeout)"
    guard let handle = PQconnectdb(withTimeout) else { throw PostgresError("cannot allocate a PostgreSQL connection") }
    guard PQstatus(handle) == CONNECTION_OK else {
      let detail = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
      PQfinish(handle)
      throw PostgresError(
        "cannot connect to \(redactingPassword(url)): \(detail.split(separator: "\n").first ?? "")",
        connectionFailure: true)
    }
    self.handle = handle
    _ = try? execute("SET client_min_messages = warning")
    if let statementTimeout { try execute("SET statement_timeout = \(statementTimeout * 1000)") }
  }

  deinit { PQfinish(handle) }

  /// Whether libpq still considers the connection usable; false once the server went away.
  public var isUsable: Bool { !broken && PQstatus(handle) == CONNECTION_OK }
  private var broken = false

  /// Runs one statement with parameters (`$1`, `$2`…), or a script when there are none, and
  /// returns its rows.
  ///
  /// Values go to the server as text and come back as text, read by `PostgresRow`'s typed
  /// accessors; statements cast their parameters (`$1::float8`) where the type matters.
  /// `prepared` statements are parsed and planned once per connection and then only executed:
  /// for the hot write statements (a sync's upserts), not for queries whose best plan depends
  /// on their values.
  @discardableResult
  public func execute(_ sql: String, _ parameters: [StoreValue] = [], prepared: Bool = false) throws(PostgresError)
    -> PostgresRows
  {
    let cStrings = parameters.map { Self.text($0).map { strdup($0) } ?? nil }
    defer { for p in cStrings { free(p) } }
    var name: String?
    if prepared && !parameters.isEmpty {
      name = try preparedName(for: sql, parameterCount: parameters.count)
    }
    // Without parameters the simple protocol runs scripts of several statements (migrations).
    let result: OpaquePointer? =
      parameters.isEmpty
      ? PQexec(handle, sql)
      : cStrings.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
          if let name {
            return PQexecPrepared(handle, name, Int32(parameters.count), values.baseAddress, nil, nil, 0)
          }
          return PQexecParams(handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
        }
      }
    return try rows(of: result)
  }

  /// A value in PostgreSQL's text format; nil is NULL.
  static func text(_ value: StoreValue) -> String? {
    switch value {
    case .null: return nil
    case .integer(let v): return String(v)
    // Swift prints the shortest text that reads back as the same double.
    case .real(let v): return v.isFinite ? String(v) : nil
    case .text(let v): return v
    case .bool(let v): return v ? "t" : "f"
    }
  }

  /// Statements prepared on this connection, by SQL.
  private var preparedNames: [String: String] = [:]

  private func preparedName(for sql: String, parameterCount: Int) throws(PostgresError) -> String {
    if let name = preparedNames[sql] { return name }
    let name = "geophoto_\(preparedNames.count + 1)"
    _ = try rows(of: PQprepare(handle, name, sql, Int32(parameterCount), nil))
    preparedNames[sql] = name
    return name
  }

  /// The rows of a finished result (freed when they are released), or its error.
  private func rows(of result: OpaquePointer?) throws(PostgresError) -> PostgresRows {
    guard let result else {
      throw PostgresError("lost the connection to \(redactingPassword(url))", connectionFailure: true)
    }
    affectedRows = Int(String(cString: PQcmdTuples(result))) ?? 0
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      defer { PQclear(result) }
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
      // No SQLSTATE means libpq itself failed: the socket, not the statement (a write to a
      // closed socket can leave PQstatus OK until the next read).
      if state == nil || !isUsable {
        broken = true
        // The server went away: say so, and where (libpq's own words are a few lines).
        let detail = message.split(separator: "\n").first.map(String.init) ?? "the connection was closed"
        throw PostgresError(
          sqlState: state, "lost the connection to \(redactingPassword(url)): \(detail)", connectionFailure: true)
      }
      let error = PostgresError(sqlState: state, message.isEmpty ? "the statement failed" : message)
      // The server ending the session (a shutdown, a restart): this connection is done.
      if error.isConnectionFailure { broken = true }
      throw error
    }
    return PostgresRows(result: result)
  }

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      _ = try? execute("ROLLBACK")
      throw error
    }
  }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}

/// The rows of one result, read in place (libpq's result is freed when they are released).
public final class PostgresRows: RandomAccessCollection {
  private let result: OpaquePointer
  public let count: Int
  let columns: Int

  init(result: OpaquePointer) {
    self.result = result
    count = Int(PQntuples(result))
    columns = Int(PQnfields(result))
  }

  deinit { PQclear(result) }

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }
  public subscript(row: Int) -> PostgresRow { PostgresRow(rows: self, index: row) }

  /// Every value as PostgreSQL wrote it, nil for NULL: rows of columns.
  public var texts: [[String?]] { map { row in (0..<columns).map { row.text(at: $0) } } }

  /// The text of a value, or nil for NULL (and for a column the result does not have).
  func value(_ row: Int, _ column: Int) -> UnsafePointer<CChar>? {
    guard row >= 0, row < count, column >= 0, column < columns,
      PQgetisnull(result, Int32(row), Int32(column)) == 0
    else { return nil }
    return UnsafePointer(PQgetvalue(result, Int32(row), Int32(column)))
  }
}

@available(*, unavailable)
extension PostgresRows: Sendable {}

/// One row of a result, with typed accessors (postgres-nio's `PostgresRow.decode`): numbers
/// and booleans are read from PostgreSQL's text format here, and nowhere else.
public struct PostgresRow: PhotoRow {
  let rows: PostgresRows
  let index: Int

  public func text(at column: Int) -> String? { rows.value(index, column).map { String(cString: $0) } }

  public func int64(at column: Int) -> Int64? {
    guard let text = rows.value(index, column) else { return nil }
    var end: UnsafeMutablePointer<CChar>?
    let value = strtoll(text, &end, 10)
    return end?.pointee == 0 ? Int64(value) : nil
  }

  public func double(at column: Int) -> Double? {
    guard let text = rows.value(index, column) else { return nil }
    var end: UnsafeMutablePointer<CChar>?
    let value = strtod(text, &end)
    return end?.pointee == 0 ? value : nil
  }

  /// `t` or `f`, as PostgreSQL writes booleans.
  public func bool(at column: Int) -> Bool? {
    rows.value(index, column).map { UInt8(bitPattern: $0.pointee) == UInt8(ascii: "t") }
  }
}

@available(*, unavailable)
extension PostgresRow: Sendable {}
