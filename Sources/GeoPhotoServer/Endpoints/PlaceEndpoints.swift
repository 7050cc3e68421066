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
  static let query = EndpointParameter.query(
    "q", .text, required: true, example: "Kyoto, JP",
    "A place name, optionally narrowed by a country code, country, region or district after commas "
      + "(Kyoto, JP; Paris, Texas); any case and accents (reykjavik finds Reykjavík)")
  static let limit = EndpointParameter.query("limit", .integer(1...50, default: 10), "Most places to return")

  static let route = Endpoint(
    path: "/v1/places", operationID: "places",
    summary: "Places by name, the most populous first, or spellings it may mean when none has the name",
    access: .token, shareable: true,
    parameters: [query, limit],
    responses: [
      APIResponse(status: 200, description: "The places", content: [("application/json", PlaceList.reference)])
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
      return PlaceList(
        query: text, total: matches.count, places: Array(matches.prefix(limit)),
        suggestions: matches.isEmpty ? gazetteer.suggestions(for: text) : []
      ).encoded()
    }
  }

  /// `/v1/places`' answer: the query, how many places have the name, the first `limit` of
  /// them, and names close to the query's when none has it.
  struct PlaceList: JSONWritable, DescribedJSON {
    var query: String
    var total: Int
    var places: [Place]
    var suggestions: [String]

    func write(to w: inout JSONWriter) {
      w.beginObject()
      w.key("query")
      w.string(query)
      w.key("total")
      w.integer(Int64(total))
      w.key("places")
      w.beginArray()
      for place in places {
        PlaceObject(
          found: PlaceName(
            name: place.name, admin1: place.admin1, admin2: place.admin2, countryCode: place.countryCode, distance: 0,
            population: place.population, timeZone: place.timeZone.isEmpty ? nil : place.timeZone,
            geonameID: place.geonameID == 0 ? nil : place.geonameID),
          label: place.label, coordinate: place.coordinate
        ).write(to: &w)
      }
      w.endArray()
      w.key("suggestions")
      w.beginArray()
      for name in suggestions { w.string(name) }
      w.endArray()
      w.endObject()
    }

    static let schemaName = "PlaceList"
    static let schema = JSONSchema.object(
      properties: [
        ("query", .string), ("total", .described(.integer, "How many places have the name")),
        ("places", .array(PlaceObject.reference)),
        ("suggestions", .described(.array(.string), "Names close to the query's, when no place has it")),
      ], required: ["query", "total", "places", "suggestions"])
  }
}
