public import Foundation
public import GeoPhotoCore

/// The embedded photo index: one SQLite file (the source of truth) plus the kd-tree persisted
/// beside it, so `near` answers without reading the photos table.
///
/// Every write goes through `write(_:)`, which runs in one transaction and advances the
/// index *generation* whenever photo rows changed; readers (`near`, the server) compare
/// generations to know when their spatial index is stale.
public final class SQLitePhotoStore: PhotoStore {
  public let database: Database
  public let url: URL
  private var photosChanged = false
  private var inWrite = false

  /// Opens the index at `url`, creating it (and its directory) when `create` is true.
  public init(url: URL, create: Bool) throws {
    self.url = url
    let path = url.path
    if create {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } else if !FileManager.default.fileExists(atPath: path) {
      throw StoreOpenError("no index at \(path)")
    }
    do {
      database = try Database(path: path, mode: create ? .readWriteCreate : .readWrite)
      try Schema.migrator.migrate(database)
    } catch let error as SQLiteError {
      switch error.code {
      case .notADatabase, .corrupt:
        throw StoreOpenError("\(path) is not a geophoto index (\(error.message))")
      case .cantOpen, .readOnly:
        throw StoreOpenError("cannot open the index \(path): \(error.message)")
      default:
        throw StoreOpenError("cannot open the index \(path): \(error.message)")
      }
    }
  }

  public var location: String { url.path }

  /// Where the persisted spatial index lives: next to the database.
  public var spatialIndexURL: URL {
    url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".kdtree")
  }

  // MARK: - Reading

  /// Advances whenever the set of photos or their data changes.
  public func generation() throws -> Int64 {
    try database.queryInt64("SELECT value FROM index_state WHERE key = 'generation'") ?? 0
  }

  /// The generation and identity of this database, as spatial index files record them.
  public func stamp() throws -> SpatialIndexFile.Stamp {
    SpatialIndexFile.Stamp(
      generation: try generation(),
      identity: try database.queryInt64("SELECT value FROM index_state WHERE key = 'identity'") ?? 0)
  }

  public func counts() throws -> PhotoCounts {
    let statement = try database.cachedStatement(
      """
      SELECT count(*), count(latitude), count(problem) FROM photos
      """)
    try statement.bind([])
    defer { statement.reset() }
    _ = try statement.step()
    return PhotoCounts(
      photos: Int(statement.int64(0)), located: Int(statement.int64(1)),
      problems: Int(statement.int64(2)))
  }

  public func countsBySource() throws -> [(source: PhotoSource, photos: Int, located: Int)] {
    var result: [(PhotoSource, Int, Int)] = []
    try database.forEachRow("SELECT source, count(*), count(latitude) FROM photos GROUP BY source ORDER BY source") {
      result.append((PhotoSource(rawValue: $0.text(0)), Int($0.int64(1)), Int($0.int64(2))))
    }
    return result
  }

  private static let photoColumns = """
    id, source, source_id, path, latitude, longitude, altitude, taken_at, title,
    camera_make, camera_model, width, height, orientation, url, thumbnail_url, attribution, license,
    location_estimated, place_name, place_admin1, place_admin2, place_cc, place_distance
    """

  private static func photo(from row: Statement) -> Photo {
    var coordinate: Coordinate?
    if let lat = row.optionalDouble(4), let lon = row.optionalDouble(5) {
      coordinate = Coordinate(latitude: lat, longitude: lon)
    }
    return Photo(
      id: row.int64(0), source: PhotoSource(rawValue: row.text(1)), sourceID: row.text(2),
      path: row.optionalText(3), coordinate: coordinate, altitude: row.optionalDouble(6),
      takenAt: row.optionalText(7).flatMap(CaptureDate.init(iso8601:)), title: row.text(8),
      cameraMake: row.optionalText(9), cameraModel: row.optionalText(10),
      width: row.optionalInt(11), height: row.optionalInt(12), orientation: row.optionalInt(13),
      url: row.optionalText(14), thumbnailURL: row.optionalText(15), attribution: row.optionalText(16),
      license: row.optionalText(17), locationEstimated: row.int64(18) != 0,
      place: row.optionalText(19).map {
        PlaceName(
          name: $0, admin1: row.text(20), admin2: row.text(21), countryCode: row.text(22), distance: row.double(23))
      })
  }

  public func hasLocatedPhotos() throws -> Bool {
    try database.queryInt64("SELECT EXISTS (SELECT 1 FROM photos WHERE latitude IS NOT NULL)") == 1
  }

  public func photo(id: Int64) throws -> Photo? {
    var found: Photo?
    try database.forEachRow(
      "SELECT \(Self.photoColumns) FROM photos WHERE id = ?", [.integer(id)]
    ) { found = Self.photo(from: $0) }
    return found
  }

  public func locatedPhotos() throws -> (generation: Int64, photos: [Photo]) {
    try database.transaction(immediate: false) {
      var photos: [Photo] = []
      try database.forEachRow(
        "SELECT \(Self.photoColumns) FROM photos WHERE latitude IS NOT NULL ORDER BY id"
      ) { photos.append(Self.photo(from: $0)) }
      return (try generation(), photos)
    }
  }

  public func records(after id: Int64, limit: Int) throws -> [(id: Int64, record: PhotoRecord)] {
    var records: [(Int64, PhotoRecord)] = []
    try database.forEachRow(
      """
      SELECT \(Self.photoColumns), file_size, modified_ns, content_hash, problem, place_gazetteer FROM photos
      WHERE id > ? ORDER BY id LIMIT ?
      """,
      [.integer(id), .integer(Int64(limit))]
    ) { row in
      var file: FileState?
      if let size = row.optionalInt64(24), let modified = row.optionalInt64(25), let hash = row.optionalText(26) {
        file = FileState(size: size, changedNanoseconds: modified, contentHash: hash)
      }
      let record = PhotoRecord(
        photo: Self.photo(from: row), file: file, problem: row.optionalText(27), placedWith: row.optionalInt64(28))
      records.append((row.int64(0), record))
    }
    return records
  }

  public func photos(ids: [Int64]) throws -> [Photo] {
    try ids.compactMap { try photo(id: $0) }
  }

  public func knownFiles(under root: String) throws -> [KnownFile] {
    let prefix = directoryPrefix(root)
    let upper = pathRangeEnd(prefix)
    var files: [KnownFile] = []
    try database.forEachRow(
      """
      SELECT id, source_id, file_size, modified_ns, content_hash FROM photos
      WHERE source = 'local' AND source_id >= ? AND source_id < ?
      """, [.text(prefix), .text(upper)]
    ) { row in
      files.append(
        KnownFile(
          id: row.int64(0), path: row.text(1),
          state: FileState(
            size: row.int64(2), changedNanoseconds: row.int64(3),
            contentHash: row.text(4))))
    }
    return files
  }

  public func syncRoots() throws -> [(path: String, lastSynced: String)] {
    var roots: [(String, String)] = []
    try database.forEachRow("SELECT path, last_synced FROM sync_roots ORDER BY path") {
      roots.append(($0.text(0), $0.text(1)))
    }
    return roots
  }

  // MARK: - Writing

  public func write<T>(_ body: () throws -> T) throws -> T {
    precondition(!inWrite, "write transactions do not nest")
    inWrite = true
    photosChanged = false
    defer { inWrite = false }
    return try database.transaction {
      let result = try body()
      if photosChanged {
        try database.execute(
          "UPDATE index_state SET value = value + 1 WHERE key = 'generation'", [])
      }
      return result
    }
  }

  private func noteChange() {
    precondition(inWrite, "photo rows change only inside write(_:)")
    if database.changes > 0 { photosChanged = true }
  }

  private static func values(_ record: PhotoRecord, now: String) -> [SQLValue] {
    let p = record.photo
    return [
      .text(p.source.rawValue), .text(p.sourceID), SQLValue(p.path),
      SQLValue(p.coordinate?.latitude), SQLValue(p.coordinate?.longitude), SQLValue(p.altitude),
      SQLValue(p.takenAt?.iso8601), .text(p.title), SQLValue(p.cameraMake),
      SQLValue(p.cameraModel), SQLValue(p.width), SQLValue(p.height), SQLValue(p.orientation),
      SQLValue(record.file?.size), SQLValue(record.file?.changedNanoseconds),
      SQLValue(record.file?.contentHash), SQLValue(record.problem), .text(now), SQLValue(p.url),
      SQLValue(p.thumbnailURL), SQLValue(p.attribution), SQLValue(p.license),
    ]
  }

  @discardableResult
  public func upsert(_ record: PhotoRecord, now: String) throws -> Upserted {
    let key: [SQLValue] = [.text(record.photo.source.rawValue), .text(record.photo.sourceID)]
    let existing = try database.queryInt64("SELECT id FROM photos WHERE source = ? AND source_id = ?", key)
    try database.execute(
      """
      INSERT INTO photos (source, source_id, path, latitude, longitude, altitude, taken_at, title,
        camera_make, camera_model, width, height, orientation, file_size, modified_ns,
        content_hash, problem, updated, first_seen, url, thumbnail_url, attribution, license)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?18, ?19, ?20,
        ?21, ?22)
      ON CONFLICT (source, source_id) DO UPDATE SET
        path = excluded.path,
        latitude = CASE WHEN excluded.latitude IS NULL AND location_estimated = 1 THEN latitude ELSE excluded.latitude END,
        longitude = CASE WHEN excluded.latitude IS NULL AND location_estimated = 1 THEN longitude ELSE excluded.longitude END,
        location_estimated = CASE WHEN excluded.latitude IS NULL THEN location_estimated ELSE 0 END,
        place_gazetteer = CASE WHEN excluded.latitude IS latitude AND excluded.longitude IS longitude
          THEN place_gazetteer ELSE NULL END,
        altitude = excluded.altitude, taken_at = excluded.taken_at, title = excluded.title,
        camera_make = excluded.camera_make, camera_model = excluded.camera_model,
        width = excluded.width, height = excluded.height, orientation = excluded.orientation,
        file_size = excluded.file_size, modified_ns = excluded.modified_ns,
        content_hash = excluded.content_hash, problem = excluded.problem,
        updated = excluded.updated, url = excluded.url, thumbnail_url = excluded.thumbnail_url,
        attribution = excluded.attribution, license = excluded.license
      """, Self.values(record, now: now))
    noteChange()
    if let existing { return Upserted(id: existing, inserted: false) }
    return Upserted(id: database.lastInsertRowID, inserted: true)
  }

  public func update(id: Int64, with record: PhotoRecord, now: String) throws {
    var values = Self.values(record, now: now)
    values.append(.integer(id))
    try database.execute(
      """
      UPDATE photos SET source = ?1, source_id = ?2, path = ?3,
        latitude = CASE WHEN ?4 IS NULL AND location_estimated = 1 THEN latitude ELSE ?4 END,
        longitude = CASE WHEN ?4 IS NULL AND location_estimated = 1 THEN longitude ELSE ?5 END,
        location_estimated = CASE WHEN ?4 IS NULL THEN location_estimated ELSE 0 END,
        place_gazetteer = CASE WHEN ?4 IS latitude AND ?5 IS longitude THEN place_gazetteer ELSE NULL END,
        altitude = ?6, taken_at = ?7, title = ?8, camera_make = ?9, camera_model = ?10,
        width = ?11, height = ?12, orientation = ?13, file_size = ?14, modified_ns = ?15,
        content_hash = ?16, problem = ?17, updated = ?18, url = ?19, thumbnail_url = ?20,
        attribution = ?21, license = ?22
      WHERE id = ?23
      """, values)
    noteChange()
  }

  public func forgetLocalPhotos(under root: String) throws -> Int {
    let prefix = directoryPrefix(root)
    try database.execute(
      "DELETE FROM photos WHERE source = 'local' AND source_id >= ? AND source_id < ?",
      [.text(prefix), .text(pathRangeEnd(prefix))])
    let removed = database.changes
    noteChange()
    try database.execute(
      "DELETE FROM sync_roots WHERE path = ? OR (path >= ? AND path < ?)",
      [.text(root), .text(prefix), .text(pathRangeEnd(prefix))])
    return removed
  }

  public func setEstimatedLocation(id: Int64, _ c: Coordinate, now: String) throws {
    try database.execute(
      """
      UPDATE photos SET latitude = ?, longitude = ?, location_estimated = 1, place_gazetteer = NULL, updated = ?
      WHERE id = ? AND (latitude IS NULL OR location_estimated = 1)
      """,
      [.real(c.latitude), .real(c.longitude), .text(now), .integer(id)])
    noteChange()
  }

  public func hasPhotosToPlace(gazetteer identity: Int64) throws -> Bool {
    try database.queryInt64(
      """
      SELECT EXISTS (SELECT 1 FROM photos WHERE latitude IS NOT NULL AND (place_gazetteer IS NULL OR place_gazetteer != ?))
      """, [.integer(identity)]) == 1
  }

  public func assignPlaces(gazetteer identity: Int64, _ lookup: (Coordinate) -> PlaceName?) throws -> Int {
    var pending: [(Int64, Coordinate)] = []
    try database.forEachRow(
      """
      SELECT id, latitude, longitude FROM photos
      WHERE latitude IS NOT NULL AND (place_gazetteer IS NULL OR place_gazetteer != ?)
      """, [.integer(identity)]
    ) { pending.append(($0.int64(0), Coordinate(latitude: $0.double(1), longitude: $0.double(2)))) }
    guard !pending.isEmpty else { return 0 }
    try write {
      for (id, c) in pending {
        let p = lookup(c)
        try database.execute(
          """
          UPDATE photos SET place_name = ?, place_admin1 = ?, place_admin2 = ?, place_cc = ?, place_distance = ?,
            place_gazetteer = ? WHERE id = ?
          """,
          [
            SQLValue(p?.name), SQLValue(p?.admin1), SQLValue(p?.admin2), SQLValue(p?.countryCode),
            SQLValue(p?.distance),
            .integer(identity), .integer(id),
          ])
        noteChange()
      }
    }
    return pending.count
  }

  public func photosToGeotag(under root: String?) throws -> [Photo] {
    var photos: [Photo] = []
    var sql =
      "SELECT \(Self.photoColumns) FROM photos WHERE source = 'local' AND (latitude IS NULL OR location_estimated = 1) AND problem IS NULL"
    var values: [SQLValue] = []
    if let root {
      let prefix = directoryPrefix(root)
      sql += " AND source_id >= ? AND source_id < ?"
      values = [.text(prefix), .text(pathRangeEnd(prefix))]
    }
    try database.forEachRow(sql + " ORDER BY taken_at, id", values) { photos.append(Self.photo(from: $0)) }
    return photos
  }

  public func delete(id: Int64) throws {
    try database.execute("DELETE FROM photos WHERE id = ?", [.integer(id)])
    noteChange()
  }

  public func recordFetchedArea(
    provider: PhotoSource, center: Coordinate, radius: Double, photos: Int, at time: Int
  ) throws {
    try database.execute(
      "INSERT INTO fetched_areas (provider, latitude, longitude, radius, fetched_at, photos) VALUES (?, ?, ?, ?, ?, ?)",
      [
        .text(provider.rawValue), .real(center.latitude), .real(center.longitude), .real(radius), .integer(Int64(time)),
        .integer(Int64(photos)),
      ])
  }

  public func hasFetched(provider: PhotoSource, center: Coordinate, radius: Double, since: Int) throws -> Bool {
    var covered = false
    try database.forEachRow(
      "SELECT latitude, longitude, radius FROM fetched_areas WHERE provider = ? AND fetched_at >= ?",
      [.text(provider.rawValue), .integer(Int64(since))]
    ) { row in
      let searched = Coordinate(latitude: row.double(0), longitude: row.double(1))
      if circle(searched, radius: row.double(2), covers: center, radius: radius) { covered = true }
    }
    return covered
  }

  /// Ids of the located photos from `sources`, to filter spatial queries by source.
  func locatedIDs(from sources: Set<PhotoSource>) throws -> Set<Int64> {
    var ids = Set<Int64>()
    for source in sources {
      try database.forEachRow(
        "SELECT id FROM photos WHERE source = ? AND latitude IS NOT NULL", [.text(source.rawValue)]
      ) { ids.insert($0.int64(0)) }
    }
    return ids
  }

  public func recordSyncRoot(_ path: String, now: String) throws {
    try database.execute(
      """
      INSERT INTO sync_roots (path, last_synced) VALUES (?, ?)
      ON CONFLICT (path) DO UPDATE SET last_synced = excluded.last_synced
      """, [.text(path), .text(now)])
  }

  // MARK: - Spatial index

  public func nearest(to center: Coordinate, limit: Int, maximumDistance: Double?, sources: Set<PhotoSource>?) throws
    -> [Neighbor]
  {
    let index = try spatialIndex()
    let allowed = try sources.map { try locatedIDs(from: $0) }
    return index.nearest(
      to: center, limit: limit, maximumDistance: maximumDistance, where: allowed.map { ids in { ids.contains($0) } })
  }

  /// The whole kd-tree: it is loaded from its file, and the caller filters by source.
  public func spatialIndex(along route: [Coordinate], within distance: Double, sources: Set<PhotoSource>?) throws
    -> SpatialIndex
  {
    try spatialIndex()
  }

  public func refreshDerivedIndexes() throws { try rebuildSpatialIndexIfStale() }

  /// The spatial index for the current generation: loaded from its file when that is fresh,
  /// otherwise rebuilt from the photos table (and saved for the next process).
  public func spatialIndex() throws -> SpatialIndex {
    if let index = SpatialIndexFile.read(from: spatialIndexURL, stamp: try stamp()) {
      return index
    }
    return try rebuildSpatialIndex()
  }

  /// Rebuilds and saves the spatial index unless its file already matches the generation.
  public func rebuildSpatialIndexIfStale() throws {
    if SpatialIndexFile.stamp(at: spatialIndexURL) != (try stamp()) {
      try rebuildSpatialIndex()
    }
  }

  /// Builds the spatial index from the located photos and persists it. The points and the
  /// generation are read in one transaction, so the file always matches its generation.
  @discardableResult
  public func rebuildSpatialIndex() throws -> SpatialIndex {
    var ids: [Int64] = []
    var points: [Double] = []
    let current: SpatialIndexFile.Stamp = try database.transaction(immediate: false) {
      let g = try stamp()
      try database.forEachRow(
        "SELECT id, latitude, longitude FROM photos WHERE latitude IS NOT NULL"
      ) { row in
        ids.append(row.int64(0))
        let v = GreatCircle.unitVector(
          Coordinate(latitude: row.double(1), longitude: row.double(2)))
        points.append(v.x)
        points.append(v.y)
        points.append(v.z)
      }
      return g
    }
    let index = SpatialIndex(building: ids, vectors: points)
    // A read-only location only costs the next process a rebuild.
    try? SpatialIndexFile.write(index, stamp: current, to: spatialIndexURL)
    return index
  }
}

@available(*, unavailable)
extension SQLitePhotoStore: Sendable {}
