import Foundation
import GeoPhotoCore
import GeoPhotoPostgres
import GeoPhotoStore

enum MigrateCommand: Subcommand {
  static let spec = CommandSpec(
    name: "migrate",
    abstract: "Copy an index from SQLite into PostgreSQL/PostGIS.",
    discussion: """
      Photos are copied in batches of 1,000, each a transaction, keyed by source and source id:
      an interrupted copy is resumed by running the command again, and nothing is copied
      twice. The counts per source are compared at the end. The PostgreSQL database needs the
      PostGIS extension (or the right to create it). Passwords in URLs are never printed.
      """,
    options: [
      .init(long: "from", valueName: "sqlite:path", help: "The SQLite index to copy."),
      .init(long: "to", valueName: "postgres://…", help: "The PostgreSQL database to copy into."),
    ],
    examples: ["geophoto migrate --from sqlite:~/.local/share/geophoto/index.sqlite --to postgres://geophoto@db/photos"]
  )

  static func run(_ context: CommandContext) throws {
    guard let from = context.parsed.value("from") else {
      throw UsageError("Missing expected option '--from <sqlite:path>'")
    }
    guard let to = context.parsed.value("to") else { throw UsageError("Missing expected option '--to <postgres://…>'") }
    guard from.hasPrefix("sqlite:") else { throw UsageError("'--from' must be sqlite:PATH") }
    guard to.hasPrefix("postgres://") || to.hasPrefix("postgresql://") else {
      throw UsageError("'--to' must be a postgres:// URL")
    }
    let path = Configuration.expandTilde(String(from.dropFirst("sqlite:".count)), environment: context.environment)
    let source = try SQLitePhotoStore(url: URL(fileURLWithPath: path), create: false)
    let target = try PostgresPhotoStore(url: to)
    var last: Int64 = 0
    var copied = 0
    while true {
      let batch = try source.records(after: last, limit: 1_000)
      guard let end = batch.last?.id else { break }
      try target.copy(batch.map(\.record))
      copied += batch.count
      last = end
    }
    for root in try source.syncRoots() {
      try target.recordSyncRoot(root.path, now: root.lastSynced)
    }
    var expected: [String: Int] = [:]
    for entry in try source.countsBySource() { expected[entry.source.rawValue] = entry.photos }
    var found: [String: Int] = [:]
    for entry in try target.countsBySource() { found[entry.source.rawValue] = entry.photos }
    let missing = expected.filter { (found[$0.key] ?? 0) < $0.value }
    guard missing.isEmpty else {
      throw RuntimeError(
        "copied \(copied) photos but the counts differ: "
          + missing.map { "\($0.key) \(found[$0.key] ?? 0) of \($0.value)" }.sorted().joined(separator: ", "))
    }
    context.console.out(
      "copied \(copied) photos to \(redactingPassword(to)); counts per source match ("
        + expected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")\n")
  }
}
