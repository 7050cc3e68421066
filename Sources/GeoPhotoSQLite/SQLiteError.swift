internal import CGeoPhotoSQLite

/// An SQLite result code. A struct, not an enum, so extended and future codes survive.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The primary code (the low byte) of an extended result code.
  public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

  public static let error = ResultCode(rawValue: SQLITE_ERROR)
  public static let busy = ResultCode(rawValue: SQLITE_BUSY)
  public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
  public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
  public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
  public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
  public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
  public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
  public static let full = ResultCode(rawValue: SQLITE_FULL)

  public var description: String { String(cString: sqlite3_errstr(rawValue)) }

  /// Matches extended codes against their primary code: `case .busy:` catches `SQLITE_BUSY_*`.
  public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
    pattern == code || pattern == code.primary
  }
}

/// Every failure of the SQLite layer: the result code, SQLite's message and the SQL involved.
/// The description, which users see, leaves the SQL out; `debugDescription` has it.
public struct SQLiteError: Error, CustomStringConvertible, CustomDebugStringConvertible, Sendable {
  public var code: ResultCode
  public var message: String
  public var sql: String?

  public init(code: ResultCode, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  public var description: String {
    switch code {
    case .full:
      return "the disk holding the index is full (SQLite error \(code.rawValue)): free some space and run it again; "
        + "what was written before is kept"
    case .readOnly:
      return "the index cannot be written: its file or folder is read-only (SQLite error \(code.rawValue): \(message))"
    default:
      return "SQLite error \(code.rawValue) (\(code)): \(message)"
    }
  }

  public var debugDescription: String {
    description + (sql.map { " — while running: \($0)" } ?? "")
  }
}
