public import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A client of a `geophoto serve` API, for map apps: photos near a point, a viewport's photos
/// and clusters, a cluster's photos, one photo's details and thumbnail, and places by name.
///
/// Answers are revalidated with their `ETag` (a repeated request the server answers 304 is
/// decoded from the kept body), the bearer token goes with every `/v1` request, and the API's
/// error answers arrive as `PhotoMapError.api`.
///
/// ```swift
/// let client = PhotoMapClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let near = try await client.near(latitude: 35.68, longitude: 139.76, limit: 20)
/// for pin in near { print(pin.title, pin.subtitle) }
/// ```
public struct PhotoMapClient: Sendable {
  public let baseURL: URL
  private let token: String?
  private let session: URLSession
  private let cache: ResponseCache

  /// - Parameters:
  ///   - baseURL: the server, `http://127.0.0.1:8080`.
  ///   - token: the server's bearer token (`serve --token`), when it has one.
  ///   - keptAnswers: how many answers are kept for revalidation.
  public init(baseURL: URL, token: String? = nil, keptAnswers: Int = 128) {
    self.baseURL = baseURL
    self.token = token
    cache = ResponseCache(capacity: keptAnswers)
    // Redirects are not followed: the one the API gives is a remote photo's thumbnail at its
    // provider, which the app loads (or not) itself.
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
  }

  // MARK: - Requests

  /// The photos nearest to a point, nearest first (the server's exact order), within
  /// `radius` metres when given, passing `filter`.
  public func near(
    latitude: Double, longitude: Double, limit: Int = 20, radius: Double? = nil, filter: PhotoFilter = PhotoFilter()
  ) async throws -> [MapAnnotation] {
    var query = [("lat", Self.number(latitude)), ("lon", Self.number(longitude)), ("limit", String(limit))]
    if let radius { query.append(("radius", Self.number(radius))) }
    let answer: NearAnswer = try await get("/v1/near", query + filter.queryItems)
    return answer.annotations
  }

  /// A map viewport's photos and clusters: `west > east` crosses the antimeridian.
  public func annotations(
    west: Double, south: Double, east: Double, north: Double, zoom: Int, filter: PhotoFilter = PhotoFilter()
  ) async throws -> Viewport {
    let box = [west, south, east, north].map(Self.number).joined(separator: ",")
    return try await get("/v1/annotations", [("bbox", box), ("zoom", String(zoom))] + filter.queryItems)
  }

  /// One page of the photos inside a cluster of `annotations` (asked with the same filter).
  public func leaves(
    ofCluster id: Int, limit: Int = 10, offset: Int = 0, filter: PhotoFilter = PhotoFilter()
  ) async throws -> [MapAnnotation] {
    let page: Viewport = try await get(
      "/v1/clusters/\(id)/leaves", [("limit", String(limit)), ("offset", String(offset))] + filter.queryItems)
    return page.features.compactMap(\.photo)
  }

  /// One photo's details.
  public func photo(id: Int64) async throws -> PhotoDetails { try await get("/v1/photos/\(id)", []) }

  /// A photo's thumbnail: a local photo's image, or where a remote photo's provider keeps it.
  public func thumbnail(ofPhoto id: Int64) async throws -> Thumbnail {
    let (data, response) = try await send("/v1/photos/\(id)/thumbnail", [])
    switch response.statusCode {
    case 200: return .image(data, contentType: response.value(forHTTPHeaderField: "Content-Type") ?? "image/jpeg")
    case 301, 302, 303, 307, 308:
      guard let location = response.value(forHTTPHeaderField: "Location"), let url = URL(string: location) else {
        throw PhotoMapError.malformedAnswer("a redirect without a Location")
      }
      return .elsewhere(url)
    default: throw Self.failure(response.statusCode, data)
    }
  }

  /// Places by name (`Kyoto`, `Paris, Texas`), the most populous first, as `geophoto near
  /// PLACE` reads a name.
  public func places(named name: String, limit: Int = 10) async throws -> PlaceSearch {
    try await get("/v1/places", [("q", name), ("limit", String(limit))])
  }

  // MARK: - Transport

  /// GETs `path` and decodes its JSON, revalidating a kept answer.
  private func get<Answer: Decodable>(_ path: String, _ query: [(String, String)]) async throws -> Answer {
    let (data, response) = try await send(path, query)
    guard response.statusCode == 200 else { throw Self.failure(response.statusCode, data) }
    do {
      return try JSONDecoder().decode(Answer.self, from: data)
    } catch {
      throw PhotoMapError.malformedAnswer("\(path): \(error)")
    }
  }

  /// The answer's body and head; a 304 gives the kept body with a 200.
  private func send(_ path: String, _ query: [(String, String)]) async throws -> (Data, HTTPURLResponse) {
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
      throw PhotoMapError.malformedAnswer("the base URL \(baseURL) cannot take a path")
    }
    components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + path
    if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
    // `+` is a space to some servers' query parsers: sent escaped.
    components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
    guard let url = components.url else { throw PhotoMapError.malformedAnswer("no URL for \(path)") }
    var request = URLRequest(url: url)
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let kept = await cache.answer(for: url)
    if let kept { request.setValue(kept.etag, forHTTPHeaderField: "If-None-Match") }
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw PhotoMapError.malformedAnswer("not an HTTP answer") }
    if http.statusCode == 304, let kept {
      let replayed = HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: kept.headers)
      return (kept.body, replayed ?? http)
    }
    if http.statusCode == 200, let etag = http.value(forHTTPHeaderField: "ETag") {
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { headers[name] = value }
      }
      await cache.keep(KeptAnswer(etag: etag, body: data, headers: headers), for: url)
    }
    return (data, http)
  }

  /// The API's error answer, or the bare status when the body is not one.
  static func failure(_ status: Int, _ body: Data) -> PhotoMapError {
    struct Body: Decodable {
      struct Detail: Decodable {
        var code: String
        var message: String
      }
      var error: Detail
    }
    guard let decoded = try? JSONDecoder().decode(Body.self, from: body) else { return .http(status: status) }
    return .api(status: status, code: decoded.error.code, message: decoded.error.message)
  }

  /// Shortest round-trip text of a number (the server reads any decimal).
  static func number(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }
}

/// `/v1/near`'s body.
struct NearAnswer: Decodable {
  var annotations: [MapAnnotation]
}

/// Declines every redirect, so the client sees the 302 itself.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
