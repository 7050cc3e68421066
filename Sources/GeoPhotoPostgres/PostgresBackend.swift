public import GeoPhotoStore

extension StoreBackend {
  /// A shared index in PostgreSQL/PostGIS (`postgres://user@host/db`). The stores one opener
  /// makes share a connection pool.
  public static let postgres = StoreBackend(
    name: "PostgreSQL", prefixes: ["postgres://", "postgresql://"], dropsPrefix: false, takesPlainPaths: false,
    opener: { url, mode in
      let pool = PostgresPool(url: url)
      return { try PostgresPhotoStore(pool: pool, mode: mode) }
    }, redacted: redactingPassword)
}
