/// What can go wrong asking a geophoto server, besides the transport's own errors
/// (`URLError`).
public enum PhotoMapError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The API's error answer: `400 invalid_request` ("'lat' must be between -90 and 90"),
  /// `401 unauthorized`, `404 not_found`, …
  case api(status: Int, code: String, message: String)
  /// An error status without the API's error body (a proxy in between, say).
  case http(status: Int)
  /// An answer that is not what the API sends.
  case malformedAnswer(String)

  public var description: String {
    switch self {
    case .api(let status, let code, let message): return "\(status) \(code): \(message)"
    case .http(let status): return "HTTP \(status)"
    case .malformedAnswer(let detail): return "unexpected answer: \(detail)"
    }
  }
}
