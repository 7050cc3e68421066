import Foundation
import GeoPhotoBackends
import GeoPhotoStore

/// What every command gets: its arguments, the resolved configuration and the console.
struct CommandContext {
  /// The subcommand's name, for messages (`near: Kyoto, Kyoto, JP (35.0211, 135.7538)`).
  var command: String
  var parsed: ParsedArguments
  var configuration: Configuration
  var environment: [String: String]
  var console: Console

  /// The index backends `--db` picks from.
  static let stores = StoreFactory.standard

  /// Where files kept beside the index live (an imported gazetteer): the index file's folder,
  /// or the default data folder for an index that is not a local file.
  var indexDirectory: URL {
    let path =
      Self.stores.localDirectory(configuration.databasePath)
      ?? URL(fileURLWithPath: Configuration.defaultDatabasePath(environment: environment)).deletingLastPathComponent()
      .path
    return URL(fileURLWithPath: path)
  }

  /// The index `--db` names, opened in `mode`; nil when there is none yet and `mode` does not
  /// create one (nothing synced there).
  func openStore(_ mode: StoreOpenMode) throws -> (any PhotoStore)? {
    do {
      return try Self.stores.open(configuration.databasePath, mode: mode)
    } catch let error as StoreError where error.kind == .missing && mode != .create {
      return nil
    }
  }

  /// The index, created when there is none (`sync`, `fetch`).
  func openOrCreateStore() throws -> any PhotoStore { try Self.stores.open(configuration.databasePath, mode: .create) }

  /// The index, which must exist.
  func openExistingStore() throws -> any PhotoStore {
    guard let store = try openStore(.readWrite) else {
      throw RuntimeError(
        "no index at \(Self.stores.redacted(configuration.databasePath)); run 'geophoto sync DIR' first")
    }
    return store
  }
}
