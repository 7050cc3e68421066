import Foundation
import GeoPhotoFixtures
import GeoPhotoHTTP
import Glibc
import Synchronization
import Testing

@testable import GeoPhotoHTTPD

/// Answers every request with its path (and says when it came with a body).
struct EchoResponder: Responder {
  func respond(to request: ServerRequest) -> ServerResponse {
    let text = request.path + (request.hasBody ? " with a body" : "")
    return ServerResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Array(text.utf8))
  }
}

/// Takes bodies of at most 16 bytes and answers with what came.
struct BodyResponder: Responder {
  func admit(_ request: ServerRequest) -> Admission {
    let tooLarge = ServerResponse(status: 413, body: Array("too large".utf8))
    if case .length(let n) = request.declaredBody, n > 16 { return .answer(tooLarge) }
    return request.hasBody ? .readBody(limit: 16) { tooLarge } : .proceed
  }

  func respond(to request: ServerRequest) -> ServerResponse {
    ServerResponse(
      status: 200, body: Array("\(request.body.count) bytes: \(String(decoding: request.body, as: UTF8.self))".utf8))
  }
}

/// Sends `raw` bytes to 127.0.0.1:`port` and reads the whole answer (the request asks the
/// server to close the connection).
func exchange(_ raw: String, port: Int) throws -> String {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  try #require(fd >= 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
  }
  try #require(connected == 0)
  _ = raw.withCString { send(fd, $0, strlen($0), 0) }
  var answer: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = recv(fd, &buffer, buffer.count, 0)
    if n <= 0 { break }
    answer += buffer[0..<n]
  }
  return String(decoding: answer, as: UTF8.self)
}

/// The addresses the system resolver gives for `host`, from `getent ahosts` (outside geophoto).
func systemAddresses(_ host: String) throws -> Set<String> {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/getent")
  process.arguments = ["ahosts", host]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return Set(output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
}

func get(_ url: String) throws -> (Int, String) {
  var options = HTTPClientOptions(userAgent: "geophoto-tests")
  options.timeout = 5
  let response = try HTTPClient(options: options).get(url)
  return (response.status, String(decoding: response.body, as: UTF8.self))
}

func server(host: String, port: Int = 0) throws -> HTTPServer {
  var options = HTTPServerOptions()
  options.host = host
  options.port = port
  options.threads = 1
  return try HTTPServer(options: options, responder: EchoResponder())
}

@Suite struct HTTPServerTests {
  @Test func aHostNameListensOnEveryAddressItResolvesTo() throws {
    let expected = try systemAddresses("localhost")
    let s = try server(host: "localhost")
    defer { s.stop() }
    #expect(Set(s.addresses) == expected)
    #expect(s.addresses.count == expected.count)
    #expect(s.isLoopbackOnly)
    for address in s.addresses {
      let host = address.contains(":") ? "[\(address)]" : address
      #expect(try get("http://\(host):\(s.port)/hello") == (200, "/hello"))
    }
  }

  @Test func addressesAreTakenAsTheyAre() throws {
    let v4 = try server(host: "127.0.0.1")
    defer { v4.stop() }
    #expect(v4.addresses == ["127.0.0.1"])
    #expect(try get("http://127.0.0.1:\(v4.port)/a") == (200, "/a"))
    let v6 = try server(host: "::1")
    defer { v6.stop() }
    #expect(v6.addresses == ["::1"])
    #expect(try get("http://[::1]:\(v6.port)/b") == (200, "/b"))
    let any = try server(host: "0.0.0.0")
    defer { any.stop() }
    #expect(!any.isLoopbackOnly)
  }

  @Test func aNameThatDoesNotResolveIsOneClearError() {
    #expect(throws: HTTPServer.StartError.self) { try server(host: "no-such-host.invalid") }
    do {
      _ = try server(host: "no-such-host.invalid")
    } catch {
      #expect("\(error)".hasPrefix("cannot resolve 'no-such-host.invalid': "))
    }
  }

  /// A responder that does not read bodies refuses them from the headers (413), before a
  /// byte of the body is sent: the answer arrives though the body never does.
  @Test func aBodyIsRefusedBeforeItIsRead() throws {
    let s = try server(host: "127.0.0.1")
    defer { s.stop() }
    let answer = try exchange(
      "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n", port: s.port)
    #expect(answer.hasPrefix("HTTP/1.1 413"))
    let chunked = try exchange("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", port: s.port)
    #expect(chunked.hasPrefix("HTTP/1.1 413"))
    let plain = try exchange("GET /plain HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: s.port)
    #expect(plain.hasSuffix("\r\n\r\n/plain"))
  }

  /// A responder that takes bodies gets them whole, up to its limit; over it, its 413: at once
  /// for a declared length, at the end of a chunked one (what came past the limit dropped).
  @Test func aBodyIsReadUpToTheLimit() throws {
    let s = try HTTPServer(options: Self.options, responder: BodyResponder())
    defer { s.stop() }
    let small = try exchange(
      "PUT /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", port: s.port)
    #expect(small.hasPrefix("HTTP/1.1 200") && small.hasSuffix("5 bytes: hello"))
    let chunks = "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
    let chunked = try exchange(
      "PUT /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks, port: s.port)
    #expect(chunked.hasSuffix("11 bytes: hello world"))
    let declared = try exchange("PUT /b HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n", port: s.port)
    #expect(declared.hasPrefix("HTTP/1.1 413") && declared.hasSuffix("too large"))
    let big = String(repeating: "x", count: 40)
    let overflowing = try exchange(
      "PUT /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n28\r\n\(big)\r\n0\r\n\r\n",
      port: s.port)
    #expect(overflowing.hasPrefix("HTTP/1.1 413") && overflowing.hasSuffix("too large"), "\(overflowing)")
  }

  static var options: HTTPServerOptions {
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 1
    return options
  }

  @Test func aPortInUseSaysWhichAddressAndPort() throws {
    let first = try server(host: "127.0.0.1")
    defer { first.stop() }
    do {
      _ = try server(host: "localhost", port: first.port)
      Issue.record("two servers on one port")
    } catch {
      #expect("\(error)" == "cannot listen on 127.0.0.1:\(first.port) (localhost) (Address already in use)")
    }
  }
}

/// Connections per client address: one client holding many connections open is refused the
/// ones beyond its share, and another client is still answered.
@Suite struct ConnectionLimitTests {
  /// A TCP connection to 127.0.0.1:`port` from the loopback address `source` (all of
  /// 127.0.0.0/8 is this machine, so the server sees two different clients).
  func connect(from source: String, port: Int) throws -> Int32 {
    try #require(LoopbackClient.connect(from: source, port: port), "connect from \(source)")
  }

  /// How many of `fds` the server closes within two seconds.
  func closedByServer(_ fds: [Int32]) -> Int { LoopbackClient.closedByServer(fds) }

  @Test func oneClientGetsItsShareAndAnotherIsStillAnswered() throws {
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 1
    options.connectionsPerClient = 20
    let server = try HTTPServer(options: options, responder: EchoResponder())
    defer { server.stop() }
    var held: [Int32] = []
    defer { for fd in held { close(fd) } }
    for _ in 0..<60 { held.append(try connect(from: "127.0.0.2", port: server.port)) }
    // The connections beyond the twentieth are closed at once; the first twenty stay open.
    let refused = closedByServer(held)
    #expect(refused == 40, "\(refused) of 60 closed")
    // Another client address is answered while the first holds its twenty.
    let answer = try exchange("GET /other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("/other"), "\(answer.prefix(80))")
  }
}

/// A request that trickles in is cut off when its time is up, however often it sends.
@Suite struct RequestTimeoutTests {
  /// A server that gives each request two seconds.
  static func server() throws -> HTTPServer {
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 1
    options.requestTimeout = 2
    return try HTTPServer(options: options, responder: EchoResponder())
  }

  @Test func aClientSendingAByteAtATimeIsCutOffAndOthersAreAnswered() throws {
    let server = try Self.server()
    defer { server.stop() }
    let fd = try ConnectionLimitTests().connect(from: "127.0.0.1", port: server.port)
    defer { close(fd) }
    // One byte every 250 ms (the idle timeout of 30 s never fires), for at most 8 s.
    let request = "GET /slow HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Padding: 1\r\n", count: 40)
    let (cutOff, sent) = Self.trickle(Array(request.utf8), to: fd, every: 250)
    // Cut off by its request's time (libmicrohttpd's own clock), long before all of it came
    // (which would take two minutes), and not at once: a few bytes were taken first.
    #expect(cutOff, "the slow request was never cut off (\(sent) bytes sent)")
    #expect(sent >= 3 && sent < request.utf8.count, "cut off after \(sent) bytes")
    // A normal request meanwhile and after is answered.
    let answer = try exchange("GET /quick HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("/quick"))
  }

  /// The time bounds the whole request, its body included: a body trickled in a byte at a
  /// time after quick headers is cut off too (libmicrohttpd's idle timeout alone never would).
  @Test func aBodyTrickledInIsCutOff() throws {
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 1
    options.requestTimeout = 2
    let server = try HTTPServer(options: options, responder: BodyResponder())
    defer { server.stop() }
    let fd = try ConnectionLimitTests().connect(from: "127.0.0.1", port: server.port)
    defer { close(fd) }
    let head = "PUT /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n"
    _ = head.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    let (cutOff, sent) = Self.trickle(Array(repeating: UInt8(ascii: "x"), count: 16), to: fd, every: 400)
    // The body's 16 bytes at this pace take 6.4 s: the request's 2 s end it first.
    #expect(cutOff && sent < 16, "the slow body was never cut off (\(sent) bytes sent)")
  }

  /// Sends `bytes` one at a time, `every` milliseconds, until all are sent or the server cuts
  /// the connection off: whether it did, and after how many bytes.
  static func trickle(_ bytes: [UInt8], to fd: Int32, every milliseconds: Int32) -> (Bool, Int) {
    var sent = 0
    while sent < bytes.count {
      var byte = bytes[sent]
      if send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) < 0 { return (true, sent) }
      sent += 1
      // A closed connection shows as readable with nothing (or an error) to read.
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      if poll(&poller, 1, milliseconds) == 1 {
        var answer: UInt8 = 0
        if recv(fd, &answer, 1, Int32(MSG_DONTWAIT)) <= 0 { return (true, sent) }
      }
    }
    return (false, sent)
  }

  @Test func keepAliveRequestsEachGetTheirOwnTime() throws {
    let server = try Self.server()
    defer { server.stop() }
    let fd = try ConnectionLimitTests().connect(from: "127.0.0.1", port: server.port)
    defer { close(fd) }
    // Five requests a second apart on one connection: 4 s in all, each well inside its 2 s.
    for i in 0..<5 {
      let request = "GET /r\(i) HTTP/1.1\r\nHost: x\r\n\r\n"
      _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
      var buffer = [UInt8](repeating: 0, count: 1024)
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      #expect(poll(&poller, 1, 2_000) == 1)
      let n = recv(fd, &buffer, buffer.count, 0)
      let text = String(decoding: buffer.prefix(max(0, n)), as: UTF8.self)
      #expect(text.hasPrefix("HTTP/1.1 200") && text.hasSuffix("/r\(i)"), "request \(i): \(text.prefix(60))")
      Thread.sleep(forTimeInterval: 1)
    }
  }
}

/// Answers that may take long are made on threads of their own, their connections set aside:
/// the transport's threads go on answering, as many slow answers are made as allowed and the
/// rest are the responder's busy answer at once, and a server stopping waits for those begun.
@Suite struct SlowAnswerTests {
  /// Requests for `/slow…` wait until released; the rest are answered at once.
  final class HeldResponder: Responder, @unchecked Sendable {
    let release = DispatchSemaphore(value: 0)
    let arrived = DispatchSemaphore(value: 0)

    func answersSlowly(_ request: ServerRequest) -> Bool { request.path.hasPrefix("/slow") }

    func respond(to request: ServerRequest) -> ServerResponse {
      if request.path.hasPrefix("/slow") {
        arrived.signal()
        release.wait()
      }
      return ServerResponse(status: 200, body: Array(request.path.utf8))
    }

    func busy(_ request: ServerRequest) -> ServerResponse { ServerResponse(status: 503, body: Array("busy".utf8)) }
  }

  @Test func slowAnswersDoNotHoldTheTransportAndAreBounded() throws {
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 1
    options.slowAnswerLimit = 2
    let responder = HeldResponder()
    let server = try HTTPServer(options: options, responder: responder)
    let answers = Mutex<[String]>([])
    let group = DispatchGroup()
    for i in 0..<2 {
      DispatchQueue.global().async(group: group) {
        let answer = try? exchange("GET /slow\(i) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        answers.withLock { $0.append(answer ?? "") }
      }
      responder.arrived.wait()
    }
    // Both slow answers are being made, on the server's one transport thread's watch: a
    // quick request is still answered, and a third slow one is busy at once.
    let quick = try exchange("GET /quick HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(quick.hasPrefix("HTTP/1.1 200") && quick.hasSuffix("/quick"))
    let third = try exchange("GET /slow2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(third.hasPrefix("HTTP/1.1 503") && third.hasSuffix("busy"))
    responder.release.signal()
    responder.release.signal()
    group.wait()
    #expect(answers.withLock { $0 }.map { String($0.suffix(6)) }.sorted() == ["/slow0", "/slow1"])
    server.stop()
  }

  /// A server stopped while a slow answer is being made finishes it first (libmicrohttpd must
  /// not stop with a connection set aside).
  @Test func stoppingWaitsForTheSlowAnswersBegun() throws {
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 1
    let responder = HeldResponder()
    let server = try HTTPServer(options: options, responder: responder)
    let answer = Mutex("")
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let text = (try? exchange("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)) ?? ""
      answer.withLock { $0 = text }
      done.signal()
    }
    responder.arrived.wait()
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { responder.release.signal() }
    server.stop()
    done.wait()
    #expect(answer.withLock { $0 }.hasPrefix("HTTP/1.1 200"))
  }
}
