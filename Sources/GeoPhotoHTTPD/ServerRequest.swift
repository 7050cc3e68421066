/// A request as the transport hands it to a responder: no sockets, no C types.
public struct ServerRequest: Sendable {
  public var method: String
  /// The path, percent-decoded (`RequestTarget`).
  public var path: String
  /// Query parameters in the order sent, percent-decoded.
  public var query: [(name: String, value: String)]
  /// Whether the target was origin-form or absolute-form (with the authority it named).
  public var form: RequestTarget.Form
  /// Why the target was refused, when it was (the path and query are then empty): the
  /// responder answers 400 with it.
  public var targetProblem: String?
  /// The target as sent (its bytes read as UTF-8), for logs.
  public var rawTarget: String?
  /// Header names in lower case.
  public var headers: [String: String]
  /// Bytes of the target as received, for the URL-length limit.
  public var targetLength: Int
  /// The body the client says it sends: none, a length, or one of unknown length (chunked).
  public var declaredBody: DeclaredBody
  /// The body, when the responder asked for it to be read (`Admission.readBody`).
  public var body: [UInt8]

  /// The token of `Authorization: Bearer <token>`, if the request carries one.
  public var bearer: String? {
    guard let given = headers["authorization"], given.hasPrefix("Bearer ") else { return nil }
    return String(given.dropFirst(7))
  }

  public enum DeclaredBody: Equatable, Sendable {
    case none
    case length(Int)
    case unknownLength
  }

  public var hasBody: Bool { declaredBody != .none }

  public init(
    method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:],
    targetLength: Int? = nil, declaredBody: DeclaredBody = .none, body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.form = .origin
    self.headers = headers
    self.declaredBody = declaredBody
    self.body = body
    self.targetLength =
      targetLength ?? (path.utf8.count + query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
  }

  /// A request for `target` as a client sends it (percent-encoded), read by `RequestTarget`
  /// as the transport reads it.
  public init(method: String, target: String, headers: [String: String] = [:], declaredBody: DeclaredBody = .none) {
    self.init(method: method, path: "", headers: headers, targetLength: target.utf8.count, declaredBody: declaredBody)
    rawTarget = target
    do {
      let parsed = try RequestTarget(parsing: Array(target.utf8))
      path = parsed.path
      query = parsed.query
      form = parsed.form
    } catch {
      targetProblem = error.description
    }
  }

  /// `path?query` for logs, percent-encoding nothing: callers redact secrets and escape
  /// control characters before printing.
  public var target: String {
    query.isEmpty ? path : path + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
  }
}

/// A complete response, body in memory.
public struct ServerResponse: Sendable {
  public var status: Int
  public var headers: [(String, String)]
  public var body: [UInt8]

  public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// What a responder says once a request's headers are in, before any body is read.
public enum Admission: Sendable {
  /// Answer now: the body, if one is coming, is never read (the connection then closes).
  case answer(ServerResponse)
  /// Read the body, at most `limit` bytes (more is answered `tooLarge`, a 413, as soon as it
  /// is seen), then respond.
  case readBody(limit: Int, tooLarge: @Sendable () -> ServerResponse)
  /// Respond now: there is no body.
  case proceed
}

/// Turns requests into responses; called concurrently from the server's threads.
public protocol Responder: Sendable {
  func respond(to request: ServerRequest) -> ServerResponse
  /// Decides on a request from its headers alone, before its body is read.
  func admit(_ request: ServerRequest) -> Admission
  /// Whether answering may take long (a build other requests wait for): such a request is
  /// answered on a worker thread, with its connection set aside meanwhile, so the transport's
  /// threads go on answering everyone else.
  func answersSlowly(_ request: ServerRequest) -> Bool
  /// The answer to a slow request when as many are being made as the transport allows (503).
  func busy(_ request: ServerRequest) -> ServerResponse
}

extension Responder {
  /// Bodies are refused (413) unless a responder reads them.
  public func admit(_ request: ServerRequest) -> Admission {
    request.hasBody ? .answer(ServerResponse(status: 413)) : .proceed
  }

  public func answersSlowly(_ request: ServerRequest) -> Bool { false }

  public func busy(_ request: ServerRequest) -> ServerResponse {
    ServerResponse(status: 503, headers: [("Retry-After", "1")])
  }
}
