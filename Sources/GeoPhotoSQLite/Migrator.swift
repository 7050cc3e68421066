/// Named, ordered schema migrations tracked in `PRAGMA user_version`.
///
/// Migration *n* (1-based) runs once, in its own transaction, when the file's `user_version`
/// is below *n*. A file from a newer geophoto (a higher version than known) is refused
/// rather than written to.
public struct Migrator: Sendable {
  public struct Migration: Sendable {
    public var name: String
    public var sql: String
    /// Work SQL cannot do, run after `sql` in the same transaction (values computed in
    /// Swift for the rows already there).
    public var fill: (@Sendable (Database) throws -> Void)?
    public init(_ name: String, sql: String, fill: (@Sendable (Database) throws -> Void)? = nil) {
      self.name = name
      self.sql = sql
      self.fill = fill
    }
  }

  public var migrations: [Migration]
  public init(_ migrations: [Migration]) { self.migrations = migrations }

  /// The schema version of `database`.
  public static func version(of database: Database) throws(SQLiteError) -> Int {
    Int(try database.queryInt64("PRAGMA user_version") ?? 0)
  }

  /// Applies every migration the database has not seen yet.
  public func migrate(_ database: Database) throws {
    var current = try Migrator.version(of: database)
    guard current <= migrations.count else {
      throw SQLiteError(
        code: .error,
        message: "schema version \(current) is newer than this geophoto knows (\(migrations.count)); upgrade geophoto")
    }
    // A new file is made in one transaction: no one can see it half made, and one commit
    // instead of one a migration (a sync's first moments).
    if current == 0, !migrations.isEmpty {
      try database.transaction {
        guard try Migrator.version(of: database) == 0 else { return }
        for migration in migrations { try apply(migration, to: database) }
        try database.execute("PRAGMA user_version = \(migrations.count)")
      }
      current = try Migrator.version(of: database)
    }
    for (offset, migration) in migrations.enumerated().dropFirst(current) {
      try database.transaction {
        // Re-check inside the write lock: another process may have migrated meanwhile.
        guard try Migrator.version(of: database) == offset else { return }
        try apply(migration, to: database)
        try database.execute("PRAGMA user_version = \(offset + 1)")
      }
    }
  }

  private func apply(_ migration: Migration, to database: Database) throws {
    do {
      try database.execute(migration.sql)
      try migration.fill?(database)
    } catch let error as SQLiteError {
      throw SQLiteError(code: error.code, message: "migration '\(migration.name)': \(error.message)")
    }
  }
}
