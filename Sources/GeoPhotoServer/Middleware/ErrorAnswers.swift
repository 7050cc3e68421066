import GeoPhotoCore
import GeoPhotoHTTPD

/// Turns what went wrong into an answer: an `APIError` into its status and JSON body (with
/// `WWW-Authenticate` on 401, `Allow` on 405 and `Retry-After` when it says when to try
/// again), every build slot taken into 503, anything else into a 500 that says nothing about
/// the server's insides. What went wrong inside (an error's `detail`) goes to `log`.
struct ErrorAnswers: Middleware {
  var log: (@Sendable (String) -> Void)?

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    let failure: APIError
    do {
      return try next(request)
    } catch let error as APIError {
      failure = error
    } catch let busy as BuildsBusy {
      failure = APIError(503, "busy", busy.description, retryAfter: 1)
    } catch {
      failure = APIError(500, "internal_error", "the server failed to answer", detail: "\(error)")
    }
    if let detail = failure.detail {
      log?("\(request.method) \(LogText.escaped(request.path)): \(failure.status): \(LogText.escaped(detail))")
    }
    var response = ServerResponse(
      status: failure.status, headers: [("Content-Type", "application/json")], body: failure.body)
    if failure.status == 401 { response.headers.append(("WWW-Authenticate", "Bearer")) }
    if failure.status == 405 { response.headers.append(("Allow", failure.allow ?? EndpointTable.allowedMethods)) }
    if let seconds = failure.retryAfter { response.headers.append(("Retry-After", String(seconds))) }
    return response
  }
}

/// The token a server with one asks for, compared without an early exit, so timing does not
/// reveal how much of a token matched.
struct BearerToken: Sendable {
  let token: [UInt8]

  init(_ token: String) { self.token = Array(token.utf8) }

  /// Whether the request carries `Authorization: Bearer <token>`.
  func admits(_ request: ServerRequest) -> Bool {
    guard let given = request.headers["authorization"], given.hasPrefix("Bearer ") else { return false }
    return Self.constantTimeEquals(Array(given.utf8.dropFirst(7)), token)
  }

  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for i in 0..<max(a.count, b.count) {
      difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
    }
    return difference == 0
  }
}
