import Foundation
public import GeoPhotoStore

extension StoreBackend {
  /// The embedded index: a SQLite file (a plain path or `sqlite:PATH`), with its spatial index
  /// and any imported gazetteer beside it.
  public static let sqlite = StoreBackend(
    name: "SQLite", prefixes: ["sqlite:"], dropsPrefix: true, takesPlainPaths: true,
    opener: { path, mode in { try SQLitePhotoStore(url: URL(fileURLWithPath: path), mode: mode) } },
    localDirectory: { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
}
