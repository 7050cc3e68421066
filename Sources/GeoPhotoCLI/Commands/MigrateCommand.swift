import Foundation
import GeoPhotoCore
import GeoPhotoStore

enum MigrateCommand: Subcommand {
  static let spec = CommandSpec(
    name: "migrate",
    abstract: "Copy an index into another: SQLite into PostgreSQL/PostGIS, or back.",
    discussion: """
      Photos are copied as they are (place names, estimated positions and file states
      included), in batches of 1,000, each a transaction, keyed by source and source id: an
      interrupted copy is resumed by running the command again, and nothing is copied twice.
      The counts per source are compared at the end. A PostgreSQL database needs the PostGIS
      extension (or the right to create it). Passwords in URLs are never printed.
      """,
    options: [from.spec, to.spec],
    examples: [
      "geophoto migrate --from sqlite:~/.local/share/geophoto/index.sqlite --to postgres://geophoto@db/photos",
      "geophoto migrate --from postgres://geophoto@db/photos --to sqlite:~/photos-copy.sqlite",
    ]
  )

  static let from = ValueOption.text(
    "from", valueName: "index", help: "The index to copy: a SQLite file (sqlite:PATH) or a postgres:// URL.",
    completion: .file)
  static let to = ValueOption.text(
    "to", valueName: "index", help: "The index to copy into (created when it is a new SQLite file).", completion: .file)

  static func run(_ context: CommandContext) throws {
    let from = try context.parsed.required(Self.from)
    let to = try context.parsed.required(Self.to)
    let expand = { Configuration.expandTilde($0, environment: context.environment) }
    let stores = CommandContext.stores
    let (sourceLocation, targetLocation): (String, String)
    do {
      sourceLocation = try stores.normalize(from, expandTilde: expand)
      targetLocation = try stores.normalize(to, expandTilde: expand)
    } catch {
      throw UsageError(error.description)
    }
    let source = try stores.open(sourceLocation, mode: .readWrite)
    let target = try stores.open(targetLocation, mode: .create)
    guard source.location != target.location else { throw UsageError("'--from' and '--to' are the same index") }
    var last: Int64 = 0
    var copied = 0
    while true {
      let batch = try source.records(after: last, limit: 1_000)
      guard let end = batch.last?.id else { break }
      let ids = try target.copy(batch.map(\.record))
      // A photo's other files follow it, under its id in the target.
      let members = try source.memberFiles(of: batch.map(\.id))
      if !members.isEmpty {
        try target.write {
          for (entry, id) in zip(batch, ids) {
            if let files = members[entry.id] { try target.setMembers(of: id, files) }
          }
        }
      }
      copied += batch.count
      last = end
    }
    try target.write {
      for root in try source.syncRoots() { try target.recordSyncRoot(root.path, now: root.lastSynced ?? .now()) }
    }
    try target.refreshDerivedIndexes()
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
      "copied \(copied) photos to \(target.location); counts per source match ("
        + expected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")\n")
  }
}
