public import GeoPhotoCore

/// The columns a `DatedPhoto` is read from, the same in every store, and the one decoding of
/// such a row. Places repeat from row to row (a trip's photos share a few), so a place's text
/// is read once per GeoNames id (or per country, for places that name only one) and shared.
public struct DatedPhotoRows {
  /// `id, latitude, …` for a SELECT, in the order `read(_:)` takes them.
  public static let columnList = [
    PhotoColumn.id, .latitude, .longitude, .takenUTC, .takenLocal, .placeGeonameID, .placeIsCountry,
    .placeCountryCode, .placeName, .placeAdmin1,
  ].map(\.name).joined(separator: ", ")

  /// The condition every dated photo meets.
  public static let condition = "\(PhotoColumn.takenLocal.name) IS NOT NULL"

  private var places: [Int64: SharedPlace] = [:]
  private var countries: [String: SharedPlace] = [:]

  public init() {}

  /// The photo of a row of `columnList`; nil for a row without a capture time.
  public mutating func read(_ row: some PhotoRow) -> DatedPhoto? {
    guard let id = row.int64(at: 0), let local = row.int64(at: 4) else { return nil }
    var coordinate: Coordinate?
    if let latitude = row.double(at: 1), let longitude = row.double(at: 2) {
      // A row's numbers are checked like any other input: NaN or out of range is no position.
      coordinate = Coordinate(validatingLatitude: latitude, longitude: longitude)
    }
    return DatedPhoto(
      id: id, coordinate: coordinate, instant: row.int64(at: 3) ?? local, localTime: local,
      sharedPlace: coordinate == nil ? nil : place(row))
  }

  private mutating func place(_ row: some PhotoRow) -> SharedPlace? {
    if row.bool(at: 6) == true {
      guard let code = row.text(at: 7) else { return nil }
      if let known = countries[code] { return known }
      let place = SharedPlace(PlaceName(country: row.text(at: 8) ?? code, code: code))
      countries[code] = place
      return place
    }
    guard let geonameID = row.int64(at: 5) else {
      // Named before places had ids: read each time.
      guard let name = row.text(at: 8) else { return nil }
      return SharedPlace(
        PlaceName(
          name: name, admin1: row.text(at: 9) ?? "", admin2: "", countryCode: row.text(at: 7) ?? "", distance: 0))
    }
    if let known = places[geonameID] { return known }
    guard let name = row.text(at: 8) else { return nil }
    let place = SharedPlace(
      PlaceName(
        name: name, admin1: row.text(at: 9) ?? "", admin2: "", countryCode: row.text(at: 7) ?? "", distance: 0,
        geonameID: Int(exactly: geonameID)))
    places[geonameID] = place
    return place
  }
}
