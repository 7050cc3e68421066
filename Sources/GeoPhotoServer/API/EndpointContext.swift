import GeoPhotoCore
import GeoPhotoHTTPD

/// What an endpoint answers from: one index snapshot (the same from start to end of the
/// request), the API's settings, the request and its checked parameters.
struct EndpointContext {
  let snapshot: IndexSnapshot
  let configuration: APIConfiguration
  let request: ServerRequest
  let parameters: ParameterValues

  // MARK: - Caching

  /// A strong ETag from the index generation and the normalized query.
  func etag() -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for part in [request.path, "?", parameters.canonical] {
      for byte in part.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
      }
    }
    return "\"g\(snapshot.generation)-\(String(hash, radix: 36))\""
  }

  /// 304 when the client's If-None-Match holds `tag` (or `*`).
  func notModified(_ tag: String) -> ServerResponse? {
    guard let header = request.headers["if-none-match"] else { return nil }
    let tags = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard tags.contains("*") || tags.contains(tag) else { return nil }
    return ServerResponse(status: 304, headers: cacheHeaders(tag))
  }

  func cacheHeaders(_ tag: String) -> [(String, String)] {
    [
      ("ETag", tag), ("Cache-Control", "public, max-age=\(configuration.cacheMaxAge)"),
      ("Access-Control-Expose-Headers", "ETag"),
    ]
  }

  /// Answers 304 when the client has the current version, else runs `body`.
  func cached(type: String, _ body: () throws -> [UInt8]) rethrows -> ServerResponse {
    let tag = etag()
    if let unchanged = notModified(tag) { return unchanged }
    return ServerResponse(status: 200, headers: [("Content-Type", type)] + cacheHeaders(tag), body: try body())
  }

  /// An answer that is not cached by clients (health) or only briefly (assets).
  func uncached(_ body: [UInt8], type: String, cacheControl: String) -> ServerResponse {
    ServerResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", cacheControl)], body: body)
  }

  // MARK: - Photos as the API shows them

  /// The subtitle a photo's pin and details carry (no distance: they answer no query).
  func subtitle(_ photo: Photo) -> String { Annotation(photo: photo, distance: nil)?.subtitle ?? "" }

  /// The provider's thumbnail for remote photos, geophoto's own endpoint for local ones.
  func thumbnailLink(_ photo: Photo) -> String {
    photo.source == .local ? Self.localThumbnailLink(photo.id) : photo.thumbnailURL ?? Self.localThumbnailLink(photo.id)
  }

  /// geophoto's own thumbnail of the photo `id`.
  static func localThumbnailLink(_ id: Int64) -> String { "/v1/photos/\(id)/thumbnail" }
}
