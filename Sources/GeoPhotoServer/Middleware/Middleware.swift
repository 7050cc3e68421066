import GeoPhotoHTTPD

/// What answers a request inside the API: a response, or an `APIError` the error middleware
/// turns into one.
typealias APIHandler = @Sendable (ServerRequest) throws -> ServerResponse

/// A step around the router that sees every request and response (Hummingbird's shape):
/// CORS, request limits, the bearer token, error answers, the access log.
protocol Middleware: Sendable {
  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse
}

extension Array where Element == any Middleware {
  /// `handler` wrapped in these middlewares, the first outermost.
  func wrapping(_ handler: @escaping APIHandler) -> APIHandler {
    reversed().reduce(handler) { next, middleware in
      { request in try middleware.handle(request, next: next) }
    }
  }
}
