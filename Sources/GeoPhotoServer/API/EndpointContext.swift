import GeoPhotoCore
import GeoPhotoHTTPD

/// What an endpoint answers from: one index snapshot (the same from start to end of the
/// request), the API's settings, the request and its checked parameters.
struct EndpointContext {
  let snapshot: LoadedIndex
  let configuration: APIConfiguration
  let request: ServerRequest
  let parameters: ParameterValues
  /// What besides the index, its privacy zones and the query changes answers
  /// (`APIRouter.answerVariant`: the version, the caps), in every ETag.
  let answerVariant: UInt64
  /// What holds the snapshots, for an edit to load the index it changed; nil in tests that
  /// answer from a snapshot alone.
  var holder: LoadedIndexHolder? = nil
  /// What a share link's token lets the request see; nil for everything.
  var scope: ShareScope? = nil

  /// The request's filters (`FilterParameters`), with a share link's scope put in.
  func filter() throws -> PhotoFilter {
    var filter = try FilterParameters.filter(parameters)
    if let scope { filter.ids = scope.ids }
    return filter
  }

  /// Whether the request may see photo `id`: any, or one of its share link's.
  func admits(_ id: Int64) -> Bool { scope?.ids.contains(id) ?? true }

  // MARK: - Caching

  /// A strong ETag from the index generation, the normalized query, the answer's form
  /// (`type`: JSON and GeoJSON of one query are two answers) and what else changes the answer
  /// (privacy zones, caps, the version answering).
  func etag(type: String = "") -> String {
    var hash = Checksum.of(request.path + "?" + parameters.canonical + "#" + type)
    hash = (hash &* 31 &+ answerVariant) &* 31 &+ snapshot.zonesVariant
    if let scope { hash = hash &* 31 &+ Checksum.of(scope.share.id) }
    return "\"g\(snapshot.generation)-\(String(hash, radix: 36))\""
  }

  /// 304 when the client's If-None-Match holds `tag` (or `*`).
  func notModified(_ tag: String, varying: [String] = []) -> ServerResponse? {
    guard let header = request.headers["if-none-match"] else { return nil }
    let tags = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard tags.contains("*") || tags.contains(tag) else { return nil }
    return ServerResponse(status: 304, headers: cacheHeaders(tag, varying: varying))
  }

  /// How long and by whom an answer may be kept: with a token, by the client alone
  /// (`private`, and `Vary: Authorization`); otherwise by shared caches too.
  func caching(maxAge: Int, varying: [String] = []) -> [(String, String)] {
    let isPrivate = configuration.token != nil || scope != nil
    var headers = [("Cache-Control", "\(isPrivate ? "private" : "public"), max-age=\(maxAge)")]
    let vary = (isPrivate ? ["Authorization"] : []) + varying
    if !vary.isEmpty { headers.append(("Vary", vary.joined(separator: ", "))) }
    return headers
  }

  func cacheHeaders(_ tag: String, varying: [String] = []) -> [(String, String)] {
    [("ETag", tag), ("Access-Control-Expose-Headers", "ETag")]
      + caching(maxAge: configuration.cacheMaxAge, varying: varying)
  }

  /// Answers 304 when the client has the current version, else runs `body`; `varying` names
  /// the request headers the answer depends on (`Accept`).
  func cached(type: String, varying: [String] = [], _ body: () throws -> [UInt8]) rethrows -> ServerResponse {
    let tag = etag(type: type)
    if let unchanged = notModified(tag, varying: varying) { return unchanged }
    return ServerResponse(
      status: 200, headers: [("Content-Type", type)] + cacheHeaders(tag, varying: varying), body: try body())
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

  /// geophoto's own thumbnail of the photo `id`: the thumbnail route's path with the id in it.
  static func localThumbnailLink(_ id: Int64) -> String { thumbnailPath.before + String(id) + thumbnailPath.after }

  /// The thumbnail route's path around its `{id}`, split once.
  private static let thumbnailPath: (before: String, after: String) = {
    let path = PhotoEndpoints.thumbnailRoute.path
    guard let hole = path.range(of: "{id}") else { return (path + "/", "") }
    return (String(path[..<hole.lowerBound]), String(path[hole.upperBound...]))
  }()
}
