public import Foundation
public import GeoPhotoCore
public import GeoPhotoStore

/// The embedded photo index: one SQLite file (the source of truth) plus its spatial index
/// beside it (`index.sqlite.spatial`: the kd-tree and the cluster hierarchy, mapped by
/// readers), so `near` and the server answer without reading the photos table.
///
/// Every write goes through `write(_:)`, which runs in one transaction and advances the
/// index *generation* whenever photo rows changed, and the *positions* generation when a
/// located photo was added, moved or removed (triggers mark those rows with it). Readers compare
/// generations to know when their spatial index is stale, and merge the rows changed since
/// it was built (`changes(since:)`), so a small sync does not build it again.
public final class SQLitePhotoStore: PhotoStore {
  public let database: Database
  public let url: URL
  private var photosChanged = false
  private var inWrite = false
  /// When a sync leaves the spatial index as it is and readers merge the changes instead.
  public var deltaPolicy = DeltaPolicy()

  /// Opens the index at `url`: creating it (and its folder) in `.create` mode, migrating its
  /// schema unless `.readOnly`.
  public init(url: URL, mode: StoreOpenMode) throws {
    self.url = url
    let path = url.path
    if mode == .create {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } else if !FileManager.default.fileExists(atPath: path) {
      throw StoreError(.missing, "no index at \(path)")
    }
    do {
      switch mode {
      case .create where Database.isOnReadOnlyFileSystem(path), .readWrite where Database.isOnReadOnlyFileSystem(path):
        throw StoreError(.cannotOpen, "cannot write the index \(path): its folder is on a read-only filesystem")
      case .create:
        database = try Database(path: path, mode: .readWriteCreate)
        try Schema.migrator.migrate(database)
      case .readWrite:
        database = try Database(path: path, mode: .readWrite)
        try Schema.migrator.migrate(database)
      case .readOnly:
        database = try Database(path: path, mode: .readOnly)
        try Self.checkSchema(of: database, at: path)
      }
    } catch let error as SQLiteError {
      switch error.code {
      case .notADatabase, .corrupt:
        throw StoreError(.notAnIndex, "\(path) is not a geophoto index (\(error.message))")
      case .cantOpen where Database.isOnReadOnlyFileSystem(path):
        // SQLite reads a WAL index through its -shm file, which it cannot make on a read-only
        // filesystem when no writer has the index open. (Opening it as immutable would not be
        // safe: a writer elsewhere may still change it.)
        throw StoreError(
          .cannotOpen,
          "cannot open the index \(path): its folder is on a read-only filesystem, where SQLite cannot make "
            + "the index's shared-memory file")
      default:
        throw StoreError(.cannotOpen, "cannot open the index \(path): \(error.message)")
      }
    }
  }

  /// Opens the index at `url`, creating it when `create` is true.
  public convenience init(url: URL, create: Bool) throws {
    try self.init(url: url, mode: create ? .create : .readWrite)
  }

  /// A read-only open reads only a schema this geophoto writes.
  static func checkSchema(of database: Database, at path: String) throws {
    let version = try Migrator.version(of: database)
    let current = Schema.migrator.migrations.count
    if version > current {
      throw StoreError(
        .newerSchema,
        "the index \(path) is from a newer geophoto (schema \(version), this one knows \(current)); upgrade geophoto")
    }
    if version < current {
      throw StoreError(
        .olderSchema,
        "the index \(path) is from an older geophoto (schema \(version) of \(current)) and is opened read-only: "
          + "run 'geophoto sync' (or any command that writes) once to upgrade it")
    }
  }

  public func reopened() throws -> any PhotoStore { try SQLitePhotoStore(url: url, mode: .readWrite) }

  public var location: String { url.path }

  /// Where the spatial index lives: next to the database.
  public var spatialFileURL: URL { sibling(".spatial") }

  /// The files earlier geophotos kept beside the index (the kd-tree and the clusters apart),
  /// removed when the spatial index is written.
  var formerFiles: [URL] { [sibling(".kdtree"), sibling(".clusters")] }

  private func sibling(_ suffix: String) -> URL {
    url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + suffix)
  }

  // MARK: - Reading

  /// Advances whenever the set of photos or their data changes.
  public func generation() throws -> Int64 {
    try database.queryInt64("SELECT value FROM index_state WHERE key = 'generation'") ?? 0
  }

  /// The positions generation and identity of this database, as the spatial index file records
  /// them: it is stale only when positions changed, not when places were renamed.
  public func stamp() throws -> LocatedIndexFile.Stamp {
    LocatedIndexFile.Stamp(
      generation: try database.queryInt64("SELECT value FROM index_state WHERE key = 'positions'") ?? 0,
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

  public func hasLocatedPhotos() throws -> Bool {
    try database.queryInt64("SELECT EXISTS (SELECT 1 FROM photos WHERE latitude IS NOT NULL)") == 1
  }

  public func photo(id: Int64) throws -> Photo? {
    var found: Photo?
    try database.forEachRow(
      "SELECT \(PhotoColumn.photoList) FROM photos WHERE id = ?", [.integer(id)]
    ) { found = Photo(row: $0) }
    return found
  }

  public func locatedPhotos() throws -> (generation: Int64, photos: [Photo]) {
    try database.transaction(immediate: false) {
      var photos: [Photo] = []
      try database.forEachRow(
        "SELECT \(PhotoColumn.photoList) FROM photos WHERE latitude IS NOT NULL ORDER BY id"
      ) { photos.append(Photo(row: $0)) }
      return (try generation(), photos)
    }
  }

  public func records(after id: Int64, limit: Int) throws -> [(id: Int64, record: PhotoRecord)] {
    var records: [(Int64, PhotoRecord)] = []
    try database.forEachRow(
      "SELECT \(PhotoColumn.recordList) FROM photos WHERE id > ? ORDER BY id LIMIT ?",
      [.integer(id), .integer(Int64(limit))]
    ) { row in records.append((row.int64(0), PhotoRecord(row: row))) }
    return records
  }

  public func idRange() throws -> ClosedRange<Int64>? {
    var range: ClosedRange<Int64>?
    // Apart: SQLite answers a lone min() or max() of the key from the tree's ends, but both in
    // one SELECT by reading every row.
    try database.forEachRow("SELECT (SELECT min(id) FROM photos), (SELECT max(id) FROM photos)") { row in
      if let first = row.optionalInt64(0), let last = row.optionalInt64(1) { range = first...last }
    }
    return range
  }

  public func forEachLocatedPhoto(
    passing filter: PhotoFilter, after id: Int64, through last: Int64, limit: Int, reading columns: Set<PhotoColumn>,
    _ body: (inout Photo) throws -> Void
  ) throws {
    let selection = PhotoSelection(columns)
    // One photo, set again from each row.
    var photo = Photo(id: 0, source: .local, sourceID: "", title: "")
    try forEachMatch(of: filter, columns: selection.list, after: id, through: last, limit: limit) {
      photo.read(selection.row($0))
      try body(&photo)
    }
  }

  /// One statement for all of them: the ids go in as one JSON array, read by `json_each`.
  public func photos(ids: [Int64]) throws -> [Photo] {
    guard ids.count > 1 else { return try ids.compactMap { try photo(id: $0) } }
    var byID: [Int64: Photo] = [:]
    byID.reserveCapacity(ids.count)
    try database.forEachRow(
      "SELECT \(PhotoColumn.photoList) FROM photos WHERE id IN (SELECT value FROM json_each(?))",
      [.text("[" + ids.map(String.init).joined(separator: ",") + "]")]
    ) { row in
      let photo = Photo(row: row)
      byID[photo.id] = photo
    }
    return ids.compactMap { byID[$0] }
  }

  public func knownFiles(under root: String) throws -> [KnownFile] {
    let prefix = directoryPrefix(root)
    let upper = pathRangeEnd(prefix)
    var files: [KnownFile] = []
    try database.forEachRow(
      """
      SELECT \(KnownFile.columnList) FROM photos
      WHERE source = 'local' AND source_id >= ? AND source_id < ?
      """, [.text(prefix), .text(upper)]
    ) { files.append(KnownFile(row: $0)) }
    try database.forEachRow(
      """
      SELECT \(MemberColumn.knownList) FROM photo_members
      WHERE role != 'sidecar' AND path >= ? AND path < ?
      """, [.text(prefix), .text(upper)]
    ) { files.append(KnownFile(memberRow: $0)) }
    return files
  }

  public func memberFiles(of ids: [Int64]?) throws -> [Int64: [MemberFile]] {
    var members: [Int64: [MemberFile]] = [:]
    var sql = "SELECT \(MemberColumn.list) FROM photo_members"
    var values: [StoreValue] = []
    if let ids {
      guard !ids.isEmpty else { return [:] }
      sql += " WHERE photo_id IN (SELECT value FROM json_each(?))"
      values = [.text("[" + ids.map(String.init).joined(separator: ",") + "]")]
    }
    try database.forEachRow(sql + " ORDER BY photo_id, path", values) { row in
      members[row.int64(0), default: []].append(MemberFile(row: row))
    }
    return members
  }

  public func setMembers(of id: Int64, _ members: [MemberFile]) throws {
    try database.execute("DELETE FROM photo_members WHERE photo_id = ?", [.integer(id)])
    var changed = database.changes > 0
    for member in members {
      try database.execute(
        """
        INSERT INTO photo_members (\(MemberColumn.list)) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (path) DO UPDATE SET photo_id = excluded.photo_id, role = excluded.role,
          file_size = excluded.file_size, modified_ns = excluded.modified_ns, content_hash = excluded.content_hash,
          content_id = excluded.content_id
        """, MemberColumn.values(member, of: id))
      changed = true
    }
    if changed { noteMembersChanged() }
  }

  public func syncRoots() throws -> [(path: String, lastSynced: String)] {
    var roots: [(String, String)] = []
    try database.forEachRow("SELECT path, last_synced FROM sync_roots ORDER BY path") {
      roots.append(($0.text(0), $0.text(1)))
    }
    return roots
  }

  // MARK: - Writing

  @discardableResult public func write<T>(_ body: () throws -> T) throws -> T {
    precondition(!inWrite, "write transactions do not nest")
    inWrite = true
    photosChanged = false
    defer { inWrite = false }
    return try database.transaction {
      let result = try body()
      if photosChanged {
        try database.execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'", [])
      }
      // The triggers marked the rows they saw move with the next positions generation: it
      // is this write's when there are any.
      if try database.queryInt64(
        """
        WITH next AS (SELECT value + 1 AS g FROM index_state WHERE key = 'positions')
        SELECT EXISTS (SELECT 1 FROM photos WHERE moved = (SELECT g FROM next))
          OR EXISTS (SELECT 1 FROM removed_photos WHERE generation = (SELECT g FROM next))
        """) == 1
      {
        try database.execute("UPDATE index_state SET value = value + 1 WHERE key = 'positions'", [])
      }
      return result
    }
  }

  /// Notes that the last statement changed photo rows (the triggers note which moved).
  private func noteChange() {
    precondition(inWrite, "photo rows change only inside write(_:)")
    if database.changes > 0 { photosChanged = true }
  }

  /// A photo's files changed: answers list them, so the generation advances (positions stay).
  private func noteMembersChanged() {
    precondition(inWrite, "photo rows change only inside write(_:)")
    photosChanged = true
  }

  /// A record's values in `PhotoWrite.columns` order (`?1`…`?21`), then the time (`?22`).
  private static func values(_ record: PhotoRecord, now: String) -> [StoreValue] {
    PhotoWrite.values(record) + [.text(now)]
  }

  /// `?n` for column `c` of `PhotoWrite.columns`.
  private static func parameter(_ c: PhotoColumn) -> String {
    "?\((PhotoWrite.columns.firstIndex(of: c) ?? 0) + 1)"
  }

  private static let timeParameter = "?\(PhotoWrite.columns.count + 1)"

  /// The mark of a row inserted with a position (`moved`): the positions generation this
  /// write commits as, as the insert trigger would set it (written with the row, the trigger
  /// leaves it).
  private static func insertedMark(latitude: String) -> String {
    "CASE WHEN \(latitude) IS NOT NULL THEN (SELECT value + 1 FROM index_state WHERE key = 'positions') END"
  }

  private static let upsertSQL = """
    INSERT INTO photos (\(PhotoWrite.columns.map(\.name).joined(separator: ", ")), updated, first_seen, moved)
    VALUES (\(PhotoWrite.columns.map(parameter).joined(separator: ", ")), \(timeParameter), \(timeParameter),
      \(insertedMark(latitude: parameter(.latitude))))
    ON CONFLICT (source, source_id) DO UPDATE SET
      \(PhotoWrite.assignments(new: { "excluded.\($0.name)" }, old: \.name).joined(separator: ",\n  ")),
      updated = excluded.updated
    """

  private static let updateSQL = """
    UPDATE photos SET
      \(PhotoWrite.assignments(new: parameter, old: \.name).joined(separator: ",\n  ")),
      updated = \(timeParameter)
    WHERE id = ?\(PhotoWrite.columns.count + 2)
    """

  @discardableResult
  public func upsert(_ record: PhotoRecord, now: String) throws -> Upserted {
    let key: [StoreValue] = [.text(record.photo.source.rawValue), .text(record.photo.sourceID)]
    let existing = try database.queryInt64("SELECT id FROM photos WHERE source = ? AND source_id = ?", key)
    try database.execute(Self.upsertSQL, Self.values(record, now: now))
    noteChange()
    if let existing { return Upserted(id: existing, inserted: false) }
    return Upserted(id: database.lastInsertRowID, inserted: true)
  }

  /// Many photos in one statement: the records are staged in a temporary table, row by row,
  /// and go into `photos` together. The word index is kept by triggers, and FTS5 writes what
  /// it holds to disk at every statement that can be rolled back on its own, so a statement
  /// per photo made a segment of the word index per photo (and merged them): a third of a
  /// first sync. One statement makes one for the batch.
  @discardableResult
  public func upsert(_ records: [PhotoRecord], now: String) throws -> [Upserted] {
    guard records.count > 1 else { return try records.map { try upsert($0, now: now) } }
    try database.execute(Self.stagingTableSQL)
    try database.execute("DELETE FROM temp.staged_photos", [])
    defer { try? database.execute("DELETE FROM temp.staged_photos", []) }
    let stage = try database.cachedStatement(Self.stageSQL)
    // A few hundred rows at a time: the rows of a whole batch are not held at once.
    for start in stride(from: 0, to: records.count, by: 256) {
      for row in Self.stagedRows(records, start..<min(records.count, start + 256)) { try stage.execute(row) }
    }
    var existing: [Int64: Int64] = [:]
    try database.forEachRow(Self.stagedIDsSQL) { existing[$0.int64(0)] = $0.int64(1) }
    try database.execute(Self.mergeStagedSQL, [.text(now)])
    noteChange()
    var ids: [Int64: Int64] = [:]
    try database.forEachRow(Self.stagedIDsSQL) { ids[$0.int64(0)] = $0.int64(1) }
    // A photo twice in the batch was inserted by its first record and updated by the next.
    var seen = Set<Int64>()
    return try records.indices.map { n in
      guard let id = ids[Int64(n)] else {
        throw SQLiteError(code: .error, message: "the upsert of \(records[n].photo.sourceID) left no row")
      }
      defer { seen.insert(id) }
      return Upserted(id: id, inserted: existing[Int64(n)] == nil && !seen.contains(id))
    }
  }

  /// The rows of `range` of `records` for the staging table, each its position first; made on every core (the
  /// values fold the searched text and write out the times: most of what a row costs outside
  /// SQLite, and the connection's thread is the one that writes).
  static func stagedRows(_ records: [PhotoRecord], _ range: Range<Int>) -> [[StoreValue]] {
    var rows = [[StoreValue]](repeating: [], count: range.count)
    rows.withUnsafeMutableBufferPointer { buffer in
      nonisolated(unsafe) let out = buffer
      let workers = range.count < 64 ? 1 : ProcessInfo.processInfo.activeProcessorCount
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        var k = worker
        while k < range.count {
          let n = range.lowerBound + k
          out[k] = [.integer(Int64(n))] + PhotoWrite.values(records[n])
          k += workers
        }
      }
    }
    return rows
  }

  /// The staging table of `upsert(_:now:)`: the batch's position `n`, then the columns of
  /// `PhotoWrite.columns`, without types (the values go into `photos` as they were bound).
  private static let stagingTableSQL = """
    CREATE TEMP TABLE IF NOT EXISTS staged_photos (n INTEGER PRIMARY KEY, \
    \(PhotoWrite.columns.map(\.name).joined(separator: ", ")))
    """

  private static let stageSQL = """
    INSERT INTO temp.staged_photos (n, \(PhotoWrite.columns.map(\.name).joined(separator: ", ")))
    VALUES (\((0...PhotoWrite.columns.count).map { "?\($0 + 1)" }.joined(separator: ", ")))
    """

  /// Each staged record's position and the id of its row (when there is one).
  private static let stagedIDsSQL = """
    SELECT s.n, p.id FROM temp.staged_photos s JOIN photos p ON p.source = s.source AND p.source_id = s.source_id
    """

  /// The staged records in their order (new rows take ids in it), with the upsert's rules.
  /// (`WHERE true` tells SQLite that `ON CONFLICT` is the upsert's, not a join's.)
  private static let mergeStagedSQL = """
    INSERT INTO photos (\(PhotoWrite.columns.map(\.name).joined(separator: ", ")), updated, first_seen, moved)
    SELECT \(PhotoWrite.columns.map(\.name).joined(separator: ", ")), ?1, ?1, \(insertedMark(latitude: "latitude"))
    FROM temp.staged_photos WHERE true ORDER BY n
    ON CONFLICT (source, source_id) DO UPDATE SET
      \(PhotoWrite.assignments(new: { "excluded.\($0.name)" }, old: \.name).joined(separator: ",\n  ")),
      updated = excluded.updated
    """

  public func update(id: Int64, with record: PhotoRecord, now: String) throws {
    try database.execute(Self.updateSQL, Self.values(record, now: now) + [.integer(id)])
    noteChange()
  }

  private static let copySQL = """
    INSERT INTO photos (\(PhotoWrite.everyColumn.map(\.name).joined(separator: ", ")), updated, first_seen)
    VALUES (\(PhotoWrite.everyColumn.indices.map { "?\($0 + 1)" }.joined(separator: ", ")), ?\(PhotoWrite.everyColumn.count + 1),
      ?\(PhotoWrite.everyColumn.count + 1))
    ON CONFLICT (source, source_id) DO UPDATE SET
      \(PhotoWrite.everyColumn.map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", ")),
      updated = excluded.updated
    """

  @discardableResult
  public func copy(_ records: [PhotoRecord]) throws -> [Int64] {
    let now = indexTimestamp()
    return try write {
      try records.map { record in
        try database.execute(Self.copySQL, PhotoWrite.everyValue(record) + [.text(now)])
        noteChange()
        return try database.queryInt64(
          "SELECT id FROM photos WHERE source = ? AND source_id = ?",
          [.text(record.photo.source.rawValue), .text(record.photo.sourceID)]) ?? 0
      }
    }
  }

  public func forgetLocalPhotos(under root: String) throws -> Int {
    let prefix = directoryPrefix(root)
    try database.execute(
      """
      DELETE FROM photo_members WHERE photo_id IN (
        SELECT id FROM photos WHERE source = 'local' AND source_id >= ? AND source_id < ?)
      """, [.text(prefix), .text(pathRangeEnd(prefix))])
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
      "SELECT EXISTS (SELECT 1 FROM photos WHERE \(PlaceRenaming.unnamed(by: "?1")))", [.integer(identity)]) == 1
  }

  public func assignPlaces(with namer: any PlaceNamer) throws -> Int {
    precondition(inWrite, "places are named inside write(_:)")
    let identity = StoreValue.integer(namer.identity)
    let batch = try database.cachedStatement(
      """
      SELECT \(PlaceRenaming.list) FROM photos WHERE \(PlaceRenaming.unnamed(by: "?1")) AND id > ?2
      ORDER BY id LIMIT \(PlaceRenaming.batchSize)
      """)
    let sets = PhotoWrite.renamedColumns.map { "\($0.name) = ?" }.joined(separator: ", ")
    let update = try database.cachedStatement("UPDATE photos SET \(sets), place_gazetteer = ? WHERE id = ?")
    let mark = try database.cachedStatement("UPDATE photos SET place_gazetteer = ? WHERE id = ?")
    var after: Int64 = 0
    var keptStamps: Set<Int64> = []
    let named = try PlaceRenaming.run(
      with: namer,
      read: {
        var candidates: [PlaceRenaming.Candidate] = []
        try batch.bind([identity, .integer(after)])
        while try batch.step() { candidates.append(PlaceRenaming.Candidate(row: batch)) }
        batch.reset()
        after = candidates.last?.photo.id ?? after
        return candidates
      },
      write: { outcome in
        for (id, values) in outcome.changed { try update.execute(values + [identity, .integer(id)]) }
        for id in outcome.unmarked { try mark.execute([identity, .integer(id)]) }
        keptStamps.formUnion(outcome.keptStamps)
        if !outcome.changed.isEmpty { photosChanged = true }
      })
    let keep = try database.cachedStatement("INSERT OR IGNORE INTO place_stamps (gazetteer, stamp) VALUES (?, ?)")
    for stamp in keptStamps where stamp != namer.identity { try keep.execute([identity, .integer(stamp)]) }
    return named
  }

  public func photosToGeotag(under root: String?) throws -> [Photo] {
    var photos: [Photo] = []
    var sql =
      "SELECT \(PhotoColumn.photoList) FROM photos WHERE source = 'local' AND (latitude IS NULL OR location_estimated = 1) AND problem IS NULL"
    var values: [StoreValue] = []
    if let root {
      let prefix = directoryPrefix(root)
      sql += " AND source_id >= ? AND source_id < ?"
      values = [.text(prefix), .text(pathRangeEnd(prefix))]
    }
    try database.forEachRow(sql + " ORDER BY taken_at, id", values) { photos.append(Photo(row: $0)) }
    return photos
  }

  public func delete(id: Int64) throws {
    try database.execute("DELETE FROM photo_members WHERE photo_id = ?", [.integer(id)])
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

  public func recordSyncRoot(_ path: String, now: String) throws {
    try database.execute(
      """
      INSERT INTO sync_roots (path, last_synced) VALUES (?, ?)
      ON CONFLICT (path) DO UPDATE SET last_synced = excluded.last_synced
      """, [.text(path), .text(now)])
  }

  // MARK: - Spatial index

  /// From the spatial index: a source filter tests each candidate's tag byte, a time filter
  /// its two time numbers, a camera filter the set of matching ids. A text filter is answered
  /// by the trigram index instead, and the photos it finds are ranked directly.
  public func nearest(_ query: NearQuery) throws -> [Neighbor] {
    let filter = query.filter
    if filter.text != nil {
      var points: [(id: Int64, coordinate: Coordinate)] = []
      try forEachMatch(of: filter, columns: "id, latitude, longitude") { row in
        points.append((row.int64(0), Coordinate(latitude: row.double(1), longitude: row.double(2))))
      }
      return SpatialIndex.nearest(
        among: points, to: query.center, limit: query.limit, maximumDistance: query.radius)
    }
    let index = try locatedIndex()
    var tests: [(Int) -> Bool] = []
    if filter.sources != nil {
      let table = filter.sourceCodeTable
      tests.append { table[Int(index.tag(at: $0))] }
    }
    if let camera = filter.camera {
      // Make and model are not in the tree: the photos that match, by id.
      var values: [StoreValue] = []
      let condition = FilterSQL.camera(camera) {
        values.append(.text($0))
        return "?"
      }
      var ids = Set<Int64>()
      try database.forEachRow("SELECT id FROM photos WHERE latitude IS NOT NULL AND \(condition)", values) {
        ids.insert($0.int64(0))
      }
      tests.append { ids.contains(index.id(at: $0)) }
    }
    let isIncluded: ((Int) -> Bool)? =
      switch tests.count {
      case 0: nil
      case 1: tests[0]
      default: { position in tests.allSatisfy { $0(position) } }
      }
    return index.nearest(
      to: query.center, limit: query.limit, maximumDistance: query.radius, time: filter.time, where: isIncluded)
  }

  /// Calls `body` with `columns` of each located photo that passes `filter`, in SQL: text
  /// through the word index (`photo_text`) and each needle's `instr`, then time, camera and
  /// sources.
  /// With `after`, only ids above it, by ascending id, at most `limit`.
  func forEachMatch(
    of filter: PhotoFilter, columns: String, after: Int64? = nil, through last: Int64 = .max, limit: Int = Int.max,
    _ body: (Statement) throws -> Void
  ) throws {
    var conditions = ["latitude IS NOT NULL"]
    var values: [StoreValue] = []
    func bind(_ value: StoreValue) -> String {
      values.append(value)
      return "?"
    }
    // With text, the word index drives the query (its rows come in id order, and an id bound
    // seeks in it), and each needle then decides, as the rule says.
    var from = "photos"
    var idColumn = "id"
    if let text = filter.text {
      from = "photo_text JOIN photos ON photos.id = photo_text.rowid"
      idColumn = "photo_text.rowid"
      conditions.append("photo_text MATCH \(bind(.text(text.wordPhrases)))")
      for needle in text.needles {
        conditions.append(
          "(instr(photos.search_text, \(bind(.text(needle)))) > 0 OR instr(photos.place_text, \(bind(.text(needle)))) > 0)"
        )
      }
    }
    if let sources = filter.sources {
      conditions.append("source IN (\(sources.map { bind(.text($0.rawValue)) }.joined(separator: ", ")))")
    }
    if let time = filter.time { conditions.append(FilterSQL.time(time) { bind(.integer($0)) }) }
    if let camera = filter.camera { conditions.append(FilterSQL.camera(camera) { bind(.text($0)) }) }
    var order = ""
    if let after {
      conditions.append("\(idColumn) > \(bind(.integer(after)))")
      if last < .max { conditions.append("\(idColumn) <= \(bind(.integer(last)))") }
      order = " ORDER BY \(idColumn) LIMIT \(bind(.integer(Int64(min(limit, Int(Int64.max))))))"
    }
    let sql = "SELECT \(columns) FROM \(from) WHERE " + conditions.joined(separator: " AND ") + order
    // Cached by shape: the filters present and the number of needles.
    let statement = try database.cachedStatement(sql)
    try statement.bind(values)
    defer { statement.reset() }
    while try statement.step() { try body(statement) }
  }

  /// The whole located index (the caller filters); with a text filter, a tree of the photos
  /// the word index finds.
  public func spatialIndex(along route: [Coordinate], within distance: Double, filter: PhotoFilter) throws
    -> any RadiusSearch
  {
    guard filter.text != nil else { return try locatedIndex() }
    var points: [(id: Int64, coordinate: Coordinate)] = []
    try forEachMatch(of: filter, columns: "id, latitude, longitude") { row in
      points.append((row.int64(0), Coordinate(latitude: row.double(1), longitude: row.double(2))))
    }
    return SpatialIndex(points: points)
  }

  /// The rows changed since the positions generation `generation`: photos added, moved,
  /// retimed or removed after it. Nil when the index no longer knows (deletions that old
  /// were let go when the spatial index was built after them).
  public func changes(since generation: Int64) throws -> LocatedChanges.Rows? {
    guard let known = try database.queryInt64("SELECT value FROM index_state WHERE key = 'changes_since'"),
      generation >= known
    else { return nil }
    var rows = LocatedChanges.Rows()
    try database.forEachRow(
      "SELECT id, latitude, longitude, source, taken_utc, taken_local FROM photos WHERE moved > ?",
      [.integer(generation)]
    ) { row in
      rows.ids.append(row.int64(0))
      guard !row.isNull(1) else { return }
      rows.located.append(
        LocatedChanges.LocatedRow(
          id: row.int64(0), coordinate: Coordinate(latitude: row.double(1), longitude: row.double(2)),
          source: PhotoSource(rawValue: row.text(3)), instant: row.isNull(4) ? PointTimes.none : row.int64(4),
          local: row.isNull(5) ? PointTimes.none : row.int64(5)))
    }
    try database.forEachRow("SELECT id FROM removed_photos WHERE generation > ?", [.integer(generation)]) {
      rows.ids.append($0.int64(0))
    }
    return rows
  }

  /// How many photos changed since the positions generation `generation`; nil when the index
  /// no longer knows.
  func changeCount(since generation: Int64) throws -> Int? {
    guard let known = try database.queryInt64("SELECT value FROM index_state WHERE key = 'changes_since'"),
      generation >= known
    else { return nil }
    let count = try database.queryInt64(
      """
      SELECT (SELECT count(*) FROM photos WHERE moved > ?1) + (SELECT count(*) FROM removed_photos WHERE generation > ?1)
      """, [.integer(generation)])
    return Int(count ?? 0)
  }

  /// Builds the spatial index again when photos changed since it was built, unless the
  /// changes are few enough for readers to merge (`deltaPolicy`).
  public func refreshDerivedIndexes() throws {
    let current = try stamp()
    let kept = LocatedIndexFile.header(at: spatialFileURL)
    if kept?.stamp == current { return }
    // The file's photos stand for the located ones (counting the rows would read them all).
    if let (stamp, photos) = kept, stamp.identity == current.identity, stamp.generation < current.generation,
      let changes = try changeCount(since: stamp.generation), deltaPolicy.merges(changes: changes, of: photos)
    {
      return
    }
    try rebuildDerivedIndexes()
  }

  public func rebuildDerivedIndexes() throws {
    let built = try buildSpatialFile()
    guard let written = built.written else {
      throw built.failure ?? StoreError(.cannotOpen, "cannot write \(spatialFileURL.path)")
    }
    // Deletions the new file already leaves out are let go.
    try database.transaction {
      try database.execute("DELETE FROM removed_photos WHERE generation <= ?", [.integer(written.generation)])
      try database.execute(
        "UPDATE index_state SET value = ? WHERE key = 'changes_since' AND value < ?",
        [.integer(written.generation), .integer(written.generation)])
    }
  }

  public func rebuildSpatialFile(always: Bool) throws -> Bool {
    guard try always || LocatedIndexFile.stamp(at: spatialFileURL) != stamp() else { return false }
    let built = try buildSpatialFile()
    if let failure = built.failure { throw failure }
    return true
  }

  public func check(thorough: Bool) throws -> [String] {
    var problems: [String] = []
    // SQLite's own check: "ok", or one line per damaged page, index or row (at most 20).
    do {
      let statement = try database.makeStatement(thorough ? "PRAGMA integrity_check(20)" : "PRAGMA quick_check(20)")
      while try statement.step() {
        // A row may hold several messages, one per line, under a "*** in database ***" heading.
        for line in statement.text(0).split(separator: "\n") where line != "ok" && !line.hasPrefix("***") {
          problems.append("\(url.lastPathComponent): \(line)")
        }
      }
    } catch {
      // Damage the check itself cannot get past.
      return problems + ["\(url.lastPathComponent): \(error)"]
    }
    guard problems.isEmpty else { return problems }
    // The spatial index: readable, intact, of these rows, and with the photos where the rows
    // put them.
    let file = spatialFileURL.lastPathComponent
    guard FileManager.default.fileExists(atPath: spatialFileURL.path) else {
      if try counts().located > 0 { problems.append("\(file) is missing (check --repair builds it)") }
      return problems
    }
    let contents: LocatedIndexFile.Contents
    do {
      contents = try LocatedIndexFile.open(spatialFileURL)
    } catch {
      return problems + ["\(error) (check --repair builds it again)"]
    }
    guard LocatedIndexFile.verify(contents) else {
      return problems + [
        "\(file) is damaged: its checksum does not match its contents (check --repair builds it again)"
      ]
    }
    guard
      let index = try LocatedIndex(
        merging: contents, generation: try generation(), current: try stamp(), changes: changes(since:))
    else {
      return problems + ["\(file) is of other rows than the index's (check --repair builds it again)"]
    }
    let located = try counts().located
    if index.count != located {
      problems.append("\(file) holds \(index.count) photos, the index \(located) with a location")
    }
    // A sample of the file's points against the rows: the same photos, at the same places.
    let live = index.positions
    let step = max(1, live.count / 500)
    let sample = stride(from: 0, to: live.count, by: step).map { (live[$0], index.id(at: live[$0])) }
    let rows = Dictionary(
      try photos(ids: sample.map(\.1)).map { ($0.id, $0.coordinate) }, uniquingKeysWith: { a, _ in a })
    var moved = 0
    for (position, id) in sample {
      guard let coordinate = rows[id] ?? nil else {
        moved += 1
        continue
      }
      let v = GreatCircle.unitVector(coordinate)
      let w = GreatCircle.unitVector(index.coordinate(at: position))
      if abs(v.x - w.x) > 1e-9 || abs(v.y - w.y) > 1e-9 || abs(v.z - w.z) > 1e-9 { moved += 1 }
    }
    if moved > 0 {
      problems.append("\(file): \(moved) of \(sample.count) sampled photos are not where the index has them")
    }
    return problems
  }

  /// The located index: the spatial index file mapped (or `earlier`'s mapping, when it is that
  /// file) with the rows changed since it was built; the file built first when it is missing,
  /// damaged or of other rows. Where it cannot be written (a read-only folder), the tree is
  /// built in memory and the reader builds the clusters.
  public func locatedIndex(reusing earlier: LocatedIndexFile.Contents?) throws -> LocatedIndex {
    try LocatedIndex.kept(
      in: spatialFileURL, reusing: earlier,
      merge: { contents in
        // The generation, the stamp and the changes in one read transaction: they belong together.
        try database.transaction(immediate: false) {
          try LocatedIndex(
            merging: contents, generation: try generation(), current: try stamp(), changes: changes(since:))
        }
      }, build: buildSpatialFile)
  }

  /// Builds the tree from the located photos and writes the spatial index file (the points,
  /// the generation and the stamp are read in one transaction, so the file always matches its
  /// stamp).
  private func buildSpatialFile() throws -> LocatedIndexFile.Built {
    let lock = LocatedIndexFile.buildLock(beside: spatialFileURL)
    defer { withExtendedLifetime(lock) {} }
    var rows = LocatedRows()
    let (generation, current) = try database.transaction(immediate: false) {
      let read = (try self.generation(), try stamp())
      try database.forEachRow(
        "SELECT id, latitude, longitude, source, taken_utc, taken_local FROM photos WHERE latitude IS NOT NULL"
      ) { row in
        rows.append(
          id: row.int64(0), latitude: row.double(1), longitude: row.double(2), source: row.text(3),
          instant: row.optionalInt64(4), local: row.optionalInt64(5))
      }
      return read
    }
    let built = LocatedIndexFile.Built(rows.tree(), generation: generation, stamp: current, writingTo: spatialFileURL)
    if built.written != nil {
      for former in formerFiles { try? FileManager.default.removeItem(at: former) }
    }
    return built
  }
}

@available(*, unavailable)
extension SQLitePhotoStore: Sendable {}
