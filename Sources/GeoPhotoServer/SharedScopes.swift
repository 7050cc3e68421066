public import GeoPhotoCore
import GeoPhotoShares
public import GeoPhotoStore
import GeoPhotoTravel
import Synchronization

/// The share links a server honours, read from the index: a request whose bearer token is a
/// link's sees only that link's photos (`ShareScope`), in every route that answers with
/// photos; other routes refuse it. The links are read again at most once a second, so a
/// revoked link stops working within a second; an expired one stops at once.
public final class ShareDirectory: Sendable {
  private let load: @Sendable () throws -> [Share]
  private let clock: @Sendable () -> Int64
  private let kept = Mutex<(shares: [String: Share], readAt: Int64?)>(([:], nil))

  /// `load` reads the links (the index's `shares()`); `clock` is seconds since 1970.
  public init(load: @escaping @Sendable () throws -> [Share], clock: @escaping @Sendable () -> Int64) {
    self.load = load
    self.clock = clock
  }

  /// The active link whose token is `token`, if any.
  func share(token: String) -> Share? {
    guard ShareToken.looksLikeToken(token) else { return nil }
    let hash = ShareToken.hash(token)
    let now = clock()
    var shares = kept.withLock { kept in kept.readAt.map { now - $0 < 1 } == true ? kept.shares : nil }
    if shares == nil {
      let read = (try? load()).map { Dictionary($0.map { ($0.tokenHash, $0) }, uniquingKeysWith: { a, _ in a }) }
      shares = read ?? kept.withLock { $0.shares }
      kept.withLock { $0 = (shares ?? [:], now) }
    }
    guard let share = shares?[hash], share.isActive(at: now) else { return nil }
    return share
  }
}

/// What a shared link lets its holder see: the photos of one trip, or of one filter, as a set
/// of ids (found once per index snapshot), put into every filter the request's answers use.
struct ShareScope: Sendable {
  var share: Share
  var ids: PhotoIDSet
}

extension LoadedIndex {
  /// The ids a link shares in this snapshot: its trip's photos (found as `finder` finds trips,
  /// named with `countryName` as every answer names them, limited by the link's filter), or
  /// its filter's located photos.
  func scope(of share: Share, finder: TripFinder, countryName: (String) -> String) throws -> ShareScope {
    if let known = scopes.withLock({ $0[share.id] }) { return ShareScope(share: share, ids: known) }
    // A filter that no longer reads (a newer geophoto's) shares nothing.
    let filter = (try? PhotoFilter { share.filterValues[$0.rawValue] }) ?? PhotoFilter(ids: PhotoIDSet([]))
    let ids: PhotoIDSet
    if let trip = share.trip {
      let passing = try datedIDs(passing: filter)
      let shown = try trips(for: filter, finder: finder, countryName: countryName).showing {
        self.isShown($0) && passing?.contains($0.id) != false
      }
      ids = PhotoIDSet(shown.trips.first { $0.id == trip }?.photoIDs ?? [])
    } else {
      ids = PhotoIDSet(try details.ids(passing: filter))
    }
    scopes.withLock { kept in
      if kept.count >= 64 { kept.removeAll() }
      kept[share.id] = ids
    }
    return ShareScope(share: share, ids: ids)
  }
}
