public import GeoPhotoCore
public import GeoPhotoStore

/// What one provider's fetch did.
public struct FetchReport: Equatable, Sendable {
  public var source: PhotoSource
  public var photos = 0
  public var added = 0
  public var updated = 0
  /// The area had been searched within the maximum age: no request was made.
  public var wasFresh = false

  public init(source: PhotoSource) { self.source = source }
}

/// Brings remote photos into the index.
///
/// A provider's whole answer is collected first and written in one transaction, upserted by
/// (source, source id): a re-fetch updates rather than duplicates, and a failure half way
/// leaves the index as it was. Searched areas are remembered so a repeat within `maxAge`
/// makes no request. With a `namer`, the photos' places are named in the same transaction.
public struct FetchEngine {
  public let store: any PhotoStore
  public let namer: (any PlaceNamer)?

  public init(store: any PhotoStore, namer: (any PlaceNamer)? = nil) {
    self.store = store
    self.namer = namer
  }

  /// Fetches unless an earlier search covers the area and is at most `maxAge` seconds old.
  public func fetch(
    _ provider: any PhotoProvider, center: Coordinate, radius: Double, limit: Int, maxAge: Double? = nil,
    now: IndexTime
  ) throws -> FetchReport {
    var report = FetchReport(source: provider.source)
    if let maxAge, maxAge > 0,
      try store.hasFetched(provider: provider.source, center: center, radius: radius, since: now.minus(maxAge))
    {
      report.wasFresh = true
      return report
    }
    let photos = try provider.search(center: center, radius: radius, limit: limit)
    try store.write {
      for photo in photos {
        var record = PhotoRecord(photo: photo)
        try record.name(with: namer)
        if try store.upsert(record, now: now).inserted {
          report.added += 1
        } else {
          report.updated += 1
        }
      }
      try store.recordFetchedArea(
        provider: provider.source, center: center, radius: radius, photos: photos.count, at: now)
      if let namer, try store.hasPhotosToPlace(gazetteer: namer.identity) { _ = try store.assignPlaces(with: namer) }
    }
    report.photos = photos.count
    try store.refreshDerivedIndexes()
    return report
  }
}
