import GeoPhotoPostgres
import GeoPhotoSQLite
public import GeoPhotoStore

extension StoreFactory {
  /// Every index geophoto ships, by the `--db` values that name them: a file path or
  /// `sqlite:PATH` (SQLite), a `postgres://` URL (PostgreSQL/PostGIS). A new backend is a
  /// `PhotoStore`, its `StoreBackend`, and an entry here.
  public static let standard = StoreFactory([.sqlite, .postgres])
}
