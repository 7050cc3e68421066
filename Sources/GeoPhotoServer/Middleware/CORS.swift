import GeoPhotoHTTPD

/// Cross-origin access: `Access-Control-Allow-Origin` on every answer, errors included.
struct CORS: Middleware {
  var allowedOrigin: String

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    var response = try next(request)
    response.headers.append(("Access-Control-Allow-Origin", allowedOrigin))
    if allowedOrigin != "*" { response.headers.append(("Vary", "Origin")) }
    return response
  }
}

/// CORS preflight requests (OPTIONS), answered before the token is asked for.
struct Preflight: Middleware {
  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    guard request.method == "OPTIONS" else { return try next(request) }
    return ServerResponse(
      status: 204,
      headers: [
        ("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
        ("Access-Control-Allow-Headers", "Authorization, If-None-Match, Content-Type"),
        ("Access-Control-Max-Age", "86400"),
      ])
  }
}
