internal import CGeoPhotoSQLite
public import GeoPhotoStore

/// A prepared statement, finalized when released.
///
/// Not thread-safe, like the connection it belongs to, and never outlives that connection
/// (statements from `Database.makeStatement` are for local use).
public final class Statement {
  let handle: OpaquePointer
  public let sql: String
  private unowned let database: Database

  init(database: Database, sql: String, persistent: Bool) throws(SQLiteError) {
    var handle: OpaquePointer?
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    let rc = sqlite3_prepare_v3(database.handle, sql, -1, flags, &handle, nil)
    guard rc == SQLITE_OK, let handle else {
      throw database.error(rc, sql: sql)
    }
    self.handle = handle
    self.sql = sql
    self.database = database
  }

  deinit { sqlite3_finalize(handle) }

  /// Resets the statement and binds `values` to its parameters in order (booleans as 0 and 1).
  public func bind(_ values: [StoreValue]) throws(SQLiteError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let rc: Int32
      switch value {
      case .null: rc = sqlite3_bind_null(handle, index)
      case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
      case .real(let v): rc = sqlite3_bind_double(handle, index, v)
      case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, gp_sqlite_transient())
      case .bool(let v): rc = sqlite3_bind_int64(handle, index, v ? 1 : 0)
      }
      guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
    }
  }

  /// Advances to the next row; `false` when the statement is done.
  @discardableResult
  public func step() throws(SQLiteError) -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      sqlite3_reset(handle)
      throw database.error(rc, sql: sql)
    }
  }

  /// Runs the statement to completion with `values` bound.
  public func execute(_ values: [StoreValue] = []) throws(SQLiteError) {
    try bind(values)
    while try step() {}
    sqlite3_reset(handle)
  }

  // MARK: - Columns of the current row

  public func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(handle, column) == SQLITE_NULL
  }

  public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  public func text(_ column: Int32) -> String { optionalText(column) ?? "" }

  public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
  public func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : Int(int64(column)) }
  public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
  /// The text, nil for NULL: `sqlite3_column_text` answers NULL for it (asking the type
  /// first would cost a call per column of every row), and its length comes with it.
  public func optionalText(_ column: Int32) -> String? {
    guard let p = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
  }
}

extension Statement {
  /// The column's bytes (a blob, or text), nil for NULL.
  public func withBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
    let column = Int32(index)
    guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
    let pointer = sqlite3_column_blob(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    return body(UnsafeRawBufferPointer(start: count > 0 ? pointer : nil, count: count))
  }
}

/// The current row, as the stores' row model reads it.
extension Statement: PhotoRow {
  public func int64(at index: Int) -> Int64? { optionalInt64(Int32(index)) }
  public func double(at index: Int) -> Double? { optionalDouble(Int32(index)) }
  public func text(at index: Int) -> String? { optionalText(Int32(index)) }
  public func bool(at index: Int) -> Bool? { optionalInt64(Int32(index)).map { $0 != 0 } }
  public func withUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
    guard let p = sqlite3_column_text(handle, Int32(index)) else { return nil }
    return body(UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, Int32(index)))))
  }
}

@available(*, unavailable)
extension Statement: Sendable {}
