import Foundation
import GeoPhotoStore
import GeoPhotoSync

enum ForgetCommand: Subcommand {
  static let spec = CommandSpec(
    name: "forget",
    abstract: "Remove a folder's photos from the index (the files are not touched).",
    discussion: """
      Use it when a synced folder was deleted or moved for good: 'sync' refuses to empty an
      index on its own, in case the folder is only unmounted.
      """,
    arguments: [.init(name: "dir", help: "A folder synced before.", repeating: true, completion: .directory)],
    examples: ["geophoto forget /mnt/old-disk/photos"])

  static func run(_ context: CommandContext) throws {
    let roots = context.parsed.positionals
    guard !roots.isEmpty else { throw UsageError("Missing expected argument '<dir> ...'") }
    let store = try context.openExistingStore()
    let removed = try store.write {
      try roots.reduce(0) { $0 + (try store.forgetLocalPhotos(under: SyncEngine.canonicalRoot($1))) }
    }
    try store.refreshDerivedIndexes()
    context.console.out("removed \(removed) photos from the index\n")
  }
}
