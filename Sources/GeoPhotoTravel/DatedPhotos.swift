public import GeoPhotoCore
public import GeoPhotoStore

/// The photos places visited and trips are found among, read from an index.
public enum DatedPhotos {
  /// `filter` as places and trips take it: the photographer's own photos (local ones) unless
  /// it names sources.
  public static func travelFilter(_ filter: PhotoFilter) -> PhotoFilter {
    var filter = filter
    if filter.sources == nil { filter.sources = [.local] }
    return filter
  }

  /// Every dated photo of `store` passing `travelFilter(filter)`, located or not, and only
  /// those `isShown` admits (a server's privacy zones hide some).
  public static func read(
    from store: any PhotoReading, passing filter: PhotoFilter, isShown: (DatedPhoto) -> Bool = { _ in true }
  ) throws -> [DatedPhoto] {
    var photos: [DatedPhoto] = []
    try store.forEachDatedPhoto(passing: travelFilter(filter)) { if isShown($0) { photos.append($0) } }
    return photos
  }

  /// Every dated photo of the sources `filter` names (local ones unless it names some): what
  /// trips are found over, whatever else the filter says, since home is found from all of them.
  public static func timeline(from store: any PhotoReading, sources filter: PhotoFilter) throws -> [DatedPhoto] {
    try read(from: store, passing: PhotoFilter(sources: travelFilter(filter).sources))
  }

  /// The ids of the dated photos passing `filter`; nil when it says no more than which
  /// sources (every photo of the timeline passes).
  public static func ids(from store: any PhotoReading, passing filter: PhotoFilter) throws -> Set<Int64>? {
    var rest = travelFilter(filter)
    rest.sources = nil
    guard !rest.isEmpty else { return nil }
    var ids = Set<Int64>()
    try store.forEachDatedPhoto(passing: travelFilter(filter)) { ids.insert($0.id) }
    return ids
  }
}
