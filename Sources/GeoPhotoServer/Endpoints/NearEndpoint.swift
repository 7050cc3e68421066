import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD

/// `/v1/near`: the photos nearest to a point, as `geophoto near` lists them (without paths).
enum NearEndpoint {
  static let latitude = EndpointParameter.query(
    "lat", .number(-90...90), required: true, example: "35.68", "Latitude in degrees")
  static let longitude = EndpointParameter.query(
    "lon", .number(-180...180), required: true, example: "139.76", "Longitude in degrees")
  static let limit = EndpointParameter.query("limit", .integer(1...1_000, default: 20), "Most photos to return")
  static let radius = EndpointParameter.query(
    "radius", .distance, example: "2km", "Only photos within this distance: metres, or with a unit (500m, 2km, 1mi)")
  static let sort = EndpointParameter.query(
    "sort", .oneOf(AnswerOrder.allCases.map(\.rawValue)),
    "distance (nearest first, the default) or time (by capture time)")
  static let format = EndpointParameter.query(
    "format", .oneOf(["json", "geojson"]),
    "json (default) or geojson; 'Accept: application/geo+json' also selects GeoJSON")

  static let route = Endpoint(
    path: "/v1/near", operationID: "near",
    summary: "Photos nearest to a point, nearest first (exact great-circle order, ties by id)", access: .token,
    shareable: true,
    parameters: [latitude, longitude, limit, radius] + FilterParameters.all + [sort, format],
    responses: [
      APIResponse(
        status: 200, description: "The annotations",
        content: [
          ("application/json", AnnotationDocument.reference),
          ("application/geo+json", AnnotationDocument.FeatureForm.reference),
        ])
    ], work: .filterSet, respond: near)

  static func near(_ c: EndpointContext) throws -> ServerResponse {
    let p = c.parameters
    let lat = p.number(latitude) ?? 0
    let lon = p.number(longitude) ?? 0
    let limit = p.integer(limit)
    let radius = p.number(radius)
    let filter = try c.filter()
    let geoJSON = wantsGeoJSON(p.word(format), accept: c.request.headers["accept"])
    let center = Coordinate(latitude: lat, longitude: lon == 180 ? -180 : lon)
    let query = NearQuery(center: center, limit: limit, radius: radius, filter: filter)
    let order = p.word(sort).flatMap(AnswerOrder.init(rawValue:)) ?? .distance
    // JSON or GeoJSON as `Accept` says (when `format` does not): caches keep them apart.
    return try c.cached(type: geoJSON ? "application/geo+json" : "application/json", varying: ["Accept"]) {
      let snapshot = c.snapshot
      var neighbors = try snapshot.nearest(query)
      // By time: the photos' capture times come with their details, which the answer needs too.
      var known: [Int64: PhotoDetail] = [:]
      if order == .time {
        known = try snapshot.details(neighbors.map(\.id))
        neighbors = order.sorted(neighbors) { n in (known[n.id]?.photo.takenAt, n.id) }
      }
      // Each annotation copied from its pre-encoded fragment, with its distance written in.
      let form: EncodedAnnotation.Form = geoJSON ? .feature : .object
      let capacity = 256 + 512 * neighbors.count
      var failure: (any Error)?
      func writeAnnotations(_ w: inout JSONWriter) {
        do {
          try snapshot.writeAnnotations(neighbors, form: form, known: known, to: &w)
        } catch {
          failure = error
        }
      }
      let body =
        geoJSON
        ? AnnotationDocument.geoJSON(capacity: capacity, features: writeAnnotations)
        : AnnotationDocument.json(query: query, capacity: capacity, annotations: writeAnnotations)
      if let failure { throw failure }
      return body
    }
  }

  /// `format` when given, otherwise what the client accepts.
  static func wantsGeoJSON(_ format: String?, accept: String?) -> Bool {
    guard let format else { return accept?.contains("application/geo+json") == true }
    return format == "geojson"
  }
}
