import Foundation
import GeoPhotoEncoding
import GeoPhotoHTTP
public import GeoPhotoHTTPD

/// Settings of the HTTP API and the web map.
public struct APIConfiguration: Sendable {
  /// When set, every `/v1` request needs `Authorization: Bearer <token>`.
  public var token: String?
  /// `Access-Control-Allow-Origin`.
  public var allowedOrigin = "*"
  /// The most features one `/v1/annotations` answer carries.
  public var maximumFeatures = 2_000
  /// `Cache-Control: max-age` of JSON answers, in seconds.
  public var cacheMaxAge = 60
  /// Requests whose path and query are longer than this get 414.
  public var maximumTargetLength = 8_192
  public var map = WebMapConfiguration()

  public init() {}
}

/// The API as a pure function from request to response: no sockets, so every endpoint and
/// every bad input is tested in-process; `HTTPServer` carries it over the network.
public struct APIRouter: Responder {
  public let holder: SnapshotHolder
  public let configuration: APIConfiguration

  public init(holder: SnapshotHolder, configuration: APIConfiguration = APIConfiguration()) {
    self.holder = holder
    self.configuration = configuration
  }

  public func respond(to request: ServerRequest) -> ServerResponse {
    var response: ServerResponse
    do {
      response = try route(request)
    } catch let error as APIError {
      response = ServerResponse(
        status: error.status, headers: [("Content-Type", "application/json")], body: error.body)
      if error.status == 401 { response.headers.append(("WWW-Authenticate", "Bearer")) }
      if error.status == 405 { response.headers.append(("Allow", "GET, HEAD, OPTIONS")) }
    } catch {
      let failure = APIError(500, "internal_error", "the server failed to answer")
      response = ServerResponse(status: 500, headers: [("Content-Type", "application/json")], body: failure.body)
    }
    response.headers.append(("Access-Control-Allow-Origin", configuration.allowedOrigin))
    if configuration.allowedOrigin != "*" { response.headers.append(("Vary", "Origin")) }
    return response
  }

  private func route(_ request: ServerRequest) throws -> ServerResponse {
    guard request.targetLength <= configuration.maximumTargetLength else {
      throw APIError(414, "uri_too_long", "the request URL is longer than \(configuration.maximumTargetLength) bytes")
    }
    if let length = request.headers["content-length"], let n = Int(length), n > 0 {
      throw APIError(413, "payload_too_large", "request bodies are not accepted")
    }
    if request.method == "OPTIONS" { return preflight() }
    guard request.method == "GET" || request.method == "HEAD" else {
      throw APIError(405, "method_not_allowed", "\(request.method) is not allowed; use GET")
    }
    let s = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    if s.first == "v1" { try authorize(request) }
    let endpoints = Endpoints(snapshot: holder.snapshot, configuration: configuration, request: request)
    switch (s.count, s.first ?? "") {
    case (1, ""), (1, "index.html"): return endpoints.webMap()
    case (1, "healthz"): return try endpoints.health()
    case (1, "openapi.json"): return try endpoints.openAPI()
    case (2, "assets"): return try endpoints.asset(s[1])
    case (3, "assets") where s[1] == "leaflet": return try endpoints.leaflet(s[2])
    case (4, "assets") where s[1] == "leaflet" && s[2] == "images": return try endpoints.leaflet("images/" + s[3])
    case (2, "v1") where s[1] == "near": return try endpoints.near()
    case (2, "v1") where s[1] == "annotations": return try endpoints.annotations()
    case (4, "v1") where s[1] == "clusters" && s[3] == "leaves": return try endpoints.leaves(s[2])
    case (3, "v1") where s[1] == "photos": return try endpoints.photo(s[2])
    case (4, "v1") where s[1] == "photos" && s[3] == "thumbnail": return try endpoints.thumbnail(s[2])
    default: throw APIError.notFound("no such endpoint: \(request.path)")
    }
  }

  private func preflight() -> ServerResponse {
    ServerResponse(
      status: 204,
      headers: [
        ("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
        ("Access-Control-Allow-Headers", "Authorization, If-None-Match, Content-Type"),
        ("Access-Control-Max-Age", "86400"),
      ])
  }

  private func authorize(_ request: ServerRequest) throws {
    guard let token = configuration.token else { return }
    let given = request.headers["authorization"] ?? ""
    guard given.hasPrefix("Bearer "), Self.constantTimeEquals(Array(given.utf8.dropFirst(7)), Array(token.utf8)) else {
      throw APIError(401, "unauthorized", "this server needs 'Authorization: Bearer <token>'")
    }
  }

  /// Compares without an early exit, so timing does not reveal how much of a token matched.
  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for i in 0..<max(a.count, b.count) {
      difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
    }
    return difference == 0
  }

  /// An access-log line: method, path with secrets removed, status, bytes, microseconds.
  public static func accessLogLine(_ request: ServerRequest, _ response: ServerResponse, microseconds: Int) -> String {
    let target = Redactor().redact(request.target)
    return "\(request.method) \(target) \(response.status) \(response.body.count) \(microseconds)µs"
  }
}
