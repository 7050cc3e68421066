import Foundation
import GeoPhotoStore

enum InfoCommand: Subcommand {
  static let spec = CommandSpec(
    name: "info",
    abstract: "Show where the index is and what it holds.",
    examples: ["geophoto info"])

  static func run(_ context: CommandContext) throws {
    guard context.parsed.positionals.isEmpty else {
      throw UsageError("Unexpected argument '\(context.parsed.positionals[0])'")
    }
    guard let store = try context.openStore(.readWrite) else {
      // Where it would be, its password (a PostgreSQL URL's) never shown.
      let shown = CommandContext.stores.redacted(context.configuration.databasePath)
      context.console.out("index: \(shown) (not created yet; run 'geophoto sync DIR')\n")
      return
    }
    let counts = try store.counts()
    var out = """
      index: \(store.location)
      photos: \(counts.photos) (\(counts.located) with a location, \(counts.photos - counts.located) without)

      """
    for entry in try store.countsBySource() {
      out += "  \(entry.source): \(entry.photos) (\(entry.located) with a location)\n"
    }
    out += "unreadable files: \(counts.problems)\ngeneration: \(try store.generation())\n"
    let roots = try store.syncRoots()
    if !roots.isEmpty {
      out += "synced folders:\n"
      for root in roots { out += "  \(root.path) (last sync \(root.lastSynced?.iso8601 ?? "unknown"))\n" }
    }
    context.console.out(out)
  }
}
