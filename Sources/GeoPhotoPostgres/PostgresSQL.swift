import GeoPhotoCore
import GeoPhotoStore

/// The SQL of the PostgreSQL store, in one place: column types for parameter casts, the
/// multi-row upsert, the update, the copy and the nearest-neighbour query.
enum PostgresSQL {
  /// The SQL type of a column, for `$n::type` casts.
  static func type(_ c: PhotoColumn) -> String {
    switch c {
    case .id, .fileSize, .changedNanoseconds, .placeGazetteer, .takenUTC, .takenLocal, .placePopulation,
      .placeGeonameID:
      return "bigint"
    case .latitude, .longitude, .altitude, .placeDistance, .duration: return "float8"
    case .width, .height, .orientation: return "int"
    case .locationEstimated, .placeIsCountry: return "boolean"
    case .source, .sourceID, .takenAt, .title, .cameraMake, .cameraModel, .url, .thumbnailURL, .attribution,
      .license, .placeName, .placeAdmin1, .placeAdmin2, .placeCountryCode, .contentHash, .problem, .mediaType,
      .contentID, .description, .keywords, .searchText, .placeText, .placeTimeZone, .offsetSource, .timeZone,
      .offsetAmbiguity, .estimateSource:
      return "text"
    }
  }

  /// Parameters per written row: `PhotoWrite.columns`, then the time.
  static let writeWidth = PhotoWrite.columns.count + 1

  /// `$n::type` of column `c` in the row whose parameters start after `base`.
  static func parameter(_ c: PhotoColumn, base: Int = 0) -> String {
    "$\(base + (PhotoWrite.columns.firstIndex(of: c) ?? 0) + 1)::\(type(c))"
  }

  static func timeParameter(base: Int = 0) -> String { "$\(base + writeWidth)::timestamptz" }

  /// Insert or update `rows` photos by key (`PhotoWrite`'s rules); returns each row's id,
  /// whether it is new, and its key.
  static func upsert(rows: Int) -> String {
    let tuples = (0..<rows).map { row -> String in
      let base = row * writeWidth
      let values = PhotoWrite.columns.map { parameter($0, base: base) }
      return "(" + (values + [timeParameter(base: base), timeParameter(base: base)]).joined(separator: ", ") + ")"
    }
    return """
      INSERT INTO photos AS p (\(PhotoWrite.columns.map(\.name).joined(separator: ", ")), updated, first_seen)
      VALUES \(tuples.joined(separator: ",\n"))
      ON CONFLICT (source, source_id) DO UPDATE SET
        \(PhotoWrite.assignments(new: { "excluded.\($0.name)" }, old: { "p.\($0.name)" }).joined(separator: ",\n  ")),
        updated = excluded.updated
      RETURNING id, xmax = 0, source, source_id
      """
  }

  static let singleUpsert = upsert(rows: 1)

  /// Rewrites row `$23` with a record (`PhotoWrite`'s rules), keeping its id and first-seen time.
  static let update = """
    UPDATE photos AS p SET
      \(PhotoWrite.assignments(new: { parameter($0) }, old: { "p.\($0.name)" }).joined(separator: ",\n  ")),
      updated = \(timeParameter())
    WHERE id = $\(writeWidth + 1)::bigint
    """

  /// Rows as they are (a copy of another index): every column but the id.
  static func copy(rows: Int) -> String {
    let columns = PhotoWrite.everyColumn
    let tuples = (0..<rows).map { row -> String in
      let base = row * columns.count
      return "(" + columns.enumerated().map { "$\(base + $0.offset + 1)::\(type($0.element))" }.joined(separator: ",")
        + ")"
    }
    return """
      INSERT INTO photos (\(columns.map(\.name).joined(separator: ", ")))
      VALUES \(tuples.joined(separator: ","))
      ON CONFLICT (source, source_id) DO UPDATE SET
        \(columns.map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", ")), updated = now()
      RETURNING id, source, source_id
      """
  }

  /// A PostgreSQL array literal of `values`, quoted.
  static func array(_ values: [String]) -> StoreValue {
    .text(
      "{"
        + values.map { "\"" + $0.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"" }
        .joined(separator: ",") + "}")
  }

  /// `FilterSQL.time` with its values appended to `parameters` as `$n::bigint`.
  static func timeCondition(_ range: TimeRange, _ parameters: inout [StoreValue]) -> String {
    FilterSQL.time(range) { value in
      parameters.append(.integer(value))
      return "$\(parameters.count)::bigint"
    }
  }

  /// `FilterSQL.camera` with its value appended to `parameters`.
  static func cameraCondition(_ text: String, _ parameters: inout [StoreValue]) -> String {
    FilterSQL.camera(text) { value in
      parameters.append(.text(value))
      return "$\(parameters.count)"
    }
  }

  /// A photo's searched text as the trigram index `photos_text` covers it.
  static let searchedText = "(search_text || chr(10) || place_text)"

  /// The condition a text filter puts on a photo: its searched text holds every needle
  /// (`TextQuery`), a `LIKE` the `pg_trgm` index answers; the values are appended to
  /// `parameters`.
  static func textCondition(_ text: TextQuery, _ parameters: inout [StoreValue]) -> String {
    text.needles.map { needle in
      let escaped = needle.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
      parameters.append(.text("%" + escaped + "%"))
      return "\(searchedText) LIKE $\(parameters.count)"
    }.joined(separator: " AND ")
  }

  /// Every condition of `filter` (sources, time, camera, text), each after ` AND `.
  static func conditions(_ filter: PhotoFilter, _ parameters: inout [StoreValue]) -> String {
    var sql = ""
    if let sources = filter.sources {
      parameters.append(array(sources.map(\.rawValue)))
      sql += " AND source = ANY($\(parameters.count)::text[])"
    }
    if let time = filter.time { sql += " AND " + timeCondition(time, &parameters) }
    if let camera = filter.camera { sql += " AND " + cameraCondition(camera, &parameters) }
    if let text = filter.text { sql += " AND " + textCondition(text, &parameters) }
    if let place = filter.place {
      sql +=
        " AND "
        + FilterSQL.place(place) {
          parameters.append(.text($0))
          return "$\(parameters.count)"
        }
    }
    if let ids = filter.ids {
      parameters.append(array(ids.ids.map(String.init)))
      sql += " AND id = ANY($\(parameters.count)::bigint[])"
    }
    return sql
  }

  /// Two index passes, because `ORDER BY geog <-> p, id` would make PostgreSQL sort the whole
  /// table: the GiST `<->` scan finds the distance of the `limit`-th nearest, then
  /// `ST_DWithin` fetches everything that close (a millimetre more, so rounding loses no
  /// tie) and the exact order, ties by id, is taken over those few rows.
  static func nearest(_ query: NearQuery) -> (sql: String, parameters: [StoreValue]) {
    let point = "ST_SetSRID(ST_MakePoint($2::float8, $1::float8), 4326)::geography"
    var parameters: [StoreValue] = [
      .real(query.center.latitude), .real(query.center.longitude), .integer(Int64(query.limit)),
    ]
    var filter = conditions(query.filter, &parameters)
    if let r = query.radius {
      parameters.append(.real(r))
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
}
