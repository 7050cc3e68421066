import GeoPhotoCore
import GeoPhotoEncoding

/// The OpenAPI 3 document served at `/openapi.json`, made from `Routes.all`: every documented
/// route with its parameters (types, ranges, defaults, examples) and answers, and the schemas
/// of the answers' bodies. Nothing here repeats what a route says.
enum OpenAPI {
  /// A JSON Schema, as OpenAPI 3.0 writes them.
  indirect enum Schema: Sendable {
    /// One of `components/schemas`.
    case reference(String)
    case string, integer, number, boolean
    /// Bytes of a file.
    case binary
    case object(properties: [(String, Schema)], required: [String] = [])
    case array(Schema)
    /// A schema with a few more keywords (`nullable`, `enum`, `description`, …).
    case annotated(Schema, [(String, JSONValue)])

    static func nullable(_ s: Schema) -> Schema { .annotated(s, [("nullable", .bool(true))]) }
    static func described(_ s: Schema, _ text: String) -> Schema { .annotated(s, [("description", .string(text))]) }

    var json: JSONValue {
      switch self {
      case .reference(let name): return .object([("$ref", .string("#/components/schemas/\(name)"))])
      case .string: return .object([("type", .string("string"))])
      case .integer: return .object([("type", .string("integer"))])
      case .number: return .object([("type", .string("number"))])
      case .boolean: return .object([("type", .string("boolean"))])
      case .binary: return .object([("type", .string("string")), ("format", .string("binary"))])
      case .object(let properties, let required):
        var members: [(String, JSONValue)] = [("type", .string("object"))]
        if !required.isEmpty { members.append(("required", .array(required.map(JSONValue.string)))) }
        if !properties.isEmpty { members.append(("properties", .object(properties.map { ($0.0, $0.1.json) }))) }
        return .object(members)
      case .array(let items): return .object([("type", .string("array")), ("items", items.json)])
      case .annotated(let schema, let extra):
        guard case .object(let members) = schema.json else { return schema.json }
        return .object(members + extra)
      }
    }
  }

  static let document: [UInt8] = make().encoded(pretty: true)

  static func make() -> JSONValue {
    .object([
      ("openapi", .string("3.0.3")),
      (
        "info",
        .object([
          ("title", .string("geophoto")), ("version", .string(GeoPhotoVersion.current)),
          (
            "description",
            .string(
              "Annotation lists for map clients: the photos near a place, pins and clusters for a viewport, cluster "
                + "members and photo details. Coordinates are WGS84 degrees; GeoJSON positions are [longitude, "
                + "latitude]. Every JSON answer carries a strong ETag (index generation + normalized query) and "
                + "Cache-Control; If-None-Match gets 304. When the server has a token, /v1 requests need "
                + "'Authorization: Bearer <token>' (answers are then cached privately). A request for a host name "
                + "the server is not for gets 421; a request target that is not a plain path gets 400.")
          ),
        ])
      ),
      ("servers", .array([.object([("url", .string("/"))])])),
      ("paths", .object(Routes.documented.map { ($0.path, .object([("get", operation($0))])) })),
      (
        "components",
        .object([
          (
            "headers",
            .object([
              (
                "ETag",
                .object([
                  ("description", .string("Strong validator: index generation and normalized query")),
                  ("schema", Schema.string.json),
                ])
              )
            ])
          ),
          (
            "responses",
            .object([
              (
                "Error",
                .object([
                  ("description", .string("An error")),
                  ("content", .object([("application/json", .object([("schema", Schema.reference("Error").json)]))])),
                ])
              )
            ])
          ),
          ("schemas", .object(schemas.map { ($0.0, $0.1.json) })),
        ])
      ),
    ])
  }

  /// A route's operation: summary, parameters and answers. Besides its own answers, a cached
  /// route may answer 304, every route 400 (an unknown or bad parameter), a route under /v1
  /// 401 when the server has a token, and a route with an id in its path 404.
  static func operation(_ route: Route) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("summary", .string(route.summary)), ("operationId", .string(route.operationID)),
    ]
    if !route.parameters.isEmpty { members.append(("parameters", .array(route.parameters.map(parameter)))) }
    var responses: [(String, JSONValue)] = route.responses.map { response in
      var answer: [(String, JSONValue)] = [("description", .string(response.description))]
      if route.cached && response.status == 200 {
        answer.append(("headers", .object([("ETag", .object([("$ref", .string("#/components/headers/ETag"))]))])))
      }
      if !response.content.isEmpty {
        answer.append(
          ("content", .object(response.content.map { ($0.mediaType, .object([("schema", $0.schema.json)])) })))
      }
      return (String(response.status), .object(answer))
    }
    let error = JSONValue.object([("$ref", .string("#/components/responses/Error"))])
    if route.cached { responses.append(("304", .object([("description", .string("Not modified"))]))) }
    responses.append(("400", error))
    if route.requiresToken { responses.append(("401", error)) }
    if route.parameters.contains(where: { $0.location == .path }) { responses.append(("404", error)) }
    responses.append(("421", error))
    if route.work == .filterClusters || route.work == .filterSet {
      // Every build slot taken by other filters: try again after Retry-After seconds.
      responses.append(("503", error))
    }
    members.append(("responses", .object(responses)))
    return .object(members)
  }

  static func parameter(_ p: RouteParameter) -> JSONValue {
    var schema: [(String, JSONValue)]
    switch p.kind {
    case .number(let range):
      schema = [
        ("type", .string("number")), ("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound)),
      ]
    case .integer(let range, let fallback):
      schema = [
        ("type", .string("integer")), ("minimum", .integer(Int64(range.lowerBound))),
        ("maximum", .integer(Int64(range.upperBound))), ("default", .integer(Int64(fallback))),
      ]
    case .distance, .sources, .boundingBox, .fileName, .time, .text, .search: schema = [("type", .string("string"))]
    case .oneOf(let words): schema = [("type", .string("string")), ("enum", .array(words.map(JSONValue.string)))]
    case .identifier: schema = [("type", .string("integer"))]
    }
    if let example = p.example {
      switch schema.first?.1 {
      case .string("number"): Double(example).map { schema.append(("example", .number($0))) }
      case .string("integer"): Int64(example).map { schema.append(("example", .integer($0))) }
      default: schema.append(("example", .string(example)))
      }
    }
    return .object([
      ("name", .string(p.name)), ("in", .string(p.location.rawValue)), ("description", .string(p.description)),
      ("required", .bool(p.required)), ("schema", .object(schema)),
    ])
  }

  /// `mediaType` and `duration`, as annotations, map features and photo details carry them.
  static let mediaTypeSchema: (String, Schema) = (
    "mediaType", .annotated(.string, [("enum", .array(MediaType.allCases.map { .string($0.rawValue) }))])
  )
  static let durationSchema: (String, Schema) = ("duration", .described(.number, "A video's length in seconds"))
  /// The place a photo is named after (annotations and details).
  static let placeSchema: (String, Schema) = (
    "place",
    .object(properties: [
      ("name", .string), ("admin1", .string), ("admin2", .string), ("countryCode", .string),
      ("distance", .number), ("population", .integer),
      ("timeZone", .described(.string, "The place's IANA time zone")),
      ("geonameId", .described(.integer, "The place's GeoNames id")),
      ("countryOnly", .described(.boolean, "No place was near: the name is the country's")),
    ])
  )
  /// A shot's files, as annotations and photo details list them (local photos).
  static let filesSchema: (String, Schema) = (
    "files",
    .described(
      .array(
        .object(
          properties: [
            ("name", .string),
            ("role", .annotated(.string, [("enum", .array(FileRole.allCases.map { .string($0.rawValue) }))])),
          ], required: ["name", "role"])),
      "The shot's files: the primary one, then a RAW, a Live Photo's video, sidecars")
  )

  /// The bodies' shapes, as `AnnotationDocument`, `ViewportFeature`, `PhotoDetailDocument` and
  /// `APIError` write them.
  static let schemas: [(String, Schema)] = [
    (
      "Error",
      .object(
        properties: [
          ("error", .object(properties: [("code", .string), ("message", .string)], required: ["code", "message"]))
        ],
        required: ["error"])
    ),
    (
      "Coordinate",
      .object(properties: [("latitude", .number), ("longitude", .number)], required: ["latitude", "longitude"])
    ),
    (
      "Annotation",
      .object(
        properties: [
          ("id", .integer),
          ("source", .annotated(.string, [("enum", .array(PhotoSource.known.map { .string($0.rawValue) }))])),
          ("coordinate", .reference("Coordinate")), ("title", .string), ("subtitle", .string),
          ("distance", .described(.nullable(.number), "Metres from the query point")),
          ("takenAt", .described(.nullable(.string), "ISO 8601, with the UTC offset when known")),
          ("timeZone", .described(.string, "The IANA zone a local capture time was read in, from the position")),
          (
            "offsetSource",
            .annotated(
              .described(.string, "Where the offset comes from; absent for a floating time"),
              [("enum", .array(OffsetSource.allCases.map { .string($0.rawValue) }))])
          ),
          (
            "offsetAmbiguity",
            .annotated(
              .described(.string, "The zone skips (gap) or doubles (fold) the local time; the earlier instant is used"),
              [("enum", .array(LocalTimeAmbiguity.allCases.map { .string($0.rawValue) }))])
          ),
          mediaTypeSchema, durationSchema, filesSchema,
          placeSchema,
          ("estimated", .described(.boolean, "The position was estimated from a GPS track")),
          ("url", .described(.string, "The photo's page, for remote photos")), ("thumbnailURL", .string),
        ], required: ["id", "source", "coordinate", "title", "subtitle"])
    ),
    (
      "NearResult",
      .object(
        properties: [
          (
            "query",
            .object(properties: [
              ("latitude", .number), ("longitude", .number), ("limit", .integer), ("radius", .nullable(.number)),
            ])
          ),
          ("annotations", .array(.reference("Annotation"))),
        ], required: ["query", "annotations"])
    ),
    (
      "FeatureCollection",
      .object(
        properties: [
          ("type", .annotated(.string, [("enum", .array([.string("FeatureCollection")]))])),
          (
            "features",
            .array(
              .object(
                properties: [
                  ("type", .annotated(.string, [("enum", .array([.string("Feature")]))])), ("id", .integer),
                  (
                    "geometry",
                    .object(properties: [
                      ("type", .annotated(.string, [("enum", .array([.string("Point")]))])),
                      (
                        "coordinates",
                        .annotated(
                          .array(.number),
                          [
                            ("minItems", .integer(2)), ("maxItems", .integer(2)),
                            ("description", .string("[longitude, latitude]")),
                          ])
                      ),
                    ])
                  ),
                  (
                    "properties",
                    .described(
                      .object(properties: []),
                      "Photo fields, or cluster, cluster_id, point_count, point_count_abbreviated, expansion_zoom and "
                        + "thumbnailURL (one of its photos)")
                  ),
                ], required: ["type", "geometry", "properties"]))
          ),
          ("truncated", .boolean), ("total", .integer),
        ], required: ["type", "features"])
    ),
    (
      "Photo",
      .object(
        properties: [
          ("id", .integer), ("source", .string), ("coordinate", .reference("Coordinate")), ("title", .string),
          ("subtitle", .string), ("takenAt", .nullable(.string)), ("altitude", .nullable(.number)),
          mediaTypeSchema, durationSchema, ("description", .nullable(.string)), ("keywords", .array(.string)),
          filesSchema,
          ("cameraMake", .described(.nullable(.string), "Local photos only")),
          ("cameraModel", .described(.nullable(.string), "Local photos only")), ("width", .nullable(.integer)),
          ("height", .nullable(.integer)), ("orientation", .nullable(.integer)), ("attribution", .nullable(.string)),
          ("license", .nullable(.string)), ("url", .nullable(.string)), placeSchema, ("thumbnailURL", .string),
        ], required: ["id", "source", "coordinate", "title"])
    ),
    PlaceEndpoints.schema,
  ]
}
