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
}
