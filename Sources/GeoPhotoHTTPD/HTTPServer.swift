internal import CGeoPhotoHTTPD
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A request as the transport hands it to a responder: no sockets, no C types.
public struct ServerRequest: Sendable {
  public var method: String
  /// The path, percent-decoded by the transport.
  public var path: String
  /// Query parameters in the order sent, percent-decoded.
  public var query: [(name: String, value: String)]
  /// Header names in lower case.
  public var headers: [String: String]
  /// Bytes of path plus query as received, for the URL-length limit.
  public var targetLength: Int

  public init(
    method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:],
    targetLength: Int? = nil
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.targetLength =
      targetLength ?? (path.utf8.count + query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
  }

  /// `path?query` for logs, percent-encoding nothing: callers redact secrets before printing.
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

/// Turns requests into responses; called concurrently from the server's threads.
public protocol Responder: Sendable {
  func respond(to request: ServerRequest) -> ServerResponse
}

/// Limits and threads of the HTTP transport.
public struct HTTPServerOptions: Sendable {
  public var host = "127.0.0.1"
  /// 0 picks a free port (see `HTTPServer.port`).
  public var port = 8080
  public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
  public var connectionLimit = 1_024
  /// Idle seconds before a connection is closed.
  public var connectionTimeout = 30
  /// Memory per connection for the request line and headers (libmicrohttpd answers 414/431
  /// beyond it).
  public var connectionMemory = 32 * 1024

  public init() {}
}

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads each polling with epoll, keep-alive,
/// per-connection time and memory limits. The responder does the rest; each finished request
/// is reported to `log` with its duration in microseconds.
public final class HTTPServer: Sendable {
  /// Receives one entry per request: the request, the response, and microseconds spent.
  public typealias AccessLog = @Sendable (ServerRequest, ServerResponse, Int) -> Void

  nonisolated(unsafe) private let daemon: OpaquePointer
  private let context: Unmanaged<Context>
  private let stopped = Mutex(false)
  public let port: Int

  /// What libmicrohttpd keeps for the handler while the daemon runs.
  final class Context: Sendable {
    let responder: any Responder
    let log: AccessLog?
    init(responder: any Responder, log: AccessLog?) {
      self.responder = responder
      self.log = log
    }
  }

  public struct StartError: Error, CustomStringConvertible {
    public var description: String
  }

  public init(options: HTTPServerOptions, responder: any Responder, log: AccessLog? = nil) throws {
    let context = Unmanaged.passRetained(Context(responder: responder, log: log))
    var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_TURBO.rawValue
    var storage = sockaddr_storage()
    var v4 = sockaddr_in()
    var v6 = sockaddr_in6()
    if inet_pton(AF_INET, options.host, &v4.sin_addr) == 1 {
      v4.sin_family = sa_family_t(AF_INET)
      v4.sin_port = in_port_t(UInt16(options.port).bigEndian)
      withUnsafeBytes(of: v4) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
    } else if inet_pton(AF_INET6, options.host, &v6.sin6_addr) == 1 {
      v6.sin6_family = sa_family_t(AF_INET6)
      v6.sin6_port = in_port_t(UInt16(options.port).bigEndian)
      withUnsafeBytes(of: v6) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
      flags |= MHD_USE_IPv6.rawValue
    } else {
      context.release()
      throw StartError(description: "'\(options.host)' is not an IPv4 or IPv6 address")
    }
    let started = withUnsafePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        gp_mhd_start(
          flags, address, accessHandler, context.toOpaque(), UInt32(options.threads), UInt32(options.connectionLimit),
          UInt32(options.connectionTimeout), options.connectionMemory)
      }
    }
    guard let started else {
      context.release()
      throw StartError(
        description: "cannot listen on \(options.host):\(options.port) (\(String(cString: strerror(errno))))")
    }
    daemon = started
    self.context = context
    port = Int(gp_mhd_bound_port(started))
  }

  /// Stops accepting, finishes the requests in flight and closes every connection.
  public func stop() {
    let first = stopped.withLock { done -> Bool in
      defer { done = true }
      return !done
    }
    if first { MHD_stop_daemon(daemon) }
  }

  deinit {
    stop()
    context.release()
  }
}

/// Collects query arguments or headers through MHD_get_connection_values.
private final class ValueCollector {
  var pairs: [(String, String)] = []
}

private let collectValue: MHD_KeyValueIterator = { context, _, key, value in
  guard let context, let key else { return .YES }
  let collector = Unmanaged<ValueCollector>.fromOpaque(context).takeUnretainedValue()
  collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
  return .YES
}

private let accessHandler: MHD_AccessHandlerCallback = {
  context, connection, url, method, _, _, uploadSize, connectionContext in
  guard let context, let connection, let url, let method else { return .NO }
  let startTime = DispatchTime.now().uptimeNanoseconds
  let server = Unmanaged<HTTPServer.Context>.fromOpaque(context).takeUnretainedValue()

  // libmicrohttpd calls once when the headers are in, then once per piece of body, then
  // once more with nothing left: the answer goes out on that last call, so the connection can
  // stay open for the next request. geophoto takes no request bodies: any body is drained
  // and answered with 413.
  guard let uploadSize, let connectionContext else { return .NO }
  let started = UnsafeMutableRawPointer(bitPattern: 1)
  let sawBody = UnsafeMutableRawPointer(bitPattern: 2)
  if connectionContext.pointee == nil {
    connectionContext.pointee = started
    return .YES
  }
  if uploadSize.pointee > 0 {
    uploadSize.pointee = 0
    connectionContext.pointee = sawBody
    return .YES
  }
  if connectionContext.pointee == sawBody {
    let body = Array(#"{"error":{"code":"payload_too_large","message":"request bodies are not accepted"}}"#.utf8)
    return queue(connection, ServerResponse(status: 413, headers: [("Content-Type", "application/json")], body: body))
  }

  let query = ValueCollector()
  let headers = ValueCollector()
  withExtendedLifetime((query, headers)) {
    MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectValue, Unmanaged.passUnretained(query).toOpaque())
    MHD_get_connection_values(connection, .HEADER_KIND, collectValue, Unmanaged.passUnretained(headers).toOpaque())
  }
  var headerMap: [String: String] = [:]
  for (name, value) in headers.pairs { headerMap[name.lowercased()] = value }
  let path = String(cString: url)
  let request = ServerRequest(
    method: String(cString: method), path: path, query: query.pairs.map { (name: $0.0, value: $0.1) },
    headers: headerMap)
  let response = server.responder.respond(to: request)

  let result = queue(connection, response)
  if let log = server.log {
    log(request, response, Int((DispatchTime.now().uptimeNanoseconds - startTime) / 1_000))
  }
  return result
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
