import Foundation
public import GeoPhotoCore

/// The photo index in PostgreSQL with PostGIS, for deployments that outgrow one machine.
///
/// Photos live in a table with a `geography(Point, 4326)` column under a GiST index. The k
/// nearest come from the index-assisted `<->` ordering (spherical distance on geography),
/// a radius from `ST_DWithin`; ties are broken by id, so answers match the SQLite index's.
/// Upserts are keyed by (source, source id), and every change advances a generation counter,
/// as in the SQLite store.
public final class PostgresPhotoStore {
  public let connection: PostgresConnection

  static let migrations: [(name: String, sql: String)] = [
    (
      "photos",
      """
      CREATE TABLE photos (
        id BIGSERIAL PRIMARY KEY,
        source TEXT NOT NULL,
        source_id TEXT NOT NULL,
        path TEXT,
        latitude DOUBLE PRECISION,
        longitude DOUBLE PRECISION,
        geog geography(Point, 4326),
        taken_at TEXT,
        title TEXT NOT NULL,
        url TEXT,
        thumbnail_url TEXT,
        attribution TEXT,
        updated TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (source, source_id),
        CHECK ((latitude IS NULL) = (longitude IS NULL))
      );
      CREATE INDEX photos_geog ON photos USING gist (geog);
      CREATE TABLE index_state (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
      INSERT INTO index_state VALUES ('generation', 1);
      """
    ),
    (
      "photo details",
      """
      ALTER TABLE photos ADD COLUMN altitude DOUBLE PRECISION, ADD COLUMN camera_make TEXT, ADD COLUMN camera_model TEXT,
        ADD COLUMN width INT, ADD COLUMN height INT, ADD COLUMN orientation INT, ADD COLUMN license TEXT,
        ADD COLUMN location_estimated BOOLEAN NOT NULL DEFAULT false, ADD COLUMN place_name TEXT,
        ADD COLUMN place_admin1 TEXT, ADD COLUMN place_admin2 TEXT, ADD COLUMN place_cc TEXT,
        ADD COLUMN place_distance DOUBLE PRECISION;
      """
    ),
  ]

  /// Connects and brings the schema up to date (creating PostGIS when allowed).
  public init(url: String) throws(PostgresError) {
    connection = try PostgresConnection(url: url)
    try migrate()
  }

  func migrate() throws(PostgresError) {
    // One migrator at a time, whichever process gets there first.
    try connection.execute("SELECT pg_advisory_lock(7420001)")
    defer { _ = try? connection.execute("SELECT pg_advisory_unlock(7420001)") }
    do {
      if try connection.execute("SELECT 1 FROM pg_extension WHERE extname = 'postgis'").isEmpty {
        try connection.execute("CREATE EXTENSION IF NOT EXISTS postgis WITH SCHEMA public")
      }
    } catch {
      throw PostgresError(
        sqlState: error.sqlState,
        "PostGIS is not available in \(redactingPassword(connection.url)): install it (Debian: postgresql-15-postgis-3) "
          + "and run 'CREATE EXTENSION postgis;' as a superuser (\(error.message.split(separator: "\n").first ?? ""))")
    }
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS geophoto_migrations (version INT PRIMARY KEY, name TEXT NOT NULL)")
    let applied =
      Int(
        try connection.execute("SELECT coalesce(max(version), 0) FROM geophoto_migrations").first?.first??.description
          ?? "0") ?? 0
    guard applied <= Self.migrations.count else {
      throw PostgresError(
        "the database schema (version \(applied)) is newer than this geophoto knows; upgrade geophoto")
    }
    for (offset, migration) in Self.migrations.enumerated().dropFirst(applied) {
      do {
        try connection.transaction {
          try connection.execute(migration.sql)
          try connection.execute(
            "INSERT INTO geophoto_migrations VALUES ($1, $2)", [String(offset + 1), migration.name])
        }
      } catch let error as PostgresError {
        throw error
      } catch {
        throw PostgresError("migration '\(migration.name)' failed: \(error)")
      }
    }
  }

  public func generation() throws(PostgresError) -> Int64 {
    Int64(
      try connection.execute("SELECT value FROM index_state WHERE key = 'generation'").first?.first??.description ?? "0"
    )
      ?? 0
  }

  /// Inserts or updates photos in one transaction (keyed by source and source id) and
  /// advances the generation; returns their ids in order.
  ///
  /// Rows go in multi-row statements of up to `rowsPerStatement` (one round trip each rather
  /// than one a photo); a photo listed twice is written once, as its last version.
  @discardableResult
  public func upsert(_ photos: [Photo]) throws -> [Int64] {
    struct Key: Hashable {
      var source: String
      var sourceID: String
    }
    var latest: [Key: Photo] = [:]
    var order: [Key] = []
    for p in photos {
      let key = Key(source: p.source.rawValue, sourceID: p.sourceID)
      if latest.updateValue(p, forKey: key) == nil { order.append(key) }
    }
    return try connection.transaction {
      var ids: [Key: Int64] = [:]
      var start = 0
      while start < order.count {
        let chunk = order[start..<min(order.count, start + Self.rowsPerStatement)]
        start = chunk.endIndex
        var tuples: [String] = []
        var parameters: [String?] = []
        for key in chunk {
          guard let p = latest[key] else { continue }
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
          ]
        }
        let rows = try connection.execute(
          """
          INSERT INTO photos (source, source_id, path, latitude, longitude, geog, taken_at, title, url, thumbnail_url,
            attribution, altitude, camera_make, camera_model, width, height, orientation, license, location_estimated,
            place_name, place_admin1, place_admin2, place_cc, place_distance)
          SELECT source, source_id, path, latitude, longitude,
            CASE WHEN latitude IS NULL THEN NULL
              ELSE ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography END,
            taken_at, title, url, thumbnail_url, attribution, altitude, camera_make, camera_model, width, height,
            orientation, license, location_estimated, place_name, place_admin1, place_admin2, place_cc, place_distance
          FROM (VALUES \(tuples.joined(separator: ","))) AS v(source, source_id, path, latitude, longitude, taken_at,
            title, url, thumbnail_url, attribution, altitude, camera_make, camera_model, width, height, orientation,
            license, location_estimated, place_name, place_admin1, place_admin2, place_cc, place_distance)
          ON CONFLICT (source, source_id) DO UPDATE SET path = excluded.path, latitude = excluded.latitude,
            longitude = excluded.longitude, geog = excluded.geog, taken_at = excluded.taken_at, title = excluded.title,
            url = excluded.url, thumbnail_url = excluded.thumbnail_url, attribution = excluded.attribution,
            altitude = excluded.altitude, camera_make = excluded.camera_make, camera_model = excluded.camera_model,
            width = excluded.width, height = excluded.height, orientation = excluded.orientation,
            license = excluded.license, location_estimated = excluded.location_estimated,
            place_name = excluded.place_name, place_admin1 = excluded.place_admin1,
            place_admin2 = excluded.place_admin2, place_cc = excluded.place_cc,
            place_distance = excluded.place_distance, updated = now()
          RETURNING id, source, source_id
          """, parameters)
        for row in rows {
          guard let id = row[0].flatMap({ Int64($0) }), let source = row[1], let sourceID = row[2] else { continue }
          ids[Key(source: source, sourceID: sourceID)] = id
        }
      }
      try connection.execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'")
      return photos.map { ids[Key(source: $0.source.rawValue, sourceID: $0.sourceID)] ?? 0 }
    }
  }

  /// Rows per INSERT: 23 parameters each stay well under PostgreSQL's 65,535.
  static let rowsPerStatement = 1_000

  /// The SQL types of the upsert's VALUES columns, in order.
  static let upsertColumnTypes = [
    "text", "text", "text", "float8", "float8", "text", "text", "text", "text", "text", "float8", "text", "text", "int",
    "int", "int", "text", "boolean", "text", "text", "text", "text", "float8",
  ]

  /// The `limit` nearest photos, nearest first, ties by id; only within `maximumDistance`
  /// metres when given. Distances are PostGIS's spherical ones.
  ///
  /// Two index passes, because `ORDER BY geog <-> p, id` would make PostgreSQL sort the whole
  /// table: the GiST `<->` scan finds the distance of the `limit`-th nearest, then
  /// `ST_DWithin` fetches everything that close (a millimetre more, so rounding loses no
  /// tie) and the exact order, ties by id, is taken over those few rows.
  public func nearest(to c: Coordinate, limit: Int, maximumDistance: Double? = nil) throws(PostgresError) -> [Neighbor]
  {
    let query = Self.nearestQuery(to: c, limit: limit, maximumDistance: maximumDistance)
    return try connection.execute(query.sql, query.parameters).compactMap { row in
      guard let id = row[0].flatMap({ Int64($0) }), let d = row[1].flatMap({ Double($0) }) else { return nil }
      return Neighbor(id: id, distance: d)
    }
  }

  static func nearestQuery(to c: Coordinate, limit: Int, maximumDistance: Double?) -> (
    sql: String, parameters: [String?]
  ) {
    let point = "ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326)::geography"
    var sql = """
      WITH knn AS MATERIALIZED (
        SELECT geog <-> \(point) AS d FROM photos WHERE geog IS NOT NULL ORDER BY geog <-> \(point) LIMIT $3::int)
      SELECT id, ST_Distance(geog, \(point), false) AS d FROM photos
      WHERE ST_DWithin(geog, \(point), (SELECT max(d) FROM knn) + 0.001, false)
      """
    var parameters: [String?] = [String(c.latitude), String(c.longitude), String(limit)]
    if let r = maximumDistance {
      sql += " AND ST_DWithin(geog, \(point), $4::float8, false)"
      parameters.append(String(r))
    }
    sql += " ORDER BY d, id LIMIT $3::int"
    return (sql, parameters)
  }

  /// Photos for the given ids, in the order of `ids`; ids that no longer exist are skipped.
  public func photos(ids: [Int64]) throws(PostgresError) -> [Photo] {
    guard !ids.isEmpty else { return [] }
    let rows = try connection.execute(
      """
      SELECT id, source, source_id, path, latitude, longitude, altitude, taken_at, title, camera_make, camera_model,
        width, height, orientation, url, thumbnail_url, attribution, license, location_estimated, place_name,
        place_admin1, place_admin2, place_cc, place_distance
      FROM photos WHERE id = ANY($1::bigint[])
      """, ["{" + ids.map(String.init).joined(separator: ",") + "}"])
    var byID: [Int64: Photo] = [:]
    for r in rows {
      guard let id = r[0].flatMap({ Int64($0) }) else { continue }
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
      byID[id] = Photo(
        id: id, source: PhotoSource(rawValue: r[1] ?? ""), sourceID: r[2] ?? "", path: r[3], coordinate: coordinate,
        altitude: r[6].flatMap(Double.init), takenAt: r[7].flatMap(CaptureDate.init(iso8601:)), title: r[8] ?? "",
        cameraMake: r[9], cameraModel: r[10], width: r[11].flatMap { Int($0) }, height: r[12].flatMap { Int($0) },
        orientation: r[13].flatMap { Int($0) }, url: r[14], thumbnailURL: r[15], attribution: r[16], license: r[17],
        locationEstimated: r[18] == "t", place: place)
    }
    return ids.compactMap { byID[$0] }
  }

  /// Photos per source, for checking a migration.
  public func countsBySource() throws(PostgresError) -> [String: Int] {
    var counts: [String: Int] = [:]
    for r in try connection.execute("SELECT source, count(*) FROM photos GROUP BY source") {
      counts[r[0] ?? ""] = r[1].flatMap { Int($0) } ?? 0
    }
    return counts
  }

  /// Whether any photo has a position: an index probe that stops at the first row, unlike
  /// `count()`, which reads the whole table.
  public func hasLocatedPhotos() throws(PostgresError) -> Bool {
    try connection.execute("SELECT EXISTS (SELECT 1 FROM photos WHERE geog IS NOT NULL)").first?.first == "t"
  }

  public func count() throws(PostgresError) -> Int {
    Int(try connection.execute("SELECT count(*) FROM photos").first?.first??.description ?? "0") ?? 0
  }
}

@available(*, unavailable)
extension PostgresPhotoStore: Sendable {}
