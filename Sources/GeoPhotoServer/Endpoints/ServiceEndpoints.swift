import GeoPhotoEncoding
import GeoPhotoHTTPD

/// `/healthz` (liveness, the index generation and photo count) and `/openapi.json`.
enum ServiceEndpoints {
  static let healthRoute = Route(
    path: "/healthz", operationID: "health", summary: "Liveness, with the index generation and photo count",
    responses: [
      APIResponse(
        status: 200, description: "Healthy",
        content: [
          (
            "application/json",
            .object(properties: [("status", .string), ("generation", .integer), ("photos", .integer)])
          )
        ])
    ], cached: false, respond: health)

  static func health(_ c: EndpointContext) throws -> ServerResponse {
    let body = JSONValue.object([
      ("status", .string("ok")), ("generation", .integer(c.snapshot.generation)),
      ("photos", .integer(Int64(c.snapshot.count))),
    ])
    return c.uncached(body.encoded(), type: "application/json", cacheControl: "no-store")
  }

  static let openAPIRoute = Route(
    path: "/openapi.json", operationID: "openapi", summary: "This document",
    responses: [
      APIResponse(
        status: 200, description: "OpenAPI 3 document", content: [("application/json", .object(properties: []))])
    ], cached: false, respond: openAPI)

  static func openAPI(_ c: EndpointContext) throws -> ServerResponse {
    c.uncached(OpenAPI.document, type: "application/json", cacheControl: "public, max-age=3600")
  }
}
