import GeoPhotoHTTPD

/// What the API does not take: targets it cannot read or that are not a path (400: `x/v1/…`,
/// `//`, `/../`, `%2F`; see `RequestTarget`), URLs longer than the limit (414), and methods
/// the server never answers (405; `EndpointTable.methods`).
struct RequestLimits: Middleware {
  var maximumTargetLength: Int

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    guard request.targetLength <= maximumTargetLength else {
      throw APIError(414, "uri_too_long", "the request URL is longer than \(maximumTargetLength) bytes")
    }
    if let problem = request.targetProblem { throw APIError.badRequest(problem) }
    guard request.path.hasPrefix("/") else {
      throw APIError.badRequest("the request target must start with '/' (or be an absolute http:// URL)")
    }
    guard EndpointTable.methods.contains(request.method) else {
      throw APIRouter.methodNotAllowed(request.method, path: request.path)
    }
    return try next(request)
  }
}
