public import GeoPhotoEncoding
import GeoPhotoHTTPD

/// An error answer of the API: its HTTP status, a stable code and a message for people.
/// Rendered as `{"error": {"code": …, "message": …}}`.
///
/// The message is for whoever sent the request and never names a file or a path on the
/// server: what went wrong inside (a file that cannot be read, and where) is `detail`, which
/// goes to the server's log only.
public struct APIError: Error, Equatable, Sendable {
  public var status: Int
  public var code: String
  public var message: String
  /// For the log, not the answer: the server's side of what went wrong.
  public var detail: String?
  /// Seconds after which the request may be tried again (`Retry-After`, with 503).
  public var retryAfter: Int?
  /// The methods the path takes (`Allow`, with 405); every method the server answers when nil.
  public var allow: String?

  public init(_ status: Int, _ code: String, _ message: String, detail: String? = nil, retryAfter: Int? = nil) {
    self.status = status
    self.code = code
    self.message = message
    self.detail = detail
    self.retryAfter = retryAfter
  }

  static func badRequest(_ message: String) -> APIError { APIError(400, "invalid_request", message) }
  static func notFound(_ message: String) -> APIError { APIError(404, "not_found", message) }

  /// Something the server needs cannot be had now (the index, the place names): the client
  /// hears that; the log hears `detail`.
  static func unavailable(_ message: String, detail: String) -> APIError {
    APIError(503, "unavailable", message, detail: detail)
  }

  var body: [UInt8] {
    Array(
      JSONValue.object([("error", .object([("code", .string(code)), ("message", .string(message))]))]).serialized()
        .utf8)
  }
}

extension APIError: DescribedJSON {
  public static let schemaName = "Error"
  public static let schema = JSONSchema.object(
    properties: [
      ("error", .object(properties: [("code", .string), ("message", .string)], required: ["code", "message"]))
    ], required: ["error"])
}
