import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Synchronization

// MARK: - A crowd of distinct filters: what /healthz sees while 64 clients each ask for one

/// `geophoto serve` on 1M photos taken over ten years, and 64 clients at once, each asking
/// `/v1/annotations` for a time filter of its own (a week, a month, …: every answer needs a
/// cluster hierarchy built for it), for 20 s; meanwhile a 65th client asks `/healthz` every
/// 10 ms. The builds are shared and at most one per core run at once (the rest answered 503
/// with Retry-After, and the clients try again after it), so liveness answers stay fast and
/// memory stays bounded.
func benchCrowd(points: [Coordinate]) throws {
  print("geophoto serve: 64 clients asking 64 distinct filters at once, 1M photos over ten years")
  let db = try syntheticIndex(points: points, named: "crowd-1m", spreadTimes: true)
  let server = try ServerProcess(["--quiet", "--db", db.path, "--tiles", "none"])
  defer { server.stop() }
  guard let port = Int(server.base.split(separator: ":").last ?? "") else { return }
  let pid = server.process.processIdentifier
  @Sendable func get(_ target: String) -> (status: Int, headers: String) {
    let answer = LoopbackClient.exchange(
      "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port, seconds: 60)
    let status = answer.hasPrefix("HTTP/1.1 ") ? Int(answer.dropFirst(9).prefix(3)) ?? 0 : 0
    return (status, String(answer.prefix(400)))
  }
  _ = get("/v1/annotations?bbox=-180,-85,180,85&zoom=2")  // the whole set's hierarchy, kept from the file
  let baseline = residentKilobytes(of: pid, "RssAnon")

  let seconds = 20.0
  let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
  let statuses = Mutex<[Int: Int]>([:])
  let answerTimes = Mutex<[Double]>([])
  let healthTimes = Mutex<[Double]>([])
  let peak = Mutex(baseline)
  let group = DispatchGroup()
  // 64 clients, each its own filter: since a day of its own (every one keeps most photos).
  for client in 0..<64 {
    let thread = Thread {
      group.enter()
      defer { group.leave() }
      let day = String(format: "2015-%02d-%02d", 1 + client % 12, 1 + client % 28)
      let target = "/v1/annotations?bbox=-180,-85,180,85&zoom=\(2 + client % 4)&since=\(day)"
      while DispatchTime.now().uptimeNanoseconds < deadline {
        let started = DispatchTime.now().uptimeNanoseconds
        let (status, headers) = get(target)
        statuses.withLock { $0[status, default: 0] += 1 }
        if status == 200 {
          let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
          answerTimes.withLock { $0.append(ms) }
        }
        // Busy: as a client should, wait the seconds Retry-After says.
        if status == 503 {
          let wait =
            headers.range(of: "Retry-After: ").flatMap { Double(headers[$0.upperBound...].prefix { $0.isNumber }) } ?? 1
          Thread.sleep(forTimeInterval: wait)
        }
      }
    }
    thread.start()
  }
  let health = Thread {
    group.enter()
    defer { group.leave() }
    while DispatchTime.now().uptimeNanoseconds < deadline {
      let started = DispatchTime.now().uptimeNanoseconds
      let (status, _) = get("/healthz")
      let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
      healthTimes.withLock { $0.append(status == 200 ? ms : .infinity) }
      let resident = residentKilobytes(of: pid, "RssAnon")
      peak.withLock { $0 = max($0, resident) }
      Thread.sleep(forTimeInterval: 0.01)
    }
  }
  health.start()
  Thread.sleep(forTimeInterval: 0.2)
  group.wait()
  let after = residentKilobytes(of: pid, "RssAnon")

  let times = healthTimes.withLock { $0 }.sorted()
  let p50 = times.isEmpty ? 0 : times[times.count / 2]
  let p99 = times.isEmpty ? 0 : times[times.count * 99 / 100]
  let counted = statuses.withLock { $0 }
  let answered = counted.filter { $0.key == 200 }.values.reduce(0, +)
  let busy = counted[503] ?? 0
  let other = counted.filter { $0.key != 200 && $0.key != 503 }
  row(
    "/healthz beside 64 distinct filters", String(format: "p50 %.1f ms, p99 %.1f ms", p50, p99),
    "goal p99 ≤ 50 ms; \(times.count) asked")
  let served = answerTimes.withLock { $0 }.sorted()
  row(
    "the 64 clients' answers in \(Int(seconds)) s", "\(answered) × 200, \(busy) × 503",
    (served.isEmpty
      ? "" : String(format: "200s p50 %.0f ms, p99 %.0f ms", served[served.count / 2], served[served.count * 99 / 100]))
      + (other.isEmpty ? "" : "; also \(other.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" })"))
  row(
    "allocated memory before / peak / after",
    String(
      format: "%.0f / %.0f / %.0f MB", Double(baseline) / 1024, Double(peak.withLock { $0 }) / 1024,
      Double(after) / 1024),
    String(format: "%.0f bytes a photo at the peak", Double(peak.withLock { $0 }) * 1024 / Double(points.count)))
}
