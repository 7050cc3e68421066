import Foundation
import GeoPhotoCore
import GeoPhotoFixtures

// MARK: - Soak: hours of traffic in ten minutes

/// `geophoto serve` over 20,000 synced photos for `GEOPHOTO_SOAK_SECONDS` (600 by default)
/// under mixed traffic (near, annotations, photo details, thumbnails, revalidations) while a
/// sync every 30 s changes 100 photos: no errors, no 5xx, every change reloaded, and the
/// server's resident memory flat after the first minute.
func benchSoak() throws {
  let seconds = max(60, Int(ProcessInfo.processInfo.environment["GEOPHOTO_SOAK_SECONDS"] ?? "") ?? 600)
  let period = 30
  print(
    "geophoto serve soak: \(seconds) s of mixed traffic over 20,000 photos (wrk -t1 -c8), "
      + "a sync every \(period) s changing 100 photos")
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
    print("  wrk is not installed (apt-get install wrk): skipped")
    return
  }
  // A copy of its own: the soak rewrites photos.
  let count = 20_000
  let original = try syntheticFolder(count: count, named: "photos-20k")
  let folder = workDirectory.appendingPathComponent("soak-photos")
  let db = workDirectory.appendingPathComponent("soak.sqlite")
  try? FileManager.default.removeItem(at: folder)
  try FileManager.default.copyItem(at: original, to: folder)
  for suffix in ["", "-wal", "-shm", ".spatial"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
  try? FileManager.default.removeItem(at: workDirectory.appendingPathComponent("thumbnails"))
  _ = try runProcess(".build/release/geophoto", ["sync", folder.path, "--db", db.path])

  let log = workDirectory.appendingPathComponent("soak.log")
  _ = FileManager.default.createFile(atPath: log.path, contents: nil)
  let server = try ServerProcess(["--db", db.path, "--tiles", "none"], errors: log)
  defer { server.stop() }
  let traffic = try SoakTraffic(base: server.base, db: db)

  var samples: [(second: Int, kilobytes: Int)] = []
  var peak = 0
  var totals = SoakTraffic.Figures()
  var syncs = 0
  var rng = SeededGenerator(seed: 30)
  let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".JPG") }.sorted()
  let started = Date()
  for segment in 0..<(seconds / period) {
    // Revalidations carry the tags the server gives now; they turn into 200s once the sync
    // below has been reloaded.
    let script = try traffic.script(named: "soak-\(segment % 2).lua")
    let load = try SoakTraffic.start(server.base, script: script, seconds: period)
    // A third into the segment, the steady state is measured, then 100 photos move and a
    // sync runs alongside the traffic.
    Thread.sleep(forTimeInterval: Double(period) / 3)
    samples.append((Int(Date().timeIntervalSince(started)), residentKilobytes(of: server.process.processIdentifier)))
    for i in 0..<100 {
      let name = files[(segment * 100 + i) % files.count]
      try SampleJPEG.write(to: folder.appendingPathComponent(name)) { b in
        b.coordinate = Coordinate(
          latitude: Double.random(in: -50...60, using: &rng), longitude: Double.random(in: -170...170, using: &rng))
        b.imageDescription = "Soak move \(segment)-\(i)"
      }
    }
    _ = try runProcess(".build/release/geophoto", ["sync", folder.path, "--db", db.path])
    syncs += 1
    // The peak: the server's resident memory every half second while the sync is reloaded.
    for _ in 0..<10 {
      peak = max(peak, residentKilobytes(of: server.process.processIdentifier))
      Thread.sleep(forTimeInterval: 0.5)
    }
    totals.add(try SoakTraffic.finish(load))
  }
  let lines = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
  let reloads = lines.components(separatedBy: "index reloaded").count - 1
  let serverErrors = lines.split(separator: "\n").filter { line in
    let fields = line.split(separator: " ")
    return fields.count > 3 && fields[2].hasPrefix("5") && fields[2].count == 3
  }.count
  // Warm-up: the first minute (caches filling, the first reloads); each sample is taken before
  // a sync, in the steady state between reloads.
  let settled = samples.filter { $0.second > 60 }.map(\.kilobytes)
  let low = settled.min() ?? 0
  let high = settled.max() ?? 0
  row(
    "requests (near, annotations, details, thumbnails, 304s)",
    String(format: "%d in %d s, %.0f req/s", totals.requests, seconds, Double(totals.requests) / Double(seconds)),
    String(format: "p99 %.1f ms at worst", totals.worstP99))
  row(
    "errors: non-2xx/3xx, socket errors, 5xx in the log", "\(totals.failures), \(totals.socketErrors), \(serverErrors)",
    "goal 0, 0, 0")
  row("syncs of 100 changed photos / reloads in the log", "\(syncs) / \(reloads)", "goal: every sync reloaded")
  row(
    "resident memory after the first minute", String(format: "%.1f–%.1f MB", Double(low) / 1024, Double(high) / 1024),
    String(
      format: "%.1f %% apart (goal ≤ 10 %%); %.1f MB at the most while reloading",
      low > 0 ? Double(high - low) / Double(low) * 100 : 0, Double(peak) / 1024))
  print(
    "    MB before each sync (steady state): "
      + samples.map { String(format: "%.0f", Double($0.kilobytes) / 1024) }.joined(separator: " "))
}

/// The server's resident set in KiB: all of it (`VmRSS` of /proc/PID/status), or only its
/// anonymous memory (`RssAnon`: what it allocated, not the files it maps).
func residentKilobytes(of pid: Int32, _ field: String = "VmRSS") -> Int {
  let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
  guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
  return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// The soak's requests: a thousand paths in the proportions a map client asks them.
struct SoakTraffic {
  let base: String
  /// Located photo ids and their positions, from the index.
  let photos: [(id: Int64, coordinate: Coordinate)]

  struct Figures {
    var requests = 0
    var failures = 0
    var socketErrors = 0
    var worstP99 = 0.0

    mutating func add(_ other: Figures) {
      requests += other.requests
      failures += other.failures
      socketErrors += other.socketErrors
      worstP99 = max(worstP99, other.worstP99)
    }
  }

  init(base: String, db: URL) throws {
    self.base = base
    // Every located photo, from `geophoto export` (id, source, latitude, longitude, …).
    let export = Process()
    export.executableURL = URL(fileURLWithPath: ".build/release/geophoto")
    export.arguments = ["export", "-f", "csv", "--db", db.path]
    let out = Pipe()
    export.standardOutput = out
    try export.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    export.waitUntilExit()
    photos = text.split(separator: "\r\n").dropFirst().compactMap { line in
      let fields = line.split(separator: ",", maxSplits: 4)
      guard fields.count > 3, let id = Int64(fields[0]), let lat = Double(fields[2]), let lon = Double(fields[3])
      else { return nil }
      return (id, Coordinate(latitude: lat, longitude: lon))
    }
  }

  /// A wrk script over near (40 %), annotations (20 %), details (20 %), thumbnails (10 %) and
  /// revalidations of near answers with the current ETag (10 %).
  func script(named name: String) throws -> String {
    var rng = SeededGenerator(seed: 11)
    func photo() -> (id: Int64, coordinate: Coordinate) {
      photos.randomElement(using: &rng) ?? (1, .init(latitude: 0, longitude: 0))
    }
    var requests: [String] = []
    for i in 0..<1_000 {
      let p = photo()
      let c = p.coordinate
      switch i % 10 {
      case 0, 1, 2, 3:
        requests.append(String(format: "{\"/v1/near?lat=%.4f&lon=%.4f&limit=50\"}", c.latitude, c.longitude))
      case 4, 5:
        let d = [0.05, 0.5, 5.0][i % 3]
        requests.append(
          String(
            format: "{\"/v1/annotations?bbox=%.4f,%.4f,%.4f,%.4f&zoom=%d\"}", max(-180, c.longitude - d),
            max(-90, c.latitude - d), min(180, c.longitude + d), min(90, c.latitude + d), [14, 10, 6][i % 3]))
      case 6, 7: requests.append("{\"/v1/photos/\(p.id)\"}")
      case 8: requests.append("{\"/v1/photos/\(p.id)/thumbnail?size=256\"}")
      default:
        let path = String(format: "/v1/near?lat=%.3f&lon=%.3f&limit=20", c.latitude, c.longitude)
        let tag = try entityTag(of: base + path).replacingOccurrences(of: "\"", with: "\\\"")
        requests.append("{\"\(path)\", \"\(tag)\"}")
      }
    }
    let lua = """
      local requests = {\(requests.joined(separator: ","))}
      local i = 0
      request = function()
        i = i % #requests + 1
        local r = requests[i]
        if r[2] then return wrk.format("GET", r[1], {["If-None-Match"] = r[2]}) end
        return wrk.format("GET", r[1])
      end
      """
    let url = workDirectory.appendingPathComponent(name)
    try lua.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// wrk running `script` for `seconds`, its report read by `finish`.
  static func start(_ base: String, script: String, seconds: Int) throws -> (Process, Pipe) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
    p.arguments = ["-t1", "-c8", "-d\(seconds)s", "--latency", "-s", script, base + "/"]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    return (p, out)
  }

  static func finish(_ load: (Process, Pipe)) throws -> Figures {
    let text = String(decoding: load.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    load.0.waitUntilExit()
    var figures = Figures()
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if fields.count > 2, fields[1] == "requests", fields[2] == "in" { figures.requests = Int(fields[0]) ?? 0 }
      if line.contains("Non-2xx or 3xx responses:") { figures.failures = Int(fields.last ?? "") ?? 0 }
      if line.contains("Socket errors:") {
        // "Socket errors: connect 0, read 0, write 0, timeout 0"
        figures.socketErrors = fields.compactMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
          .reduce(0, +)
      }
      if fields.first == "99%", fields.count > 1 { figures.worstP99 = wrkMilliseconds(String(fields[1])) }
    }
    return figures
  }
}
