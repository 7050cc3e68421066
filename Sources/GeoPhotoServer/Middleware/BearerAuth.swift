import GeoPhotoHTTPD

/// With a token set, every request under `/v1` needs `Authorization: Bearer <token>`; the
/// page, its assets, health and the API document stay open.
struct BearerAuth: Middleware {
  var token: String

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    if request.path.hasPrefix("/v1/") || request.path == "/v1" {
      let given = request.headers["authorization"] ?? ""
      guard given.hasPrefix("Bearer "), Self.constantTimeEquals(Array(given.utf8.dropFirst(7)), Array(token.utf8))
      else { throw APIError(401, "unauthorized", "this server needs 'Authorization: Bearer <token>'") }
    }
    return try next(request)
  }

  /// Compares without an early exit, so timing does not reveal how much of a token matched.
  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for i in 0..<max(a.count, b.count) {
      difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
    }
    return difference == 0
  }
}
