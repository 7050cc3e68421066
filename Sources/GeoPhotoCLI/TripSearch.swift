import GeoPhotoCore
import GeoPhotoStore
import GeoPhotoTravel

/// Trips as the commands find them: the `trips.*` settings (home, away, gap, fewest photos)
/// over the index's dated photos, so `trips`, `export --trip` and `snapshot --trip` agree on
/// every trip and its id.
enum TripSearch {
  /// The finder the settings describe; a home named by place is looked up in the gazetteer.
  static func finder(_ context: CommandContext) throws -> TripFinder {
    let trips = context.configuration.trips
    guard trips.home.lowercased() != "auto" else { return TripFinder(rules: trips.rules, home: .auto) }
    let home = try PlaceNames.coordinate(trips.home, context)
    return TripFinder(rules: trips.rules, home: .fixed(home, label: trips.home))
  }

  /// Country names by code, from the gazetteer (codes stand for themselves without one).
  static func countryNames(_ context: CommandContext) throws -> [String: String] {
    try PlaceNames.gazetteer(context)?.countryNamesByCode ?? [:]
  }

  /// The homes and trips of the index's photos passing `filter`.
  static func trips(_ context: CommandContext, filter: PhotoFilter = .all) throws -> (
    homes: [HomePeriod], trips: [Trip]
  ) {
    guard let store = try context.openStore(.readWrite) else { return ([], []) }
    let photos = try DatedPhotos.timeline(from: store, sources: filter)
    let passing = try DatedPhotos.ids(from: store, passing: filter)
    let names = try countryNames(context)
    return try finder(context).trips(in: photos, showing: passing.map { ids in { ids.contains($0.id) } }) {
      names[$0] ?? $0
    }
  }

  /// The trip with `id`, with its photos in time order; a clear error when there is none.
  static func trip(_ id: String, _ context: CommandContext) throws -> (trip: Trip, photos: [Photo]) {
    let found = try trips(context).trips
    guard let trip = found.first(where: { $0.id == id }) else {
      let hint = found.isEmpty ? "no trips were found" : "'geophoto trips' lists them"
      throw RuntimeError("there is no trip '\(id)' with the current trip settings; \(hint)")
    }
    guard let store = try context.openStore(.readWrite) else { return (trip, []) }
    return (trip, try store.photos(ids: trip.photoIDs))
  }
}
