import GeoPhotoCore
import GeoPhotoEncoding

/// The OpenAPI 3 document served at `/openapi.json`, made from `EndpointTable.all`: every documented
/// route with its parameters (types, ranges, defaults, examples) and answers, and the schemas
/// of the answers' bodies. Nothing here repeats what a route says.
enum OpenAPI {
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
      ("paths", .object(paths)),
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
                  ("schema", JSONSchema.string.json),
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
                  ("content", .object([("application/json", .object([("schema", APIError.reference.json)]))])),
                ])
              )
            ])
          ),
          ("schemas", .object(schemas.map { ($0.0, $0.1.json) })),
        ])
      ),
    ])
  }

  /// Each documented path with its operations by method, in the route table's order.
  static var paths: [(String, JSONValue)] {
    var order: [String] = []
    var operations: [String: [(String, JSONValue)]] = [:]
    for route in EndpointTable.documented {
      if operations[route.path] == nil { order.append(route.path) }
      operations[route.path, default: []].append((route.method.lowercased(), operation(route)))
    }
    return order.map { ($0, .object(operations[$0] ?? [])) }
  }

  /// A route's operation: summary, parameters and answers. Besides its own answers, a cached
  /// route may answer 304, every route 400 (an unknown or bad parameter), a route under /v1
  /// 401 when the server has a token, and a route with an id in its path 404.
  static func operation(_ route: Endpoint) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("summary", .string(route.summary)), ("operationId", .string(route.operationID)),
    ]
    if !route.parameters.isEmpty { members.append(("parameters", .array(route.parameters.map(parameter)))) }
    if let schema = route.bodySchema {
      members.append(
        (
          "requestBody",
          .object([
            ("required", .bool(true)),
            ("content", .object([("application/json", .object([("schema", schema.json)]))])),
          ])
        ))
    }
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
    if route.access == .edit { responses.append(("403", error)) }
    if route.parameters.contains(where: { $0.location == .path }) { responses.append(("404", error)) }
    responses.append(("421", error))
    if route.work == .filterClusters || route.work == .filterSet {
      // Every build slot taken by other filters: try again after Retry-After seconds.
      responses.append(("503", error))
    }
    members.append(("responses", .object(responses)))
    return .object(members)
  }

  static func parameter(_ p: EndpointParameter) -> JSONValue {
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
    case .distance, .filter, .boundingBox, .fileName, .text, .slug: schema = [("type", .string("string"))]
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

  /// The answers' shapes, each as the type that writes it describes itself.
  static let schemas: [(String, JSONSchema)] = [
    APIError.component, Coordinate.component, PlaceObject.component, AnnotationMembers.component,
    AnnotationDocument.component, AnnotationDocument.FeatureForm.component, ViewportFeature.component,
    AnnotationsEndpoints.Viewport.component, AnnotationsEndpoints.LeafPage.component, PhotoDetailDocument.component,
    PlaceEndpoints.PlaceList.component, ServiceEndpoints.Status.component, ServiceEndpoints.Health.component,
    PlacesVisitedDocument.component, PlacesVisitedDocument.placeSchema, TripListDocument.component,
    TripMembers.component, TripDocument.component, EditEndpoints.Location.component, EditEndpoints.Unplaced.component,
  ]
}
