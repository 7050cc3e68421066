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
  /// The id of the trip whose lowest photo id is `id`.
  public static func id(lowestPhoto id: Int64) -> String { "t" + String(id, radix: 36) }
}
