import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A request as the fixture server saw it.
public struct FixtureRequest: Sendable {
  public var method: String
  /// Path and query, as sent.
  public var target: String
  public var headers: [String: String]

  public var path: String { String(target.prefix { $0 != "?" }) }

  /// Query parameters, percent-decoded; the last value of a repeated name wins.
  public var query: [String: String] {
    guard let q = target.firstIndex(of: "?") else { return [:] }
    var result: [String: String] = [:]
    for pair in target[target.index(after: q)...].split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
      let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
      result[name] = value
    }
    return result
  }
}

/// What the fixture server answers, including the faults a client must survive.
public struct FixtureResponse: Sendable {
  public var status: Int
  public var headers: [(String, String)]
  public var body: [UInt8]
  /// Seconds to wait before answering (for timeouts).
  public var delay: Double = 0
  /// Send only this many body bytes, then close the connection (Content-Length stays full).
  public var truncateAfter: Int?
  /// Without Content-Length the body ends when the connection closes.
  public var sendsLength = true

  public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8]) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  public static func text(_ text: String, status: Int = 200, contentType: String = "application/json")
    -> FixtureResponse
  {
    FixtureResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
  }
}

/// A loopback HTTP/1.1 server for tests that plays recorded-format responses of third-party
/// web APIs. It listens on 127.0.0.1 with an ephemeral port, keeps connections alive, serves
/// each connection on its own thread, and logs every request.
public final class FixtureHTTPServer: Sendable {
  public let port: Int
  private let listener: Int32
  private let handler: @Sendable (FixtureRequest) -> FixtureResponse
  private let log = Mutex<[FixtureRequest]>([])
  private let connections = Mutex<Int>(0)

  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Every request received so far, in order.
  public var requests: [FixtureRequest] { log.withLock { $0 } }

  /// TCP connections accepted so far (fewer than requests means connections were reused).
  public var connectionCount: Int { connections.withLock { $0 } }

  public init(handler: @escaping @Sendable (FixtureRequest) -> FixtureResponse) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    listener = fd
    self.handler = handler
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  /// Stops accepting connections.
  public func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        close(listener)
        return
      }
      connections.withLock { $0 += 1 }
      var timeout = timeval(tv_sec: 30, tv_usec: 0)
      setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      Thread { [self] in serve(client) }.start()
    }
  }

  private func serve(_ fd: Int32) {
    defer { close(fd) }
    var buffer: [UInt8] = []
    while true {
      guard let request = readRequest(fd, &buffer) else { return }
      log.withLock { $0.append(request) }
      let response = handler(request)
      if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
      var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
      var names = Set<String>()
      for (name, value) in response.headers {
        head += "\(name): \(value)\r\n"
        names.insert(name.lowercased())
      }
      if response.sendsLength && !names.contains("content-length") {
        head += "Content-Length: \(response.body.count)\r\n"
      } else if !response.sendsLength {
        head += "Connection: close\r\n"
      }
      head += "\r\n"
      guard send(fd, Array(head.utf8)) else { return }
      let body = response.truncateAfter.map { Array(response.body.prefix($0)) } ?? response.body
      guard send(fd, body), response.truncateAfter == nil, response.sendsLength else { return }
    }
  }

  private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> FixtureRequest? {
    let terminator: [UInt8] = [13, 10, 13, 10]
    while true {
      if let end = buffer.firstRange(of: terminator) {
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
          guard let colon = line.firstIndex(of: ":") else { continue }
          headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return FixtureRequest(method: String(parts[0]), target: String(parts[1]), headers: headers)
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let n = recv(fd, &chunk, chunk.count, 0)
      if n <= 0 { return nil }
      buffer += chunk[..<n]
      if buffer.count > 1 << 20 { return nil }
    }
  }

  private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return false }
      offset += n
    }
    return true
  }

  private func reason(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 304: return "Not Modified"
    case 400: return "Bad Request"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
  }
}
