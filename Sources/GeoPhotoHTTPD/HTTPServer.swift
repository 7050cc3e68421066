internal import CGeoPhotoHTTPD
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Limits and threads of the HTTP transport.
public struct HTTPServerOptions: Sendable {
  public var host = "127.0.0.1"
  /// 0 picks a free port (see `HTTPServer.port`).
  public var port = 8080
  public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
  /// Connections open at once, from everyone.
  public var connectionLimit = 1_024
  /// Connections open at once from one client address (0: no limit beyond the total), so one
  /// client cannot take every connection; behind a reverse proxy, whose connections all come
  /// from one address, set it to 0 or above the proxy's.
  public var connectionsPerClient = 256
  /// Seconds a client has to send a whole request (from the connection's start or the end of
  /// its previous answer): a client that trickles its headers a byte every few seconds is cut
  /// off when they run out, however often it sends.
  public var requestTimeout = 30
  /// Idle seconds before a connection is closed.
  public var connectionTimeout = 30
  /// Memory per connection for the request line and headers (libmicrohttpd answers 414/431
  /// beyond it).
  public var connectionMemory = 32 * 1024
  /// Slow answers (those that may wait for a build) made at once, each on a thread of its own;
  /// past this the responder's busy answer (503) is given at once.
  public var slowAnswerLimit = 64

  public init() {}
}

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads each polling with epoll, keep-alive,
/// per-connection time and memory limits. The responder does the rest: the transport knows
/// nothing of the API it carries.
///
/// The host may be an address or a name: a name listens on every address it resolves to
/// (`localhost` on 127.0.0.1 and, where the system has it, ::1), one libmicrohttpd daemon per
/// address, all on the same port.
public final class HTTPServer: Sendable {
  nonisolated(unsafe) private let daemons: [OpaquePointer]
  private let context: Unmanaged<Context>
  private let stopped = Mutex(false)
  public let port: Int
  /// The addresses listened on, numeric (`127.0.0.1`, `::1`), in the order the host resolved.
  public let addresses: [String]

  /// What libmicrohttpd keeps for the handler while the daemon runs.
  final class Context: Sendable {
    let responder: any Responder
    let requests: RequestClock
    /// The slow answers being made, each on a thread of its own with its connection set
    /// aside (a thread may wait for another's build: a pool of as many threads as cores would
    /// queue them instead), at most `slowLimit` at once; and whether the server is stopping:
    /// then none is begun, and those begun are waited for, since libmicrohttpd must not stop
    /// with a connection set aside.
    let slowWork = DispatchGroup()
    private let slow = Mutex((running: 0, stopping: false))
    let slowLimit: Int

    enum SlowStart {
      case begun
      /// As many slow answers are being made as may be: the responder's busy answer.
      case busy
      /// The server is stopping: answered at once.
      case stopping
    }

    func beginSlowAnswer() -> SlowStart {
      slow.withLock { state in
        if state.stopping { return .stopping }
        guard state.running < slowLimit else { return .busy }
        state.running += 1
        slowWork.enter()
        return .begun
      }
    }

    func endSlowAnswer() {
      slow.withLock { $0.running -= 1 }
      slowWork.leave()
    }

    /// No slow answer is begun from now on; those begun are waited for.
    func stopSlowAnswers() {
      slow.withLock { $0.stopping = true }
      slowWork.wait()
    }

    init(responder: any Responder, requestTimeout: Int, slowLimit: Int) {
      self.responder = responder
      self.slowLimit = max(1, slowLimit)
      requests = RequestClock(limit: UInt64(max(1, requestTimeout)) * 1_000_000_000)
    }
  }

  public struct StartError: Error, CustomStringConvertible {
    public var description: String
  }

  /// One address a host resolved to.
  struct Address {
    var storage: sockaddr_storage
    var family: Int32
    var text: String

    func with(port: Int) -> sockaddr_storage {
      var copy = storage
      withUnsafeMutableBytes(of: &copy) { raw in
        let value = in_port_t(UInt16(port).bigEndian)
        if family == AF_INET {
          raw.baseAddress?.assumingMemoryBound(to: sockaddr_in.self).pointee.sin_port = value
        } else {
          raw.baseAddress?.assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_port = value
        }
      }
      return copy
    }
  }

  /// The IPv4 and IPv6 addresses of `host` (an address or a name), without repeats.
  static func resolve(_ host: String) throws(StartError) -> [Address] {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let rc = getaddrinfo(host, nil, &hints, &list)
    guard rc == 0 else {
      throw StartError(description: "cannot resolve '\(host)': \(String(cString: gai_strerror(rc)))")
    }
    defer { freeaddrinfo(list) }
    var addresses: [Address] = []
    var entry = list
    while let info = entry?.pointee {
      entry = info.ai_next
      guard info.ai_family == AF_INET || info.ai_family == AF_INET6, let source = info.ai_addr else { continue }
      var storage = sockaddr_storage()
      withUnsafeMutableBytes(of: &storage) { target in
        target.copyMemory(from: UnsafeRawBufferPointer(start: source, count: Int(info.ai_addrlen)))
      }
      var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
      guard getnameinfo(source, info.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else {
        continue
      }
      let numeric = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !addresses.contains(where: { $0.text == numeric }) {
        addresses.append(Address(storage: storage, family: info.ai_family, text: numeric))
      }
    }
    guard !addresses.isEmpty else { throw StartError(description: "'\(host)' has no IPv4 or IPv6 address") }
    return addresses
  }

  public init(options: HTTPServerOptions, responder: any Responder) throws {
    let addresses = try Self.resolve(options.host)
    let context = Unmanaged.passRetained(
      Context(responder: responder, requestTimeout: options.requestTimeout, slowLimit: options.slowAnswerLimit))
    // With port 0 the first daemon picks a free port and the others take the same one; when
    // that port is taken on another address, all start again on a new one.
    var attempt = 0
    while true {
      attempt += 1
      var started: [OpaquePointer] = []
      var failure: (address: Address, port: Int, code: Int32)?
      var port = options.port
      for address in addresses {
        guard let daemon = Self.start(address, port: port, options: options, context: context) else {
          failure = (address, port, errno)
          break
        }
        started.append(daemon)
        if port == 0 { port = Int(gp_mhd_bound_port(daemon)) }
      }
      if let failure {
        for daemon in started { MHD_stop_daemon(daemon) }
        if options.port == 0 && failure.code == EADDRINUSE && attempt < 5 { continue }
        context.release()
        let shown = failure.address.family == AF_INET6 ? "[\(failure.address.text)]" : failure.address.text
        let named = options.host == failure.address.text ? "" : " (\(options.host))"
        throw StartError(
          description: "cannot listen on \(shown):\(failure.port)\(named) (\(String(cString: strerror(failure.code))))")
      }
      daemons = started
      self.port = port
      break
    }
    self.context = context
    self.addresses = addresses.map(\.text)
  }

  private static func start(
    _ address: Address, port: Int, options: HTTPServerOptions, context: Unmanaged<Context>
  ) -> OpaquePointer? {
    var flags =
      MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_TURBO.rawValue
      | MHD_ALLOW_SUSPEND_RESUME.rawValue
    if address.family == AF_INET6 { flags |= MHD_USE_IPv6.rawValue }
    var storage = address.with(port: port)
    return withUnsafePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddress in
        gp_mhd_start(
          flags, sockaddress, accessHandler, context.toOpaque(), UInt32(options.threads),
          UInt32(options.connectionLimit), UInt32(options.connectionsPerClient), UInt32(options.connectionTimeout),
          options.connectionMemory, connectionNotifier, completionNotifier, targetLogger)
      }
    }
  }

  /// Whether every address is a loopback one (127.0.0.0/8 or ::1): nothing else can connect.
  public var isLoopbackOnly: Bool {
    addresses.allSatisfy { $0.hasPrefix("127.") || $0 == "::1" || $0.hasPrefix("::ffff:127.") }
  }

  /// The connections open now, over every address (0 once stopped).
  public var openConnections: Int {
    stopped.withLock { done in
      done
        ? 0
        : daemons.reduce(0) { total, daemon in
          total + Int(gp_mhd_open_connections(daemon))
        }
    }
  }

  /// Stops accepting, finishes the requests in flight and closes every connection.
  public func stop() {
    let first = stopped.withLock { done -> Bool in
      defer { done = true }
      return !done
    }
    if first {
      let context = context.takeUnretainedValue()
      // No connection may be set aside when the daemons stop: the slow answers in the making
      // are finished (and their connections resumed) first.
      context.stopSlowAnswers()
      for daemon in daemons { MHD_stop_daemon(daemon) }
      context.requests.stop()
    }
  }

  deinit {
    stop()
    context.release()
  }
}

/// Collects headers through MHD_get_connection_values_n (lengths as sent, so a NUL inside a
/// value is seen rather than cutting it short).
private final class ValueCollector {
  var pairs: [(String, String)] = []
}

private let collectValue: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
  guard let context, let key else { return .YES }
  let collector = Unmanaged<ValueCollector>.fromOpaque(context).takeUnretainedValue()
  let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
  let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
  collector.pairs.append((name, text))
  return .YES
}

/// One request from its target to its answer: what the transport keeps between
/// libmicrohttpd's calls (the headers, then each piece of body, then the end, and once more
/// after a slow answer is ready).
private final class Exchange: @unchecked Sendable {
  /// The target exactly as sent.
  let rawTarget: [UInt8]
  var request: ServerRequest?
  var bodyLimit = 0
  /// The answer to a body that turns out larger than the limit.
  var tooLarge: (@Sendable () -> ServerResponse)?
  /// Whether the body went past the limit.
  var overflowed = false
  var body: [UInt8] = []
  /// Whether the answer is being made on a worker.
  var isStarted = false
  /// Set once the answer is made; guarded by `lock` while a worker may be making it.
  private var answer: ServerResponse?
  private var suspended = false
  private let lock = NSLock()

  init(rawTarget: [UInt8]) { self.rawTarget = rawTarget }

  /// The worker's answer: kept, and the connection resumed when it was set aside.
  func finish(_ response: ServerResponse, connection: OpaquePointer) {
    lock.lock()
    defer { lock.unlock() }
    answer = response
    if suspended {
      suspended = false
      MHD_resume_connection(connection)
    }
  }

  /// The answer when it is made; otherwise the connection is set aside until it is.
  func answerOrSuspend(_ connection: OpaquePointer) -> ServerResponse? {
    lock.lock()
    defer { lock.unlock() }
    if let answer { return answer }
    suspended = true
    MHD_suspend_connection(connection)
    return nil
  }
}

/// Keeps each request's raw target in its exchange (the first call of every request).
private let targetLogger: gp_mhd_uri_logger = { _, uri, _ in
  let bytes = uri.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
  return Unmanaged.passRetained(Exchange(rawTarget: bytes)).toOpaque()
}

/// When each connection's current request began, so requests that take too long to arrive
/// are cut off: a thread looks every second and shuts down the sockets of requests past the
/// limit (libmicrohttpd then closes them as it would any connection the client dropped). The
/// table is keyed by socket; an entry is removed, under the same lock, before libmicrohttpd
/// closes its socket, so a socket number is never shut down once it belongs to another
/// connection.
final class RequestClock: Sendable {
  private struct Waiting {
    /// When the request began (ns), or nil while the server is answering it.
    var since: UInt64?
  }

  private let waiting = Mutex<[Int32: Waiting]>([:])
  private let limit: UInt64
  private let running = Mutex(true)

  init(limit: UInt64) {
    self.limit = limit
    let thread = Thread { [self] in watch() }
    thread.name = "geophoto request clock"
    thread.start()
  }

  func started(_ fd: Int32) { waiting.withLock { $0[fd] = Waiting(since: DispatchTime.now().uptimeNanoseconds) } }
  func closed(_ fd: Int32) { waiting.withLock { _ = $0.removeValue(forKey: fd) } }
  /// The headers are in: the server has the request, the client no longer owes anything.
  func answering(_ fd: Int32) { waiting.withLock { $0[fd]?.since = nil } }
  /// The answer went out: the next request's time begins.
  func answered(_ fd: Int32) { waiting.withLock { $0[fd]?.since = DispatchTime.now().uptimeNanoseconds } }

  func stop() { running.withLock { $0 = false } }

  private func watch() {
    while running.withLock({ $0 }) {
      Thread.sleep(forTimeInterval: 1)
      let now = DispatchTime.now().uptimeNanoseconds
      waiting.withLock { table in
        for (fd, entry) in table {
          guard let since = entry.since, now > since, now - since > limit else { continue }
          shutdown(fd, Int32(SHUT_RDWR))
          table[fd]?.since = nil
        }
      }
    }
  }
}

private let connectionNotifier: MHD_NotifyConnectionCallback = { context, connection, _, event in
  guard let context, let connection else { return }
  let clock = Unmanaged<HTTPServer.Context>.fromOpaque(context).takeUnretainedValue().requests
  let fd = gp_mhd_connection_fd(connection)
  guard fd >= 0 else { return }
  if event == .CONNECTION_NOTIFY_STARTED { clock.started(fd) } else { clock.closed(fd) }
}

private let completionNotifier: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
  let server = context.map { Unmanaged<HTTPServer.Context>.fromOpaque($0).takeUnretainedValue() }
  if let requestContext, let pointer = requestContext.pointee {
    let exchange = Unmanaged<Exchange>.fromOpaque(pointer)
    if exchange.takeUnretainedValue().isStarted { server?.endSlowAnswer() }
    exchange.release()
    requestContext.pointee = nil
  }
  guard let context, let connection else { return }
  let fd = gp_mhd_connection_fd(connection)
  if fd >= 0 { Unmanaged<HTTPServer.Context>.fromOpaque(context).takeUnretainedValue().requests.answered(fd) }
}

private let accessHandler: MHD_AccessHandlerCallback = {
  context, connection, _, method, _, uploadData, uploadSize, connectionContext in
  guard let context, let connection, let method, let uploadSize, let connectionContext,
    let pointer = connectionContext.pointee
  else { return .NO }
  let server = Unmanaged<HTTPServer.Context>.fromOpaque(context).takeUnretainedValue()
  let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeUnretainedValue()

  // libmicrohttpd calls once when the headers are in, then once per piece of body, then once
  // more with nothing left (and again after a connection set aside is resumed). The responder
  // decides on the headers alone whether a body is read at all; the request's time runs on
  // until it is all in.
  guard var request = exchange.request else {
    let request = makeRequest(connection, method: String(cString: method), rawTarget: exchange.rawTarget)
    exchange.request = request
    switch server.responder.admit(request) {
    case .answer(let response): return queue(connection, response)
    case .readBody(let limit, let tooLarge):
      exchange.bodyLimit = limit
      exchange.tooLarge = tooLarge
      return .YES
    case .proceed:
      // Answered on the last call: one made now would close the connection (libmicrohttpd
      // cannot tell yet that no body follows).
      return .YES
    }
  }
  if uploadSize.pointee > 0 {
    // A body of unknown length that turns out too large is dropped as it comes (libmicrohttpd
    // takes an answer only once the request is in; the request's time still runs) and
    // answered `tooLarge` at its end. Nothing past the limit is kept.
    let count = uploadSize.pointee
    uploadSize.pointee = 0
    if !exchange.overflowed, count <= exchange.bodyLimit - exchange.body.count, let uploadData {
      exchange.body += UnsafeRawBufferPointer(start: uploadData, count: count)
    } else {
      exchange.overflowed = true
      exchange.body = []
    }
    return .YES
  }
  if exchange.overflowed { return queue(connection, exchange.tooLarge?() ?? ServerResponse(status: 413)) }
  request.body = exchange.body
  return respond(connection, exchange, request, server)
}

/// Answers a request that is all in: at once, or on a worker when the responder says the
/// answer may take long (the connection set aside meanwhile, and resumed when it is made).
private func respond(
  _ connection: OpaquePointer, _ exchange: Exchange, _ request: ServerRequest, _ server: HTTPServer.Context
) -> MHD_Result {
  if exchange.isStarted {
    // Called again after a resume: the answer is there.
    guard let answer = exchange.answerOrSuspend(connection) else { return .YES }
    return queue(connection, answer)
  }
  let fd = gp_mhd_connection_fd(connection)
  if fd >= 0 { server.requests.answering(fd) }
  guard server.responder.answersSlowly(request) else { return queue(connection, server.responder.respond(to: request)) }
  switch server.beginSlowAnswer() {
  case .stopping: return queue(connection, server.responder.respond(to: request))
  case .busy: return queue(connection, server.responder.busy(request))
  case .begun: break
  }
  exchange.isStarted = true
  nonisolated(unsafe) let connectionToResume = connection
  // The slow answer ends when its request completes (`completionNotifier`): once it is sent,
  // not merely made, so a stopping server waits for it to go out.
  let worker = Thread { exchange.finish(server.responder.respond(to: request), connection: connectionToResume) }
  worker.name = "geophoto slow answer"
  worker.start()
  guard let answer = exchange.answerOrSuspend(connection) else { return .YES }
  return queue(connection, answer)
}

/// The request from its raw target and its headers (the target read by `RequestTarget`).
private func makeRequest(_ connection: OpaquePointer, method: String, rawTarget: [UInt8]) -> ServerRequest {
  let headers = ValueCollector()
  withExtendedLifetime(headers) {
    _ = MHD_get_connection_values_n(
      connection, .HEADER_KIND, collectValue, Unmanaged.passUnretained(headers).toOpaque())
  }
  var headerMap: [String: String] = [:]
  for (name, value) in headers.pairs where headerMap[name.lowercased()] == nil { headerMap[name.lowercased()] = value }
  let declared: ServerRequest.DeclaredBody
  if headerMap["transfer-encoding"] != nil {
    declared = .unknownLength
  } else if let length = headerMap["content-length"], let n = Int(length), n > 0 {
    declared = .length(n)
  } else {
    declared = .none
  }
  var request = ServerRequest(
    method: method, path: "", headers: headerMap, targetLength: rawTarget.count, declaredBody: declared)
  request.rawTarget = String(decoding: rawTarget, as: UTF8.self)
  do {
    let target = try RequestTarget(parsing: rawTarget)
    request.path = target.path
    request.query = target.query
    request.form = target.form
  } catch {
    request.targetProblem = error.description
  }
  return request
}

private func queue(_ connection: OpaquePointer, _ response: ServerResponse) -> MHD_Result {
  response.body.withUnsafeBytes { body in
    guard
      let mhdResponse = MHD_create_response_from_buffer(
        body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
    else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers { MHD_add_response_header(mhdResponse, name, value) }
    return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
  }
}
