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
  var photosChanged = false
  var inWrite = false
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

  func sibling(_ suffix: String) -> URL {
    url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + suffix)
  }

  // MARK: - Reading

  /// Advances whenever the set of photos or their data changes.
  public func generation() throws -> Int64 {
    try database.queryInt64("SELECT value FROM index_state WHERE key = 'generation'") ?? 0
  }

  /// The positions generation and identity of this database, as the spatial index file records
  /// them: it is stale only when positions changed, not when places were renamed.
  public func stamp() throws -> SpatialIndexFile.Stamp {
    SpatialIndexFile.Stamp(
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

  public func forEachDatedPhoto(passing filter: PhotoFilter, _ body: (DatedPhoto) throws -> Void) throws {
    var rows = DatedPhotoRows()
    try forEachMatch(of: filter, columns: DatedPhotoRows.columnList, condition: DatedPhotoRows.condition) { row in
      if let photo = rows.read(row) { try body(photo) }
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

  public func syncRoots() throws -> [(path: String, lastSynced: IndexTime?)] {
    var roots: [(String, IndexTime?)] = []
    try database.forEachRow("SELECT path, last_synced FROM sync_roots ORDER BY path") {
      roots.append(($0.text(0), IndexTime(iso8601: $0.text(1))))
    }
    return roots
  }

}

@available(*, unavailable)
extension SQLitePhotoStore: Sendable {}
