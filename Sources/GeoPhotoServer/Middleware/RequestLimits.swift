import GeoPhotoHTTPD

/// What the API does not take: URLs longer than the limit (414), request bodies (413), and
/// methods other than GET, HEAD and OPTIONS (405).
struct RequestLimits: Middleware {
  var maximumTargetLength: Int

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    guard request.targetLength <= maximumTargetLength else {
      throw APIError(414, "uri_too_long", "the request URL is longer than \(maximumTargetLength) bytes")
    }
    let declared = request.headers["content-length"].flatMap { Int($0) } ?? 0
    if request.hadBody || declared > 0 { throw APIError(413, "payload_too_large", "request bodies are not accepted") }
    guard ["GET", "HEAD", "OPTIONS"].contains(request.method) else {
      throw APIError(405, "method_not_allowed", "\(request.method) is not allowed; use GET")
    }
    return try next(request)
  }
}
