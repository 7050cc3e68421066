import GeoPhotoHTTPD

/// Cross-origin reads, off unless configured: answers carry `Access-Control-Allow-Origin` for
/// the origins `allowedOrigins` lists (the request's own origin, echoed with `Vary: Origin`) or
/// for any origin with an explicit `*`. Without it a browser keeps other sites' pages from
/// reading a server's answers (a page a user visits cannot read their photos' positions from a
/// loopback server).
struct CORS: Middleware {
  var allowedOrigins: [String]

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    var response = try next(request)
    if allowedOrigins.contains("*") {
      response.headers.append(("Access-Control-Allow-Origin", "*"))
    } else {
      if let origin = request.headers["origin"], allowedOrigins.contains(origin) {
        response.headers.append(("Access-Control-Allow-Origin", origin))
      }
      response.headers.append(("Vary", "Origin"))
    }
    return response
  }
}

/// CORS preflight requests (OPTIONS), answered before the token is asked for; what they allow
/// reaches a browser only with `CORS`'s header.
struct Preflight: Middleware {
  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    guard request.method == "OPTIONS" else { return try next(request) }
    let methods = APIRouter.allowedMethods(request.path)
    return ServerResponse(
      status: 204,
      headers: [
        ("Access-Control-Allow-Methods", methods),
        ("Access-Control-Allow-Headers", "Authorization, If-None-Match, Content-Type"),
        ("Access-Control-Max-Age", "86400"), ("Allow", methods),
      ])
  }
}
