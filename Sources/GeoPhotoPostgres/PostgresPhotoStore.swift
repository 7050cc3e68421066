public import Foundation
public import GeoPhotoCore
public import GeoPhotoStore

/// The photo index in PostgreSQL with PostGIS, for deployments that outgrow one machine.
///
/// Photos live in a table whose `geography(Point, 4326)` column is generated from latitude and
/// longitude, under a GiST index. The k nearest come from the index-assisted `<->` ordering
/// (spherical distance on geography), a radius from `ST_DWithin`; ties are broken by id, so
/// answers match the SQLite index's. Rows are written and read through the stores' one row
/// model (`PhotoColumn`, `PhotoWrite`), and every change advances a generation counter, as in
/// the SQLite store.
///
/// Several processes may write at once (two syncs, a fetch): each write is one transaction,
/// upserts resolve conflicts on the key, and the generation row serialises the commits.
/// Connections come from a `PostgresPool`, so a store survives a server restart: the next
/// call connects again.
public final class PostgresPhotoStore: PhotoStore {
  public let pool: PostgresPool
  /// The connection of the write transaction in progress, if any.
  var transaction: PostgresConnection?
  var photosChanged = false
  /// Where a server keeps this database's spatial index (`spatialFileURL()`).
  public var spatialCacheFolder = PostgresPhotoStore.defaultSpatialCacheFolder

  /// The cache folder of this machine's user or service (`CacheFolder`).
  public static var defaultSpatialCacheFolder: URL { CacheFolder.geophoto() }

  /// Connects to `url` with a pool of its own; the schema is brought up to date unless
  /// `.readOnly`, which only reads an up-to-date one.
  public convenience init(
    url: String, mode: StoreOpenMode = .readWrite, options: PostgresPool.Options = PostgresPool.Options()
  ) throws {
    try self.init(pool: PostgresPool(url: url, options: options), mode: mode)
  }

  /// A store on a shared pool; the schema is checked once per pool.
  public init(pool: PostgresPool, mode: StoreOpenMode = .readWrite) throws {
    self.pool = pool
    try pool.once {
      try pool.withConnection { connection in
        if mode == .readOnly {
          try PostgresSchema.check(connection)
        } else if try PostgresSchema.isStandby(connection) {
          // A replica: nothing to create here, and a writer is told to use the primary when
          // it first writes.
          if mode == .create { throw PostgresSchema.standbyRefusal(connection.url) }
          try PostgresSchema.check(connection)
        } else {
          try PostgresSchema.migrate(connection)
        }
      }
    }
  }

  public var location: String { redactingPassword(pool.url) }

  public func reopened() throws -> any PhotoStore {
    let store = try PostgresPhotoStore(pool: pool)
    store.spatialCacheFolder = spatialCacheFolder
    return store
  }

  // MARK: - Statements

  /// Runs one statement: inside the write transaction when there is one, otherwise on a
  /// pooled connection (once more on a fresh one if the server had dropped it). `body` reads
  /// the rows before the connection goes back to the pool.
  func query<T>(_ sql: String, _ parameters: [StoreValue] = [], _ body: (PostgresRows) throws -> T) throws -> T {
    if let transaction { return try body(try transaction.execute(sql, parameters)) }
    return try pool.withConnection { try body(try $0.execute(sql, parameters)) }
  }

  /// Runs a statement for its effect.
  func run(_ sql: String, _ parameters: [StoreValue] = []) throws {
    try query(sql, parameters) { _ in }
  }

  /// Runs a statement that changes photo rows; the generation advances if it touched any.
  /// `prepared` for the statements a sync runs once a file.
  func change(_ sql: String, _ parameters: [StoreValue], prepared: Bool = false) throws -> PostgresRows {
    guard let transaction else { preconditionFailure("photo rows change only inside write(_:)") }
    let rows = try transaction.execute(sql, parameters, prepared: prepared)
    if transaction.affectedRows > 0 { photosChanged = true }
    return rows
  }

  /// A transaction that failed after it began: never retried, since its body may have done
  /// more than write (counted, reported).
  private struct Interrupted: Error {
    var error: any Error
  }

  @discardableResult public func write<T>(_ body: () throws -> T) throws -> T {
    precondition(transaction == nil, "write transactions do not nest")
    do {
      return try pool.withConnection { connection in
        // A connection found dead here is replaced and the transaction begins afresh.
        try connection.execute("BEGIN")
        transaction = connection
        photosChanged = false
        defer { transaction = nil }
        do {
          let value = try body()
          if photosChanged {
            try connection.execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'")
          }
          try connection.execute("COMMIT")
          return value
        } catch {
          _ = try? connection.execute("ROLLBACK")
          if let error = error as? PostgresError, error.sqlState == PostgresSchema.readOnlyTransaction {
            throw Interrupted(error: PostgresSchema.standbyRefusal(pool.url))
          }
          throw Interrupted(error: error)
        }
      }
    } catch let interrupted as Interrupted {
      throw interrupted.error
    } catch let error as PostgresError where error.sqlState == PostgresSchema.readOnlyTransaction {
      // The server is a standby (or was demoted to one since the store opened).
      throw PostgresSchema.standbyRefusal(pool.url)
    }
  }

  // MARK: - Reading

  public func generation() throws -> Int64 {
    try query("SELECT value FROM index_state WHERE key = 'generation'") { $0.first?.int64(at: 0) ?? 0 }
  }

  public func counts() throws -> PhotoCounts {
    try query("SELECT count(*), count(latitude), count(problem) FROM photos") { rows in
      let row = rows.first
      return PhotoCounts(
        photos: Int(row?.int64(at: 0) ?? 0), located: Int(row?.int64(at: 1) ?? 0), problems: Int(row?.int64(at: 2) ?? 0)
      )
    }
  }

  public func countsBySource() throws -> [(source: PhotoSource, photos: Int, located: Int)] {
    try query("SELECT source, count(*), count(latitude) FROM photos GROUP BY source ORDER BY source COLLATE \"C\"") {
      $0.map { r in (PhotoSource(rawValue: r.text(at: 0) ?? ""), Int(r.int64(at: 1) ?? 0), Int(r.int64(at: 2) ?? 0)) }
    }
  }

  /// Whether any photo has a position: an index probe that stops at the first row, unlike
  /// `counts()`, which reads the whole table.
  public func hasLocatedPhotos() throws -> Bool {
    try query("SELECT EXISTS (SELECT 1 FROM photos WHERE geog IS NOT NULL)") { $0.first?.bool(at: 0) ?? false }
  }

  public func photo(id: Int64) throws -> Photo? {
    try photos(ids: [id]).first
  }

  public func photos(ids: [Int64]) throws -> [Photo] {
    guard !ids.isEmpty else { return [] }
    let byID = try query(
      "SELECT \(PhotoColumn.photoList) FROM photos WHERE id = ANY($1::bigint[])",
      [PostgresSQL.array(ids.map(String.init))]
    ) { rows in Dictionary(rows.map { Photo(row: $0) }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) }
    return ids.compactMap { byID[$0] }
  }

  /// Runs `body` inside one repeatable-read, read-only transaction with the generation it
  /// sees: whatever `body` reads page by page belongs to that generation.
  private func readingAtOneGeneration<T>(_ body: (PostgresConnection, Int64) throws -> T) throws -> T {
    try pool.withConnection { connection in
      try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
      defer { _ = try? connection.execute("COMMIT") }
      let generation =
        try connection.execute("SELECT value FROM index_state WHERE key = 'generation'").first?.int64(at: 0) ?? 0
      return try body(connection, generation)
    }
  }

  /// Read page by page (by id) inside one repeatable-read transaction, so the photos and the
  /// generation belong together however large the table.
  public func locatedPhotos() throws -> (generation: Int64, photos: [Photo]) {
    try readingAtOneGeneration { connection, generation in
      var photos: [Photo] = []
      var last: Int64 = 0
      while true {
        let rows = try connection.execute(
          """
          SELECT \(PhotoColumn.photoList) FROM photos WHERE latitude IS NOT NULL AND id > $1::bigint ORDER BY id
          LIMIT 20000
          """, [.integer(last)])
        guard !rows.isEmpty else { break }
        photos += rows.map { Photo(row: $0) }
        last = photos[photos.count - 1].id
      }
      return (generation, photos)
    }
  }

  /// The positions generation and identity the spatial index is stamped with.
  public func stamp() throws -> SpatialIndexFile.Stamp {
    try query("SELECT key, value FROM index_state WHERE key IN ('positions', 'identity')") { rows in
      var stamp = SpatialIndexFile.Stamp(generation: 0, identity: 0)
      for row in rows {
        if row.text(at: 0) == "positions" { stamp.generation = row.int64(at: 1) ?? 0 }
        if row.text(at: 0) == "identity" { stamp.identity = row.int64(at: 1) ?? 0 }
      }
      return stamp
    }
  }

  /// Where this database's spatial index is kept: a file of this machine's cache folder
  /// named by the database's identity (a PostgreSQL index has no folder of its own).
  public func spatialFileURL() throws -> URL {
    spatialCacheFolder.appendingPathComponent(String(format: "postgres-%016llx.spatial", try stamp().identity))
  }

  /// The rows changed since the positions generation `generation` (see `SQLitePhotoStore`),
  /// read on `connection`; nil when the database no longer knows.
  func changes(since generation: Int64, on connection: PostgresConnection) throws -> LocatedChanges.Rows? {
    let known = try connection.execute("SELECT value FROM index_state WHERE key = 'changes_since'")
    guard let since = known.first?.int64(at: 0), generation >= since else { return nil }
    var rows = LocatedChanges.Rows()
    for row in try connection.execute(
      "SELECT id, latitude, longitude, source, taken_utc, taken_local FROM photos WHERE moved > $1::bigint",
      [.integer(generation)])
    {
      guard let id = row.int64(at: 0) else { continue }
      rows.ids.append(id)
      guard let latitude = row.double(at: 1), let longitude = row.double(at: 2) else { continue }
      rows.located.append(
        LocatedChanges.LocatedRow(
          id: id, coordinate: Coordinate(latitude: latitude, longitude: longitude),
          source: PhotoSource(rawValue: row.text(at: 3) ?? ""), instant: row.int64(at: 4) ?? PointTimes.none,
          local: row.int64(at: 5) ?? PointTimes.none))
    }
    for row in try connection.execute(
      "SELECT id FROM removed_photos WHERE generation > $1::bigint", [.integer(generation)])
    {
      if let id = row.int64(at: 0) { rows.ids.append(id) }
    }
    return rows
  }

  /// The rows changed since the positions generation `generation`.
  public func changes(since generation: Int64) throws -> LocatedChanges.Rows? {
    try readingAtOneGeneration { connection, _ in try changes(since: generation, on: connection) }
  }

  /// The spatial index kept in the cache folder, mapped (or `earlier`'s mapping when it is
  /// the same file), with the rows changed since it was built; built from the rows and written
  /// there first when it is missing, damaged or of other rows. Where the cache folder cannot
  /// be written, the tree is built in memory and the server builds the clusters.
  public func locatedIndex(reusing earlier: SpatialIndexFile.Contents?) throws -> LocatedIndex {
    let url = try spatialFileURL()
    return try LocatedIndex.kept(
      in: url, reusing: earlier,
      merge: { contents in
        try readingAtOneGeneration { connection, generation in
          try LocatedIndex(
            merging: contents, generation: generation, current: try stamp(on: connection),
            changes: { try changes(since: $0, on: connection) })
        }
      }, build: { try buildSpatialFile(at: url) })
  }

  public func rebuildSpatialFile(always: Bool) throws -> Bool {
    let url = try spatialFileURL()
    guard try always || SpatialIndexFile.stamp(at: url) != stamp() else { return false }
    if let failure = try buildSpatialFile(at: url).failure { throw failure }
    return true
  }

  private func stamp(on connection: PostgresConnection) throws -> SpatialIndexFile.Stamp {
    var stamp = SpatialIndexFile.Stamp(generation: 0, identity: 0)
    for row in try connection.execute("SELECT key, value FROM index_state WHERE key IN ('positions', 'identity')") {
      if row.text(at: 0) == "positions" { stamp.generation = row.int64(at: 1) ?? 0 }
      if row.text(at: 0) == "identity" { stamp.identity = row.int64(at: 1) ?? 0 }
    }
    return stamp
  }

  /// The kd-tree's columns read page by page inside one repeatable-read transaction, like
  /// `locatedPhotos()`, built, and written to `url` with the hierarchy over it.
  private func buildSpatialFile(at url: URL) throws -> SpatialIndexFile.Built {
    let lock = SpatialIndexFile.buildLock(beside: url)
    defer { withExtendedLifetime(lock) {} }
    let (generation, stamp, rows) = try readingAtOneGeneration { connection, generation in
      var rows = LocatedRows()
      while true {
        let page = try connection.execute(
          """
          SELECT id, latitude, longitude, source, taken_utc, taken_local FROM photos
          WHERE latitude IS NOT NULL AND id > $1::bigint ORDER BY id LIMIT 50000
          """, [.integer(rows.lastID ?? 0)])
        guard !page.isEmpty else { break }
        for row in page {
          guard let id = row.int64(at: 0), let latitude = row.double(at: 1), let longitude = row.double(at: 2)
          else { continue }
          rows.append(
            id: id, latitude: latitude, longitude: longitude, source: row.text(at: 3) ?? "",
            instant: row.int64(at: 4), local: row.int64(at: 5))
        }
      }
      return (generation, try self.stamp(on: connection), rows)
    }
    return SpatialIndexFile.Built(rows.tree(), generation: generation, stamp: stamp, writingTo: url)
  }

  public func records(after id: Int64, limit: Int) throws -> [(id: Int64, record: PhotoRecord)] {
    try query(
      "SELECT \(PhotoColumn.recordList) FROM photos WHERE id > $1::bigint ORDER BY id LIMIT $2::int",
      [.integer(id), .integer(Int64(limit))]
    ) { rows in rows.map { row in (row.int64(.id) ?? 0, PhotoRecord(row: row)) } }
  }

  public func idRange() throws -> ClosedRange<Int64>? {
    try query("SELECT min(id), max(id) FROM photos") { rows in
      guard let row = rows.first, let first = row.int64(at: 0), let last = row.int64(at: 1) else { return nil }
      return first...last
    }
  }

  public func forEachLocatedPhoto(
    passing filter: PhotoFilter, after id: Int64, through last: Int64, limit: Int, reading columns: Set<PhotoColumn>,
    _ body: (inout Photo) throws -> Void
  ) throws {
    var parameters: [StoreValue] = [.integer(id), .integer(last), .integer(Int64(limit))]
    let selection = PhotoSelection(columns)
    let sql =
      "SELECT \(selection.list) FROM photos"
      + " WHERE latitude IS NOT NULL AND id > $1::bigint AND id <= $2::bigint"
      + PostgresSQL.conditions(filter, &parameters) + " ORDER BY id LIMIT $3::int"
    try query(sql, parameters) { rows in
      for row in rows {
        var photo = Photo(row: selection.row(row))
        try body(&photo)
      }
    }
  }

  public func forEachDatedPhoto(passing filter: PhotoFilter, _ body: (DatedPhoto) throws -> Void) throws {
    var parameters: [StoreValue] = []
    let sql =
      "SELECT \(DatedPhotoRows.columnList) FROM photos WHERE \(DatedPhotoRows.condition)"
      + PostgresSQL.conditions(filter, &parameters)
    var rows = DatedPhotoRows()
    try query(sql, parameters) { result in
      for row in result { if let photo = rows.read(row) { try body(photo) } }
    }
  }

  public func knownFiles(under root: String) throws -> [KnownFile] {
    let prefix = directoryPrefix(root)
    return try query(
      """
      SELECT \(KnownFile.columnList) FROM photos
      WHERE source = 'local' AND source_id >= $1 AND source_id < $2
      """, [.text(prefix), .text(pathRangeEnd(prefix))]
    ) { $0.map { KnownFile(row: $0) } }
      + query(
        """
        SELECT \(MemberColumn.knownList) FROM photo_members
        WHERE role != 'sidecar' AND path >= $1 AND path < $2
        """, [.text(prefix), .text(pathRangeEnd(prefix))]
      ) { $0.map { KnownFile(memberRow: $0) } }
  }

  public func memberFiles(of ids: [Int64]?) throws -> [Int64: [MemberFile]] {
    if let ids, ids.isEmpty { return [:] }
    let sql =
      "SELECT \(MemberColumn.list) FROM photo_members"
      + (ids == nil ? "" : " WHERE photo_id = ANY($1::bigint[])") + " ORDER BY photo_id, path"
    return try query(sql, ids.map { [PostgresSQL.array($0.map(String.init))] } ?? []) { rows in
      var members: [Int64: [MemberFile]] = [:]
      for row in rows { members[row.int64(at: 0) ?? 0, default: []].append(MemberFile(row: row)) }
      return members
    }
  }

  public func syncRoots() throws -> [(path: String, lastSynced: IndexTime?)] {
    try query("SELECT path, extract(epoch FROM last_synced)::bigint FROM sync_roots ORDER BY path") {
      $0.map { ($0.text(at: 0) ?? "", $0.int64(at: 1).flatMap { Int(exactly: $0) }.map(IndexTime.init(seconds:))) }
    }
  }

  public func recordedLocationCount(under root: String?) throws -> Int {
    var sql = "SELECT count(*) FROM photos WHERE source = 'local' AND latitude IS NOT NULL AND NOT location_estimated"
    var parameters: [StoreValue] = []
    if let root {
      let prefix = directoryPrefix(root)
      sql += " AND source_id >= $1 AND source_id < $2"
      parameters = [.text(prefix), .text(pathRangeEnd(prefix))]
    }
    return try query(sql, parameters) { Int($0.first?.int64(at: 0) ?? 0) }
  }

  public func localPhotos(under root: String?, _ kind: LocalPhotoKind) throws -> [Photo] {
    var sql = """
      SELECT \(PhotoColumn.photoList) FROM photos
      WHERE source = 'local' AND \(kind.condition) AND problem IS NULL
      """
    var parameters: [StoreValue] = []
    if let root {
      let prefix = directoryPrefix(root)
      sql += " AND source_id >= $1 AND source_id < $2"
      parameters = [.text(prefix), .text(pathRangeEnd(prefix))]
    }
    // As SQLite orders: photos without a date first, then by date, then by id.
    return try query(sql + " ORDER BY taken_at COLLATE \"C\" NULLS FIRST, id", parameters) {
      $0.map { Photo(row: $0) }
    }
  }

  public func hasFetched(provider: PhotoSource, center: Coordinate, radius: Double, since: IndexTime) throws -> Bool {
    try query(
      "SELECT latitude, longitude, radius FROM fetched_areas WHERE provider = $1 AND fetched_at >= $2::bigint",
      [.text(provider.rawValue), .seconds(since)]
    ) { rows in
      rows.contains { r in
        guard let lat = r.double(at: 0), let lon = r.double(at: 1), let covered = r.double(at: 2) else { return false }
        return circle(Coordinate(latitude: lat, longitude: lon), radius: covered, covers: center, radius: radius)
      }
    }
  }

  // MARK: - Spatial queries

  public func nearest(_ query: NearQuery) throws -> [Neighbor] {
    guard query.limit > 0 else { return [] }
    let nearest = PostgresSQL.nearest(query)
    return try self.query(nearest.sql, nearest.parameters) { rows in
      rows.compactMap { row in
        guard let id = row.int64(at: 0), let d = row.double(at: 1) else { return nil }
        return Neighbor(id: id, distance: d)
      }
    }
  }

  /// Only the photos near the route, found through the GiST index (a metre and a thousandth
  /// wider than asked, so the caller's exact test decides every edge case).
  public func spatialIndex(along route: [Coordinate], within distance: Double, filter: PhotoFilter) throws
    -> any RadiusSearch
  {
    guard !route.isEmpty else { return SpatialIndex(points: []) }
    let points = route.map { "\($0.longitude) \($0.latitude)" }
    let shape = points.count == 1 ? "POINT(\(points[0]))" : "LINESTRING(\(points.joined(separator: ",")))"
    var parameters: [StoreValue] = [.text(shape), .real(distance * 1.001 + 1)]
    let sql =
      "SELECT id, latitude, longitude FROM photos WHERE ST_DWithin(geog, ST_GeogFromText($1), $2::float8, false)"
      + PostgresSQL.conditions(filter, &parameters)
    return SpatialIndex(
      points: try query(sql, parameters) { rows in
        rows.compactMap { r in
          guard let id = r.int64(at: 0), let lat = r.double(at: 1), let lon = r.double(at: 2) else { return nil }
          return (id, Coordinate(latitude: lat, longitude: lon))
        }
      })
  }

  /// Servers keep their own spatial indexes (`locatedIndex`); what the database keeps for
  /// them, the deletions they merge, is let go after `keptDeletions` positions generations
  /// (a server further behind builds its index again).
  public func refreshDerivedIndexes() throws {
    try write {
      try run(
        """
        WITH horizon AS (
          SELECT value - \(Self.keptDeletions) AS generation FROM index_state WHERE key = 'positions'
        ), pruned AS (
          DELETE FROM removed_photos WHERE generation > 0 AND generation <= (SELECT generation FROM horizon)
        )
        UPDATE index_state SET value = (SELECT generation FROM horizon)
        WHERE key = 'changes_since' AND value < (SELECT generation FROM horizon)
        """)
    }
  }

  /// How many positions generations of deletions the database keeps for servers to merge.
  static let keptDeletions = 10_000

  /// The database keeps its own indexes: nothing derived to rebuild.
  /// Builds this machine's spatial index of the database again (in the cache folder).
  public func rebuildDerivedIndexes() throws {
    if let failure = try buildSpatialFile(at: try spatialFileURL()).failure { throw failure }
  }

  /// The server answers, the schema is the one this geophoto writes, and every photo row is
  /// readable (a count over the table); the database checks its own pages. This machine's
  /// spatial index of it, when there is one, must be intact.
  public func check(thorough: Bool) throws -> [String] {
    do {
      try pool.withConnection { connection in
        try PostgresSchema.check(connection)
        _ = try connection.execute(
          thorough ? "SELECT count(*), count(position) FROM photos" : "SELECT 1 FROM photos LIMIT 1")
      }
    } catch {
      return ["\(location): \(error)"]
    }
    // The spatial file is this machine's cache of a shared index: missing, it is built when
    // a server needs it.
    return try SpatialIndexFile.problems(
      at: try spatialFileURL(), rows: self, generation: try generation(), stamp: try stamp(), changes: changes(since:),
      required: false)
  }
}

@available(*, unavailable)
extension PostgresPhotoStore: Sendable {}
