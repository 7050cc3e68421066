public import GeoPhotoCore

/// A trip: a run of photos taken away from home, found by `TripFinder`.
public struct Trip: Hashable, Sendable {
  /// Stable while its photos stay: made from the lowest photo id among them (`t` and that id
  /// in base 36), which neither new photos nor a trip growing changes.
  public var id: String
  /// `Tokyo & Kyoto, JP`, `Japan`, `Japan & South Korea` (`TripName`).
  public var name: String
  /// The local days of its first and last photo.
  public var start: LocalDay
  public var end: LocalDay
  /// The instants of its first and last located photo (seconds since 1970).
  public var startInstant: Int64
  public var endInstant: Int64
  /// Every photo of the trip by capture time: the located ones away from home, and those
  /// without a position taken between its first and last.
  public var photoIDs: [Int64]
  /// How many of them have a position.
  public var located: Int
  /// Distinct places (cities) and countries among its photos.
  public var places: Int
  public var countries: Int
  /// The country codes by photo count, most first.
  public var countryCodes: [String]
  /// Metres along the photos' positions in time order.
  public var distance: Double
  public var bounds: BoundingBox
  /// The photos' positions in time order, simplified to at most `TripFinder.routePoints`.
  public var route: [Coordinate]
  /// The home it was measured from.
  public var home: HomePeriod?

  public var photos: Int { photoIDs.count }
}

extension Trip {
  /// The trip of `photos` (in time order, at least one with a position), its id from the
  /// lowest photo id and its name from its places, unless given.
  public init(
    photos: [DatedPhoto], id: String? = nil, name: String? = nil, home: HomePeriod?,
    countryName: (String) -> String = { $0 }
  ) {
    let located = photos.compactMap { p in p.coordinate.map { (photo: p, coordinate: $0) } }
    let first = located.first?.photo ?? photos[0]
    let last = located.last?.photo ?? photos[photos.count - 1]
    var distance = 0.0
    var cityCounts: [PlaceKey: Int] = [:]
    var countryCounts: [String: Int] = [:]
    var citiesByCountry: [String: [String: Int]] = [:]
    for (i, (photo, coordinate)) in located.enumerated() {
      if i > 0 { distance += GreatCircle.distance(located[i - 1].coordinate, coordinate) }
      guard let place = photo.place, !place.countryCode.isEmpty else { continue }
      countryCounts[place.countryCode, default: 0] += 1
      guard !place.isCountry else { continue }
      cityCounts[place.geonameID.map(PlaceKey.id) ?? .name(place.countryCode, place.admin1, place.name), default: 0] +=
        1
      citiesByCountry[place.countryCode, default: [:]][place.name, default: 0] += 1
    }
    func byCount(_ counts: [String: Int]) -> [String] {
      counts.sorted { a, b in a.value != b.value ? a.value > b.value : a.key < b.key }.map(\.key)
    }
    let codes = byCount(countryCounts)
    let ids = photos.map(\.id)
    let coordinates = located.map(\.coordinate)
    self.init(
      id: id ?? Trip.id(lowestPhoto: ids.min() ?? 0),
      name: name
        ?? TripName.name(
          cities: codes.count == 1 ? byCount(citiesByCountry[codes[0]] ?? [:]) : [],
          countries: codes.map(countryName), codes: codes, start: LocalDay(seconds: first.localTime)),
      start: LocalDay(seconds: first.localTime), end: LocalDay(seconds: last.localTime),
      startInstant: first.instant, endInstant: last.instant, photoIDs: ids, located: located.count,
      places: cityCounts.count, countries: codes.count, countryCodes: codes, distance: distance,
      bounds: BoundingBox(enclosing: coordinates) ?? BoundingBox(west: 0, south: 0, east: 0, north: 0),
      route: TripFinder.route(coordinates), home: home)
  }

  /// The same trip (its id, name and home) with only the photos `isKept` keeps, its days,
  /// counts, distance, box and route made from them: what a filter, a privacy zone or a
  /// shared link lets an answer show. Nil when none of its photos with a position is kept.
  public func restricted(to photos: [DatedPhoto], where isKept: (DatedPhoto) -> Bool) -> Trip? {
    let kept = photos.filter(isKept)
    guard kept.contains(where: { $0.coordinate != nil }) else { return nil }
    return Trip(photos: kept, id: id, name: name, home: home)
  }

  /// A place counted: by its GeoNames id, or by its names.
  enum PlaceKey: Hashable {
    case id(Int)
    case name(String, String, String)
  }

  /// The id of the trip whose lowest photo id is `id`.
  public static func id(lowestPhoto id: Int64) -> String { "t" + String(id, radix: 36) }
}
