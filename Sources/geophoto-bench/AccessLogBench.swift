import Foundation
import GeoPhotoCore
import GeoPhotoFixtures

// MARK: - The access log's cost

/// `/v1/near?limit=50` from `geophoto serve` over 20,000 synced photos with place names,
/// under wrk from the same machine: with the access log on (the default, to a file) and with
/// `--quiet`, alternated, best of three each.
func benchAccessLog() throws {
  print("geophoto serve: /v1/near?limit=50 over 20,000 synced photos, access log on and off (wrk -t2 -c32)")
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
    print("  wrk is not installed (apt-get install wrk): skipped")
    return
  }
  let count = 20_000
  let folder = try syntheticFolder(count: count, named: "photos-20k")
  let db = workDirectory.appendingPathComponent("photos-20k.sqlite")
  _ = try runProcess(".build/release/geophoto", ["sync", folder.path, "--db", db.path])
  let script = try nearScript(SyntheticLibrary.points(count: count), named: "near-20k.lua")
  let log = workDirectory.appendingPathComponent("access.log")
  var best: [Bool: (rate: Double, p50: Double, p99: Double)] = [:]
  var lines = 0
  for _ in 0..<3 {
    for quiet in [false, true] {
      try? FileManager.default.removeItem(at: log)
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      let server = try ServerProcess(
        ["--db", db.path, "--tiles", "none"] + (quiet ? ["--quiet"] : []), errors: log)
      let figures = try wrkFigures(server.base + "/", script: script.path, seconds: 6)
      server.stop()
      if figures.rate > (best[quiet]?.rate ?? 0) { best[quiet] = figures }
      if !quiet { lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
    }
  }
  guard let on = best[false], let off = best[true] else { return }
  row(
    "with the access log (to a file)", String(format: "%.0f req/s, p99 %.2f ms", on.rate, on.p99),
    "goal ≥ 15,000 req/s, p99 ≤ 5 ms; \(lines) lines in the last such run's log")
  row("  --quiet", String(format: "%.0f req/s, p99 %.2f ms", off.rate, off.p99))
  row(
    "  the log's cost", String(format: "%.0f %%", max(0, (1 - on.rate / off.rate) * 100)), "goal ≤ 15 %")
}
