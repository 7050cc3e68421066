import Foundation
import GeoPhotoFixtures
import Glibc
import Testing

@testable import GeoPhotoHTTPD

/// The transport under abuse, with real sockets on loopback, bounded in count and time: slow
/// clients, idle connections by the thousand, header floods, pipelining and malformed request
/// lines. Nothing may crash or stall the server, and every refusal is a clean status or close.
@Suite(.serialized) struct AbuseTests {
  init() {
    // Thousands of sockets in this process: the soft limit up to the hard one.
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = min(limit.rlim_max, 65_536)
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }

  func server(_ configure: (inout HTTPServerOptions) -> Void = { _ in }) throws -> HTTPServer {
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 2
    configure(&options)
    return try HTTPServer(options: options, responder: EchoResponder())
  }

  /// Connections from `source`, as many as the system lets be made, each sent `prefix`.
  func open(_ count: Int, from source: String, port: Int, sending prefix: String = "") -> [Int32] {
    LoopbackClient.open(count, from: source, port: port, sending: prefix)
  }

  /// `count` connections from `source` started without waiting (non-blocking connects): a
  /// server at its limit leaves the ones beyond it waiting in the kernel's queue.
  func start(_ count: Int, from source: String, port: Int) -> [Int32] {
    var fds: [Int32] = []
    for _ in 0..<count {
      guard let fd = LoopbackClient.connect(from: source, port: port, waiting: false) else { break }
      fds.append(fd)
    }
    return fds
  }

  /// What the server answers to `raw` within two seconds (it may keep the connection open).
  func answer(to raw: String, port: Int) throws -> String {
    let fd = try ConnectionLimitTests().connect(from: "127.0.0.1", port: port)
    defer { close(fd) }
    _ = raw.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(2)
    while Date() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) == 1 else {
        if !answer.isEmpty { break }
        continue
      }
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      answer += buffer[0..<n]
    }
    return String(decoding: answer, as: UTF8.self)
  }

  /// The answer to one whole request on a new connection from 127.0.0.1.
  func fetch(_ port: Int, path: String) throws -> String {
    try exchange("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
  }

  @Test func twoThousandSlowClientsDoNotStopANormalOne() throws {
    let server = try server()
    defer { server.stop() }
    // 2,000 connections that start a request and never finish it, from one address: it gets
    // its share (256), the rest are closed.
    let slow = open(2_000, from: "127.0.0.2", port: server.port, sending: "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    defer { for fd in slow { close(fd) } }
    #expect(slow.count > 256)
    // Every normal request is answered whole, on its own connection, while they hang on.
    for i in 0..<200 {
      let answer = try fetch(server.port, path: "/normal\(i)")
      #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("/normal\(i)"), "\(answer.prefix(80))")
    }
    // The slow client kept its share and no more.
    #expect(LoopbackClient.closedByServer(slow) == slow.count - 256)
  }

  @Test func fiveThousandIdleConnectionsLeaveTheServerAnswering() throws {
    let server = try server { $0.connectionLimit = 1_024 }
    defer { server.stop() }
    // From twenty addresses, 250 each: the server takes 1,024 and leaves the others waiting
    // in the kernel's queue (or refused), and keeps running.
    var idle: [Int32] = []
    defer { for fd in idle { close(fd) } }
    for k in 2..<22 { idle += start(250, from: "127.0.1.\(k)", port: server.port) }
    #expect(idle.count == 5_000, "\(idle.count) connections started")
    // The server takes its 1,024 and not one more.
    #expect(Self.waitFor { server.openConnections == 1_024 }, "\(server.openConnections) open")
    #expect(server.openConnections == 1_024)
    // Once they go, everyone is answered again.
    for fd in idle { close(fd) }
    idle = []
    #expect(Self.waitFor { server.openConnections == 0 }, "\(server.openConnections) still open")
    let answer = try exchange("GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("/after"))
  }

  /// Whether `condition` comes true within 30 seconds, looked at every 10 ms (a bound on a
  /// wait for an event, not a measurement).
  static func waitFor(_ condition: () -> Bool) -> Bool {
    for _ in 0..<3_000 {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }

  @Test func aHeaderFloodIsRefusedWithAStatus() throws {
    let server = try server()
    defer { server.stop() }
    let flood = (0..<20_000).map { "X-Flood-\($0): \(String(repeating: "a", count: 20))\r\n" }.joined()
    let answer = try exchange("GET /flood HTTP/1.1\r\nHost: x\r\n" + flood + "\r\n", port: server.port)
    #expect(answer.hasPrefix("HTTP/1.1 431"), "\(answer.prefix(80))")
    let after = try fetch(server.port, path: "/after")
    #expect(after.hasSuffix("/after"))
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() throws {
    let server = try server()
    defer { server.stop() }
    let requests = (0..<50).map { "GET /p\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
    let answer = try exchange(
      requests + "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    let order = (0..<50).compactMap {
      answer.range(of: "/p\($0)HTTP/1.1 200")?.lowerBound ?? answer.range(of: "/p\($0)")?.lowerBound
    }
    #expect(order.count == 50 && order == order.sorted(), "\(order.count) answers")
    #expect(answer.hasSuffix("/last"))
  }

  @Test(
    "malformed request lines get a clean status or close",
    arguments: [
      "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", "GET /a b c HTTP/1.1\r\n\r\n",
      "\u{1}\u{2}\u{3}\u{FF}\r\n\r\n", "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
      String(repeating: "A", count: 100_000),
    ])
  func malformed(request: String) throws {
    let server = try server()
    defer { server.stop() }
    let answer = try answer(to: request, port: server.port)
    let status = answer.hasPrefix("HTTP/1.") ? Int(answer.dropFirst(9).prefix(3)) : nil
    #expect(answer.isEmpty || (status.map { $0 == 200 || (400..<600).contains($0) } ?? false), "\(answer.prefix(60))")
    let after = try fetch(server.port, path: "/still")
    #expect(after.hasSuffix("/still"), "the server stopped answering after \(request.prefix(20))")
  }
}
