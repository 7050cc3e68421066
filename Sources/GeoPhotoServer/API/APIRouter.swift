public import GeoPhotoBasemap
import GeoPhotoCore
public import GeoPhotoHTTPD
public import GeoPhotoThumbnails

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
  /// What `/v1/places` searches; nil answers 404 there.
  public var places: PlaceDirectory?
  /// geophoto's own basemap tiles (`/tiles`); nil answers 404 there.
  public var tiles: BuiltInTiles?
  /// Where thumbnails are kept between requests (beside the index); nil keeps none.
  public var thumbnailCache: ThumbnailCache?
  /// Receives a line for each thing worth a server's log besides requests (a photo no
  /// thumbnail can be made of); nil for none.
  public var warnings: (@Sendable (String) -> Void)?
  /// Receives one access-log line per request; nil for none.
  public var accessLog: (@Sendable (String) -> Void)?

  public init() {}
}

/// The API as a pure function from request to response: no sockets, so every endpoint and
/// every bad input is tested in-process; `HTTPServer` carries it over the network.
///
/// A request passes the middleware (access log, CORS, error answers, request limits,
/// preflight, the bearer token) and is dispatched on `Routes.all`: the route whose path
/// matches checks the parameters and answers from the current index snapshot.
public struct APIRouter: Responder {
  public let holder: SnapshotHolder
  public let configuration: APIConfiguration
  private let handler: APIHandler

  public init(holder: SnapshotHolder, configuration: APIConfiguration = APIConfiguration()) {
    self.holder = holder
    self.configuration = configuration
    var middleware: [any Middleware] = []
    if let sink = configuration.accessLog { middleware.append(AccessLog(sink: sink)) }
    middleware += [
      CORS(allowedOrigin: configuration.allowedOrigin), ErrorAnswers(),
      RequestLimits(maximumTargetLength: configuration.maximumTargetLength), Preflight(),
    ]
    if let token = configuration.token { middleware.append(BearerAuth(token: token)) }
    handler = middleware.wrapping { [holder, configuration] request in
      try Self.dispatch(request, snapshot: holder.snapshot, configuration: configuration)
    }
  }

  public func respond(to request: ServerRequest) -> ServerResponse {
    do {
      return try handler(request)
    } catch {
      // ErrorAnswers turns every error into an answer; this is only the last resort.
      return ServerResponse(status: 500, headers: [("Content-Type", "application/json")])
    }
  }

  /// The route for the request's path, its parameters checked, answering from `snapshot`.
  static func dispatch(_ request: ServerRequest, snapshot: IndexSnapshot, configuration: APIConfiguration) throws
    -> ServerResponse
  {
    let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    for route in Routes.all {
      guard let pathValues = route.match(segments) else { continue }
      let parameters = try ParameterValues(request, route: route, pathValues: pathValues)
      return try route.respond(
        EndpointContext(snapshot: snapshot, configuration: configuration, request: request, parameters: parameters))
    }
    throw APIError.notFound("no such endpoint: \(request.path)")
  }
}
