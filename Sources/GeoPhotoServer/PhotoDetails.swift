import GeoPhotoCore
public import GeoPhotoStore
import Synchronization

/// One photo as an answer shows it: its row and its files besides the primary one.
struct PhotoDetail: Sendable {
  var photo: Photo
  var members: [MemberFile]
}

/// Where a snapshot finds what its kd-tree does not hold (titles, places, files, cameras):
/// the store, by id, through a bounded cache; or photos handed over in memory.
///
/// The cache belongs to one snapshot. It is split into shards with a lock each; a shard that
/// is full starts over. A miss is read outside the locks, in one query for all the ids an
/// answer needs.
final class PhotoDetails: Sendable {
  enum Source: Sendable {
    case store(StorePool)
    case memory([Int64: PhotoDetail])
  }

  /// About 32 MB of photos.
  static let defaultCapacity = 32_768
  private static let shardCount = 16

  private final class Shard: Sendable {
    let details = Mutex<[Int64: PhotoDetail]>([:])
  }

  let source: Source
  private let shards: [Shard]
  private let shardCapacity: Int

  init(_ source: Source, capacity: Int = PhotoDetails.defaultCapacity) {
    self.source = source
    shards = (0..<Self.shardCount).map { _ in Shard() }
    shardCapacity = max(16, capacity / Self.shardCount)
  }

  private func shard(_ id: Int64) -> Shard { shards[Int(UInt64(bitPattern: id) % UInt64(Self.shardCount))] }

  /// The details of `ids` that still exist, by id.
  func details(_ ids: some Collection<Int64>) throws -> [Int64: PhotoDetail] {
    var found: [Int64: PhotoDetail] = [:]
    found.reserveCapacity(ids.count)
    var missing: [Int64] = []
    for id in ids {
      if let kept = shard(id).details.withLock({ $0[id] }) {
        found[id] = kept
      } else {
        missing.append(id)
      }
    }
    guard !missing.isEmpty else { return found }
    switch source {
    case .memory(let all):
      for id in missing { found[id] = all[id] }
    case .store(let pool):
      let read = try pool.withStore { store in
        let photos = try store.photos(ids: missing)
        let members = try store.memberFiles(of: photos.map(\.id))
        return photos.map { PhotoDetail(photo: $0, members: members[$0.id] ?? []) }
      }
      let capacity = shardCapacity
      for detail in read {
        found[detail.photo.id] = detail
        shard(detail.photo.id).details.withLock { kept in
          if kept.count >= capacity { kept.removeAll(keepingCapacity: true) }
          kept[detail.photo.id] = detail
        }
      }
    }
    return found
  }

  /// The ids of the located photos that pass `filter`, ascending.
  func ids(passing filter: PhotoFilter) throws -> [Int64] {
    switch source {
    case .memory(let all): return all.values.filter { filter.includes($0.photo) }.map(\.photo.id).sorted()
    case .store(let pool): return try pool.withStore { try $0.locatedIDs(passing: filter) }
    }
  }

  /// How many photos the cache holds.
  var cached: Int { shards.reduce(0) { sum, shard in sum + shard.details.withLock(\.count) } }
}

/// Stores opened on the index for requests, one per thread at a time, kept open for the next.
public final class StorePool: Sendable {
  /// Opens the index; nil when there is none.
  public typealias Opener = @Sendable () throws -> (any PhotoStore)?

  /// A store lent to one request at a time (stores are used by one thread at a time).
  private final class Lent: @unchecked Sendable {
    let store: any PhotoStore
    init(_ store: any PhotoStore) { self.store = store }
  }

  private let open: Opener
  private let idle = Mutex<[Lent]>([])
  /// The most stores kept open between requests.
  static let idleLimit = 8

  public init(open: @escaping Opener) { self.open = open }

  /// Runs `body` with a store of its own; a store that failed is closed rather than kept.
  func withStore<T>(_ body: (any PhotoStore) throws -> T) throws -> T {
    let lent: Lent
    if let kept = idle.withLock({ $0.popLast() }) {
      lent = kept
    } else {
      do {
        guard let store = try open() else {
          throw APIError.unavailable("the index is gone", detail: "the index is gone")
        }
        lent = Lent(store)
      } catch let error as APIError {
        throw error
      } catch {
        throw APIError.unavailable("the index cannot be opened", detail: "cannot open the index: \(error)")
      }
    }
    do {
      let result = try body(lent.store)
      idle.withLock { if $0.count < Self.idleLimit { $0.append(lent) } }
      return result
    } catch {
      throw APIError.unavailable("the index cannot be read", detail: "cannot read the index: \(error)")
    }
  }
}
