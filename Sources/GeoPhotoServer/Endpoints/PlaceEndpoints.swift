import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD
public import GeoPhotoPlaces
import Synchronization

/// The gazetteer `/v1/places` searches, loaded on the first search: a server nobody asks for
/// a place never maps the file. A file that cannot be read is retried on the next search.
public final class PlaceDirectory: Sendable {
  private let load: @Sendable () throws -> Gazetteer?
  private let loaded = Mutex<Gazetteer?>(nil)

  /// `load` answers the gazetteer, nil when there is none.
  public init(_ load: @escaping @Sendable () throws -> Gazetteer?) { self.load = load }

  public convenience init(gazetteer: Gazetteer) { self.init { gazetteer } }

  func gazetteer() throws -> Gazetteer? {
    try loaded.withLock { gazetteer in
      if let gazetteer { return gazetteer }
      gazetteer = try load()
      return gazetteer
    }
  }
}

/// `/v1/places`: places by name, as `geophoto near PLACE` reads a place name (the map's place
/// search box asks it).
enum PlaceEndpoints {
  static let query = RouteParameter.query(
    "q", .text, required: true, example: "Kyoto, JP",
    "A place name, optionally narrowed by a country code, country, region or district after commas "
      + "(Kyoto, JP; Paris, Texas); any case and accents (reykjavik finds Reykjavík)")
  static let limit = RouteParameter.query("limit", .integer(1...50, default: 10), "Most places to return")

  static let route = Route(
    path: "/v1/places", operationID: "places",
    summary: "Places by name, the most populous first, or spellings it may mean when none has the name",
    access: .token,
    parameters: [query, limit],
    responses: [
      APIResponse(status: 200, description: "The places", content: [("application/json", .reference("PlaceList"))])
    ], respond: places)

  static func places(_ c: EndpointContext) throws -> ServerResponse {
    let gazetteer: Gazetteer?
    do {
      gazetteer = try c.configuration.places?.gazetteer()
    } catch {
      throw APIError.unavailable(
        "the place names cannot be read", detail: "the place names cannot be read: \(error)")
    }
    guard let gazetteer else { throw APIError.notFound("this server has no place names") }
    let text = c.parameters.word(query) ?? ""
    let limit = c.parameters.integer(limit)
    return c.cached(type: "application/json") {
      let matches = gazetteer.places(named: text)
      var w = JSONWriter()
      w.beginObject()
      w.key("query")
      w.string(text)
      w.key("total")
      w.integer(Int64(matches.count))
      w.key("places")
      w.beginArray()
      for place in matches.prefix(limit) { write(place, to: &w) }
      w.endArray()
      w.key("suggestions")
      w.beginArray()
      for name in matches.isEmpty ? gazetteer.suggestions(for: text) : [] { w.string(name) }
      w.endArray()
      w.endObject()
      return w.bytes
    }
  }

  /// A place as the API shows it: the members of `Place` and its label.
  static func write(_ place: Place, to w: inout JSONWriter) {
    w.beginObject()
    w.key("name")
    w.string(place.name)
    w.key("admin1")
    w.string(place.admin1)
    w.key("admin2")
    w.string(place.admin2)
    w.key("countryCode")
    w.string(place.countryCode)
    w.key("label")
    w.string(place.label)
    w.key("coordinate")
    w.coordinate(place.coordinate)
    w.key("population")
    w.integer(Int64(place.population))
    if !place.timeZone.isEmpty {
      w.key("timeZone")
      w.string(place.timeZone)
    }
    if place.geonameID != 0 {
      w.key("geonameId")
      w.integer(Int64(place.geonameID))
    }
    w.endObject()
  }

  /// The body's shape, for the OpenAPI document.
  static let schema: (String, OpenAPI.Schema) = (
    "PlaceList",
    .object(
      properties: [
        ("query", .string), ("total", .described(.integer, "How many places have the name")),
        (
          "places",
          .array(
            .object(
              properties: [
                ("name", .string), ("admin1", .string), ("admin2", .string), ("countryCode", .string),
                ("label", .described(.string, "Name, first-level division and country code")),
                ("coordinate", .reference("Coordinate")), ("population", .integer),
                ("timeZone", .described(.string, "The place's IANA time zone")),
                ("geonameId", .described(.integer, "The place's GeoNames id")),
              ], required: ["name", "countryCode", "label", "coordinate", "population"]))
        ),
        ("suggestions", .described(.array(.string), "Names close to the query's, when no place has it")),
      ], required: ["query", "total", "places", "suggestions"])
  )
}
