public import GeoPhotoBasemap
import GeoPhotoCore
public import GeoPhotoHTTPD
import GeoPhotoStore
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
  /// How edits are written (`PUT`/`DELETE /v1/photos/{id}/location`); nil when the server
  /// takes none (`serve.allow_edits` off, the default). Edits also need the token.
  public var edits: PhotoEdits?
  /// The share links whose tokens let their holders see one trip or filter; nil for none.
  public var shares: ShareDirectory?
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
        request, snapshot: holder.snapshot, configuration: configuration, token: token, answerVariant: variant,
        holder: holder)
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
    let route = request.targetProblem == nil ? Self.route(for: request.path, method: request.method)?.route : nil
    if route == nil, request.targetProblem == nil, !Self.routes(for: request.path).isEmpty {
      // A path the server has, with another method: 405 (dispatch says so), the body unread.
      return .answer(refusing(request, with: Self.methodNotAllowed(request.method, path: request.path)))
    }
    guard let limit = route?.body.limit else { return .answer(refusing(request, with: Self.noBody)) }
    let tooLarge = APIError(413, "payload_too_large", "the request body is larger than \(limit) bytes")
    if case .length(let declared) = request.declaredBody, declared > limit {
      return .answer(refusing(request, with: tooLarge))
    }
    return .readBody(limit: limit) { [self] in refusing(request, with: tooLarge) }
  }

  static let noBody = APIError(400, "invalid_request", "this endpoint takes no request body")

  /// 405 for `method` on `path`, naming the methods the path takes.
  static func methodNotAllowed(_ method: String, path: String) -> APIError {
    let allowed = allowedMethods(path)
    var error = APIError(405, "method_not_allowed", "\(method) is not allowed here; use \(allowed)")
    error.allow = allowed
    return error
  }

  /// The methods `path` takes, HEAD with GET and OPTIONS for a preflight: `GET, HEAD, OPTIONS`;
  /// every method the server answers for a path it does not have.
  static func allowedMethods(_ path: String) -> String {
    let methods = routes(for: path).flatMap { $0.route.method == "GET" ? ["GET", "HEAD"] : [$0.route.method] }
    return methods.isEmpty ? EndpointTable.allowedMethods : (methods + ["OPTIONS"]).joined(separator: ", ")
  }

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
    guard request.targetProblem == nil, let (route, pathValues) = Self.route(for: request.path, method: request.method),
      route.work != .quick,
      hostCheck.admits(request), route.access == .open || token?.admits(request) ?? true || isShareLink(request)
    else { return false }
    switch route.work {
    case .quick: return false
    case .files, .timeline, .edit: return true
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

  /// Whether the request carries an active share link's token.
  private func isShareLink(_ request: ServerRequest) -> Bool {
    request.bearer.flatMap { configuration.shares?.share(token: $0) } != nil
  }

  /// The route for `method` (HEAD as GET) whose path pattern `path` has, with its path
  /// parameters' values.
  static func route(for path: String, method: String) -> (route: Endpoint, pathValues: [String: String])? {
    let method = method == "HEAD" ? "GET" : method
    return routes(for: path).first { $0.route.method == method }
  }

  /// Every route whose path pattern `path` has (one per method), with the path parameters.
  static func routes(for path: String) -> [(route: Endpoint, pathValues: [String: String])] {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    return EndpointTable.table.compactMap { route, pattern in
      route.match(segments, pattern: pattern).map { (route, $0) }
    }
  }

  /// The request's route answering from `snapshot`: the token checked when the route asks for
  /// it, then the parameters.
  static func dispatch(
    _ request: ServerRequest, snapshot: LoadedIndex, configuration: APIConfiguration, token: BearerToken?,
    answerVariant: UInt64, holder: LoadedIndexHolder? = nil
  ) throws -> ServerResponse {
    guard let (route, pathValues) = route(for: request.path, method: request.method) else {
      guard routes(for: request.path).isEmpty else { throw methodNotAllowed(request.method, path: request.path) }
      throw APIError.notFound("no such endpoint: \(request.path)")
    }
    // A share link's token: the request sees that link's photos only, and only where a route
    // applies a scope; the server's own token (or none needed) sees everything.
    var share: Share?
    if route.access != .open, token?.admits(request) != true, let bearer = request.bearer {
      share = configuration.shares?.share(token: bearer)
    }
    if share != nil {
      guard route.shareable else { throw APIError(403, "forbidden", "a shared link does not open \(request.path)") }
    } else {
      if route.access == .edit {
        guard configuration.edits != nil else {
          throw APIError(403, "forbidden", "this server does not take edits (serve.allow_edits is off)")
        }
        guard token != nil else {
          throw APIError(403, "forbidden", "edits need a server with a token (serve.token or serve.token_file)")
        }
      }
      if route.access != .open, let token, !token.admits(request) {
        throw APIError(401, "unauthorized", "this server needs 'Authorization: Bearer <token>'")
      }
    }
    if request.hasBody && route.body == .none { throw noBody }
    let parameters = try ParameterValues(request, route: route, pathValues: pathValues)
    let scope = try share.map { share in
      let names = TravelEndpoints.countryNames(configuration)
      return try snapshot.scope(of: share, finder: configuration.trips) { names[$0] ?? $0 }
    }
    return try route.respond(
      EndpointContext(
        snapshot: snapshot, configuration: configuration, request: request, parameters: parameters,
        answerVariant: answerVariant, holder: holder, scope: scope))
  }
}
