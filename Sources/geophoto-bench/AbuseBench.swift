import Foundation
import Glibc

// MARK: - Abuse: what a normal client sees while others misbehave

/// `geophoto serve` over 20,000 synced photos with its default limits, and a normal client's
/// requests (each on a new connection from 127.0.0.1) with the server alone, beside 2,000
/// slow clients (slowloris, from another address), beside 5,000 idle keep-alive connections,
/// and a 20,000-header request; with the server's resident memory before and after.
func benchAbuse() throws {
  print("geophoto serve under abuse: a normal client's /v1/near?limit=20 on fresh connections (200 each)")
  // Thousands of sockets in this process: the soft limit up to the hard one.
  var limit = rlimit()
  getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  limit.rlim_cur = min(limit.rlim_max, 65_536)
  setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)

  let folder = try syntheticFolder(count: 20_000, named: "photos-20k")
  let db = workDirectory.appendingPathComponent("photos-20k.sqlite")
  _ = try runProcess(".build/release/geophoto", ["sync", folder.path, "--db", db.path])
  let server = try ServerProcess(["--db", db.path, "--tiles", "none", "--quiet"])
  defer { server.stop() }
  guard let port = Int(server.base.split(separator: ":").last ?? "") else { return }
  let pid = server.process.processIdentifier
  let path = "/v1/near?lat=35.68&lon=139.76&limit=20"

  /// p50 and p99 in ms of 200 requests, and how many failed.
  func normalClient() -> (p50: Double, p99: Double, failed: Int) {
    var times: [Double] = []
    var failed = 0
    for _ in 0..<200 {
      let started = DispatchTime.now().uptimeNanoseconds
      let answer = RawClient.exchange("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
      if !answer.hasPrefix("HTTP/1.1 200") { failed += 1 }
      times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
    }
    times.sort()
    return (times[times.count / 2], times[times.count * 99 / 100], failed)
  }
  func figures(_ f: (p50: Double, p99: Double, failed: Int)) -> String {
    String(format: "p50 %.2f ms, p99 %.2f ms", f.p50, f.p99) + (f.failed > 0 ? ", \(f.failed) failed" : "")
  }

  let before = residentKilobytes(of: pid)
  row("alone", figures(normalClient()))

  // Slowloris: requests begun and never finished, from one address (it gets its share).
  let slow = RawClient.open(2_000, from: "127.0.0.2", port: port, sending: "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
  let beside = normalClient()
  let slowClosed = RawClient.closedByServer(slow)
  for fd in slow { close(fd) }
  row(
    "beside 2,000 slow clients", figures(beside),
    "goal p99 ≤ 100 ms; \(slowClosed) of \(slow.count) closed by the server at once (256 a client)")

  // Idle keep-alive connections, 5,000 from one address.
  let idle = RawClient.open(5_000, from: "127.0.0.3", port: port)
  let besideIdle = normalClient()
  let idleClosed = RawClient.closedByServer(idle)
  for fd in idle { close(fd) }
  row("beside 5,000 idle connections", figures(besideIdle), "\(idleClosed) of \(idle.count) closed at once")

  // A header flood: 20,000 headers in one request.
  let flood =
    "GET \(path) HTTP/1.1\r\nHost: x\r\n" + (0..<20_000).map { "X-Flood-\($0): y\r\n" }.joined()
    + "Connection: close\r\n\r\n"
  let started = DispatchTime.now().uptimeNanoseconds
  let refused = RawClient.exchange(flood, port: port)
  let floodMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
  row(
    "a request of 20,000 headers", refused.isEmpty ? "closed without an answer" : String(refused.prefix(12)),
    String(format: "answered in %.1f ms", floodMs))
  Thread.sleep(forTimeInterval: 0.5)
  let after = residentKilobytes(of: pid)
  row(
    "resident memory before / after", String(format: "%.1f / %.1f MB", Double(before) / 1024, Double(after) / 1024),
    "and the normal client once more: \(figures(normalClient()))")
}

/// Plain sockets on loopback, for clients that misbehave as no HTTP library would.
enum RawClient {
  /// A connected socket from `source` (a loopback address) to 127.0.0.1:`port`, or nil.
  static func connect(from source: String, port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, size) }
    }
    guard bound == 0, connected == 0 else {
      close(fd)
      return nil
    }
    return fd
  }

  /// Up to `count` connections from `source`, each sent `prefix`.
  static func open(_ count: Int, from source: String, port: Int, sending prefix: String = "") -> [Int32] {
    var fds: [Int32] = []
    for _ in 0..<count {
      guard let fd = connect(from: source, port: port) else { break }
      if !prefix.isEmpty { _ = prefix.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
      fds.append(fd)
    }
    return fds
  }

  /// Sends `raw` from 127.0.0.1 and reads until the server closes (at most five seconds).
  static func exchange(_ raw: String, port: Int) -> String {
    guard let fd = connect(from: "127.0.0.1", port: port) else { return "" }
    defer { close(fd) }
    _ = raw.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
    while DispatchTime.now().uptimeNanoseconds < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) == 1 else { continue }
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      answer += buffer[0..<n]
    }
    return String(decoding: answer, as: UTF8.self)
  }

  /// How many of `fds` the server closes within two seconds.
  static func closedByServer(_ fds: [Int32]) -> Int {
    var closed: Set<Int32> = []
    let deadline = Date().addingTimeInterval(2)
    while Date() < deadline && closed.count < fds.count {
      var pollers = fds.filter { !closed.contains($0) }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      guard poll(&pollers, nfds_t(pollers.count), 200) > 0 else { continue }
      for p in pollers where p.revents != 0 {
        var byte: UInt8 = 0
        if recv(p.fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 { closed.insert(p.fd) }
      }
    }
    return closed.count
  }
}
