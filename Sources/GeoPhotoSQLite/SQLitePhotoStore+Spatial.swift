import Foundation
public import GeoPhotoCore
public import GeoPhotoStore

/// The spatial index: nearest photos, searches along a route, the changes a server merges, and
/// the spatial file derived from the rows (built, refreshed, checked).
extension SQLitePhotoStore {
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
    if filter.camera != nil || filter.place != nil {
      // Make, model and place are not in the tree: the photos that match, by id.
      var values: [StoreValue] = []
      var parts: [String] = []
      if let camera = filter.camera {
        parts.append(
          FilterSQL.camera(camera) {
            values.append(.text($0))
            return "?"
          })
      }
      if let place = filter.place {
        parts.append(
          FilterSQL.place(place) {
            values.append(.text($0))
            return "?"
          })
      }
      let condition = parts.joined(separator: " AND ")
      var ids = Set<Int64>()
      try database.forEachRow("SELECT id FROM photos WHERE latitude IS NOT NULL AND \(condition)", values) {
        ids.insert($0.int64(0))
      }
      tests.append { ids.contains(index.id(at: $0)) }
    }
    if let ids = filter.ids { tests.append { ids.contains(index.id(at: $0)) } }
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
  /// With `after`, only ids above it, by ascending id, at most `limit`. With `condition`,
  /// photos meeting it instead of located ones.
  func forEachMatch(
    of filter: PhotoFilter, columns: String, after: Int64? = nil, through last: Int64 = .max, limit: Int = Int.max,
    condition: String = "latitude IS NOT NULL", _ body: (Statement) throws -> Void
  ) throws {
    var conditions = [condition]
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
    if let place = filter.place { conditions.append(FilterSQL.place(place) { bind(.text($0)) }) }
    if let ids = filter.ids {
      conditions.append("photos.id IN (SELECT value FROM json_each(\(bind(.text(FilterSQL.jsonArray(ids))))))")
    }
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
    let kept = SpatialIndexFile.header(at: spatialFileURL)
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
    guard try always || SpatialIndexFile.stamp(at: spatialFileURL) != stamp() else { return false }
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
    return try SpatialIndexFile.problems(
      at: spatialFileURL, rows: self, generation: try generation(), stamp: try stamp(), changes: changes(since:))
  }

  /// The located index: the spatial index file mapped (or `earlier`'s mapping, when it is that
  /// file) with the rows changed since it was built; the file built first when it is missing,
  /// damaged or of other rows. Where it cannot be written (a read-only folder), the tree is
  /// built in memory and the reader builds the clusters.
  public func locatedIndex(reusing earlier: SpatialIndexFile.Contents?) throws -> LocatedIndex {
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
  private func buildSpatialFile() throws -> SpatialIndexFile.Built {
    let lock = SpatialIndexFile.buildLock(beside: spatialFileURL)
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
    let built = SpatialIndexFile.Built(rows.tree(), generation: generation, stamp: current, writingTo: spatialFileURL)
    if built.written != nil {
      for former in formerFiles { try? FileManager.default.removeItem(at: former) }
    }
    return built
  }
}
