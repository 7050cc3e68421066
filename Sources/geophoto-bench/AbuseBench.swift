import Foundation
import GeoPhotoFixtures
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
      let answer = LoopbackClient.exchange(
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
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
  let slow = LoopbackClient.open(
    2_000, from: "127.0.0.2", port: port, sending: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
  let beside = normalClient()
  let slowClosed = LoopbackClient.closedByServer(slow)
  for fd in slow { close(fd) }
  row(
    "beside 2,000 slow clients", figures(beside),
    "goal p99 ≤ 100 ms; \(slowClosed) of \(slow.count) closed by the server at once (256 a client)")

  // Idle keep-alive connections, 5,000 from one address.
  let idle = LoopbackClient.open(5_000, from: "127.0.0.3", port: port)
  let besideIdle = normalClient()
  let idleClosed = LoopbackClient.closedByServer(idle)
  for fd in idle { close(fd) }
  row("beside 5,000 idle connections", figures(besideIdle), "\(idleClosed) of \(idle.count) closed at once")

  // A header flood: 20,000 headers in one request.
  let flood =
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (0..<20_000).map { "X-Flood-\($0): y\r\n" }.joined()
    + "Connection: close\r\n\r\n"
  let started = DispatchTime.now().uptimeNanoseconds
  let refused = LoopbackClient.exchange(flood, port: port)
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
