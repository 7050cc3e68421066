import Foundation
public import GeoPhotoCore
public import GeoPhotoStore

/// The photo index in PostgreSQL with PostGIS, for deployments that outgrow one machine.
///
/// Photos live in a table with a `geography(Point, 4326)` column under a GiST index. The k
/// nearest come from the index-assisted `<->` ordering (spherical distance on geography),
/// a radius from `ST_DWithin`; ties are broken by id, so answers match the SQLite index's.
/// Upserts are keyed by (source, source id), and every change advances a generation counter,
/// as in the SQLite store.
///
/// Several processes may write at once (two syncs, a fetch): each write is one transaction,
/// upserts resolve conflicts on the key, and the generation row serialises the commits.
/// Connections come from a `PostgresPool`, so a store survives a server restart: the next
/// call connects again.
public final class PostgresPhotoStore: PhotoStore {
  public let pool: PostgresPool
  /// The connection of the write transaction in progress, if any.
  private var transaction: PostgresConnection?
  private var photosChanged = false

  /// Connects to `url` with a pool of its own and brings the schema up to date.
  public convenience init(url: String, options: PostgresPool.Options = PostgresPool.Options()) throws {
    try self.init(pool: PostgresPool(url: url, options: options))
  }

  /// A store on a shared pool; the schema is checked once per pool.
  public init(pool: PostgresPool) throws {
    self.pool = pool
    try pool.once { try pool.withConnection { try PostgresSchema.migrate($0) } }
  }

  public var location: String { redactingPassword(pool.url) }

  // MARK: - Statements

  /// Runs one statement: inside the write transaction when there is one, otherwise on a
  /// pooled connection (once more on a fresh one if the server had dropped it).
  @discardableResult
  func query(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
    if let transaction { return try transaction.execute(sql, parameters) }
    return try pool.withConnection { try $0.execute(sql, parameters) }
  }

  /// Runs a statement that changes photo rows; the generation advances if it touched any.
  /// `prepared` for the statements a sync runs once a file.
  private func change(_ sql: String, _ parameters: [String?], prepared: Bool = false) throws -> [[String?]] {
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

  public func write<T>(_ body: () throws -> T) throws -> T {
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
          throw Interrupted(error: error)
        }
      }
    } catch let interrupted as Interrupted {
      throw interrupted.error
    }
  }

  // MARK: - Reading

  public func generation() throws -> Int64 {
    Int64(try query("SELECT value FROM index_state WHERE key = 'generation'").first?.first??.description ?? "0") ?? 0
  }

  public func counts() throws -> PhotoCounts {
    let row = try query("SELECT count(*), count(latitude), count(problem) FROM photos").first ?? []
    let n = row.map { $0.flatMap { Int($0) } ?? 0 }
    return PhotoCounts(photos: n[0], located: n[1], problems: n[2])
  }

  public func countsBySource() throws -> [(source: PhotoSource, photos: Int, located: Int)] {
    try query(
      "SELECT source, count(*), count(latitude) FROM photos GROUP BY source ORDER BY source COLLATE \"C\""
    ).map { r in (PhotoSource(rawValue: r[0] ?? ""), r[1].flatMap { Int($0) } ?? 0, r[2].flatMap { Int($0) } ?? 0) }
  }

  /// Whether any photo has a position: an index probe that stops at the first row, unlike
  /// `counts()`, which reads the whole table.
  public func hasLocatedPhotos() throws -> Bool {
    try query("SELECT EXISTS (SELECT 1 FROM photos WHERE geog IS NOT NULL)").first?.first == "t"
  }

  static let photoColumns = """
    id, source, source_id, path, latitude, longitude, altitude, taken_at, title, camera_make, camera_model,
    width, height, orientation, url, thumbnail_url, attribution, license, location_estimated, place_name,
    place_admin1, place_admin2, place_cc, place_distance
    """

  /// A photo from a row that starts with `photoColumns`.
  static func photo(from r: [String?]) -> Photo {
    var coordinate: Coordinate?
    if let lat = r[4].flatMap(Double.init), let lon = r[5].flatMap(Double.init) {
      coordinate = Coordinate(latitude: lat, longitude: lon)
    }
    var place: PlaceName?
    if let name = r[19] {
      place = PlaceName(
        name: name, admin1: r[20] ?? "", admin2: r[21] ?? "", countryCode: r[22] ?? "",
        distance: r[23].flatMap(Double.init) ?? 0)
    }
    return Photo(
      id: r[0].flatMap { Int64($0) } ?? 0, source: PhotoSource(rawValue: r[1] ?? ""), sourceID: r[2] ?? "",
      path: r[3], coordinate: coordinate, altitude: r[6].flatMap(Double.init),
      takenAt: r[7].flatMap(CaptureDate.init(iso8601:)), title: r[8] ?? "", cameraMake: r[9], cameraModel: r[10],
      width: r[11].flatMap { Int($0) }, height: r[12].flatMap { Int($0) }, orientation: r[13].flatMap { Int($0) },
      url: r[14], thumbnailURL: r[15], attribution: r[16], license: r[17], locationEstimated: r[18] == "t",
      place: place)
  }

  public func photo(id: Int64) throws -> Photo? {
    try photos(ids: [id]).first
  }

  public func photos(ids: [Int64]) throws -> [Photo] {
    guard !ids.isEmpty else { return [] }
    let rows = try query(
      "SELECT \(Self.photoColumns) FROM photos WHERE id = ANY($1::bigint[])", [Self.array(ids.map(String.init))])
    var byID: [Int64: Photo] = [:]
    for r in rows {
      let photo = Self.photo(from: r)
      byID[photo.id] = photo
    }
    return ids.compactMap { byID[$0] }
  }

  /// Read page by page (by id) inside one repeatable-read transaction, so the photos and the
  /// generation belong together however large the table.
  public func locatedPhotos() throws -> (generation: Int64, photos: [Photo]) {
    try pool.withConnection { connection in
      try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
      defer { _ = try? connection.execute("COMMIT") }
      let generation =
        Int64(
          try connection.execute("SELECT value FROM index_state WHERE key = 'generation'").first?.first??.description
            ?? "0") ?? 0
      var photos: [Photo] = []
      var last: Int64 = 0
      while true {
        let rows = try connection.execute(
          """
          SELECT \(Self.photoColumns) FROM photos WHERE latitude IS NOT NULL AND id > $1::bigint ORDER BY id LIMIT 20000
          """, [String(last)])
        guard !rows.isEmpty else { break }
        photos += rows.map(Self.photo(from:))
        last = photos[photos.count - 1].id
      }
      return (generation, photos)
    }
  }

  public func records(after id: Int64, limit: Int) throws -> [(id: Int64, record: PhotoRecord)] {
    try query(
      """
      SELECT \(Self.photoColumns), file_size, modified_ns, content_hash, problem, place_gazetteer FROM photos
      WHERE id > $1::bigint ORDER BY id LIMIT $2::int
      """, [String(id), String(limit)]
    ).map { r in
      let photo = Self.photo(from: r)
      var file: FileState?
      if let size = r[24].flatMap({ Int64($0) }), let modified = r[25].flatMap({ Int64($0) }), let hash = r[26] {
        file = FileState(size: size, changedNanoseconds: modified, contentHash: hash)
      }
      return (photo.id, PhotoRecord(photo: photo, file: file, problem: r[27], placedWith: r[28].flatMap { Int64($0) }))
    }
  }

  public func knownFiles(under root: String) throws -> [KnownFile] {
    let prefix = directoryPrefix(root)
    return try query(
      """
      SELECT id, source_id, file_size, modified_ns, content_hash FROM photos
      WHERE source = 'local' AND source_id >= $1 AND source_id < $2
      """, [prefix, pathRangeEnd(prefix)]
    ).map { r in
      KnownFile(
        id: r[0].flatMap { Int64($0) } ?? 0, path: r[1] ?? "",
        state: FileState(
          size: r[2].flatMap { Int64($0) } ?? 0, changedNanoseconds: r[3].flatMap { Int64($0) } ?? 0,
          contentHash: r[4] ?? ""))
    }
  }

  public func syncRoots() throws -> [(path: String, lastSynced: String)] {
    try query(
      """
      SELECT path, to_char(last_synced AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') FROM sync_roots
      ORDER BY path
      """
    ).map { ($0[0] ?? "", $0[1] ?? "") }
  }

  public func photosToGeotag(under root: String?) throws -> [Photo] {
    var sql = """
      SELECT \(Self.photoColumns) FROM photos
      WHERE source = 'local' AND (latitude IS NULL OR location_estimated) AND problem IS NULL
      """
    var parameters: [String?] = []
    if let root {
      let prefix = directoryPrefix(root)
      sql += " AND source_id >= $1 AND source_id < $2"
      parameters = [prefix, pathRangeEnd(prefix)]
    }
    // As SQLite orders: photos without a date first, then by date, then by id.
    return try query(sql + " ORDER BY taken_at COLLATE \"C\" NULLS FIRST, id", parameters).map(Self.photo(from:))
  }

  public func hasFetched(provider: PhotoSource, center: Coordinate, radius: Double, since: Int) throws -> Bool {
    try query(
      "SELECT latitude, longitude, radius FROM fetched_areas WHERE provider = $1 AND fetched_at >= $2::bigint",
      [provider.rawValue, String(since)]
    ).contains { r in
      guard let lat = r[0].flatMap(Double.init), let lon = r[1].flatMap(Double.init),
        let covered = r[2].flatMap(Double.init)
      else { return false }
      return circle(Coordinate(latitude: lat, longitude: lon), radius: covered, covers: center, radius: radius)
    }
  }

  // MARK: - Spatial queries

  /// Two index passes, because `ORDER BY geog <-> p, id` would make PostgreSQL sort the whole
  /// table: the GiST `<->` scan finds the distance of the `limit`-th nearest, then
  /// `ST_DWithin` fetches everything that close (a millimetre more, so rounding loses no
  /// tie) and the exact order, ties by id, is taken over those few rows.
  public func nearest(to c: Coordinate, limit: Int, maximumDistance: Double?, sources: Set<PhotoSource>?) throws
    -> [Neighbor]
  {
    guard limit > 0 else { return [] }
    let query = Self.nearestQuery(to: c, limit: limit, maximumDistance: maximumDistance, sources: sources)
    return try self.query(query.sql, query.parameters).compactMap { row in
      guard let id = row[0].flatMap({ Int64($0) }), let d = row[1].flatMap({ Double($0) }) else { return nil }
      return Neighbor(id: id, distance: d)
    }
  }

  static func nearestQuery(to c: Coordinate, limit: Int, maximumDistance: Double?, sources: Set<PhotoSource>? = nil)
    -> (sql: String, parameters: [String?])
  {
    let point = "ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326)::geography"
    var parameters: [String?] = [String(c.latitude), String(c.longitude), String(limit)]
    var filter = ""
    if let sources {
      parameters.append(array(sources.map(\.rawValue)))
      filter += " AND source = ANY($\(parameters.count)::text[])"
    }
    if let r = maximumDistance {
      parameters.append(String(r))
      filter += " AND ST_DWithin(geog, \(point), $\(parameters.count)::float8, false)"
    }
    let sql = """
      WITH knn AS MATERIALIZED (
        SELECT geog <-> \(point) AS d FROM photos WHERE geog IS NOT NULL\(filter) ORDER BY geog <-> \(point) LIMIT $3::int)
      SELECT id, ST_Distance(geog, \(point), false) AS d FROM photos
      WHERE ST_DWithin(geog, \(point), (SELECT max(d) FROM knn) + 0.001, false)\(filter)
      ORDER BY d, id LIMIT $3::int
      """
    return (sql, parameters)
  }

  /// Only the photos near the route, found through the GiST index (a metre and a thousandth
  /// wider than asked, so the caller's exact test decides every edge case).
  public func spatialIndex(along route: [Coordinate], within distance: Double, sources: Set<PhotoSource>?) throws
    -> SpatialIndex
  {
    guard !route.isEmpty else { return SpatialIndex(points: []) }
    let points = route.map { "\($0.longitude) \($0.latitude)" }
    let shape = points.count == 1 ? "POINT(\(points[0]))" : "LINESTRING(\(points.joined(separator: ",")))"
    var sql =
      "SELECT id, latitude, longitude FROM photos WHERE ST_DWithin(geog, ST_GeogFromText($1), $2::float8, false)"
    var parameters: [String?] = [shape, String(distance * 1.001 + 1)]
    if let sources {
      parameters.append(Self.array(sources.map(\.rawValue)))
      sql += " AND source = ANY($3::text[])"
    }
    return SpatialIndex(
      points: try query(sql, parameters).compactMap { r in
        guard let id = r[0].flatMap({ Int64($0) }), let lat = r[1].flatMap(Double.init),
          let lon = r[2].flatMap(Double.init)
        else { return nil }
        return (id, Coordinate(latitude: lat, longitude: lon))
      })
  }

  public func refreshDerivedIndexes() throws {}

  // MARK: - Writing

  /// A PostgreSQL array literal of `values`, quoted.
  static func array(_ values: [String]) -> String {
    "{"
      + values.map {
        "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
      }
      .joined(separator: ",") + "}"
  }

  /// The geography of the position in parameters `lat` and `lon`, or NULL.
  private static func geography(_ lat: Int, _ lon: Int) -> String {
    "CASE WHEN $\(lat)::float8 IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint($\(lon)::float8, $\(lat)::float8), 4326)::geography END"
  }

  /// The 22 parameters of a sync's row, in the order of `upsertSQL` and `updateSQL`.
  private static func parameters(_ record: PhotoRecord, now: String) -> [String?] {
    let p = record.photo
    return [
      p.source.rawValue, p.sourceID, p.path, p.coordinate.map { String($0.latitude) },
      p.coordinate.map { String($0.longitude) }, p.altitude.map { String($0) }, p.takenAt?.iso8601, p.title,
      p.cameraMake, p.cameraModel, p.width.map(String.init), p.height.map(String.init),
      p.orientation.map(String.init), record.file.map { String($0.size) },
      record.file.map { String($0.changedNanoseconds) }, record.file?.contentHash, record.problem, now, p.url,
      p.thumbnailURL, p.attribution, p.license,
    ]
  }

  /// Insert or update `rows` photos by key; an estimated position survives an update that
  /// brings none, and a moved position is placed again. Returns each row's id, whether it is
  /// new, and its key.
  static func upsertSQL(rows: Int) -> String {
    let tuples = (0..<rows).map { row -> String in
      let b = row * 22
      return """
        ($\(b + 1), $\(b + 2), $\(b + 3), $\(b + 4)::float8, $\(b + 5)::float8, \(geography(b + 4, b + 5)), \
        $\(b + 6)::float8, $\(b + 7), $\(b + 8), $\(b + 9), $\(b + 10), $\(b + 11)::int, $\(b + 12)::int, \
        $\(b + 13)::int, $\(b + 14)::bigint, $\(b + 15)::bigint, $\(b + 16), $\(b + 17), $\(b + 18)::timestamptz, \
        $\(b + 18)::timestamptz, $\(b + 19), $\(b + 20), $\(b + 21), $\(b + 22))
        """
    }
    return """
      INSERT INTO photos AS p (source, source_id, path, latitude, longitude, geog, altitude, taken_at, title,
        camera_make, camera_model, width, height, orientation, file_size, modified_ns, content_hash, problem, first_seen,
        updated, url, thumbnail_url, attribution, license)
      VALUES \(tuples.joined(separator: ",\n"))
      ON CONFLICT (source, source_id) DO UPDATE SET
        path = excluded.path,
        latitude = CASE WHEN excluded.latitude IS NULL AND p.location_estimated THEN p.latitude ELSE excluded.latitude END,
        longitude = CASE WHEN excluded.latitude IS NULL AND p.location_estimated THEN p.longitude
          ELSE excluded.longitude END,
        geog = CASE WHEN excluded.latitude IS NULL AND p.location_estimated THEN p.geog ELSE excluded.geog END,
        location_estimated = excluded.latitude IS NULL AND p.location_estimated,
        place_gazetteer = CASE WHEN excluded.latitude IS NOT DISTINCT FROM p.latitude
          AND excluded.longitude IS NOT DISTINCT FROM p.longitude THEN p.place_gazetteer END,
        altitude = excluded.altitude, taken_at = excluded.taken_at, title = excluded.title,
        camera_make = excluded.camera_make, camera_model = excluded.camera_model, width = excluded.width,
        height = excluded.height, orientation = excluded.orientation, file_size = excluded.file_size,
        modified_ns = excluded.modified_ns, content_hash = excluded.content_hash, problem = excluded.problem,
        updated = excluded.updated, url = excluded.url, thumbnail_url = excluded.thumbnail_url,
        attribution = excluded.attribution, license = excluded.license
      RETURNING id, xmax = 0, source, source_id
      """
  }

  private static let singleUpsertSQL = upsertSQL(rows: 1)

  @discardableResult
  public func upsert(_ record: PhotoRecord, now: String) throws -> Upserted {
    let row = try change(Self.singleUpsertSQL, Self.parameters(record, now: now), prepared: true).first ?? []
    guard row.count == 4, let id = row[0].flatMap({ Int64($0) }) else {
      throw PostgresError("the upsert of \(record.photo.sourceID) returned no id")
    }
    return Upserted(id: id, inserted: row[1] == "t")
  }

  /// Rows per multi-row upsert: 22 parameters each.
  static let upsertRowsPerStatement = 500

  /// Many photos a statement: a sync's new files arrive by the thousand, and one round trip
  /// each would dominate. A photo listed twice is written once, as its last version.
  public func upsert(_ records: [PhotoRecord], now: String) throws -> [Upserted] {
    // In key order: two writers meeting on the same photos lock them in the same order, and
    // one waits for the other instead of deadlocking.
    let listings = Self.lastListings(records).sorted { a, b in
      (a.photo.source.rawValue, a.photo.sourceID) < (b.photo.source.rawValue, b.photo.sourceID)
    }
    var results: [Key: Upserted] = [:]
    for start in stride(from: 0, to: listings.count, by: Self.upsertRowsPerStatement) {
      let chunk = listings[start..<min(listings.count, start + Self.upsertRowsPerStatement)]
      var parameters: [String?] = []
      parameters.reserveCapacity(chunk.count * 22)
      for record in chunk { parameters += Self.parameters(record, now: now) }
      for row in try change(Self.upsertSQL(rows: chunk.count), parameters, prepared: true) {
        guard row.count == 4, let id = row[0].flatMap({ Int64($0) }), let key = Key(row[2], row[3]) else { continue }
        results[key] = Upserted(id: id, inserted: row[1] == "t")
      }
    }
    // As if written one after another: a photo's later listings update what the first wrote.
    var seen = Set<Key>()
    return try records.map { r in
      let key = Key(r.photo)
      guard var result = results[key] else { throw PostgresError("the upsert of \(r.photo.sourceID) returned no id") }
      if !seen.insert(key).inserted { result.inserted = false }
      return result
    }
  }

  /// A photo's key in the table: (source, source id).
  private struct Key: Hashable {
    var source: String
    var sourceID: String

    init(_ photo: Photo) {
      source = photo.source.rawValue
      sourceID = photo.sourceID
    }

    /// The key of a RETURNING row's source and source id columns.
    init?(_ source: String?, _ sourceID: String?) {
      guard let source, let sourceID else { return nil }
      self.source = source
      self.sourceID = sourceID
    }
  }

  /// Each photo once, as its last listing, in the order photos first appear: one INSERT
  /// cannot touch a row twice.
  private static func lastListings(_ records: [PhotoRecord]) -> [PhotoRecord] {
    var position: [Key: Int] = [:]
    var listings: [PhotoRecord] = []
    for r in records {
      if let i = position[Key(r.photo)] {
        listings[i] = r
      } else {
        position[Key(r.photo)] = listings.count
        listings.append(r)
      }
    }
    return listings
  }

  public func update(id: Int64, with record: PhotoRecord, now: String) throws {
    _ = try change(
      """
      UPDATE photos AS p SET source = $1, source_id = $2, path = $3,
        latitude = CASE WHEN $4::float8 IS NULL AND p.location_estimated THEN p.latitude ELSE $4::float8 END,
        longitude = CASE WHEN $4::float8 IS NULL AND p.location_estimated THEN p.longitude ELSE $5::float8 END,
        geog = CASE WHEN $4::float8 IS NULL AND p.location_estimated THEN p.geog ELSE \(Self.geography(4, 5)) END,
        location_estimated = $4::float8 IS NULL AND p.location_estimated,
        place_gazetteer = CASE WHEN $4::float8 IS NOT DISTINCT FROM p.latitude
          AND $5::float8 IS NOT DISTINCT FROM p.longitude THEN p.place_gazetteer END,
        altitude = $6::float8, taken_at = $7, title = $8, camera_make = $9, camera_model = $10, width = $11::int,
        height = $12::int, orientation = $13::int, file_size = $14::bigint, modified_ns = $15::bigint,
        content_hash = $16, problem = $17, updated = $18::timestamptz, url = $19, thumbnail_url = $20,
        attribution = $21, license = $22
      WHERE id = $23::bigint
      """, Self.parameters(record, now: now) + [String(id)], prepared: true)
  }

  public func delete(id: Int64) throws {
    _ = try change("DELETE FROM photos WHERE id = $1::bigint", [String(id)], prepared: true)
  }

  public func forgetLocalPhotos(under root: String) throws -> Int {
    let prefix = directoryPrefix(root)
    _ = try change(
      "DELETE FROM photos WHERE source = 'local' AND source_id >= $1 AND source_id < $2",
      [prefix, pathRangeEnd(prefix)])
    let removed = transaction?.affectedRows ?? 0
    try query(
      "DELETE FROM sync_roots WHERE path = $1 OR (path >= $2 AND path < $3)",
      [root, prefix, pathRangeEnd(prefix)])
    return removed
  }

  public func setEstimatedLocation(id: Int64, _ c: Coordinate, now: String) throws {
    _ = try change(
      """
      UPDATE photos SET latitude = $1::float8, longitude = $2::float8, geog = \(Self.geography(1, 2)),
        location_estimated = true, place_gazetteer = NULL, updated = $3::timestamptz
      WHERE id = $4::bigint AND (latitude IS NULL OR location_estimated)
      """, [String(c.latitude), String(c.longitude), now, String(id)], prepared: true)
  }

  public func recordSyncRoot(_ path: String, now: String) throws {
    try query(
      """
      INSERT INTO sync_roots (path, last_synced) VALUES ($1, $2::timestamptz)
      ON CONFLICT (path) DO UPDATE SET last_synced = excluded.last_synced
      """, [path, now])
  }

  public func recordFetchedArea(provider: PhotoSource, center: Coordinate, radius: Double, photos: Int, at time: Int)
    throws
  {
    try query(
      """
      INSERT INTO fetched_areas (provider, latitude, longitude, radius, fetched_at, photos)
      VALUES ($1, $2::float8, $3::float8, $4::float8, $5::bigint, $6::int)
      """,
      [
        provider.rawValue, String(center.latitude), String(center.longitude), String(radius), String(time),
        String(photos),
      ])
  }

  public func hasPhotosToPlace(gazetteer identity: Int64) throws -> Bool {
    try query(
      """
      SELECT EXISTS (SELECT 1 FROM photos WHERE latitude IS NOT NULL
        AND (place_gazetteer IS NULL OR place_gazetteer != $1::bigint))
      """, [String(identity)]
    ).first?.first == "t"
  }

  /// Places are written 1,000 photos a statement.
  public func assignPlaces(gazetteer identity: Int64, _ lookup: (Coordinate) -> PlaceName?) throws -> Int {
    let pending: [(String, PlaceName?)] = try query(
      """
      SELECT id, latitude, longitude FROM photos
      WHERE latitude IS NOT NULL AND (place_gazetteer IS NULL OR place_gazetteer != $1::bigint)
      """, [String(identity)]
    ).compactMap { r in
      guard let id = r[0], let lat = r[1].flatMap(Double.init), let lon = r[2].flatMap(Double.init) else { return nil }
      return (id, lookup(Coordinate(latitude: lat, longitude: lon)))
    }
    guard !pending.isEmpty else { return 0 }
    try write {
      for start in stride(from: 0, to: pending.count, by: Self.rowsPerStatement) {
        var tuples: [String] = []
        var parameters: [String?] = [String(identity)]
        for (id, p) in pending[start..<min(pending.count, start + Self.rowsPerStatement)] {
          let n = parameters.count
          tuples.append("($\(n + 1)::bigint,$\(n + 2),$\(n + 3),$\(n + 4),$\(n + 5),$\(n + 6)::float8)")
          parameters += [id, p?.name, p?.admin1, p?.admin2, p?.countryCode, p.map { String($0.distance) }]
        }
        _ = try change(
          """
          UPDATE photos AS p SET place_name = v.name, place_admin1 = v.admin1, place_admin2 = v.admin2,
            place_cc = v.cc, place_distance = v.distance, place_gazetteer = $1::bigint
          FROM (VALUES \(tuples.joined(separator: ","))) AS v(id, name, admin1, admin2, cc, distance)
          WHERE p.id = v.id
          """, parameters)
      }
    }
    return pending.count
  }

  // MARK: - Copying an index in

  /// Writes rows as they are, place names and estimates included (a copy from another
  /// index, not a sync), in one transaction; returns their ids in order.
  ///
  /// Rows go in multi-row statements of up to `rowsPerStatement` (one round trip each rather
  /// than one a photo); a photo listed twice is written once, as its last version.
  @discardableResult
  public func copy(_ records: [PhotoRecord]) throws -> [Int64] {
    let listings = Self.lastListings(records)
    return try write {
      var ids: [Key: Int64] = [:]
      for start in stride(from: 0, to: listings.count, by: Self.rowsPerStatement) {
        var tuples: [String] = []
        var parameters: [String?] = []
        for r in listings[start..<min(listings.count, start + Self.rowsPerStatement)] {
          let p = r.photo
          let base = parameters.count
          tuples.append(
            "("
              + Self.upsertColumnTypes.enumerated().map { "$\(base + $0.offset + 1)::\($0.element)" }
              .joined(separator: ",") + ")")
          parameters += [
            p.source.rawValue, p.sourceID, p.path, p.coordinate.map { String($0.latitude) },
            p.coordinate.map { String($0.longitude) }, p.takenAt?.iso8601, p.title, p.url, p.thumbnailURL,
            p.attribution, p.altitude.map { String($0) }, p.cameraMake, p.cameraModel, p.width.map(String.init),
            p.height.map(String.init), p.orientation.map(String.init), p.license,
            p.locationEstimated ? "true" : "false",
            p.place?.name, p.place?.admin1, p.place?.admin2, p.place?.countryCode, p.place.map { String($0.distance) },
            r.file.map { String($0.size) }, r.file.map { String($0.changedNanoseconds) }, r.file?.contentHash,
            r.problem, r.placedWith.map { String($0) },
          ]
        }
        let rows = try change(
          """
          INSERT INTO photos (source, source_id, path, latitude, longitude, geog, taken_at, title, url, thumbnail_url,
            attribution, altitude, camera_make, camera_model, width, height, orientation, license, location_estimated,
            place_name, place_admin1, place_admin2, place_cc, place_distance, file_size, modified_ns, content_hash,
            problem, place_gazetteer)
          SELECT source, source_id, path, latitude, longitude,
            CASE WHEN latitude IS NULL THEN NULL
              ELSE ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography END,
            taken_at, title, url, thumbnail_url, attribution, altitude, camera_make, camera_model, width, height,
            orientation, license, location_estimated, place_name, place_admin1, place_admin2, place_cc, place_distance,
            file_size, modified_ns, content_hash, problem, place_gazetteer
          FROM (VALUES \(tuples.joined(separator: ","))) AS v(source, source_id, path, latitude, longitude, taken_at,
            title, url, thumbnail_url, attribution, altitude, camera_make, camera_model, width, height, orientation,
            license, location_estimated, place_name, place_admin1, place_admin2, place_cc, place_distance, file_size,
            modified_ns, content_hash, problem, place_gazetteer)
          ON CONFLICT (source, source_id) DO UPDATE SET path = excluded.path, latitude = excluded.latitude,
            longitude = excluded.longitude, geog = excluded.geog, taken_at = excluded.taken_at, title = excluded.title,
            url = excluded.url, thumbnail_url = excluded.thumbnail_url, attribution = excluded.attribution,
            altitude = excluded.altitude, camera_make = excluded.camera_make, camera_model = excluded.camera_model,
            width = excluded.width, height = excluded.height, orientation = excluded.orientation,
            license = excluded.license, location_estimated = excluded.location_estimated,
            place_name = excluded.place_name, place_admin1 = excluded.place_admin1,
            place_admin2 = excluded.place_admin2, place_cc = excluded.place_cc,
            place_distance = excluded.place_distance, file_size = excluded.file_size,
            modified_ns = excluded.modified_ns, content_hash = excluded.content_hash, problem = excluded.problem,
            place_gazetteer = excluded.place_gazetteer, updated = now()
          RETURNING id, source, source_id
          """, parameters)
        for row in rows {
          guard let id = row[0].flatMap({ Int64($0) }), let key = Key(row[1], row[2]) else { continue }
          ids[key] = id
        }
      }
      return records.map { ids[Key($0.photo)] ?? 0 }
    }
  }

  /// Photos without file state, copied as they are.
  @discardableResult
  public func copy(_ photos: [Photo]) throws -> [Int64] {
    try copy(photos.map { PhotoRecord(photo: $0) })
  }

  /// Rows per INSERT: 28 parameters each stay well under PostgreSQL's 65,535.
  static let rowsPerStatement = 1_000

  /// The SQL types of the copy's VALUES columns, in order.
  static let upsertColumnTypes = [
    "text", "text", "text", "float8", "float8", "text", "text", "text", "text", "text", "float8", "text", "text", "int",
    "int", "int", "text", "boolean", "text", "text", "text", "text", "float8", "bigint", "bigint", "text", "text",
    "bigint",
  ]
}

@available(*, unavailable)
extension PostgresPhotoStore: Sendable {}
