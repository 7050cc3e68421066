import GeoPhotoEncoding
import GeoPhotoHTTPD

/// An error answer of the API: its HTTP status, a stable code and a message for people.
/// Rendered as `{"error": {"code": …, "message": …}}`.
public struct APIError: Error, Equatable, Sendable {
  public var status: Int
  public var code: String
  public var message: String

  public init(_ status: Int, _ code: String, _ message: String) {
    self.status = status
    self.code = code
    self.message = message
  }

  static func badRequest(_ message: String) -> APIError { APIError(400, "invalid_request", message) }
  static func notFound(_ message: String) -> APIError { APIError(404, "not_found", message) }
  static func unavailable(_ message: String) -> APIError { APIError(503, "unavailable", message) }

  var body: [UInt8] {
    Array(
      JSONValue.object([("error", .object([("code", .string(code)), ("message", .string(message))]))]).serialized()
        .utf8)
  }
}
