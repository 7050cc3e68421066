import Foundation
public import GeoPhotoCore
public import GeoPhotoStore

/// Writing: transactions, upserts and copies, members, places, estimates and bookkeeping.
extension SQLitePhotoStore {
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
  func noteChange() {
    precondition(inWrite, "photo rows change only inside write(_:)")
    if database.changes > 0 { photosChanged = true }
  }

  /// A photo's files changed: answers list them, so the generation advances (positions stay).
  func noteMembersChanged() {
    precondition(inWrite, "photo rows change only inside write(_:)")
    photosChanged = true
  }

  /// A record's values in `PhotoWrite.columns` order (`?1`…`?21`), then the time (`?22`).
  private static func values(_ record: PhotoRecord, now: IndexTime) -> [StoreValue] {
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
  public func upsert(_ record: PhotoRecord, now: IndexTime) throws -> Upserted {
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
  public func upsert(_ records: [PhotoRecord], now: IndexTime) throws -> [Upserted] {
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

  /// The rows of `range` of `records` for the staging table, each its position first; made
  /// on every core (the values fold the searched text and write out the times: most of what a
  /// row costs outside SQLite, and the connection's thread is the one that writes).
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

  public func update(id: Int64, with record: PhotoRecord, now: IndexTime) throws {
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
    let now = IndexTime.now()
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

  public func setEstimatedLocation(
    id: Int64, _ c: Coordinate, altitude: Double?, source: EstimateSource, now: IndexTime
  ) throws {
    try database.cachedStatement(
      """
      UPDATE photos SET latitude = ?, longitude = ?, altitude = ?, location_source = ?, location_estimated = 1,
        place_gazetteer = NULL, updated = ?
      WHERE id = ? AND (latitude IS NULL OR location_estimated = 1)
      """
    ).execute([
      .real(c.latitude), .real(c.longitude), StoreValue(altitude), .text(source.text), .text(now), .integer(id),
    ])
    noteChange()
  }

  public func clearEstimatedLocations(ids: [Int64], now: IndexTime) throws -> Int {
    // The place columns as a photo without a place has them.
    let places = PlaceColumn.allCases.map { "\($0.column.name) = ?" }.joined(separator: ", ")
    let noPlace = PlaceColumn.allCases.map { $0.value(of: nil) }
    let clear = try database.cachedStatement(
      """
      UPDATE photos SET \(HandPlacement.clearing.joined(separator: ", ")), \(places), updated = ?
      WHERE id = ? AND location_estimated = 1
      """)
    var cleared = 0
    for id in ids {
      try clear.execute(noPlace + [.text(now), .integer(id)])
      cleared += database.changes
    }
    if cleared > 0 { noteChange() }
    return cleared
  }

  public func placeByHand(id: Int64, _ c: Coordinate, now: IndexTime) throws -> Bool {
    let placing = HandPlacement.placing(latitude: "?", longitude: "?", source: "?").joined(separator: ", ")
    try database.cachedStatement("UPDATE photos SET \(placing), updated = ? WHERE id = ?").execute([
      .real(c.latitude), .real(c.longitude), .text(EstimateSource.byHand.text), .text(now), .integer(id),
    ])
    let found = database.changes > 0
    if found { noteChange() }
    return found
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

  public func localPhotos(under root: String?, _ kind: LocalPhotoKind) throws -> [Photo] {
    var photos: [Photo] = []
    var sql =
      "SELECT \(PhotoColumn.photoList) FROM photos WHERE source = 'local' AND \(kind.condition) AND problem IS NULL"
    var values: [StoreValue] = []
    if let root {
      let prefix = directoryPrefix(root)
      sql += " AND source_id >= ? AND source_id < ?"
      values = [.text(prefix), .text(pathRangeEnd(prefix))]
    }
    try database.forEachRow(sql + " ORDER BY taken_at, id", values) { photos.append(Photo(row: $0)) }
    return photos
  }

  public func recordedLocationCount(under root: String?) throws -> Int {
    var sql = "SELECT count(*) FROM photos WHERE source = 'local' AND latitude IS NOT NULL AND location_estimated = 0"
    var values: [StoreValue] = []
    if let root {
      let prefix = directoryPrefix(root)
      sql += " AND source_id >= ? AND source_id < ?"
      values = [.text(prefix), .text(pathRangeEnd(prefix))]
    }
    return Int(try database.queryInt64(sql, values) ?? 0)
  }

  public func delete(id: Int64) throws {
    try database.execute("DELETE FROM photo_members WHERE photo_id = ?", [.integer(id)])
    try database.execute("DELETE FROM photos WHERE id = ?", [.integer(id)])
    noteChange()
  }

  public func recordFetchedArea(
    provider: PhotoSource, center: Coordinate, radius: Double, photos: Int, at time: IndexTime
  ) throws {
    try database.execute(
      "INSERT INTO fetched_areas (provider, latitude, longitude, radius, fetched_at, photos) VALUES (?, ?, ?, ?, ?, ?)",
      [
        .text(provider.rawValue), .real(center.latitude), .real(center.longitude), .real(radius), .seconds(time),
        .integer(Int64(photos)),
      ])
  }

  public func hasFetched(provider: PhotoSource, center: Coordinate, radius: Double, since: IndexTime) throws -> Bool {
    var covered = false
    try database.forEachRow(
      "SELECT latitude, longitude, radius FROM fetched_areas WHERE provider = ? AND fetched_at >= ?",
      [.text(provider.rawValue), .seconds(since)]
    ) { row in
      let searched = Coordinate(latitude: row.double(0), longitude: row.double(1))
      if circle(searched, radius: row.double(2), covers: center, radius: radius) { covered = true }
    }
    return covered
  }

  public func recordSyncRoot(_ path: String, now: IndexTime) throws {
    try database.execute(
      """
      INSERT INTO sync_roots (path, last_synced) VALUES (?, ?)
      ON CONFLICT (path) DO UPDATE SET last_synced = excluded.last_synced
      """, [.text(path), .text(now)])
  }
}

extension SQLitePhotoStore {
  public func addShare(_ share: Share) throws {
    try database.execute("INSERT INTO shares (\(Share.columnList)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", share.values)
  }

  public func shares() throws -> [Share] {
    var shares: [Share] = []
    try database.forEachRow("SELECT \(Share.columnList) FROM shares ORDER BY created DESC, id") { row in
      if let share = Share(row: row) { shares.append(share) }
    }
    return shares
  }

  public func revokeShare(id: String, at time: Int64) throws -> Bool {
    try database.execute(
      "UPDATE shares SET revoked = ? WHERE id = ? AND revoked IS NULL", [.integer(time), .text(id)])
    return database.changes > 0
  }
}
