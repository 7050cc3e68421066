import Foundation
public import GeoPhotoCore

/// The photo index as every command sees it, whatever holds it: an embedded SQLite file
/// (`SQLitePhotoStore`, the default) or a shared PostgreSQL/PostGIS database.
///
/// Both keep the same rows with the same rules: photos keyed by (source, source id), a
/// *generation* that advances whenever photo rows change (readers compare it to know when
/// their in-memory index is stale), and writes that land whole or not at all.
///
/// What a store does is five roles, each its own protocol, so code that needs one asks for
/// that one: `PhotoReading` (the rows and the queries over them), `PhotoWriting` (rows
/// changed in transactions), `DerivedIndexes` (the spatial index file built from the rows,
/// and the check of both), `IndexBookkeeping` (what sync and fetch remember between runs)
/// and `ShareLinks` (links that share one trip or filter).
///
/// A store is used by one thread at a time; open one per thread.
public protocol PhotoStore: PhotoReading, PhotoWriting, DerivedIndexes, IndexBookkeeping, ShareLinks {
  /// Where the index is, for messages: a path, or a URL without its password.
  var location: String { get }
  /// Another store on the same index with a connection of its own, as another thread (or the
  /// server's reload check) opens it.
  func reopened() throws -> any PhotoStore
}

/// The rows of an index and the queries over them.
public protocol PhotoReading: AnyObject {
  /// Advances whenever the set of photos or their data changes.
  func generation() throws -> Int64
  func counts() throws -> PhotoCounts
  /// Photos per source: how many, and how many of them have a location.
  func countsBySource() throws -> [(source: PhotoSource, photos: Int, located: Int)]
  /// Whether any photo has a location: a probe that stops at the first.
  func hasLocatedPhotos() throws -> Bool
  /// The photo with this id, if any.
  func photo(id: Int64) throws -> Photo?
  /// Photos for the given ids, in the order of `ids`; ids that no longer exist are skipped.
  func photos(ids: [Int64]) throws -> [Photo]
  /// Every located photo by ascending id, with the generation they belong to (read together).
  func locatedPhotos() throws -> (generation: Int64, photos: [Photo])
  /// Up to `limit` rows (located or not) with ids above `id`, by ascending id: a whole index
  /// read page by page, file state included.
  func records(after id: Int64, limit: Int) throws -> [(id: Int64, record: PhotoRecord)]
  /// The smallest and the largest photo id (located or not), nil when there are no photos:
  /// the span an export divides into windows of ids.
  func idRange() throws -> ClosedRange<Int64>?
  /// Up to `limit` located photos that pass `filter`, by ascending id from after `id` up to
  /// and including `last`, each lent to `body` as it is read: a page or a window of an
  /// export, filtered by the store's indexes. Only `columns` are read (the others are left
  /// empty). The photo is lent `inout` so that nothing copies it on the way: `body` may take
  /// what it keeps (the next row sets every member again).
  func forEachLocatedPhoto(
    passing filter: PhotoFilter, after id: Int64, through last: Int64, limit: Int, reading columns: Set<PhotoColumn>,
    _ body: (inout Photo) throws -> Void
  ) throws
  /// Every photo passing `filter` that has a capture time, located or not, lent to `body`
  /// with only what a timeline needs (`DatedPhoto`), in no particular order: what places
  /// visited and trips are found from.
  func forEachDatedPhoto(passing filter: PhotoFilter, _ body: (DatedPhoto) throws -> Void) throws
  /// The files of the photos `ids` besides their primary ones (all photos' when `nil`), by
  /// photo id; photos with one file are absent.
  func memberFiles(of ids: [Int64]?) throws -> [Int64: [MemberFile]]
  /// Local photos under `root` (everywhere when nil) of one kind by location, without a
  /// problem reading them, by capture time (undated first), then id.
  func localPhotos(under root: String?, _ kind: LocalPhotoKind) throws -> [Photo]
  /// How many local photos under `root` (or everywhere) have a location their files recorded.
  func recordedLocationCount(under root: String?) throws -> Int
  /// The `query.limit` located photos nearest to `query.center` that pass `query.filter`,
  /// nearest first, ties by id, only within `query.radius` metres when given. Distances are
  /// great-circle metres on the mean-radius sphere, so every store gives the same answer on
  /// the same rows.
  func nearest(_ query: NearQuery) throws -> [Neighbor]
  /// A spatial index over (at least) every located photo passing `filter` within `distance`
  /// metres of the polyline `route`, for searches along it. A store may return its whole
  /// index (the caller filters); ids are photo ids.
  func spatialIndex(along route: [Coordinate], within distance: Double, filter: PhotoFilter) throws
    -> any RadiusSearch
}

/// Rows changed, in write transactions that land whole or not at all.
public protocol PhotoWriting: AnyObject {
  /// Runs `body` in one write transaction; advances the generation when photos changed.
  /// A failure anywhere rolls the whole transaction back. Transactions do not nest.
  @discardableResult func write<T>(_ body: () throws -> T) throws -> T
  /// Inserts a photo, or updates the row with the same (source, source id). A known
  /// position that is estimated survives an update without one.
  @discardableResult
  func upsert(_ record: PhotoRecord, now: IndexTime) throws -> Upserted
  /// `upsert` for many photos at once, results in order; a store may send them together.
  func upsert(_ records: [PhotoRecord], now: IndexTime) throws -> [Upserted]
  /// Rewrites the row `id` with new data, keeping its id and first-seen time (a moved or
  /// edited file).
  func update(id: Int64, with record: PhotoRecord, now: IndexTime) throws
  /// Writes whole rows as they are, place names, estimates and gazetteer marks included (a
  /// copy of another index, not a sync), in one transaction; a photo already there (by
  /// source and source id) is overwritten. Returns their ids in order.
  @discardableResult
  func copy(_ records: [PhotoRecord]) throws -> [Int64]
  /// Makes `members` the files of photo `id` besides its primary one (taking them from any
  /// other photo that had them).
  func setMembers(of id: Int64, _ members: [MemberFile]) throws
  /// Deletes a photo with all its files.
  func delete(id: Int64) throws
  /// Removes every local photo under `root` and the roots at or below it; returns how many photos.
  func forgetLocalPhotos(under root: String) throws -> Int
  /// Places a photo without a recorded location at an estimated one (kept, marked as
  /// estimated with its altitude and source, until the file itself gains other GPS).
  func setEstimatedLocation(id: Int64, _ c: Coordinate, altitude: Double?, source: EstimateSource, now: IndexTime)
    throws
  /// Removes the estimated positions of the photos `ids` (recorded ones stay), with their
  /// places: each goes back to what its file says (the position a hand placement put aside),
  /// or to none; returns how many were removed.
  func clearEstimatedLocations(ids: [Int64], now: IndexTime) throws -> Int
  /// Places photo `id` by hand at `c` (the map's edits), over any position it has: one its
  /// file recorded is put aside (`HandPlacement`), kept up to date by syncs, and comes back
  /// when the placement is cleared. Returns whether the photo exists.
  func placeByHand(id: Int64, _ c: Coordinate, now: IndexTime) throws -> Bool
  /// Whether some located photo has not been named by the gazetteer `identity` yet.
  func hasPhotosToPlace(gazetteer identity: Int64) throws -> Bool
  /// Names the place of every located photo not yet named by `namer`'s gazetteer (estimated
  /// positions, photos written without a namer, or all of them after a new gazetteer), inside
  /// the write in progress; returns how many. Places are not positions: the spatial index
  /// stays as it is.
  func assignPlaces(with namer: any PlaceNamer) throws -> Int
}

/// What is derived from the rows (the spatial index file), and the check of rows and file.
public protocol DerivedIndexes: AnyObject {
  /// What a server searches, without holding the photos: the kd-tree of every located photo
  /// and the generation it belongs to, read together, with the cluster hierarchy over it and
  /// the photos changed since it was built. A store that keeps it in a file maps the file
  /// (`reusing` the mapping of an earlier answer when the file is the same), and builds and
  /// writes it when it is missing, damaged, or of other rows.
  func locatedIndex(reusing earlier: SpatialIndexFile.Contents?) throws -> LocatedIndex
  /// Brings derived data up to date after writes (the spatial index file): built again from
  /// the rows, unless so few photos changed since it was built that readers merge them
  /// (`DeltaPolicy`).
  func refreshDerivedIndexes() throws
  /// Builds the spatial index file again from the rows, without writing the database (a
  /// server catching up after small syncs, or replacing a damaged file): when photos changed
  /// since it was built, or `always`; returns whether it did.
  func rebuildSpatialFile(always: Bool) throws -> Bool
  /// What is wrong with the index's own storage, one line each (none when it is sound): the
  /// database's consistency check (`thorough`: every page and index, else the quick one), and
  /// derived files against the rows (counts and a sample of positions).
  func check(thorough: Bool) throws -> [String]
  /// Rebuilds every derived file from the rows, whatever state it is in.
  func rebuildDerivedIndexes() throws
}

/// What syncs and fetches remember between runs: the files known under a root, the roots
/// synced, and the areas fetched.
public protocol IndexBookkeeping: AnyObject {
  /// Remembers that `path` was synced, at `now`.
  func recordSyncRoot(_ path: String, now: IndexTime) throws
  /// Every local file the index knows under `root` (an absolute, normalised directory path):
  /// photos' primary files and their other files, sidecars left out.
  func knownFiles(under root: String) throws -> [KnownFile]
  /// Roots synced before, with the time of their last sync.
  func syncRoots() throws -> [(path: String, lastSynced: IndexTime?)]
  /// Whether an earlier search of `provider`, at `since` or later, covered the whole circle
  /// around `center` with `radius` metres.
  func hasFetched(provider: PhotoSource, center: Coordinate, radius: Double, since: IndexTime) throws -> Bool
  /// Remembers that `provider` was searched around `center` out to `radius` metres.
  func recordFetchedArea(provider: PhotoSource, center: Coordinate, radius: Double, photos: Int, at time: IndexTime)
    throws
}

extension PhotoStore {
  /// Every file of each local photo among `photos`: its primary file, then the others (RAW,
  /// Live Photo video, sidecars) by path.
  public func files(of photos: [Photo]) throws -> [Int64: [PhotoFile]] {
    let local = photos.filter { $0.source == .local }
    guard !local.isEmpty else { return [:] }
    let members = try memberFiles(of: local.map(\.id))
    var result: [Int64: [PhotoFile]] = [:]
    for photo in local { result[photo.id] = PhotoFile.all(of: photo, members: members[photo.id] ?? []) }
    return result
  }
}

extension PhotoFile {
  /// A photo's files: the primary one (its path), then `members`.
  public static func all(of photo: Photo, members: [MemberFile]) -> [PhotoFile] {
    guard let path = photo.path else { return members.map { PhotoFile(path: $0.path, role: $0.role) } }
    var files = [PhotoFile(path: path, role: .primary)]
    if !members.isEmpty {
      files.reserveCapacity(1 + members.count)
      for m in members { files.append(PhotoFile(path: m.path, role: m.role)) }
    }
    return files
  }
}

/// How many photos an index holds.
public struct PhotoCounts: Equatable, Sendable {
  public var photos: Int
  public var located: Int
  /// Files a sync could not read (kept with the reason, so the next sync does not retry them).
  public var problems: Int

  public init(photos: Int, located: Int, problems: Int) {
    self.photos = photos
    self.located = located
    self.problems = problems
  }
}

/// What an upsert did.
public struct Upserted: Equatable, Sendable {
  public var id: Int64
  /// True when the photo was new; false when an existing row was updated.
  public var inserted: Bool

  public init(id: Int64, inserted: Bool) {
    self.id = id
    self.inserted = inserted
  }
}

extension PhotoStore {
  /// The located index, mapping its file afresh.
  public func locatedIndex() throws -> LocatedIndex { try locatedIndex(reusing: nil) }
}

/// When a sync builds the spatial index file again, and when it leaves it and readers merge
/// the photos changed since it was built. Building takes about 7 s a million photos; merging
/// costs a query a little for every changed photo, so small changes to large indexes are
/// merged and the rest built.
public struct DeltaPolicy: Sendable {
  /// Indexes with fewer located photos are built again after every change (under 1.5 s).
  public var minimumPhotos = 200_000
  /// The most changed photos merged, as a share of the located photos and in all.
  public var maximumShare = 0.01
  public var maximumChanges = 100_000

  public init() {}

  /// Whether `changes` changed photos of `photos` located ones are merged by readers.
  public func merges(changes: Int, of photos: Int) -> Bool {
    photos >= minimumPhotos && changes <= maximumChanges && Double(changes) <= maximumShare * Double(photos)
  }
}

extension PhotoStore {
  /// The ids of the located photos that pass `filter`, ascending, found by the store's own
  /// indexes (a server asks for those its kd-tree cannot judge: camera and text).
  public func locatedIDs(passing filter: PhotoFilter) throws -> [Int64] {
    var ids: [Int64] = []
    try forEachLocatedPhoto(passing: filter, after: .min, through: .max, limit: Int(Int32.max), reading: [.id]) {
      ids.append($0.id)
    }
    return ids
  }

  /// The photos `forEachLocatedPhoto(passing:after:through:limit:reading:_:)` lends, with
  /// every column of a photo, to the last id.
  public func locatedPhotos(passing filter: PhotoFilter, after id: Int64, limit: Int) throws -> [Photo] {
    var photos: [Photo] = []
    try forEachLocatedPhoto(
      passing: filter, after: id, through: .max, limit: limit, reading: Set(PhotoColumn.photo)
    ) { photos.append($0) }
    return photos
  }
}

/// Whether a search around `searched` out to `searchedRadius` metres covered the whole circle
/// around `center` with `radius` metres. A centimetre of rounding is allowed: the same query
/// must always count as covered.
public func circle(_ searched: Coordinate, radius searchedRadius: Double, covers center: Coordinate, radius: Double)
  -> Bool
{
  GreatCircle.distance(searched, center) + radius <= searchedRadius + 0.01
}

/// The upper end of a prefix range: paths under `prefix` (ending in "/") sort at or above it
/// and below the result, because '0' follows '/'.
/// Local photos by what their location is: what geotagging places, reads as a track, clears.
public enum LocalPhotoKind: Sendable, CaseIterable {
  /// No location, or an estimated one (what geotagging places).
  case toGeotag
  /// A location the file recorded (what `--from-photos` takes as a track).
  case recorded
  /// An estimated location (what `--clear` removes).
  case estimated
  /// No location at all (what the map's tray offers to place).
  case unplaced
  /// Every one.
  case all

  /// The SQL condition, in terms both stores speak (SQLite reads TRUE and FALSE as 1 and 0).
  public var condition: String {
    switch self {
    case .toGeotag: "(latitude IS NULL OR location_estimated = TRUE)"
    case .recorded: "latitude IS NOT NULL AND location_estimated = FALSE"
    case .estimated: "location_estimated = TRUE"
    case .unplaced: "latitude IS NULL"
    case .all: "TRUE"
    }
  }
}

public func pathRangeEnd(_ prefix: String) -> String { String(prefix.dropLast()) + "0" }

/// `root` with one trailing slash, the prefix of every path under it.
public func directoryPrefix(_ root: String) -> String { root.hasSuffix("/") ? root : root + "/" }

extension PhotoStore {
  /// One upsert after another.
  public func upsert(_ records: [PhotoRecord], now: IndexTime) throws -> [Upserted] {
    try records.map { try upsert($0, now: now) }
  }

  /// The `limit` nearest located photos from every source.
  public func nearest(to center: Coordinate, limit: Int, maximumDistance: Double? = nil) throws -> [Neighbor] {
    try nearest(NearQuery(center: center, limit: limit, radius: maximumDistance))
  }
}
