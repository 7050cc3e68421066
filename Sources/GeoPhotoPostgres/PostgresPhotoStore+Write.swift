public import GeoPhotoCore
public import GeoPhotoStore

extension PostgresPhotoStore {
  /// A sync's row: `PhotoWrite`'s values, then the time.
  static func parameters(_ record: PhotoRecord, now: IndexTime) -> [StoreValue] {
    PhotoWrite.values(record) + [.text(now)]
  }

  @discardableResult
  public func upsert(_ record: PhotoRecord, now: IndexTime) throws -> Upserted {
    let rows = try change(PostgresSQL.singleUpsert, Self.parameters(record, now: now), prepared: true)
    guard let row = rows.first, let id = row.int64(at: 0) else {
      throw PostgresError("the upsert of \(record.photo.sourceID) returned no id")
    }
    return Upserted(id: id, inserted: row.bool(at: 1) ?? false)
  }

  /// Rows per multi-row upsert: 22 parameters each stay well under PostgreSQL's 65,535.
  static let upsertRowsPerStatement = 500

  /// Many photos a statement: a sync's new files arrive by the thousand, and one round trip
  /// each would dominate. A photo listed twice is written once, as its last version.
  public func upsert(_ records: [PhotoRecord], now: IndexTime) throws -> [Upserted] {
    // In key order: two writers meeting on the same photos lock them in the same order, and
    // one waits for the other instead of deadlocking.
    let listings = PhotoKey.lastListings(records).sorted { PhotoKey($0.photo) < PhotoKey($1.photo) }
    var results: [PhotoKey: Upserted] = [:]
    for start in stride(from: 0, to: listings.count, by: Self.upsertRowsPerStatement) {
      let chunk = listings[start..<min(listings.count, start + Self.upsertRowsPerStatement)]
      var parameters: [StoreValue] = []
      parameters.reserveCapacity(chunk.count * PostgresSQL.writeWidth)
      for record in chunk { parameters += Self.parameters(record, now: now) }
      for row in try change(PostgresSQL.upsert(rows: chunk.count), parameters, prepared: true) {
        guard let id = row.int64(at: 0), let key = PhotoKey(row.text(at: 2), row.text(at: 3)) else { continue }
        results[key] = Upserted(id: id, inserted: row.bool(at: 1) ?? false)
      }
    }
    // As if written one after another: a photo's later listings update what the first wrote.
    var seen = Set<PhotoKey>()
    return try records.map { r in
      let key = PhotoKey(r.photo)
      guard var result = results[key] else { throw PostgresError("the upsert of \(r.photo.sourceID) returned no id") }
      if !seen.insert(key).inserted { result.inserted = false }
      return result
    }
  }

  public func update(id: Int64, with record: PhotoRecord, now: IndexTime) throws {
    _ = try change(PostgresSQL.update, Self.parameters(record, now: now) + [.integer(id)], prepared: true)
  }

  /// Member rows go with their photo (`ON DELETE CASCADE`).
  public func delete(id: Int64) throws {
    _ = try change("DELETE FROM photos WHERE id = $1::bigint", [.integer(id)], prepared: true)
  }

  public func setMembers(of id: Int64, _ members: [MemberFile]) throws {
    _ = try change("DELETE FROM photo_members WHERE photo_id = $1::bigint", [.integer(id)], prepared: true)
    for member in members {
      _ = try change(
        """
        INSERT INTO photo_members (\(MemberColumn.list))
        VALUES ($1::bigint, $2, $3, $4::bigint, $5::bigint, $6, $7)
        ON CONFLICT (path) DO UPDATE SET photo_id = excluded.photo_id, role = excluded.role,
          file_size = excluded.file_size, modified_ns = excluded.modified_ns, content_hash = excluded.content_hash,
          content_id = excluded.content_id
        """, MemberColumn.values(member, of: id), prepared: true)
    }
  }

  public func forgetLocalPhotos(under root: String) throws -> Int {
    let prefix = directoryPrefix(root)
    _ = try change(
      "DELETE FROM photos WHERE source = 'local' AND source_id >= $1 AND source_id < $2",
      [.text(prefix), .text(pathRangeEnd(prefix))])
    let removed = transaction?.affectedRows ?? 0
    try run(
      "DELETE FROM sync_roots WHERE path = $1 OR (path >= $2 AND path < $3)",
      [.text(root), .text(prefix), .text(pathRangeEnd(prefix))])
    return removed
  }

  public func setEstimatedLocation(
    id: Int64, _ c: Coordinate, altitude: Double?, source: EstimateSource, now: IndexTime
  ) throws {
    _ = try change(
      """
      UPDATE photos SET latitude = $1::float8, longitude = $2::float8, altitude = $3::float8, location_source = $4,
        location_estimated = true, place_gazetteer = NULL, updated = $5::timestamptz
      WHERE id = $6::bigint AND (latitude IS NULL OR location_estimated)
      """,
      [.real(c.latitude), .real(c.longitude), StoreValue(altitude), .text(source.text), .text(now), .integer(id)],
      prepared: true)
  }

  public func clearEstimatedLocations(ids: [Int64], now: IndexTime) throws -> Int {
    // The place columns as a photo without a place has them.
    let places = PlaceColumn.allCases.enumerated().map {
      "\($1.column.name) = $\($0 + 3)::\(PostgresSQL.type($1.column))"
    }
    .joined(separator: ", ")
    let noPlace = PlaceColumn.allCases.map { $0.value(of: nil) }
    var cleared = 0
    for id in ids {
      _ = try change(
        """
        UPDATE photos SET \(HandPlacement.clearing.joined(separator: ", ")), \(places), updated = $1::timestamptz
        WHERE id = $2::bigint AND location_estimated
        """, [.text(now), .integer(id)] + noPlace, prepared: true)
      cleared += transaction?.affectedRows ?? 0
    }
    return cleared
  }

  public func placeByHand(id: Int64, _ c: Coordinate, now: IndexTime) throws -> Bool {
    let placing = HandPlacement.placing(latitude: "$1::float8", longitude: "$2::float8", source: "$3")
    _ = try change(
      "UPDATE photos SET \(placing.joined(separator: ", ")), updated = $4::timestamptz WHERE id = $5::bigint",
      [.real(c.latitude), .real(c.longitude), .text(EstimateSource.byHand.text), .text(now), .integer(id)],
      prepared: true)
    return (transaction?.affectedRows ?? 0) > 0
  }

  public func recordSyncRoot(_ path: String, now: IndexTime) throws {
    try run(
      """
      INSERT INTO sync_roots (path, last_synced) VALUES ($1, $2::timestamptz)
      ON CONFLICT (path) DO UPDATE SET last_synced = excluded.last_synced
      """, [.text(path), .text(now)])
  }

  public func recordFetchedArea(
    provider: PhotoSource, center: Coordinate, radius: Double, photos: Int, at time: IndexTime
  )
    throws
  {
    try run(
      """
      INSERT INTO fetched_areas (provider, latitude, longitude, radius, fetched_at, photos)
      VALUES ($1, $2::float8, $3::float8, $4::float8, $5::bigint, $6::int)
      """,
      [
        .text(provider.rawValue), .real(center.latitude), .real(center.longitude), .real(radius),
        .seconds(time), .integer(Int64(photos)),
      ])
  }

  public func hasPhotosToPlace(gazetteer identity: Int64) throws -> Bool {
    try query(
      "SELECT EXISTS (SELECT 1 FROM photos WHERE \(PlaceRenaming.unnamed(by: "$1::bigint")))", [.integer(identity)]
    ) { $0.first?.bool(at: 0) ?? false }
  }

  /// Changed places are written 1,000 photos a statement.
  public func assignPlaces(with namer: any PlaceNamer) throws -> Int {
    precondition(transaction != nil, "places are named inside write(_:)")
    let identity = StoreValue.integer(namer.identity)
    let columns = PhotoWrite.renamedColumns
    let sets = columns.map { "\($0.name) = v.\($0.name)" }.joined(separator: ", ")
    var after: Int64 = 0
    var keptStamps: Set<Int64> = []
    let named = try PlaceRenaming.run(
      with: namer,
      read: {
        let candidates = try query(
          """
          SELECT \(PlaceRenaming.list) FROM photos WHERE \(PlaceRenaming.unnamed(by: "$1::bigint")) AND id > $2::bigint
          ORDER BY id LIMIT \(PlaceRenaming.batchSize)
          """, [identity, .integer(after)]
        ) { rows in rows.map { PlaceRenaming.Candidate(row: $0) } }
        after = candidates.last?.photo.id ?? after
        return candidates
      },
      write: { outcome in
        for start in stride(from: 0, to: outcome.changed.count, by: Self.rowsPerStatement) {
          var tuples: [String] = []
          var parameters: [StoreValue] = [identity]
          for (id, values) in outcome.changed[start..<min(outcome.changed.count, start + Self.rowsPerStatement)] {
            let n = parameters.count
            let casts = columns.indices.map { "$\(n + 2 + $0)::\(PostgresSQL.type(columns[$0]))" }
            tuples.append("($\(n + 1)::bigint," + casts.joined(separator: ",") + ")")
            parameters += [.integer(id)] + values
          }
          _ = try change(
            """
            UPDATE photos AS p SET \(sets), place_gazetteer = $1::bigint
            FROM (VALUES \(tuples.joined(separator: ","))) AS v(id, \(columns.map(\.name).joined(separator: ", ")))
            WHERE p.id = v.id
            """, parameters)
        }
        if !outcome.unmarked.isEmpty {
          _ = try change(
            "UPDATE photos SET place_gazetteer = $1::bigint WHERE id = ANY($2::bigint[])",
            [identity, .text("{" + outcome.unmarked.map(String.init).joined(separator: ",") + "}")])
        }
        keptStamps.formUnion(outcome.keptStamps)
      })
    for stamp in keptStamps where stamp != namer.identity {
      try run(
        "INSERT INTO place_stamps (gazetteer, stamp) VALUES ($1::bigint, $2::bigint) ON CONFLICT DO NOTHING",
        [identity, .integer(stamp)])
    }
    return named
  }
}

/// A photo's key in the table: (source, source id).
struct PhotoKey: Hashable, Comparable {
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

  static func < (a: PhotoKey, b: PhotoKey) -> Bool { (a.source, a.sourceID) < (b.source, b.sourceID) }

  /// Each photo once, as its last listing, in the order photos first appear: one INSERT
  /// cannot touch a row twice.
  static func lastListings(_ records: [PhotoRecord]) -> [PhotoRecord] {
    var position: [PhotoKey: Int] = [:]
    var listings: [PhotoRecord] = []
    for r in records {
      if let i = position[PhotoKey(r.photo)] {
        listings[i] = r
      } else {
        position[PhotoKey(r.photo)] = listings.count
        listings.append(r)
      }
    }
    return listings
  }
}

extension PostgresPhotoStore {
  public func addShare(_ share: Share) throws {
    try run(
      "INSERT INTO shares (\(Share.columnList)) VALUES ($1, $2, $3, $4, $5, $6::bigint, $7::bigint, $8::bigint)",
      share.values)
  }

  public func shares() throws -> [Share] {
    try query("SELECT \(Share.columnList) FROM shares ORDER BY created DESC, id") { rows in
      rows.compactMap { Share(row: $0) }
    }
  }

  public func revokeShare(id: String, at time: Int64) throws -> Bool {
    try query(
      "UPDATE shares SET revoked = $1::bigint WHERE id = $2 AND revoked IS NULL RETURNING id",
      [.integer(time), .text(id)]
    ) { rows in rows.contains { _ in true } }
  }
}
