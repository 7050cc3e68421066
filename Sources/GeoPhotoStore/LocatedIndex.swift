public import Foundation
public import GeoPhotoCore

/// The located photos as readers search them (`PhotoStore.locatedIndex()`): a kd-tree built
/// at some generation of the rows (read from its mapped file, or built in memory), the
/// positions of its points by id, the cluster hierarchy over its points, and the photos
/// added, moved or removed since it was built (`changes`), merged at query time so answers
/// are exact while the tree waits to be built again.
///
/// A photo's *position* is its place in the tree (`0 ..< spatial.count`), or, for a photo
/// added or moved since, `spatial.count` plus its place among the changes.
public struct LocatedIndex: Sendable {
  /// The generation of the rows these answer for (every change, renamings included).
  public var generation: Int64
  /// The rows the tree was built from; nil for a tree of photos held in memory.
  public let stamp: SpatialIndexFile.Stamp?
  /// The tree: ids are photo ids, tags their `PhotoSource.code`s, with capture times.
  public let spatial: SpatialIndex
  /// The tree's positions by ascending photo id.
  public let positionsByID: Column<Int32>
  /// The cluster hierarchy whose point `i` is the tree's point `i`; nil when the store keeps
  /// none (the reader builds it).
  public let clusters: ClusterIndex?
  /// What changed since the tree was built.
  public let changes: LocatedChanges
  /// The file the columns are views of, when they are.
  public let file: SpatialIndexFile.Contents?

  public init(
    generation: Int64, spatial: SpatialIndex, positionsByID: Column<Int32>? = nil, clusters: ClusterIndex? = nil,
    stamp: SpatialIndexFile.Stamp? = nil, changes: LocatedChanges = .none, file: SpatialIndexFile.Contents? = nil
  ) {
    self.generation = generation
    self.spatial = spatial
    self.positionsByID = positionsByID ?? spatial.positionsByID()
    self.clusters = clusters
    self.stamp = stamp
    self.changes = changes
    self.file = file
  }

  /// A mapped file's contents at `generation`, with the rows changed since it was built.
  public init(file: SpatialIndexFile.Contents, generation: Int64, changed: LocatedChanges.Rows = .init()) {
    self.init(
      generation: generation, spatial: file.tree, positionsByID: file.positionsByID, clusters: file.clusters,
      stamp: file.stamp, changes: LocatedChanges(changed, over: file.tree, positionsByID: file.positionsByID),
      file: file)
  }

  // MARK: Positions

  /// Positions in use: the tree's, then the changes'.
  public var positionCount: Int { spatial.count + changes.added.count }
  /// How many photos: the tree's not changed since, and the changes'.
  public var count: Int { spatial.count - changes.hidden.count + changes.added.count }

  /// Whether the photo at `position` is one of the tree's that moved or went since it was built.
  @inline(__always)
  public func isHidden(_ position: Int) -> Bool {
    !changes.hidden.isEmpty && position < spatial.count && changes.hidden.contains(Int32(position))
  }

  /// Every position of a current photo, ascending.
  public var positions: [Int] {
    (0..<positionCount).filter { !isHidden($0) }
  }

  public func coordinate(at position: Int) -> Coordinate {
    position < spatial.count
      ? spatial.coordinate(at: position) : changes.added.coordinate(at: position - spatial.count)
  }

  public func id(at position: Int) -> Int64 {
    position < spatial.count ? spatial.ids[position] : changes.added.ids[position - spatial.count]
  }

  /// The photo's `PhotoSource.code`.
  public func tag(at position: Int) -> UInt8 {
    position < spatial.count ? spatial.tags[position] : changes.added.tags[position - spatial.count]
  }

  /// The photo's capture time as `PointTimes` keeps it.
  public func time(at position: Int) -> (instant: Int64, local: Int64) {
    let (tree, p) = position < spatial.count ? (spatial, position) : (changes.added, position - spatial.count)
    guard let times = tree.times else { return (PointTimes.none, PointTimes.none) }
    return (times.instants[p], times.locals[p])
  }

  /// The position of the photo `id`, when it is located.
  public func position(of id: Int64) -> Int? {
    if let added = changes.addedPositions[id] { return spatial.count + added }
    var (lo, hi) = (0, positionsByID.count)
    while lo < hi {
      let mid = (lo + hi) / 2
      // Positions come from a file: one out of the tree (a damaged file) compares as past
      // every id.
      let p = Int(positionsByID[mid])
      if p >= 0 && p < spatial.count && spatial.ids[p] < id { lo = mid + 1 } else { hi = mid }
    }
    guard lo < positionsByID.count else { return nil }
    let position = Int(positionsByID[lo])
    guard position >= 0, position < spatial.count, spatial.ids[position] == id, !isHidden(position) else {
      return nil
    }
    return position
  }

  // MARK: Queries

  /// The `limit` nearest photos to `center`, nearest first, ties by ascending id, as
  /// `SpatialIndex.nearest` answers them over the tree and the changes together; `isIncluded`
  /// is asked about positions.
  public func nearest(
    to center: Coordinate, limit: Int, maximumDistance: Double? = nil, time: TimeRange? = nil,
    where isIncluded: ((Int) -> Bool)? = nil
  ) -> [Neighbor] {
    let found: [Neighbor]
    if changes.hidden.isEmpty {
      found = spatial.nearest(to: center, limit: limit, maximumDistance: maximumDistance, time: time, where: isIncluded)
    } else {
      let hidden = changes.hidden
      found = spatial.nearest(to: center, limit: limit, maximumDistance: maximumDistance, time: time) { p in
        !hidden.contains(Int32(p)) && (isIncluded?(p) ?? true)
      }
    }
    guard !changes.added.isEmpty else { return found }
    let offset = spatial.count
    let more = changes.added.nearest(
      to: center, limit: limit, maximumDistance: maximumDistance, time: time,
      where: isIncluded.map { test in { test($0 + offset) } })
    return Array(
      (found + more).sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.id < $1.id) }
        .prefix(limit))
  }

  /// Every photo within `radius` metres of `center`, nearest first, ties by ascending id.
  public func within(radius: Double, of center: Coordinate) -> [Neighbor] {
    nearest(to: center, limit: positionCount, maximumDistance: radius)
  }

  /// A tree of the photos at `positions` alone (ids, positions, tags and times as here).
  public func subset(_ positions: [Int]) -> SpatialIndex {
    var vectors: [Double] = []
    vectors.reserveCapacity(3 * positions.count)
    for p in positions {
      let (tree, q) = p < spatial.count ? (spatial, p) : (changes.added, p - spatial.count)
      vectors += [tree.vectors[3 * q], tree.vectors[3 * q + 1], tree.vectors[3 * q + 2]]
    }
    let times = positions.map(time(at:))
    return SpatialIndex(
      building: positions.map(id(at:)), vectors: vectors, tags: positions.map(tag(at:)),
      instants: times.map(\.instant), locals: times.map(\.local))
  }
}

/// The photos added, moved or removed since a tree was built: the moved and removed ones
/// hidden from the tree by position, the added and moved ones in a tree of their own.
public struct LocatedChanges: Sendable {
  /// Tree positions whose photos moved or went.
  public let hidden: Set<Int32>
  /// The photos added or moved, where they are now.
  public let added: SpatialIndex
  /// Their positions in `added` by id.
  let addedPositions: [Int64: Int]

  public static let none = LocatedChanges(hidden: [], added: SpatialIndex(points: []))

  init(hidden: Set<Int32>, added: SpatialIndex) {
    self.hidden = hidden
    self.added = added
    var positions: [Int64: Int] = [:]
    for (p, id) in added.ids.enumerated() { positions[id] = p }
    addedPositions = positions
  }

  public var isEmpty: Bool { hidden.isEmpty && added.isEmpty }
  /// How many photos the changes touch.
  public var count: Int { hidden.count + added.count }

  /// The rows changed since a tree was built, as a store reads them.
  public struct Rows: Sendable {
    /// Every photo whose row moved, went or came since: the tree's entry for it is outdated.
    public var ids: [Int64] = []
    /// Those that are located now.
    public var located: [LocatedRow] = []
    public init() {}
    public var isEmpty: Bool { ids.isEmpty && located.isEmpty }
  }

  /// A located photo as the tree keeps it.
  public struct LocatedRow: Sendable {
    public var id: Int64
    public var coordinate: Coordinate
    public var source: PhotoSource
    public var instant: Int64
    public var local: Int64
    public init(id: Int64, coordinate: Coordinate, source: PhotoSource, instant: Int64, local: Int64) {
      self.id = id
      self.coordinate = coordinate
      self.source = source
      self.instant = instant
      self.local = local
    }
  }

  /// `rows` over `tree`: the tree's entries of every changed photo hidden.
  public init(_ rows: Rows, over tree: SpatialIndex, positionsByID: Column<Int32>) {
    guard !rows.isEmpty else {
      self = .none
      return
    }
    var hidden = Set<Int32>()
    let sorted = positionsByID
    for id in rows.ids {
      var (lo, hi) = (0, sorted.count)
      while lo < hi {
        let mid = (lo + hi) / 2
        let p = Int(sorted[mid])
        if p >= 0 && p < tree.count && tree.ids[p] < id { lo = mid + 1 } else { hi = mid }
      }
      // Every entry with this id (one, unless a file was damaged).
      while lo < sorted.count, (0..<tree.count).contains(Int(sorted[lo])), tree.ids[Int(sorted[lo])] == id {
        hidden.insert(sorted[lo])
        lo += 1
      }
    }
    var vectors: [Double] = []
    for row in rows.located {
      let v = GreatCircle.unitVector(row.coordinate)
      vectors += [v.x, v.y, v.z]
    }
    let added = SpatialIndex(
      building: rows.located.map(\.id), vectors: vectors, tags: rows.located.map(\.source.code),
      instants: rows.located.map(\.instant), locals: rows.located.map(\.local))
    self.init(hidden: hidden, added: added)
  }
}
extension LocatedIndex: RadiusSearch {}

/// Located photos' rows gathered into a kd-tree, as a store reads them (id, position,
/// source, capture instant and wall clock).
public struct LocatedRows {
  private var ids: [Int64] = []
  private var vectors: [Double] = []
  private var tags: [UInt8] = []
  private var instants: [Int64] = []
  private var locals: [Int64] = []
  private var codes: [String: UInt8] = [:]

  public init() {}

  /// The id of the last row appended, for reading the next page after it.
  public var lastID: Int64? { ids.last }

  public mutating func append(
    id: Int64, latitude: Double, longitude: Double, source: String, instant: Int64?, local: Int64?
  ) {
    ids.append(id)
    let v = GreatCircle.unitVector(Coordinate(latitude: latitude, longitude: longitude))
    vectors.append(v.x)
    vectors.append(v.y)
    vectors.append(v.z)
    if let code = codes[source] {
      tags.append(code)
    } else {
      let code = PhotoSource(rawValue: source).code
      codes[source] = code
      tags.append(code)
    }
    instants.append(instant ?? PointTimes.none)
    locals.append(local ?? PointTimes.none)
  }

  /// The tree over every row appended.
  public func tree() -> SpatialIndex {
    SpatialIndex(building: ids, vectors: vectors, tags: tags, instants: instants, locals: locals)
  }
}

extension LocatedIndex {
  /// `contents` at `generation` with the rows changed since it was built (`changes(since:)`,
  /// read in the same transaction as `generation` and `current`); nil when it cannot serve:
  /// another database's file, one newer than the rows, or changes that are no longer known or
  /// too many to merge.
  public init?(
    merging contents: SpatialIndexFile.Contents, generation: Int64, current: SpatialIndexFile.Stamp,
    changes: (Int64) throws -> LocatedChanges.Rows?
  ) rethrows {
    guard contents.stamp.identity == current.identity, contents.stamp.generation <= current.generation,
      let changed = try changes(contents.stamp.generation), changed.ids.count <= DeltaPolicy().maximumChanges
    else { return nil }
    self.init(file: contents, generation: generation, changed: changed)
  }

  /// A store's located index kept in the file `url`: the file mapped (or `earlier`'s mapping
  /// when it is that file) and merged with the changes since it was built (`merge`, nil when
  /// it cannot serve), else built from the rows and written (`build`) and mapped; a tree that
  /// could not be written (a read-only folder) is used from memory.
  public static func kept(
    in url: URL, reusing earlier: SpatialIndexFile.Contents?,
    merge: (SpatialIndexFile.Contents) throws -> LocatedIndex?, build: () throws -> SpatialIndexFile.Built
  ) throws -> LocatedIndex {
    for _ in 0..<3 {
      let kept = SpatialIndexFile.stamp(at: url)
      // The earlier mapping serves while it is still the file there: one written again for
      // the same stamp (`check --repair`, or a build racing another) replaces it, and a
      // mapping kept of a replaced file would hold its pages and disk space.
      let reused = earlier.flatMap { kept == $0.stamp && $0.isMapped(from: url) ? $0 : nil }
      let contents = reused ?? (try? SpatialIndexFile.open(url))
      if let contents, let merged = try merge(contents) { return merged }
      let built = try build()
      if built.written == nil { return built.index }
    }
    throw StoreError(.cannotOpen, "the spatial index \(url.path) keeps changing while it is read")
  }
}

extension SpatialIndexFile {
  /// A tree built from the rows at `generation` and `stamp`, and whether it was written.
  public struct Built {
    /// The tree from memory, without clusters.
    public var index: LocatedIndex
    /// The stamp of the file written; nil when it could not be (`failure` says why).
    public var written: Stamp?
    public var failure: (any Error)?

    /// `tree` written to `url` (its folder made if need be) with the hierarchy over it.
    public init(_ tree: SpatialIndex, generation: Int64, stamp: Stamp, writingTo url: URL) {
      index = LocatedIndex(generation: generation, spatial: tree, stamp: stamp)
      do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try SpatialIndexFile.write(tree, stamp: stamp, to: url)
        written = stamp
      } catch {
        failure = error
      }
    }
  }
}
