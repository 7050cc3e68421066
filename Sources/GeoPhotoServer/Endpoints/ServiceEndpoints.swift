import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD

/// `/healthz` (liveness, saying nothing else), `/v1/status` (the index: generation, photo count,
/// extent) and `/openapi.json`.
enum ServiceEndpoints {
  static let healthRoute = Endpoint(
    path: "/healthz", operationID: "health",
    summary: "Liveness: the server is up (it says nothing about the photos; /v1/status does)", access: .open,
    responses: [APIResponse(status: 200, description: "Up", content: [("application/json", Health.reference)])],
    cached: false, respond: health)

  static func health(_ c: EndpointContext) throws -> ServerResponse {
    c.uncached(Health().encoded(), type: "application/json", cacheControl: "no-store")
  }

  /// `{"status": "ok"}`, and nothing else.
  struct Health: JSONWritable, DescribedJSON {
    func write(to w: inout JSONWriter) { w.value(.object([("status", .string("ok"))])) }
    static let schemaName = "Health"
    static let schema = JSONSchema.object(properties: [("status", .word(["ok"]))], required: ["status"])
  }

  static let statusRoute = Endpoint(
    path: "/v1/status", operationID: "status",
    summary: "The index served: its generation, how many photos it shows and the box around them", access: .token,
    shareable: true,
    responses: [APIResponse(status: 200, description: "The index", content: [("application/json", Status.reference)])],
    cached: false, respond: status)

  static func status(_ c: EndpointContext) throws -> ServerResponse {
    let answer: Status
    if let scope = c.scope {
      // A shared link's photos only: how many it shows, and the box around them.
      let shown = scope.ids.ids.compactMap { c.snapshot.position(of: $0) }
      answer = Status(
        generation: c.snapshot.generation, photos: shown.count,
        bounds: BoundingBox(enclosing: shown.map(c.snapshot.coordinate(at:))))
    } else {
      answer = Status(generation: c.snapshot.generation, photos: c.snapshot.count, bounds: c.snapshot.bounds)
    }
    return c.uncached(answer.encoded(), type: "application/json", cacheControl: "no-store")
  }

  /// The index served: its generation, its photos shown and the box around them.
  struct Status: JSONWritable, DescribedJSON {
    var generation: Int64
    var photos: Int
    var bounds: BoundingBox?

    func write(to w: inout JSONWriter) {
      let box: JSONValue =
        bounds.map { box in
          .object([
            ("west", .number(box.west)), ("south", .number(box.south)), ("east", .number(box.east)),
            ("north", .number(box.north)),
          ])
        } ?? .null
      w.value(
        .object([
          ("status", .string("ok")), ("generation", .integer(generation)), ("photos", .integer(Int64(photos))),
          ("bounds", box),
        ]))
    }

    static let schemaName = "Status"
    static let schema = JSONSchema.object(
      properties: [
        ("status", .word(["ok"])), ("generation", .described(.integer, "Changes with every change to the index")),
        ("photos", .described(.integer, "Located photos answers can show (outside privacy zones)")),
        (
          "bounds",
          .nullable(
            .described(
              .object(
                properties: [("west", .number), ("south", .number), ("east", .number), ("north", .number)],
                required: ["west", "south", "east", "north"]), "The box around every photo shown"))
        ),
      ], required: ["status", "generation", "photos", "bounds"])
  }

  static let openAPIRoute = Endpoint(
    path: "/openapi.json", operationID: "openapi", summary: "This document", access: .open,
    responses: [
      APIResponse(
        status: 200, description: "OpenAPI 3 document",
        content: [("application/json", JSONSchema.object(properties: []))])
    ], cached: false, respond: openAPI)

  static func openAPI(_ c: EndpointContext) throws -> ServerResponse {
    c.uncached(OpenAPI.document, type: "application/json", cacheControl: "public, max-age=3600")
  }
}
