import Foundation
public import GeoPhotoCore

/// A link that shares one trip or one filter's photos, and nothing else: kept in the index
/// with its token hashed (the token itself is shown once, when the link is made).
public struct Share: Hashable, Sendable {
  /// A short id for `share list` and `share revoke`.
  public var id: String
  public var name: String
  /// The token's SHA-256, in hex.
  public var tokenHash: String
  /// The trip shared, by its id; nil for a filter's photos.
  public var trip: String?
  /// The filter, as query parameters (`source=local&since=2024`); empty for every photo (of
  /// the trip, when there is one).
  public var filter: String
  /// Seconds since 1970.
  public var created: Int64
  public var expires: Int64?
  public var revoked: Int64?

  public init(
    id: String, name: String, tokenHash: String, trip: String?, filter: String, created: Int64, expires: Int64?,
    revoked: Int64? = nil
  ) {
    self.id = id
    self.name = name
    self.tokenHash = tokenHash
    self.trip = trip
    self.filter = filter
    self.created = created
    self.expires = expires
    self.revoked = revoked
  }

  /// Whether the link lets anyone in at `now` (seconds since 1970): not revoked, not expired.
  public func isActive(at now: Int64) -> Bool { revoked == nil && expires.map { now < $0 } ?? true }

  /// The filter's values by field, as the command line and the API read them.
  public var filterValues: [String: String] {
    var values: [String: String] = [:]
    for pair in filter.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let name = String(parts[0])
      let value = String(parts[1]).removingPercentEncoding ?? String(parts[1])
      values[name] = values[name].map { $0 + "," + value } ?? value
    }
    return values
  }

  /// The columns of the `shares` table, in the order rows are read.
  public static let columnList = "id, name, token_hash, trip, filter, created, expires, revoked"

  public init?(row: some PhotoRow) {
    guard let id = row.text(at: 0), let hash = row.text(at: 2), let created = row.int64(at: 5) else { return nil }
    self.init(
      id: id, name: row.text(at: 1) ?? "", tokenHash: hash, trip: row.text(at: 3), filter: row.text(at: 4) ?? "",
      created: created, expires: row.int64(at: 6), revoked: row.int64(at: 7))
  }

  /// The values of an INSERT of every column, in `columnList`'s order.
  public var values: [StoreValue] {
    [
      .text(id), .text(name), .text(tokenHash), StoreValue(trip), .text(filter), .integer(created),
      StoreValue(expires), StoreValue(revoked),
    ]
  }
}

/// The share links an index keeps.
public protocol ShareLinks: AnyObject {
  /// Keeps a new link.
  func addShare(_ share: Share) throws
  /// Every link, the newest first.
  func shares() throws -> [Share]
  /// Marks the link `id` revoked at `time`; false when there is no such link (or it was
  /// revoked before).
  func revokeShare(id: String, at time: Int64) throws -> Bool
}
