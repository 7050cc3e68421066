import Foundation
public import GeoPhotoCore
public import GeoPhotoStore
import GeoPhotoTravel
import Synchronization

/// A circle whose photos the server never shows (a home, a school).
public struct PrivacyZone: Equatable, Sendable {
  public var center: Coordinate
  public var radius: Double

  public init(center: Coordinate, radius: Double) {
    self.center = center
    self.radius = radius
  }

  public func contains(_ c: Coordinate) -> Bool { GreatCircle.distance(center, c) <= radius }
}

/// Everything the server answers from, built once per index generation and never changed:
/// requests read one snapshot from start to end, so none sees a half-built index.
///
/// It holds what queries search, not the photos: the located index (the kd-tree's ids,
/// positions, sources and capture times, mapped from the spatial index file, with the photos
/// changed since it was built; a photo's *position* is its place there) and the cluster
/// hierarchy over the same points. Titles, places and files come from the store by id when an
/// answer shows them (`PhotoDetails`, a bounded cache), and whole annotations from
/// `AnnotationFragments`.
public final class LoadedIndex: Sendable {
  public let generation: Int64
  /// The located photos: ids are photo ids, tags their source codes.
  let located: LocatedIndex
  /// Whether answers show the photo at each position (false inside a privacy zone); nil
  /// when no photo is in one.
  private let shown: [Bool]?
  /// How many photos answers can show (those outside every privacy zone).
  public let count: Int
  /// The privacy zones applied, as a number for ETags: the same index under other zones
  /// answers otherwise.
  let zonesVariant: UInt64
  /// The cluster hierarchy of every photo shown.
  let clusters: ClusterView
  /// Titles, places, files: everything the tree does not hold.
  let details: PhotoDetails
  /// Cluster hierarchies of recent filters, built once per filter at a time.
  private let filteredClusters: FilterBuilds<ClusterView>
  /// The photos of recent filters: a selective filter (one keeping at most
  /// half the photos, or any text filter) gets a spatial index of its own, so a filter a map
  /// client repeats is searched over its own photos only; a broad one a mask over positions.
  private let filteredSets: FilterBuilds<FilteredSet>
  /// The bounds of the photos shown, found on first use.
  private let extent = Mutex<BoundingBox??>(nil)
  /// Photos as pre-encoded annotations, made as answers need them.
  let fragments = AnnotationFragments()
  /// The privacy zones whose photos answers never show.
  let privacyZones: [PrivacyZone]
  /// Every dated photo of a set of sources, read once per snapshot: what trips and places
  /// visited are found from.
  private let timelines = Mutex<[Set<PhotoSource>: [DatedPhoto]]>([:])
  /// The trips found in a timeline, once per snapshot, by the sources and the finder.
  private let foundTrips = Mutex<[TripSearch: FoundTrips]>([:])
  /// The photos each share link in use shows in this snapshot, by the link's id.
  let scopes = Mutex<[String: PhotoIDSet]>([:])

  private enum FilteredSet: Sendable {
    case own(SpatialIndex)
    case mask([Bool])
  }

  /// The cluster hierarchy over `located`'s photos shown: the store's (the file's) with the
  /// changes since it was built merged in; built here when the store keeps none, or when
  /// privacy zones hide photos (the hierarchy is then of the photos shown).
  init(located: LocatedIndex, details: PhotoDetails, privacyZones: [PrivacyZone], builds: BuildSlots) {
    generation = located.generation
    self.privacyZones = privacyZones
    self.located = located
    self.details = details
    // The builds kept take at most 150 bytes a photo of the index (128 MB at least), and 8
    // filters.
    let budget = max(128 << 20, 150 * located.positionCount)
    filteredClusters = FilterBuilds(slots: builds, budget: budget)
    filteredSets = FilterBuilds(slots: builds, budget: budget)
    var shown: [Bool]?
    if !privacyZones.isEmpty {
      let outside = (0..<located.positionCount).map { p in
        !privacyZones.contains { $0.contains(located.coordinate(at: p)) }
      }
      if located.positions.contains(where: { !outside[$0] }) { shown = outside }
    }
    self.shown = shown
    zonesVariant = Checksum.of(
      privacyZones.map { "\($0.center.latitude),\($0.center.longitude),\($0.radius)" }.joined(separator: ";"))
    count = shown.map { shown in located.positions.reduce(0) { $0 + (shown[$1] ? 1 : 0) } } ?? located.count
    if shown != nil || (located.clusters == nil && !located.changes.isEmpty) {
      let positions = located.positions.filter { shown?[$0] != false }
      clusters = ClusterView(
        clusters: ClusterIndex(points: positions.map(located.coordinate(at:))), positions: positions)
    } else {
      let base = located.clusters ?? ClusterIndex(pointsOf: located.spatial)
      let changes = located.changes
      var merged: MergedChanges?
      if !changes.isEmpty {
        let offset = located.spatial.count
        merged = MergedChanges(
          clusters: base, hidden: changes.hidden,
          added: (0..<changes.added.count).map { (offset + $0, changes.added.coordinate(at: $0)) },
          coordinate: { located.coordinate(at: $0) })
      }
      clusters = ClusterView(clusters: base, positions: nil, changes: merged)
    }
  }

  /// A snapshot of photos held in memory (tests, benchmarks): the same indexes as the store's.
  public convenience init(
    generation: Int64, photos: [Photo], members: [Int64: [MemberFile]] = [:], privacyZones: [PrivacyZone] = [],
    builds: BuildSlots = BuildSlots()
  ) {
    let located = photos.filter { $0.coordinate != nil }
    var vectors: [Double] = []
    vectors.reserveCapacity(3 * located.count)
    for photo in located {
      let v = GreatCircle.unitVector(photo.coordinate ?? Coordinate(latitude: 0, longitude: 0))
      vectors += [v.x, v.y, v.z]
    }
    let times = located.map { PointTimes.values($0.takenAt) }
    let spatial = SpatialIndex(
      building: located.map(\.id), vectors: vectors, tags: located.map(\.source.code), instants: times.map(\.instant),
      locals: times.map(\.local))
    let details = Dictionary(
      located.map { ($0.id, PhotoDetail(photo: $0, members: members[$0.id] ?? [])) }, uniquingKeysWith: { a, _ in a })
    self.init(
      located: LocatedIndex(generation: generation, spatial: spatial), details: PhotoDetails(.memory(details)),
      privacyZones: privacyZones, builds: builds)
  }

  /// The located index from `store` (SQLite's spatial index file beside the index, mapped,
  /// or `earlier`'s mapping of it when it is the same file), with details read through `pool`
  /// as answers need them.
  public convenience init(
    store: any PhotoStore, pool: StorePool, privacyZones: [PrivacyZone] = [], reusing earlier: LoadedIndex? = nil,
    builds: BuildSlots = BuildSlots()
  ) throws {
    let located = try store.locatedIndex(reusing: earlier?.located.file)
    self.init(located: located, details: PhotoDetails(.store(pool)), privacyZones: privacyZones, builds: builds)
  }

  public static let empty = LoadedIndex(generation: 0, photos: [])

  /// Photos changed since the spatial index file was built, merged at query time.
  public var changeCount: Int { located.changes.count }

  /// Whether the photo at `position` is one answers show.
  @inline(__always)
  private func isShown(_ position: Int) -> Bool { !located.isHidden(position) && shown?[position] != false }

  /// Where the photo at `position` is.
  func coordinate(at position: Int) -> Coordinate { located.coordinate(at: position) }

  /// The photo id at `position`.
  func id(at position: Int) -> Int64 { located.id(at: position) }

  /// Whether the photo at `position` is a local one (its source, from the tree).
  func isLocal(at position: Int) -> Bool { located.tag(at: position) == PhotoSource.local.code }

  /// The position of the photo `id`, when answers can show it.
  func position(of id: Int64) -> Int? {
    guard let position = located.position(of: id), shown?[position] != false else { return nil }
    return position
  }

  /// The photo `id` with its files, when answers can show it.
  func detail(id: Int64) throws -> PhotoDetail? {
    guard located.position(of: id) == nil else {
      guard position(of: id) != nil else { return nil }
      return try details.details([id])[id]
    }
    // A photo without a position (not in the tree; no privacy zone can hold it): the Unplaced
    // list and trips show it.
    guard let detail = try details.details([id])[id], detail.photo.coordinate == nil else { return nil }
    return detail
  }

  /// The details of the photos `ids` (all shown ones), by id; a photo removed from the index
  /// since this snapshot was made is absent until the next one.
  func details(_ ids: some Collection<Int64>) throws -> [Int64: PhotoDetail] { try details.details(ids) }

  /// A local photo's files with their roles; none for remote photos.
  func files(of detail: PhotoDetail) -> [PhotoFile] {
    detail.photo.source == .local ? PhotoFile.all(of: detail.photo, members: detail.members) : []
  }

  /// Every dated photo of `sources`, located or not, in privacy zones too (home is found from
  /// all of them; answers show only `isShown` ones), read once per snapshot.
  func timeline(sources: Set<PhotoSource>) throws -> [DatedPhoto] {
    if let known = timelines.withLock({ $0[sources] }) { return known }
    let photos: [DatedPhoto]
    switch details.source {
    case .store(let pool):
      photos = try pool.withStore { try DatedPhotos.timeline(from: $0, sources: PhotoFilter(sources: sources)) }
    case .memory(let all):
      var shared: [PlaceName: SharedPlace] = [:]
      photos = all.values.compactMap { detail in
        let p = detail.photo
        guard sources.contains(p.source), let taken = p.takenAt else { return nil }
        let local = Int64(taken.localSecondsSinceEpoch)
        return DatedPhoto(
          id: p.id, coordinate: p.coordinate, instant: taken.instant.map(Int64.init) ?? local, localTime: local,
          sharedPlace: p.place.map { place in
            if let known = shared[place] { return known }
            let new = SharedPlace(place)
            shared[place] = new
            return new
          })
      }
    }
    timelines.withLock { kept in
      // A few sets of sources at most; the usual one is local photos alone.
      if kept.count >= 4 { kept.removeAll() }
      kept[sources] = photos
    }
    return photos
  }

  /// What trips are found for: the sources of the timeline and the finder's rules.
  private struct TripSearch: Hashable {
    var sources: Set<PhotoSource>
    var finder: TripFinder
  }

  /// The homes and trips `finder` finds in the timeline of the sources `filter` names (local
  /// photos unless it names some), found once per snapshot; answers limit them to what they
  /// show (`FoundTrips.showing`).
  func trips(for filter: PhotoFilter, finder: TripFinder, countryName: (String) -> String) throws -> FoundTrips {
    let key = TripSearch(sources: DatedPhotos.travelFilter(filter).sources ?? [.local], finder: finder)
    if let known = foundTrips.withLock({ $0[key] }) { return known }
    let found = finder.find(in: try timeline(sources: key.sources), countryName: countryName)
    foundTrips.withLock { kept in
      if kept.count >= 4 { kept.removeAll() }
      kept[key] = found
    }
    return found
  }

  /// The ids of the dated photos passing `filter`, nil when it says no more than sources.
  func datedIDs(passing filter: PhotoFilter) throws -> Set<Int64>? {
    switch details.source {
    case .store(let pool): return try pool.withStore { try DatedPhotos.ids(from: $0, passing: filter) }
    case .memory(let all):
      var rest = DatedPhotos.travelFilter(filter)
      rest.sources = nil
      guard !rest.isEmpty else { return nil }
      let full = DatedPhotos.travelFilter(filter)
      return Set(all.values.filter { full.includes($0.photo) }.map(\.photo.id))
    }
  }

  /// The local photos without a position, by capture time (undated first): from the store
  /// (a snapshot held in memory holds only located photos, so none).
  func unplacedPhotos() throws -> [Photo] {
    switch details.source {
    case .store(let pool): return try pool.withStore { try $0.localPhotos(under: nil, .unplaced) }
    case .memory: return []
    }
  }

  /// Whether answers may show `photo`: not inside a privacy zone.
  func isShown(_ photo: DatedPhoto) -> Bool {
    guard let c = photo.coordinate else { return true }
    return !privacyZones.contains { $0.contains(c) }
  }

  /// The smallest box around every photo shown, nil when there is none.
  var bounds: BoundingBox? {
    if let known = extent.withLock({ $0 }) { return known }
    var box: BoundingBox?
    for p in 0..<located.positionCount where isShown(p) {
      let c = coordinate(at: p)
      if var b = box {
        b.south = min(b.south, c.latitude)
        b.north = max(b.north, c.latitude)
        b.west = min(b.west, c.longitude)
        b.east = max(b.east, c.longitude)
        box = b
      } else {
        box = BoundingBox(west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude)
      }
    }
    extent.withLock { $0 = .some(box) }
    return box
  }

  /// The clusters of the photos `filter` takes, with supercluster's semantics over exactly
  /// those photos: the whole set's hierarchy when the filter takes every photo.
  public func clusters(for filter: PhotoFilter) throws -> ClusterView {
    if filter.isEmpty { return clusters }
    return try filteredClusters.value(for: filter) {
      let positions = try self.positions(passing: filter)
      let clusters = ClusterIndex(points: positions.map(coordinate(at:)))
      let bytes = clusters.levels.reduce(8 * positions.count) { $0 + $1.byteCount }
      return (ClusterView(clusters: clusters, positions: positions), bytes)
    }
  }

  /// Whether answering for `filter` may wait for a build (nothing kept for it yet): such a
  /// request is answered off the transport's threads.
  func needsBuild(clustersFor filter: PhotoFilter) -> Bool {
    !filter.isEmpty && filteredClusters.cached(filter) == nil
  }

  func needsBuild(nearestFor filter: PhotoFilter) -> Bool { !filter.isEmpty && filteredSets.cached(filter) == nil }

  /// The photos nearest to the query's centre that pass its filter (ids are photo ids). A
  /// selective filter is answered from its own index (built on first use and kept for the
  /// next queries); a broad one tests each candidate.
  public func nearest(_ query: NearQuery) throws -> [Neighbor] {
    let filter = query.filter
    let mask: [Bool]?
    if filter.isEmpty {
      mask = shown
    } else {
      switch try filteredSet(for: filter) {
      case .own(let own): return own.nearest(to: query.center, limit: query.limit, maximumDistance: query.radius)
      case .mask(let kept): mask = kept
      }
    }
    return located.nearest(
      to: query.center, limit: query.limit, maximumDistance: query.radius, where: mask.map { m in { m[$0] } })
  }

  private func filteredSet(for filter: PhotoFilter) throws -> FilteredSet {
    try filteredSets.value(for: filter) {
      let positions = try self.positions(passing: filter)
      // A text filter is too dear to test candidate by candidate: it always gets its own.
      if positions.count <= located.count / 2 || filter.text != nil {
        // Unit vectors, ids, tags and times: about 64 bytes a photo.
        return (.own(located.subset(positions)), 64 * positions.count)
      }
      var mask = [Bool](repeating: false, count: located.positionCount)
      for p in positions { mask[p] = true }
      return (.mask(mask), located.positionCount)
    }
  }
}

extension LoadedIndex {
  /// The positions of the photos shown that `filter` takes, ascending: sources and times from
  /// the tree, a camera or text part from the store's own indexes.
  func positions(passing filter: PhotoFilter) throws -> [Int] {
    let table = filter.sourceCodeTable
    let window = filter.time.map(TimeWindow.init)
    let ids = filter.ids
    func passesTree(_ p: Int) -> Bool {
      guard isShown(p), table[Int(located.tag(at: p))] else { return false }
      if let ids, !ids.contains(located.id(at: p)) { return false }
      guard let window else { return true }
      let time = located.time(at: p)
      return window.matches(instant: time.instant, local: time.local)
    }
    guard filter.camera != nil || filter.text != nil || filter.place != nil else {
      return (0..<located.positionCount).filter(passesTree)
    }
    return try details.ids(passing: filter).compactMap { located.position(of: $0) }.filter(passesTree).sorted()
  }
}

/// Holds the current snapshot and replaces it when the index changes.
///
/// A background thread checks the index generation every `interval` seconds with its own
/// connection; when it moved (a `sync` or `fetch` ran, here or on another host sharing the
/// database) it builds a new snapshot off to the side and swaps it in. Requests in flight
/// keep the snapshot they started with. A failed check (the database restarting) keeps the
/// current snapshot and tries again at the next tick.
///
/// A snapshot that merges photos changed since the spatial index file was built (a small
/// sync of a large index) is exact, but pays a little for every change; once the index has
/// been quiet for `rebuildDelay` seconds, another thread builds the file again and the next
/// snapshot maps it.
public final class LoadedIndexHolder: Sendable {
  /// Opens the index for one check; nil when there is none yet.
  public typealias Opener = @Sendable () throws -> (any PhotoStore)?

  private let current: Mutex<LoadedIndex>
  private let running = Mutex(true)
  let open: Opener
  let privacyZones: [PrivacyZone]
  /// Builds for filters running at once, across snapshots.
  public let builds: BuildSlots
  /// The stores requests read photos' details with, shared by every snapshot.
  let stores: StorePool
  /// How long the index stays unchanged before a file behind it is built again.
  let rebuildDelay: Double
  /// The file build in progress, if any, and the stamp a failed one was for.
  private let rebuild = Mutex<(running: Bool, failedAt: Int64?)>((false, nil))

  public init(
    privacyZones: [PrivacyZone] = [], initial: LoadedIndex = .empty, rebuildDelay: Double = 10,
    builds: BuildSlots = BuildSlots(), open: @escaping Opener
  ) {
    ProcessMemory.keepLargeBlocksApart()
    self.open = open
    self.privacyZones = privacyZones
    self.builds = builds
    self.rebuildDelay = rebuildDelay
    stores = StorePool(open: open)
    current = Mutex(initial)
  }

  public var snapshot: LoadedIndex { current.withLock { $0 } }

  /// Loads the index now if it changed (or, with `force`, in any case); returns the new
  /// snapshot's generation when it did.
  @discardableResult
  public func refresh(force: Bool = false) throws -> Int64? {
    guard let store = try open() else { return nil }
    let generation = try store.generation()
    let earlier = snapshot
    guard force || generation != earlier.generation else { return nil }
    let fresh = try LoadedIndex(
      store: store, pool: stores, privacyZones: privacyZones, reusing: earlier, builds: builds)
    current.withLock { $0 = fresh }
    if let file = fresh.located.file, file.bytes !== earlier.located.file?.bytes { verify(file) }
    return fresh.generation
  }

  /// Where reloads, rebuilds and failures are told (the access log), once `watch` starts.
  private let reporter = Mutex<(@Sendable (String) -> Void)?>(nil)

  /// Reads a newly mapped spatial index file through on a thread of its own (a checksum of
  /// every byte: opening it checked only its layout). A damaged file is built again from the
  /// rows and the next snapshot maps that.
  private func verify(_ file: SpatialIndexFile.Contents) {
    let thread = Thread { [self] in
      guard !SpatialIndexFile.verify(file) else { return }
      let silent: @Sendable (String) -> Void = { _ in }
      let report = reporter.withLock { $0 } ?? silent
      report("the spatial index is damaged (its checksum does not match); building it again from the rows")
      rebuildInBackground(always: true, report: report)
    }
    thread.start()
  }

  /// Starts the background check; `report` hears about reloads and failures.
  public func watch(interval: Double, report: @escaping @Sendable (String) -> Void) {
    reporter.withLock { $0 = report }
    let thread = Thread { [self] in
      var reloaded = false
      var lastChange = Date()
      while running.withLock({ $0 }) {
        Thread.sleep(forTimeInterval: interval)
        if reloaded {
          // The replaced snapshot is gone once the requests that held it have finished (a
          // tick later): its pages go back to the system rather than staying in the
          // allocator's free lists, so memory stays flat over many reloads.
          ProcessMemory.releaseFreed()
          reloaded = false
        }
        let started = Date()
        do {
          if let generation = try refresh() {
            let ms = Int(Date().timeIntervalSince(started) * 1000)
            let merged = snapshot.changeCount
            report(
              "index reloaded: generation \(generation), \(snapshot.count) photos in \(ms) ms"
                + (merged > 0 ? " (\(merged) changed since the spatial index was built, merged)" : ""))
            reloaded = true
            lastChange = Date()
          }
        } catch {
          report("index reload failed (still serving generation \(snapshot.generation)): \(error)")
        }
        if snapshot.changeCount > 0, Date().timeIntervalSince(lastChange) >= rebuildDelay {
          rebuildInBackground(report: report)
        }
      }
    }
    thread.start()
  }

  /// Builds the spatial index file again on a thread of its own (when it is behind the rows, or
  /// `always`), then maps it; at most one at a time, and not again for a generation whose
  /// build failed (a read-only folder).
  private func rebuildInBackground(always: Bool = false, report: @escaping @Sendable (String) -> Void) {
    let generation = snapshot.generation
    let start = rebuild.withLock { state -> Bool in
      guard !state.running, always || state.failedAt != generation else { return false }
      state.running = true
      return true
    }
    guard start else { return }
    let thread = Thread { [self] in
      defer { rebuild.withLock { $0.running = false } }
      let started = Date()
      do {
        guard let store = try open(), try store.rebuildSpatialFile(always: always) else { return }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        if let generation = try refresh(force: true) {
          report("spatial index built again in \(seconds) s: generation \(generation), \(snapshot.count) photos")
        }
        ProcessMemory.releaseFreed()
      } catch {
        rebuild.withLock { $0.failedAt = generation }
        report("the spatial index could not be built again (answers still merge the changes): \(error)")
      }
    }
    thread.start()
  }

  public func stopWatching() { running.withLock { $0 = false } }
}
