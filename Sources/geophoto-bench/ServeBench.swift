import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoPlaces
import GeoPhotoSQLite
import GeoPhotoServer
import GeoPhotoStore

/// Runs wrk against `url` and returns (requests/s, p99 in ms).
func wrk(_ url: String, script: String? = nil, header: String? = nil, seconds: Int = 8) throws -> (Double, Double) {
  let figures = try wrkFigures(url, script: script, header: header, seconds: seconds)
  return (figures.rate, figures.p99)
}

/// Runs wrk against `url` with `connections` (over as many threads, at most two) and returns
/// requests/s and the median and 99th-percentile latency in ms.
func wrkFigures(
  _ url: String, script: String? = nil, header: String? = nil, seconds: Int = 8, connections: Int = 32
) throws -> (rate: Double, p50: Double, p99: Double) {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
  var arguments = ["-t\(min(2, connections))", "-c\(connections)", "-d\(seconds)s", "--latency"]
  if let script { arguments += ["-s", script] }
  if let header { arguments += ["-H", header] }
  p.arguments = arguments + [url]
  let out = Pipe()
  p.standardOutput = out
  p.standardError = FileHandle.nullDevice
  try p.run()
  let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  p.waitUntilExit()
  var rate = 0.0
  var p50 = 0.0
  var p99 = 0.0
  for line in text.split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    if fields.first == "Requests/sec:", fields.count > 1 { rate = Double(fields[1]) ?? 0 }
    if fields.first == "50%", fields.count > 1 { p50 = wrkMilliseconds(String(fields[1])) }
    if fields.first == "99%", fields.count > 1 { p99 = wrkMilliseconds(String(fields[1])) }
    if line.contains("Non-2xx or 3xx responses") { print("  (wrk: \(line.trimmingCharacters(in: .whitespaces)))") }
  }
  return (rate, p50, p99)
}

/// A latency as wrk prints it (`812.00us`, `4.21ms`, `1.02s`) in milliseconds.
func wrkMilliseconds(_ value: String) -> Double {
  if value.hasSuffix("ms") { return Double(value.dropLast(2)) ?? 0 }
  if value.hasSuffix("us") { return (Double(value.dropLast(2)) ?? 0) / 1000 }
  if value.hasSuffix("s") { return (Double(value.dropLast(1)) ?? 0) * 1000 }
  return 0
}

/// A wrk script asking `/v1/near?limit=50` at a thousand different queries drawn like real
/// requests round `points`, so no answer is cached anywhere.
func nearScript(_ points: [Coordinate], named name: String) throws -> URL {
  let script = workDirectory.appendingPathComponent(name)
  let paths = queries(points, count: 1_000).map {
    String(format: "\"/v1/near?lat=%.5f&lon=%.5f&limit=50\"", $0.latitude, $0.longitude)
  }
  let lua = """
    local paths = {\(paths.joined(separator: ","))}
    local i = 0
    request = function()
      i = i % #paths + 1
      return wrk.format("GET", paths[i])
    end
    """
  try lua.write(to: script, atomically: true, encoding: .utf8)
  return script
}

/// The `ETag` an answer of `url` carries (curl's view of the headers), "" for none.
func entityTag(of url: String) throws -> String {
  let probe = Process()
  probe.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
  probe.arguments = ["-s", "-D", "-", "-o", "/dev/null", url]
  let probeOut = Pipe()
  probe.standardOutput = probeOut
  try probe.run()
  let headers = String(decoding: probeOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  probe.waitUntilExit()
  let line = headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }
  return line.map { String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces) } ?? ""
}

/// `geophoto serve --port 0` (the release build) with `arguments`, running until `stop()`,
/// and the address it printed.
struct ServerProcess {
  let process = Process()
  private(set) var base = ""

  /// `errors`: where its stderr (the access log) goes; nowhere by default.
  init(_ arguments: [String], folder: URL = workDirectory, errors: URL? = nil) throws {
    let output = folder.appendingPathComponent("serve.out")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: ".build/release/geophoto")
    process.arguments = ["serve", "--port", "0"] + arguments
    // The bench's own settings only: no user configuration file, no GEOPHOTO_* of the caller's.
    process.environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": workDirectory.path,
    ]
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try errors.map { try FileHandle(forWritingTo: $0) } ?? FileHandle.nullDevice
    try process.run()
    while base.isEmpty && process.isRunning {
      let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      if let r = text.range(of: "http://"), let end = text[r.lowerBound...].firstIndex(of: "\n") {
        base = String(text[r.lowerBound..<end]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
      } else {
        Thread.sleep(forTimeInterval: 0.02)
      }
    }
  }

  func stop() {
    process.interrupt()
    process.waitUntilExit()
  }
}

/// A wrk script asking `/v1/annotations` for a thousand different viewports (1280 × 800 px at
/// zooms 3–16) round `points`.
func annotationsScript(_ points: [Coordinate], named name: String) throws -> URL {
  let script = workDirectory.appendingPathComponent(name)
  var rng = SeededGenerator(seed: 77)
  let paths = (0..<1_000).map { _ -> String in
    let (box, zoom) = randomViewport(around: points, using: &rng)
    return String(
      format: "\"/v1/annotations?bbox=%.5f,%.5f,%.5f,%.5f&zoom=%d\"", box.west, box.south, box.east, box.north, zoom)
  }
  let lua = """
    local paths = {\(paths.joined(separator: ","))}
    local i = 0
    request = function()
      i = i % #paths + 1
      return wrk.format("GET", paths[i])
    end
    """
  try lua.write(to: script, atomically: true, encoding: .utf8)
  return script
}

/// `geophoto serve` on the 1M index under wrk: near queries, viewports, revalidations, the
/// transport, and a small sync seen by the server.
func benchServe(points: [Coordinate]) throws {
  print("geophoto serve: the 1M index, wrk -t2 -c32 from the same 2-core machine")
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
    print("  wrk is not installed (apt-get install wrk): skipped")
    return
  }
  let db = try nearIndex(points: points)
  try serveFigures(db: db, points: points, label: "1M")
}

/// The same at ten million photos: an index of its own (about 5 GB with its spatial index,
/// written on first use under .build/bench, which takes a few minutes).
func benchServeTenMillion() throws {
  let count = Int(ProcessInfo.processInfo.environment["GEOPHOTO_BENCH_SCALE"] ?? "") ?? 10_000_000
  let label = count % 1_000_000 == 0 ? "\(count / 1_000_000)M" : "\(count)"
  print("geophoto serve: the \(label) index, wrk -t2 -c32 from the same 2-core machine")
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
    print("  wrk is not installed (apt-get install wrk): skipped")
    return
  }
  let points = SyntheticLibrary.points(count: count, seed: 1_010)
  let db = try syntheticIndex(points: points, named: "serve-\(label.lowercased())")
  try serveFigures(db: db, points: points, label: label)
}

/// Start-up, memory, throughput and a small sync's way into answers, for the index `db` of
/// `points`.
func serveFigures(db: URL, points: [Coordinate], label: String) throws {
  // What `sync` adds after changing photos: the spatial index built again from the rows.
  let (_, derived) = try timed { try SQLitePhotoStore(url: db, mode: .readWrite).rebuildDerivedIndexes() }
  let spatialBytes = (try? FileManager.default.attributesOfItem(atPath: db.path + ".spatial")[.size] as? Int) ?? 0
  // Start-up from the page cache, as a restart finds the files: best of three.
  var starts: [Double] = []
  for _ in 0..<2 {
    let started = now()
    let server = try ServerProcess(["--quiet", "--db", db.path, "--tiles", "none"])
    _ = try entityTag(of: server.base + "/v1/near?lat=35.68&lon=139.76&limit=50")
    starts.append(milliseconds(now() - started))
    server.stop()
  }
  let log = workDirectory.appendingPathComponent("serve-\(label).log")
  _ = FileManager.default.createFile(atPath: log.path, contents: nil)
  let started = now()
  let server = try ServerProcess(["--quiet", "--db", db.path, "--tiles", "none"], errors: log)
  defer { server.stop() }
  let base = server.base
  _ = try entityTag(of: base + "/v1/near?lat=35.68&lon=139.76&limit=50")
  starts.append(milliseconds(now() - started))
  let pid = server.process.processIdentifier
  let startedMemory = (residentKilobytes(of: pid, "RssAnon"), residentKilobytes(of: pid, "RssFile"))

  let near = try wrk(base + "/", script: try nearScript(points, named: "near-\(label).lua").path)
  let viewports = try wrk(base + "/", script: try annotationsScript(points, named: "annotations-\(label).lua").path)
  let fixed = base + "/v1/near?lat=35.68&lon=139.76&limit=50"
  let etag = try entityTag(of: fixed)
  let revalidation = try wrk(fixed, header: "If-None-Match: \(etag)")
  let health = try wrk(base + "/healthz")
  let loadedMemory = (residentKilobytes(of: pid, "RssAnon"), residentKilobytes(of: pid, "RssFile"))

  // Ten photos moved far away by a sync (kept as changes, not built again), then looked for
  // where they went: the time from the sync's commit to the first answer that has them.
  let store = try SQLitePhotoStore(url: db, mode: .readWrite)
  let moved = try store.locatedPhotos(passing: .all, after: Int64(points.count / 2), limit: 10)
  // Somewhere else each run (the index is kept between runs).
  let spot = Coordinate(latitude: -77.5, longitude: Double(Int(Date().timeIntervalSince1970) % 358) - 179)
  let (_, syncTime) = try timed {
    try store.write {
      for (i, photo) in moved.enumerated() {
        var photo = photo
        photo.coordinate = Coordinate(latitude: spot.latitude + Double(i) * 0.001, longitude: spot.longitude)
        try store.update(id: photo.id, with: PhotoRecord(photo: photo), now: IndexTime.now())
      }
    }
    try store.refreshDerivedIndexes()
  }
  let committed = now()
  var seen: Double?
  while seen == nil && milliseconds(now() - committed) < 30_000 {
    let answer = try body(of: base + "/v1/near?lat=\(spot.latitude)&lon=\(spot.longitude)&limit=10")
    if moved.allSatisfy({ answer.contains("\"id\":\($0.id),") }) {
      seen = milliseconds(now() - committed)
    } else {
      Thread.sleep(forTimeInterval: 0.02)
    }
  }
  // The server builds the file again once the index has been quiet; then nothing is merged.
  var rebuilt: Double?
  while rebuilt == nil && milliseconds(now() - committed) < 600_000 {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    if let line = text.split(separator: "\n").first(where: { $0.contains("spatial index built again in") }),
      let seconds = line.split(separator: " ").firstIndex(of: "in").map({ line.split(separator: " ")[$0 + 1] })
    {
      rebuilt = Double(seconds) ?? 0
    } else {
      Thread.sleep(forTimeInterval: 0.2)
    }
  }
  let afterRebuild = try wrk(base + "/", script: try nearScript(points, named: "near-\(label).lua").path, seconds: 4)

  row(
    "spatial index for \(label) photos (part of sync)", format(milliseconds(derived), "ms"),
    String(
      format: "a file of %.0f MB (%.0f bytes a photo)", Double(spatialBytes) / 1e6,
      Double(spatialBytes) / Double(points.count)))
  row(
    "start-up with \(label) photos to the first /v1/near answer, best of 3", format(starts.min() ?? 0, "ms"),
    label == "1M" ? "goal ≤ 500 ms" : "goal ≤ 3 s at 10M")
  for (name, memory) in [("after start", startedMemory), ("after the wrk runs", loadedMemory)] {
    row(
      "resident memory \(name): allocated / mapped files",
      String(
        format: "%.0f / %.0f MB (%.0f bytes a photo allocated)", Double(memory.0) / 1024, Double(memory.1) / 1024,
        Double(memory.0) * 1024 / Double(points.count)), "goal ≤ 150 bytes a photo beyond mapped files")
  }
  row(
    "/v1/near?limit=50, 1,000 different queries", String(format: "%.0f req/s, p99 %.2f ms", near.0, near.1),
    label == "1M" ? "goal ≥ 15,000 req/s, p99 ≤ 5 ms" : "goal within 2× of 1M")
  row(
    "/v1/annotations, 1,000 viewports (zoom 3–16)",
    String(format: "%.0f req/s, p99 %.2f ms", viewports.0, viewports.1), label == "1M" ? "" : "goal within 2× of 1M")
  row(
    "304 revalidation (If-None-Match)", String(format: "%.0f req/s, p99 %.2f ms", revalidation.0, revalidation.1),
    "goal ≥ 40,000 req/s")
  row("  /healthz (transport baseline)", String(format: "%.0f req/s, p99 %.2f ms", health.0, health.1))
  row(
    "10 photos moved by a sync: answered with them after", seen.map { format($0, "ms") } ?? "not within 30 s",
    String(format: "goal ≤ 2 s; the sync itself %.0f ms, nothing built again", milliseconds(syncTime)))
  row(
    "  the server's background build of the spatial index", rebuilt.map { String(format: "%.1f s", $0) } ?? "not seen",
    String(format: "then /v1/near %.0f req/s, p99 %.2f ms (nothing merged)", afterRebuild.0, afterRebuild.1))
}

/// The body of `url` as text (curl).
func body(of url: String) throws -> String {
  let probe = Process()
  probe.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
  probe.arguments = ["-s", url]
  let out = Pipe()
  probe.standardOutput = out
  try probe.run()
  let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  probe.waitUntilExit()
  return text
}

/// The router alone, in-process: what one request costs before any socket is involved.
func benchRouter(points: [Coordinate]) throws {
  print("API router in-process (no sockets), 1M photos")
  let photos = points.enumerated().map { i, c in
    Photo(
      id: Int64(i + 1), source: .local, sourceID: "/p/\(i).jpg", coordinate: c,
      takenAt: CaptureDate(year: 2024, month: 5, day: 3, hour: 10), title: "Photo \(i)")
  }
  let (snapshot, built) = timed { LoadedIndex(generation: 1, photos: photos) }
  let holder = LoadedIndexHolder(initial: snapshot) { nil }
  let router = APIRouter(holder: holder)
  let qs = queries(points, count: 2_000)
  var near: [UInt64] = []
  var bytes = 0
  for q in qs {
    let request = ServerRequest(
      method: "GET", path: "/v1/near",
      query: [
        ("lat", String(format: "%.5f", q.latitude)), ("lon", String(format: "%.5f", q.longitude)), ("limit", "50"),
      ])
    let (r, t) = timed { router.respond(to: request) }
    near.append(t)
    bytes += r.body.count
  }
  var health: [UInt64] = []
  for _ in 0..<2_000 {
    let (_, t) = timed { router.respond(to: ServerRequest(method: "GET", path: "/healthz")) }
    health.append(t)
  }
  row("snapshot build (kd-tree + clusters + lookups)", format(milliseconds(built), "ms"))
  row("/v1/near?limit=50 in-process p50", String(format: "%.1f µs", Percentiles(near).p50), "\(bytes / qs.count) bytes")
  row("/healthz in-process p50", String(format: "%.1f µs", Percentiles(health).p50))
}

/// The shipped gazetteer: loading it (the first lookup of a process), warm lookups by the
/// naming rule with the country test, beside nearest-centre lookups and the rule by brute force.
func benchPlaces(points: [Coordinate]) throws {
  guard let url = Gazetteer.shippedURL else {
    print("Place names: the gazetteer is not next to the executable: skipped")
    return
  }
  _ = try Gazetteer(contentsOf: url)  // page cache
  var cold: [UInt64] = []
  for _ in 0..<5 {
    let (_, t) = try timed { () throws -> Bool in
      let g = try Gazetteer(contentsOf: url)
      return g.placeName(at: Coordinate(latitude: 35.68, longitude: 139.76)) != nil
    }
    cold.append(t)
  }
  let g = try Gazetteer(contentsOf: url)
  print("Place names: the shipped gazetteer (\(g.count) places, GeoNames cities500, with country outlines)")
  // Positions a few kilometres from real places, where photos are taken.
  var rng = SeededGenerator(seed: 11)
  let near = (0..<20_000).map { _ -> Coordinate in
    let c = g.place(Int.random(in: 0..<g.count, using: &rng)).coordinate
    return Coordinate(
      latitude: max(-90, min(90, c.latitude + Double.random(in: -0.05...0.05, using: &rng))),
      longitude: c.longitude + Double.random(in: -0.05...0.05, using: &rng))
  }
  var rule: [UInt64] = []
  var nearest: [UInt64] = []
  var countries: [UInt64] = []
  var found = 0
  for q in near {
    let (p, t) = timed { g.match(at: q) }
    rule.append(t)
    if case .place = p { found += 1 }
    nearest.append(timed { g.nearest(to: q) }.1)
    countries.append(timed { g.country(at: q) }.1)
  }
  // The rule by brute force: every place scored, every ring of the country test walked.
  var brute: [UInt64] = []
  for q in near.prefix(200) {
    brute.append(
      timed { () -> Int? in
        var best: (Int, Double)?
        for i in 0..<g.count {
          let d = GreatCircle.distance(q, g.coordinate(i))
          guard d <= 25_000 else { continue }
          let score = PlaceRule.score(weight: PlaceRule.weight(population: g.population(i)), distance: d)
          if score > (best?.1 ?? -1) { best = (i, score) }
        }
        _ = g.country(at: q)
        return best?.0
      }.1)
  }
  row(
    "load + first lookup (file in the page cache), median", format(milliseconds(cold.sorted()[2]), "ms"), "goal ≤ 30 ms"
  )
  let p = Percentiles(rule)
  row(
    "the naming rule with the country test, warm, p50 / p99", String(format: "%.2f / %.2f µs", p.p50, p.p99),
    "goal p50 ≤ 2 µs; \(found * 100 / rule.count)% named after a place")
  row(
    "  of which the country test, p50", String(format: "%.2f µs", Percentiles(countries).p50),
    "nearest centre alone: \(String(format: "%.2f µs", Percentiles(nearest).p50))")
  row(
    "  brute force: every place and ring, p50 (anchor)", String(format: "%.0f µs", Percentiles(brute).p50),
    String(format: "%.0f× slower", Percentiles(brute).p50 / p.p50))

  // Naming every photo of the 1M text index: first as a sync with the gazetteer does (every
  // row and its text written), then again with another edition of the gazetteer that renames
  // one place in 50, as upgrading geophoto does.
  let (source, _) = try textIndex(points: points)
  let copy = workDirectory.appendingPathComponent("rename-1m.sqlite")
  try? FileManager.default.removeItem(at: copy)
  try FileManager.default.copyItem(at: source, to: copy)
  defer { try? FileManager.default.removeItem(at: copy) }
  let store = try SQLitePhotoStore(url: copy, mode: .readWrite)
  let namer = g.namer(within: 25_000)
  let (first, firstWall) = try timed { try store.write { try store.assignPlaces(with: namer) } }
  let edition = AnotherEdition(base: namer)
  let (named, wall) = try timed { try store.write { try store.assignPlaces(with: edition) } }
  let changed =
    try store.database.queryInt64(
      "SELECT count(*) FROM photos WHERE place_gazetteer = ?", [.integer(edition.identity)]) ?? 0
  row(
    "naming all \(named) photos of the 1M index again", format(milliseconds(wall), "ms"),
    String(
      format: "goal ≤ 5 s; another edition, 1 place in 50 renamed: %lld photos written; %.0f photos/s", changed,
      Double(named) / Double(wall) * 1e9))
  row(
    "  first naming (all rows and text written)", format(milliseconds(firstWall), "ms"),
    String(format: "%.0f photos/s", Double(first) / Double(firstWall) * 1e9))
}

/// Another edition of `base`'s gazetteer: it says it is another gazetteer, so every photo is
/// named again, and it renames one place in 50 (by GeoNames id).
struct AnotherEdition<Base: PlaceNamer>: PlaceNamer {
  let base: Base
  var identity: Int64 { base.identity ^ 0x5A5A }
  func place(for coordinate: Coordinate) throws -> PlaceName? {
    guard var place = try base.place(for: coordinate) else { return nil }
    if let id = place.geonameID, id % 50 == 0 { place.name += " (renamed)" }
    return place
  }
  func timeZone(for coordinate: Coordinate, named place: PlaceName?) throws -> (
    identifier: String, source: OffsetSource
  )? { try base.timeZone(for: coordinate, named: place) }
}
