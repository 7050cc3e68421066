import Dispatch
import GeoPhotoCore
import GeoPhotoHTTPD

/// One line per request: method, target as sent (secrets removed, control characters
/// escaped, so a request cannot forge a line), status, bytes, microseconds.
struct AccessLog: Middleware {
  var sink: @Sendable (String) -> Void

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    let started = DispatchTime.now().uptimeNanoseconds
    let response = try next(request)
    let micros = Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000)
    sink(Self.line(request, response, microseconds: micros))
    return response
  }

  /// `GET /v1/near?lat=35.68&lon=139.76&token=REDACTED 200 10042 61µs`
  static func line(_ request: ServerRequest, _ response: ServerResponse, microseconds: Int) -> String {
    let target = LogText.escaped(Redactor().redact(request.rawTarget ?? request.target))
    return "\(LogText.escaped(request.method)) \(target) \(response.status) \(response.body.count) \(microseconds)µs"
  }
}
