import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD
import GeoPhotoTravel

/// `/v1/places/visited` (where the photos were taken, as a tree) and `/v1/trips`,
/// `/v1/trips/{id}` (the trips found in the timeline), as `geophoto places visited` and
/// `geophoto trips` answer them, with privacy zones applied.
enum TravelEndpoints {
  static let level = EndpointParameter.query(
    "level", .oneOf(PlaceLevel.allCases.map(\.rawValue)), example: "city",
    "How deep the tree goes: country, region or city (the default)")
  static let order = EndpointParameter.query(
    "sort", .oneOf(PlaceOrder.allCases.map(\.rawValue)), example: "count",
    "Each level by photos (count, the default), by name, or by first visit (date)")

  static let visitedRoute = Endpoint(
    path: "/v1/places/visited", operationID: "placesVisited",
    summary: "Where the photos were taken: countries, their regions and their cities, with counts, days and boxes",
    access: .token, shareable: true, parameters: [level, order] + FilterParameters.all,
    responses: [
      APIResponse(
        status: 200, description: "The places", content: [("application/json", PlacesVisitedDocument.reference)])
    ], work: .timeline, respond: visited)

  static let tripsRoute = Endpoint(
    path: "/v1/trips", operationID: "trips",
    summary: "The trips found in the photos' timeline, latest first (filters choose trips and their photos)",
    access: .token, shareable: true, parameters: FilterParameters.all,
    responses: [
      APIResponse(status: 200, description: "The trips", content: [("application/json", TripListDocument.reference)])
    ], work: .timeline, respond: trips)

  static let tripID = EndpointParameter.path("id", .slug("trip id"), "A trip's id, as /v1/trips gives it")

  static let tripRoute = Endpoint(
    path: "/v1/trips/{id}", operationID: "trip",
    summary: "One trip as GeoJSON: its route line (kind: route, the trip's members), then its photos in time order",
    access: .token, shareable: true, parameters: [tripID],
    responses: [
      APIResponse(
        status: 200, description: "The trip",
        content: [("application/geo+json", TripDocument.reference)])
    ], work: .timeline, respond: trip)

  /// Countries by code, from the server's place names (codes stand for themselves without).
  static func countryNames(_ configuration: APIConfiguration) -> [String: String] {
    ((try? configuration.places?.gazetteer()) ?? nil)?.countryNamesByCode ?? [:]
  }

  static func visited(_ c: EndpointContext) throws -> ServerResponse {
    let filter = try c.filter()
    let level = c.parameters.word(level).flatMap(PlaceLevel.init(rawValue:)) ?? .city
    let order = c.parameters.word(order).flatMap(PlaceOrder.init(rawValue:)) ?? .count
    return try c.cached(type: "application/json") {
      let snapshot = c.snapshot
      let travel = DatedPhotos.travelFilter(filter)
      let passing = try snapshot.datedIDs(passing: filter)
      let photos = try snapshot.timeline(sources: travel.sources ?? [.local]).filter {
        snapshot.isShown($0) && passing?.contains($0.id) != false
      }
      let names = countryNames(c.configuration)
      let visited = PlacesVisited(photos, level: level, order: order) { names[$0] ?? $0 }
      return PlacesVisitedDocument(visited, level: level, order: order).encoded()
    }
  }

  /// The trips for `filter`, limited to what privacy zones let answers show; homes only when
  /// the server has no privacy zones (a home is what they hide).
  static func found(_ c: EndpointContext, filter: PhotoFilter) throws -> (homes: [HomePeriod], trips: [Trip]) {
    let snapshot = c.snapshot
    let passing = try snapshot.datedIDs(passing: filter)
    let names = countryNames(c.configuration)
    let found = try snapshot.trips(for: filter, finder: c.configuration.trips) { names[$0] ?? $0 }
    let restricted = passing != nil || !snapshot.privacyZones.isEmpty || c.scope != nil
    let shown = found.showing(restricted ? { snapshot.isShown($0) && passing?.contains($0.id) != false } : nil)
    return (snapshot.privacyZones.isEmpty && c.scope == nil ? shown.homes : [], shown.trips)
  }

  static func trips(_ c: EndpointContext) throws -> ServerResponse {
    let filter = try c.filter()
    return try c.cached(type: "application/json") {
      let (homes, trips) = try found(c, filter: filter)
      return TripListDocument(homes: homes, trips: trips).encoded()
    }
  }

  static func trip(_ c: EndpointContext) throws -> ServerResponse {
    let id = c.parameters.word(tripID) ?? ""
    guard let trip = try found(c, filter: c.filter()).trips.first(where: { $0.id == id }) else {
      throw APIError.notFound("no trip \(id)")
    }
    return try c.cached(type: "application/geo+json") {
      let details = try c.snapshot.details(trip.photoIDs)
      let photos = trip.photoIDs.compactMap { details[$0]?.photo }
      return TripDocument(trip: trip, photos: photos, options: .init(includePaths: false)).geoJSON()
    }
  }
}
