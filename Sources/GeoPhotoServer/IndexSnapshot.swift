import Foundation
public import GeoPhotoCore
public import GeoPhotoStore
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
public final class IndexSnapshot: Sendable {
  public let generation: Int64
  /// Located photos outside every privacy zone, by ascending id; positions are dense indexes.
  public let photos: [Photo]
  /// The kd-tree over dense indexes (not photo ids).
  let spatial: SpatialIndex
  let clusters: ClusterIndex
  let indexByID: [Int64: Int32]
  /// The files of photos with more than one (RAW, Live Photo video, sidecars), by photo id.
  let members: [Int64: [MemberFile]]
  /// Cluster hierarchies of filtered sets, most recently used last (a few, so memory stays
  /// bounded; each is rebuilt the same way when it is needed again).
  private let filteredClusters = Mutex<[(PhotoFilter, ClusterView)]>([])
  static let filteredClusterCacheSize = 8
  /// Spatial indexes of selective filters (those keeping at most half the photos), most
  /// recently used last: a filter a map client repeats is searched over its own photos only.
  private let filteredIndexes = Mutex<[(PhotoFilter, SpatialIndex?)]>([])
  /// The searched text of every photo, built on the first text filter.
  private let documents = Mutex<SearchDocuments?>(nil)
  /// Photos as pre-encoded annotations, made as answers need them.
  let fragments = AnnotationFragments()

  public init(
    generation: Int64, photos: [Photo], members: [Int64: [MemberFile]] = [:], privacyZones: [PrivacyZone] = []
  ) {
    let visible = photos.filter { photo in
      guard let c = photo.coordinate else { return false }
      return !privacyZones.contains { $0.contains(c) }
    }
    self.generation = generation
    self.photos = visible
    let coordinates = visible.compactMap(\.coordinate)
    spatial = SpatialIndex(points: coordinates.enumerated().map { (Int64($0.offset), $0.element) })
    clusters = ClusterIndex(points: coordinates)
    var byID: [Int64: Int32] = [:]
    byID.reserveCapacity(visible.count)
    for (i, p) in visible.enumerated() { byID[p.id] = Int32(i) }
    indexByID = byID
    self.members = members
  }

  /// Reads the located photos of `store` and builds their indexes.
  public convenience init(store: any PhotoStore, privacyZones: [PrivacyZone] = []) throws {
    let (generation, photos) = try store.locatedPhotos()
    self.init(
      generation: generation, photos: photos, members: try store.memberFiles(of: nil), privacyZones: privacyZones)
  }

  public static let empty = IndexSnapshot(generation: 0, photos: [])

  func photo(id: Int64) -> Photo? { indexByID[id].map { photos[Int($0)] } }

  /// The clusters of the photos `filter` takes, with supercluster's semantics over exactly
  /// those photos: the whole set's hierarchy when the filter takes every photo.
  public func clusters(for filter: PhotoFilter) -> ClusterView {
    if filter.isEmpty { return ClusterView(clusters: clusters, positions: nil) }
    if let cached = filteredClusters.withLock({ cache -> ClusterView? in
      guard let i = cache.firstIndex(where: { $0.0 == filter }) else { return nil }
      let entry = cache.remove(at: i)
      cache.append(entry)
      return entry.1
    }) {
      return cached
    }
    let positions = self.positions(passing: filter)
    let view = ClusterView(
      clusters: ClusterIndex(points: positions.compactMap { photos[$0].coordinate }), positions: positions)
    filteredClusters.withLock { cache in
      cache.removeAll { $0.0 == filter }
      cache.append((filter, view))
      if cache.count > Self.filteredClusterCacheSize { cache.removeFirst(cache.count - Self.filteredClusterCacheSize) }
    }
    return view
  }

  /// A local photo's files with their roles; none for remote photos.
  func files(of photo: Photo) -> [PhotoFile] {
    photo.source == .local ? PhotoFile.all(of: photo, members: members[photo.id] ?? []) : []
  }

  /// The photos nearest to the query's centre that pass its filter: neighbours whose ids are
  /// positions in `photos`. A selective filter is answered from its own index (built on first
  /// use and kept for the next queries); a broad one tests each candidate.
  public func nearest(_ query: NearQuery) -> [Neighbor] {
    let filter = query.filter
    if !filter.isEmpty, let own = filteredIndex(for: filter) {
      return own.nearest(to: query.center, limit: query.limit, maximumDistance: query.radius)
    }
    let (photos, spatial) = (self.photos, self.spatial)
    return spatial.nearest(
      to: query.center, limit: query.limit, maximumDistance: query.radius,
      where: filter.isEmpty ? nil : { filter.includes(photos[Int(spatial.ids[$0])]) })
  }

  /// The index of the photos `filter` takes (ids are positions in `photos`), or nil when the
  /// filter keeps more than half of them.
  func filteredIndex(for filter: PhotoFilter) -> SpatialIndex? {
    if let cached = filteredIndexes.withLock({ cache -> SpatialIndex?? in
      guard let i = cache.firstIndex(where: { $0.0 == filter }) else { return nil }
      let entry = cache.remove(at: i)
      cache.append(entry)
      return .some(entry.1)
    }) {
      return cached
    }
    var points: [(id: Int64, coordinate: Coordinate)] = []
    for i in positions(passing: filter) {
      if let c = photos[i].coordinate { points.append((Int64(i), c)) }
    }
    // A text filter is too dear to test candidate by candidate: it always gets its own.
    let own = points.count <= photos.count / 2 || filter.text != nil ? SpatialIndex(points: points) : nil
    filteredIndexes.withLock { cache in
      cache.removeAll { $0.0 == filter }
      cache.append((filter, own))
      if cache.count > Self.filteredClusterCacheSize { cache.removeFirst(cache.count - Self.filteredClusterCacheSize) }
    }
    return own
  }
}

extension IndexSnapshot {
  /// The positions of the photos `filter` takes, ascending: a text part through the
  /// snapshot's documents (built on first use), the rest photo by photo.
  func positions(passing filter: PhotoFilter) -> [Int] {
    guard let text = filter.text else { return photos.indices.filter { filter.includes(photos[$0]) } }
    let rest = filter.withoutText
    return documents.withLock { documents in
      if documents == nil { documents = SearchDocuments(photos.lazy.map(\.searchDocument)) }
      return documents?.positions(matching: text) ?? []
    }.filter { rest.includes(photos[$0]) }
  }
}

/// A cluster hierarchy over some of a snapshot's photos: point `i` of `clusters` is photo
/// `positions[i]` of the snapshot (every photo, in order, when `positions` is nil).
public struct ClusterView: Sendable {
  public let clusters: ClusterIndex
  let positions: [Int]?

  func photoPosition(_ point: Int) -> Int { positions.map { $0[point] } ?? point }
}

/// Holds the current snapshot and replaces it when the index changes.
///
/// A background thread checks the index generation every `interval` seconds with its own
/// connection; when it moved (a `sync` or `fetch` ran, here or on another host sharing the
/// database) it builds a new snapshot off to the side and swaps it in. Requests in flight
/// keep the snapshot they started with. A failed check (the database restarting) keeps the
/// current snapshot and tries again at the next tick.
public final class SnapshotHolder: Sendable {
  /// Opens the index for one check; nil when there is none yet.
  public typealias Opener = @Sendable () throws -> (any PhotoStore)?

  private let current: Mutex<IndexSnapshot>
  private let running = Mutex(true)
  let open: Opener
  let privacyZones: [PrivacyZone]

  public init(privacyZones: [PrivacyZone] = [], initial: IndexSnapshot = .empty, open: @escaping Opener) {
    ProcessMemory.keepLargeBlocksApart()
    self.open = open
    self.privacyZones = privacyZones
    current = Mutex(initial)
  }

  public var snapshot: IndexSnapshot { current.withLock { $0 } }

  /// Loads the index now if it changed; returns the new snapshot's generation when it did.
  @discardableResult
  public func refresh() throws -> Int64? {
    guard let store = try open() else { return nil }
    let generation = try store.generation()
    guard generation != snapshot.generation else { return nil }
    let fresh = try IndexSnapshot(store: store, privacyZones: privacyZones)
    current.withLock { $0 = fresh }
    return fresh.generation
  }

  /// Starts the background check; `report` hears about reloads and failures.
  public func watch(interval: Double, report: @escaping @Sendable (String) -> Void) {
    let thread = Thread { [self] in
      var reloaded = false
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
            report("index reloaded: generation \(generation), \(snapshot.photos.count) photos in \(ms) ms")
            reloaded = true
          }
        } catch {
          report("index reload failed (still serving generation \(snapshot.generation)): \(error)")
        }
      }
    }
    thread.start()
  }

  public func stopWatching() { running.withLock { $0 = false } }
}
