public import GeoPhotoBasemap
import GeoPhotoCore
public import GeoPhotoHTTPD
public import GeoPhotoThumbnails
public import GeoPhotoTravel
public import GeoPhotoVectorTiles

/// Settings of the HTTP API and the web map.
public struct APIConfiguration: Sendable {
  /// When set, every route that says so (the whole `/v1` API) needs
  /// `Authorization: Bearer <token>`, and answers are cached privately.
  public var token: String?
  /// The origins whose pages may read answers (CORS): none by default; `*` for any.
  public var allowedOrigins: [String] = []
  /// Host names the server answers for besides the loopback ones (`--host`'s name,
  /// `serve.hostnames`); a request for another gets 421.
  public var hostnames: [String] = []
  /// The most features one `/v1/annotations` answer carries.
  public var maximumFeatures = 2_000
  /// `Cache-Control: max-age` of JSON answers, in seconds.
  public var cacheMaxAge = 60
  /// Requests whose path and query are longer than this get 414.
  public var maximumTargetLength = 8_192
  public var map = WebMapConfiguration()
  /// What `/v1/places` searches, and names countries in places visited and trips; nil
  /// answers 404 at `/v1/places`.
  public var places: PlaceDirectory?
  /// How `/v1/trips` finds trips: the same `trips.*` settings as `geophoto trips`, so ids agree.
  public var trips = TripFinder()
  /// geophoto's own basemap tiles (`/tiles`); nil answers 404 there.
  public var tiles: BuiltInTiles?
  /// The street map's archives, whose vector tiles `/tiles/vector` serves as they are stored.
  public var vectorTiles: [any TileArchive] = []
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
/// A request passes the middleware (access log, CORS, error answers, the host check, request
/// limits, preflight) and is dispatched on `EndpointTable.all`: the route whose path matches asks for
/// the token when it says so, checks the parameters and answers from the current index
/// snapshot. Before that, from the headers alone, `admit` refuses a body the route does not
/// take, and `answersSlowly` sends requests that may wait for a build off the transport's
/// threads.
public struct APIRouter: Responder {
  public let holder: LoadedIndexHolder
  public let configuration: APIConfiguration
  private let middleware: [any Middleware]
  private let handler: APIHandler
  private let token: BearerToken?
  private let hostCheck: HostCheck
  /// What besides the index, its privacy zones and the query changes answers, for ETags: the
  /// version answering and the feature cap.
  let answerVariant: UInt64

  public init(holder: LoadedIndexHolder, configuration: APIConfiguration = APIConfiguration()) {
    self.holder = holder
    self.configuration = configuration
    let variant = Checksum.of(GeoPhotoVersion.current + "|" + String(configuration.maximumFeatures))
    answerVariant = variant
    var middleware: [any Middleware] = []
    if let sink = configuration.accessLog { middleware.append(AccessLog(sink: sink)) }
    if !configuration.allowedOrigins.isEmpty { middleware.append(CORS(allowedOrigins: configuration.allowedOrigins)) }
    let hostCheck = HostCheck(hostnames: configuration.hostnames)
    self.hostCheck = hostCheck
    middleware += [
      ErrorAnswers(log: configuration.warnings), hostCheck,
      RequestLimits(maximumTargetLength: configuration.maximumTargetLength), Preflight(),
    ]
    self.middleware = middleware
    let token = configuration.token.map(BearerToken.init)
    self.token = token
    handler = middleware.wrapping { [holder, configuration] request in
      try Self.dispatch(
        request, snapshot: holder.snapshot, configuration: configuration, token: token, answerVariant: variant)
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

  /// A body is read only for a route that takes one, up to its limit; otherwise the request is
  /// answered before any of it is read (400 for a body where none is taken, 413 over the
  /// limit), through the same middleware as every answer.
  public func admit(_ request: ServerRequest) -> Admission {
    guard request.hasBody else { return .proceed }
    let route = request.targetProblem == nil ? Self.route(for: request.path)?.route : nil
    guard let limit = route?.body.limit else { return .answer(refusing(request, with: Self.noBody)) }
    let tooLarge = APIError(413, "payload_too_large", "the request body is larger than \(limit) bytes")
    if case .length(let declared) = request.declaredBody, declared > limit {
      return .answer(refusing(request, with: tooLarge))
    }
    return .readBody(limit: limit) { [self] in refusing(request, with: tooLarge) }
  }

  static let noBody = APIError(400, "invalid_request", "this endpoint takes no request body")

  private func refusing(_ request: ServerRequest, with error: APIError) -> ServerResponse {
    do {
      return try middleware.wrapping { _ in throw error }(request)
    } catch {
      return ServerResponse(status: 500)
    }
  }

  /// As many slow requests are being answered as the transport allows: 503 with Retry-After,
  /// through the same middleware as every answer.
  public func busy(_ request: ServerRequest) -> ServerResponse {
    refusing(
      request, with: APIError(503, "busy", "the server is answering many slow requests; try again", retryAfter: 1))
  }

  /// Whether answering may wait for a build for the request's filter (none kept yet) or
  /// read a file: such requests are answered off the transport's threads.
  /// A request that will be refused (a foreign host, no token) is refused at once: it takes no
  /// worker from those who may ask.
  public func answersSlowly(_ request: ServerRequest) -> Bool {
    guard request.targetProblem == nil, let (route, pathValues) = Self.route(for: request.path), route.work != .quick,
      hostCheck.admits(request), route.access == .open || token?.admits(request) ?? true
    else { return false }
    switch route.work {
    case .quick: return false
    case .files, .timeline: return true
    case .filterClusters, .filterSet:
      guard request.query.contains(where: { Self.filterNames.contains($0.name) }),
        let parameters = try? ParameterValues(request, route: route, pathValues: pathValues),
        let filter = try? FilterParameters.filter(parameters)
      else { return false }
      let snapshot = holder.snapshot
      return route.work == .filterClusters
        ? snapshot.needsBuild(clustersFor: filter) : snapshot.needsBuild(nearestFor: filter)
    }
  }

  static let filterNames = Set(FilterParameters.all.map(\.name))

  /// The route whose path pattern `path` has, with its path parameters' values.
  static func route(for path: String) -> (route: Endpoint, pathValues: [String: String])? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    for (route, pattern) in EndpointTable.table {
      if let values = route.match(segments, pattern: pattern) { return (route, values) }
    }
    return nil
  }

  /// The request's route answering from `snapshot`: the token checked when the route asks for
  /// it, then the parameters.
  static func dispatch(
    _ request: ServerRequest, snapshot: LoadedIndex, configuration: APIConfiguration, token: BearerToken?,
    answerVariant: UInt64
  ) throws -> ServerResponse {
    guard let (route, pathValues) = route(for: request.path) else {
      throw APIError.notFound("no such endpoint: \(request.path)")
    }
    if route.access == .token, let token, !token.admits(request) {
      throw APIError(401, "unauthorized", "this server needs 'Authorization: Bearer <token>'")
    }
    if request.hasBody && route.body == .none { throw noBody }
    let parameters = try ParameterValues(request, route: route, pathValues: pathValues)
    return try route.respond(
      EndpointContext(
        snapshot: snapshot, configuration: configuration, request: request, parameters: parameters,
        answerVariant: answerVariant))
  }
}
