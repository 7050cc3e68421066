import Foundation
import GeoPhotoCore
import GeoPhotoFixtures

// MARK: - Watching folders

/// `sync --watch` over 200,000 photos in 10,000 folders (the 1,000,000 in 50,000 at a
/// fifth): the first sync, resident memory and CPU while nothing changes; then `serve --watch`
/// over the same folders, 100 photos changed at a time, and how long until `/v1/near` answers
/// with all of them.
func benchWatch() throws {
  let count = 200_000
  print("geophoto sync --watch and serve --watch: \(count) photos in \(count / 20) folders, 2 cores")
  let folder = try syntheticFolder(count: count, named: "photos-200k-watch", perFolder: 20)
  let db = workDirectory.appendingPathComponent("watch.sqlite")
  for suffix in ["", "-wal", "-shm", ".spatial"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }

  // The watcher alone.
  let log = workDirectory.appendingPathComponent("watch.out")
  _ = FileManager.default.createFile(atPath: log.path, contents: nil)
  let watcher = Process()
  watcher.executableURL = URL(fileURLWithPath: ".build/release/geophoto")
  watcher.arguments = ["sync", "--watch", folder.path, "--db", db.path]
  watcher.standardOutput = try FileHandle(forWritingTo: log)
  watcher.standardError = FileHandle.nullDevice
  let started = now()
  try watcher.run()
  while watcher.isRunning && !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("scanned") {
    Thread.sleep(forTimeInterval: 0.1)
  }
  let firstSync = milliseconds(now() - started)
  let pid = watcher.processIdentifier
  Thread.sleep(forTimeInterval: 2)
  let cpuBefore = cpuTicks(of: pid)
  Thread.sleep(forTimeInterval: 10)
  let idleTicks = cpuTicks(of: pid) - cpuBefore
  let watching = (residentKilobytes(of: pid, "RssAnon"), residentKilobytes(of: pid))
  watcher.terminate()
  watcher.waitUntilExit()

  // The watcher in the server: 100 photos changed, then looked for.
  let serveLog = workDirectory.appendingPathComponent("watch-serve.log")
  _ = FileManager.default.createFile(atPath: serveLog.path, contents: nil)
  // Not --quiet: the watcher's lines (and the access log) go to the log.
  let server = try ServerProcess(["--db", db.path, "--tiles", "none", "--watch", folder.path], errors: serveLog)
  defer { server.stop() }
  let deadline = Date().addingTimeInterval(600)
  while Date() < deadline && !((try? String(contentsOf: serveLog, encoding: .utf8)) ?? "").contains("watch: scanned") {
    Thread.sleep(forTimeInterval: 0.1)
  }
  let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".JPG") }.sorted()
  var latencies: [Double] = []
  // Somewhere no photo is, each round its own, and each run (the folder is kept between runs).
  let run = Double(Int(Date().timeIntervalSince1970) % 100)
  for round in 0..<10 {
    let spot = Coordinate(latitude: -60 - Double(round), longitude: -170 + run * 3 + Double(round) * 0.1)
    for i in 0..<100 {
      let name = files[(round * 100 + i) * 17 % files.count]
      try SampleJPEG.write(to: folder.appendingPathComponent(name)) { b in
        b.coordinate = Coordinate(latitude: spot.latitude + Double(i) * 1e-4, longitude: spot.longitude)
        b.imageDescription = "Watched \(round)-\(i)"
      }
    }
    let written = now()
    let url =
      server.base + "/v1/near?lat=\(spot.latitude)&lon=\(spot.longitude)&radius=2km&limit=200&format=geojson"
    var seen: Double?
    while seen == nil && milliseconds(now() - written) < 30_000 {
      let answer = try body(of: url)
      if answer.components(separatedBy: "\"Feature\"").count - 1 == 100 {
        seen = milliseconds(now() - written)
      } else {
        Thread.sleep(forTimeInterval: 0.02)
      }
    }
    latencies.append(seen ?? 30_000)
    Thread.sleep(forTimeInterval: 1)
  }
  let sorted = latencies.sorted()
  let serving = residentKilobytes(of: server.process.processIdentifier, "RssAnon")

  row(
    "first sync of \(count) photos (the watcher's start)", format(firstSync / 1000, "s"),
    String(format: "%.0f files/s", Double(count) / firstSync * 1000))
  row(
    "watching \(count / 20) folders: resident memory (allocated / all)",
    String(format: "%.0f / %.0f MB", Double(watching.0) / 1024, Double(watching.1) / 1024),
    "goal ≤ 100 MB for 1,000,000 files in 50,000 folders")
  row(
    "  CPU while nothing changes, over 10 s", String(format: "%d ticks (%.2f s)", idleTicks, Double(idleTicks) / 100),
    "goal: none measurable")
  row(
    "100 photos changed: in /v1/near answers after, p50 / p95 of 10",
    String(format: "%.0f / %.0f ms", sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 95 / 100)]),
    "goal p95 ≤ 2 s (serve --watch)")
  row("  the server with its watcher: resident memory allocated", String(format: "%.0f MB", Double(serving) / 1024))
}

/// User and system CPU time of a process so far, in clock ticks (1/100 s).
func cpuTicks(of pid: Int32) -> Int {
  let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
  // After the command name in parentheses: fields 14 and 15 are utime and stime.
  guard let close = stat.lastIndex(of: ")") else { return 0 }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  guard fields.count > 13 else { return 0 }
  return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
}
