import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoSnapshot
import Testing

func json(_ text: String) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite(.serialized) struct EndToEndTests {
  @Test func helpAndVersionGoToStdout() throws {
    for args in [["--help"], ["-h"], ["help"], []] {
      let r = try Binary.run(args)
      #expect(r.status == 0)
      #expect(r.stdout.hasPrefix("OVERVIEW: "))
      #expect(r.stdout.contains("SUBCOMMANDS:") && r.stdout.contains("near"))
      #expect(r.stderr.isEmpty)
    }
    let near = try Binary.run(["near", "--help"])
    #expect(near.status == 0 && near.stdout.contains("USAGE: geophoto near <lat,lon>"))
    #expect(try Binary.run(["help", "near"]).stdout == near.stdout)
    let version = try Binary.run(["--version"])
    #expect(version.status == 0 && version.stdout.hasPrefix("geophoto "))
  }

  @Test(arguments: [
    (["frobnicate"], "Error: Unknown subcommand 'frobnicate'"),
    (["--frob"], "Error: Unknown option '--frob'"),
    (["near"], "Error: Missing expected argument '<lat,lon>'"),
    (["near", "91,0"], "Error: latitude 91 is out of range (-90...90)"),
    (["near", "nan,0"], "Error: 'nan,0' is not a coordinate"),
    (["near", "Tokyo Station"], "Error: 'Tokyo Station' is neither a coordinate (LAT,LON) nor a known place"),
    (["near", "1,2", "--limit", "0"], "Error: The value '0' is invalid for '--limit'"),
    (["near", "1,2", "--format", "xml"], "Error: The value 'xml' is invalid for '--format'"),
    (["near", "1,2", "--radius", "far"], "Error: The value 'far' is invalid for '--radius'"),
    (["near", "1,2", "--limit"], "Error: Missing value for '--limit <n>'"),
    (["near", "1,2", "--bogus"], "Error: Unknown option '--bogus'"),
    (["sync"], "Error: Missing expected argument '<dir> ...'"),
  ])
  func usageErrorsExit64(args: [String], message: String) throws {
    let r = try Binary.run(args, environment: ["GEOPHOTO_DB": "/nonexistent/index.sqlite"])
    #expect(r.status == 64)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr.hasPrefix(message), "stderr was: \(r.stderr)")
    #expect(r.stderr.contains("\nUsage: geophoto"))
    #expect(r.stderr.contains("--help' for more information."))
  }

  @Test func emptyIndexAnswersNothingWithAHint() throws {
    let w = try ExampleWorkspace(withPhotos: false)
    let table = try Binary.run(["near", "35.68,139.76"], environment: w.env)
    #expect(table.status == 0 && table.stdout.isEmpty)
    #expect(table.stderr.contains("run 'geophoto sync DIR'"))
    let document = try Binary.run(["near", "35.68,139.76", "--format", "json"], environment: w.env)
    #expect(document.status == 0)
    #expect((try json(document.stdout)["annotations"] as? [Any])?.isEmpty == true)
    #expect(!FileManager.default.fileExists(atPath: w.db.path))  // a query creates no index
  }

  /// A camera's local time is read in its place's zone (Tokyo: +09:00, no daylight saving); an
  /// offset the camera recorded stays the camera's. Both through sync and through naming the
  /// index again with an imported gazetteer.
  @Test(arguments: StoreKind.available)
  func localTimesAreReadInTheirPlacesZone(kind: StoreKind) throws {
    let w = try ExampleWorkspace(kind)
    // A home of its own: the gazetteer it imports goes beside a PostgreSQL index's local
    // folder, which is under the home.
    let env = w.env.merging(["HOME": w.root.path]) { $1 }
    _ = try Binary.run(["sync", w.photos.path], environment: env)
    func photo(at c: String) throws -> [String: Any] {
      let r = try Binary.run(["near", c, "-n", "1", "-f", "json"], environment: env)
      return try #require((try json(r.stdout)["annotations"] as? [[String: Any]])?.first, "\(r.stderr)")
    }
    // 09-akihabara.jpg: 11:00 on 4 May 2024 with no offset.
    let floating = try photo(at: "35.69840,139.77310")
    #expect(floating["takenAt"] as? String == "2024-05-04T11:00:00+09:00")
    #expect(floating["timeZone"] as? String == "Asia/Tokyo" && floating["offsetSource"] as? String == "place")
    // 01-tokyo-station.jpg carries OffsetTimeOriginal +09:00.
    let recorded = try photo(at: "35.68124,139.76712")
    #expect(recorded["takenAt"] as? String == "2024-05-03T09:12:00+09:00")
    #expect(recorded["offsetSource"] as? String == "camera" && recorded["timeZone"] == nil)
    // Named again from a gazetteer that puts the only place in another zone: read again there.
    let cities = w.root.appendingPathComponent("cities500.txt")
    let admin1 = w.root.appendingPathComponent("admin1CodesASCII.txt")
    try "1\tAkiba\tAkiba\t\t35.6984\t139.7731\tP\tPPL\tJP\t\t40\t\t\t\t7000\t\t0\tAsia/Kathmandu\t2024-01-01\n"
      .write(to: cities, atomically: true, encoding: .utf8)
    try "JP.40\tTokyo\tTokyo\t1850144\n".write(to: admin1, atomically: true, encoding: .utf8)
    let imported = try Binary.run(["places", "import", cities.path, admin1.path], environment: env)
    #expect(imported.status == 0, "\(imported.stderr)")
    let moved = try photo(at: "35.69840,139.77310")
    #expect(moved["takenAt"] as? String == "2024-05-04T11:00:00+05:45")
    #expect(moved["timeZone"] as? String == "Asia/Kathmandu")
    #expect(try photo(at: "35.68124,139.76712")["takenAt"] as? String == "2024-05-03T09:12:00+09:00")
  }

  @Test(arguments: StoreKind.available)
  func syncThenNearAsJSON(kind: StoreKind) throws {
    let w = try ExampleWorkspace(kind)
    let sync = try Binary.run(["sync", w.photos.path], environment: w.env)
    #expect(sync.status == 0)
    #expect(sync.stdout.contains("scanned 13, added 13"))
    #expect(sync.stdout.contains("without location 1"))
    #expect(sync.stderr.isEmpty)  // no progress line: stderr is not a terminal

    let center = Coordinate(latitude: 35.68, longitude: 139.76)
    let r = try Binary.run(["near", "35.68, 139.76", "--limit", "5", "--format", "json"], environment: w.env)
    #expect(r.status == 0)
    let object = try json(r.stdout)
    let query = try #require(object["query"] as? [String: Any])
    #expect(query["latitude"] as? Double == 35.68 && query["limit"] as? Int == 5)
    #expect(query["radius"] is NSNull)
    let annotations = try #require(object["annotations"] as? [[String: Any]])

    // Expected: the example specs sorted by an independently computed distance.
    let expected = ExamplePhotos.all.compactMap { s in s.coordinate.map { (s, haversine(center, $0)) } }
      .sorted { $0.1 < $1.1 }.prefix(5)
    #expect(annotations.count == 5)
    for (a, (spec, distance)) in zip(annotations, expected) {
      #expect(a["title"] as? String == (spec.title ?? String(spec.fileName.dropLast(4))))
      let d = try #require(a["distance"] as? Double)
      #expect(abs(d - distance) < 0.06)
      let c = try #require(a["coordinate"] as? [String: Double])
      #expect(abs((c["latitude"] ?? 0) - (spec.coordinate?.latitude ?? 0)) < 1e-7)
      #expect(abs((c["longitude"] ?? 0) - (spec.coordinate?.longitude ?? 0)) < 1e-7)
      #expect(a["source"] as? String == "local")
      #expect((a["path"] as? String)?.hasSuffix("/tokyo/" + spec.fileName) == true)
      #expect(a["takenAt"] as? String == spec.takenAt.iso8601)
      // Nearest place by brute force over the GeoNames rows, within 25 km.
      let place = try #require(try expectedPlace(spec.coordinate!))
      #expect(a["subtitle"] as? String == "\(place) · \(spec.takenAt.dateString)")
      #expect((a["place"] as? [String: Any])?["countryCode"] as? String == "JP")
    }
  }

  @Test func geoJSONIsLongitudeFirst() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let r = try Binary.run(["near", "35.7148,139.7967", "-n", "1", "-f", "geojson"], environment: w.env)
    let object = try json(r.stdout)
    #expect(object["type"] as? String == "FeatureCollection")
    let feature = try #require((object["features"] as? [[String: Any]])?.first)
    #expect(feature["type"] as? String == "Feature")
    let geometry = try #require(feature["geometry"] as? [String: Any])
    #expect(geometry["type"] as? String == "Point")
    #expect(geometry["coordinates"] as? [Double] == [139.7967, 35.7148])
    let properties = try #require(feature["properties"] as? [String: Any])
    #expect(properties["title"] as? String == "Senso-ji, Asakusa")
    let place = try #require(try expectedPlace(Coordinate(latitude: 35.7148, longitude: 139.7967)))
    #expect(properties["subtitle"] as? String == "\(place) · 2024-05-05")
  }

  @Test func timeFiltersOnTheCommandLine() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    func ids(_ extra: [String]) throws -> Int {
      let run = try Binary.run(
        ["near", "35.68,139.76", "--limit", "100", "--format", "json"] + extra, environment: w.env)
      #expect(run.status == 0, "\(run.stderr)")
      return (try json(run.stdout)["annotations"] as? [[String: Any]])?.count ?? -1
    }
    let located = ExamplePhotos.all.filter { $0.coordinate != nil }
    for day in Set(located.map(\.takenAt.day)) {
      let text = String(format: "2024-05-%02d", day)
      #expect(try ids(["--on", text]) == located.filter { $0.takenAt.day == day }.count, "\(text)")
    }
    #expect(try ids(["--since", "2024-05", "--until", "2024"]) == located.count)
    #expect(try ids(["--since", "2025"]) == 0)
    #expect(try ids(["--camera", "iphone"]) == located.filter { $0.model.lowercased().contains("iphone") }.count)
    #expect(
      try ids(["--camera", "FUJI", "--on", "2024-05-03"])
        == located.filter { $0.make == "FUJIFILM" && $0.takenAt.day == 3 }.count)
    // --sort time: by capture time, whatever the distance.
    let sorted = try Binary.run(
      ["near", "35.68,139.76", "--limit", "100", "--sort", "time", "--format", "csv"], environment: w.env)
    let times = sorted.stdout.split(separator: "\r\n").dropFirst().compactMap { line -> String? in
      line.split(separator: ",").first { $0.hasPrefix("2024-05-") }.map(String.init)
    }
    // A floating time sorts by its wall clock read as UTC.
    let instants = times.compactMap { CaptureDate(iso8601: $0).map { $0.instant ?? $0.localSecondsSinceEpoch } }
    #expect(instants.count == located.count && instants == instants.sorted(), "\(times)")
    for (args, words) in [
      (["--since", "2024-13"], ["--since", "2024-13"]), (["--on", "2024-05"], ["--on", "not a day"]),
      (["--on", "2024-05-03", "--until", "2024"], ["--on", "--until"]),
      (["--since", "2025", "--until", "2024"], ["after"]),
    ] {
      let run = try Binary.run(["near", "35.68,139.76"] + args, environment: w.env)
      #expect(run.status == 64, "\(args)")
      for word in words { #expect(run.stderr.contains(word), "\(args): \(run.stderr)") }
    }
  }

  @Test func radiusTableAndCSV() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let center = Coordinate(latitude: 35.68, longitude: 139.76)
    let inside = ExamplePhotos.all.compactMap(\.coordinate).filter { haversine(center, $0) <= 1_000 }.count
    let csv = try Binary.run(["near", "35.68,139.76", "--radius", "1km", "--format", "csv"], environment: w.env)
    let lines = csv.stdout.split(separator: "\r\n")
    #expect(
      lines.first
        == "id,source,latitude,longitude,title,subtitle,distance,taken_at,path,url,thumbnail_url,media_type,duration")
    #expect(lines.count == inside + 1)
    #expect(csv.stdout.contains("\"Tokyo Station, Marunouchi side\""))  // quoted: it has a comma
    let table = try Binary.run(["near", "35.68,139.76", "-r", "1000"], environment: w.env)
    let rows = table.stdout.split(separator: "\n")
    #expect(rows.first?.hasPrefix("DISTANCE  TITLE") == true)
    #expect(rows.count == inside + 1)
    #expect(rows.dropFirst().allSatisfy { $0.contains(" m  ") || $0.contains(" km  ") })
  }

  @Test func negativeCoordinatesNeedNoQuoting() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let r = try Binary.run(["near", "-33.8568,151.2153", "-n", "1"], environment: w.env)
    #expect(r.status == 0)
    #expect(r.stdout.contains("7,8") || r.stdout.contains("km"))
  }

  @Test func missingFolderIsARuntimeError() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    try FileManager.default.moveItem(at: w.photos, to: w.root.appendingPathComponent("elsewhere"))
    let r = try Binary.run(["sync", w.photos.path], environment: w.env)
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("Error: "))
    #expect(r.stderr.contains("does not exist"))
    #expect(r.stderr.contains("the index holds 13 photos under it"))
    #expect(r.stderr.split(separator: "\n").count == 1)
    let info = try Binary.run(["info"], environment: w.env)
    #expect(info.stdout.contains("photos: 13"))
    let forget = try Binary.run(["forget", w.photos.path], environment: w.env)
    #expect(forget.status == 0 && forget.stdout.contains("removed 13"))
  }

  @Test func configurationPrecedence() throws {
    let w = try ExampleWorkspace()
    let config = w.root.appendingPathComponent("config")
    try "# test configuration\ndb = \(w.db.path)\nnear.limit = 3\nnear.format = csv\n".write(
      to: config, atomically: true, encoding: .utf8)
    let sync = try Binary.run(["sync", w.photos.path, "--config", config.path])
    #expect(sync.status == 0)
    func rows(_ r: Binary.Result) -> Int { r.stdout.split(separator: "\r\n").count - 1 }
    let fromFile = try Binary.run(["near", "35.68,139.76"], environment: ["GEOPHOTO_CONFIG": config.path])
    #expect(rows(fromFile) == 3)
    let fromEnv = try Binary.run(
      ["near", "35.68,139.76"], environment: ["GEOPHOTO_CONFIG": config.path, "GEOPHOTO_LIMIT": "2"])
    #expect(rows(fromEnv) == 2)
    let fromFlag = try Binary.run(
      ["near", "35.68,139.76", "--limit", "1"], environment: ["GEOPHOTO_CONFIG": config.path, "GEOPHOTO_LIMIT": "2"])
    #expect(rows(fromFlag) == 1)

    try "db = \(w.db.path)\nnear.limit = many\n".write(to: config, atomically: true, encoding: .utf8)
    let bad = try Binary.run(["near", "35.68,139.76", "--config", config.path])
    #expect(bad.status == 1)
    #expect(bad.stderr.hasPrefix("Error: \(config.path):2: limit must be"))
    try "colour = blue\n".write(to: config, atomically: true, encoding: .utf8)
    let unknown = try Binary.run(["info", "--config", config.path])
    #expect(unknown.status == 1 && unknown.stderr.contains(":1: unknown setting 'colour'"))
    let missing = try Binary.run(["info", "--config", w.root.appendingPathComponent("nope").path])
    #expect(missing.status == 1 && missing.stderr.contains("does not exist"))
  }

  @Test func notAnIndexIsOneClearLine() throws {
    let w = try ExampleWorkspace(withPhotos: false)
    try FileManager.default.createDirectory(at: w.db.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(String(repeating: "plain text, not a database\n", count: 50).utf8).write(to: w.db)
    let r = try Binary.run(["near", "1,2"], environment: w.env)
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("Error: \(w.db.path) is not a geophoto index"))
  }

  /// SIGKILL in the middle of a sync leaves a consistent index; the next sync completes it
  /// and the result equals a sync that was never interrupted.
  @Test func killedSyncIsCompletedByTheNextOne() throws {
    let w = try ExampleWorkspace(withPhotos: false)
    let folder = w.root.appendingPathComponent("library")
    let total = 6_000
    try SyntheticLibrary.writeFolder(to: folder, count: total)
    let config = w.root.appendingPathComponent("config")
    try "sync.batch = 200\nsync.jobs = 1\n".write(to: config, atomically: true, encoding: .utf8)
    var env = w.env
    env["GEOPHOTO_CONFIG"] = config.path

    var interrupted = false
    for _ in 0..<5 where !interrupted {
      try? FileManager.default.removeItem(at: w.db.deletingLastPathComponent())
      let running = try Binary.start(["sync", folder.path], environment: env)
      let deadline = Date().addingTimeInterval(60)
      while running.process.isRunning && Date() < deadline {
        if let n = try? photoCount(w.db), n > 0 {
          kill(running.process.processIdentifier, SIGKILL)
          break
        }
        usleep(1_000)
      }
      running.process.waitUntilExit()
      _ = running.result()
      if running.process.terminationReason == .uncaughtSignal, let n = try? photoCount(w.db), n < total {
        interrupted = true
      }
    }
    #expect(interrupted, "the sync always finished before it could be killed")

    let resumed = try Binary.run(["sync", folder.path], environment: env)
    #expect(resumed.status == 0)
    let fresh = w.root.appendingPathComponent("fresh.sqlite")
    _ = try Binary.run(["sync", folder.path, "--db", fresh.path])
    #expect(try photoCount(w.db) == total)
    let a = try Binary.run(["near", "10,10", "-n", "50", "-f", "csv", "--db", w.db.path])
    let b = try Binary.run(["near", "10,10", "-n", "50", "-f", "csv", "--db", fresh.path])
    let strip: (String) -> [String] = {
      $0.split(separator: "\r\n").map { String($0.split(separator: ",").dropFirst().joined(separator: ",")) }
    }
    #expect(strip(a.stdout) == strip(b.stdout))  // same photos in the same order (ids aside)
    let again = try Binary.run(["sync", folder.path], environment: env)
    #expect(again.stdout.contains("unchanged \(total)"))
  }
}

/// The places extract and country outlines the shipped gazetteer is built from, read once.
let placesExtract: (places: [[Substring]], rings: [(cc: Substring, points: [(Double, Double)])])? = {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/places")
  guard let places = try? String(contentsOf: folder.appendingPathComponent("geonames-cities500.tsv"), encoding: .utf8),
    let outlines = try? String(contentsOf: folder.appendingPathComponent("countries-ne10m.tsv"), encoding: .utf8)
  else { return nil }
  let rows = places.split(separator: "\n").dropFirst().map {
    $0.split(separator: "\t", omittingEmptySubsequences: false)
  }
  let rings = outlines.split(separator: "\n").dropFirst().map { line in
    let f = line.split(separator: "\t", omittingEmptySubsequences: false)
    let points = f[8].split(separator: " ").map { pair in
      let p = pair.split(separator: ",")
      return (Double(p[0]) ?? 0, Double(p[1]) ?? 0)
    }
    return (f[0], points)
  }
  return (rows, rings)
}()

/// The place the naming rule gives each coordinate the end-to-end tests look at, computed once
/// from the extract by `bruteForcePlace` and checked against it by
/// `knownPlacesAreTheBruteForceAnswer` whenever the extract is beside the project: a clone
/// without `../shared` checks its answers against these.
let knownPlaces: [String: String] = [
  "35.68124,139.76712": "Chūō, Tokyo, JP",
  "35.6852,139.7528": "Chiyoda, Tokyo, JP",
  "35.68004,139.75047": "Chiyoda, Tokyo, JP",
  "35.67363,139.75602": "Chiyoda, Tokyo, JP",
  "35.6751,139.763": "Ginza, Tokyo, JP",
  "35.6717,139.765": "Ginza, Tokyo, JP",
  "35.6655,139.7707": "Tsukiji, Tokyo, JP",
  "35.684,139.7745": "Chūō, Tokyo, JP",
  "35.6984,139.7731": "Akihabara, Tokyo, JP",
  "35.702,139.768": "Akihabara, Tokyo, JP",
  "35.65858,139.74543": "Minato City, Tokyo, JP",
  "35.7148,139.7967": "Asakusa, Tokyo, JP",
  "35.6812,139.7671": "Chūō, Tokyo, JP",
  "35.6813,139.7662": "Chūō, Tokyo, JP",
  "35.6839,139.7535": "Chiyoda, Tokyo, JP",
  "35.681,139.767": "Chūō, Tokyo, JP",
  "35.6738,139.756": "Chiyoda, Tokyo, JP",
]

/// The expected place name for `c`: brute force over the extract when it is here, the known
/// answers otherwise.
func expectedPlace(_ c: Coordinate) throws -> String? {
  if placesExtract != nil { return try bruteForcePlace(c) }
  guard let known = knownPlaces["\(c.latitude),\(c.longitude)"] else {
    throw ScratchError("no known place for \(c), and the places extract in ../shared/data is missing")
  }
  return known
}

@Test(.enabled(if: placesExtract != nil, "needs the places extract in ../shared/data"))
func knownPlacesAreTheBruteForceAnswer() throws {
  for (key, name) in knownPlaces {
    let parts = key.split(separator: ",").compactMap { Double($0) }
    #expect(try bruteForcePlace(Coordinate(latitude: parts[0], longitude: parts[1])) == name, "\(key)")
  }
}

/// The place geophoto's naming rule gives `c` (`Name, Admin1, CC`), applied by brute force to
/// the extract: the country by the even-odd rule over every outline ring, every place within
/// 25 km (those of that country when there are any), the largest population^0.2 / max(km,
/// 0.2) (under 500 people counting as 3,000), ties to the nearer; nil for none.
func bruteForcePlace(_ c: Coordinate) throws -> String? {
  guard let extract = placesExtract else { throw ScratchError("the places extract in ../shared/data is missing") }
  var parity: [Substring: Bool] = [:]
  var order: [Substring] = []
  for ring in extract.rings {
    var odd = false
    for i in ring.points.indices {
      let a = ring.points[i]
      let b = ring.points[(i + 1) % ring.points.count]
      if (a.0 > c.latitude) != (b.0 > c.latitude),
        c.longitude < (b.1 - a.1) * (c.latitude - a.0) / (b.0 - a.0) + a.1
      {
        odd.toggle()
      }
    }
    guard odd else { continue }
    if parity[ring.cc] == nil { order.append(ring.cc) }
    parity[ring.cc] = !(parity[ring.cc] ?? false)
  }
  let country = order.first { parity[$0] == true }
  var candidates: [(score: Double, d: Double, cc: Substring, label: String)] = []
  for f in extract.places {
    guard let lat = Double(f[1]), let lon = Double(f[2]), let population = Int(f[8]) else { continue }
    let d = haversine(c, Coordinate(latitude: lat, longitude: lon))
    guard d <= 25_000 else { continue }
    let weight = pow(Double(population >= 500 ? population : 3_000), 0.2)
    let label = [f[3], f[6], f[4]].filter { !$0.isEmpty }.joined(separator: ", ")
    candidates.append((weight / max(d / 1000, 0.2), d, f[4], label))
  }
  if let country, candidates.contains(where: { $0.cc == country }) { candidates.removeAll { $0.cc != country } }
  return candidates.min { $0.score != $1.score ? $0.score > $1.score : $0.d < $1.d }?.label
}

/// Counts photo rows through a separate read-only look, as another process would.
func photoCount(_ db: URL) throws -> Int {
  let r = try Binary.run(["info", "--db", db.path])
  guard let line = r.stdout.split(separator: "\n").first(where: { $0.hasPrefix("photos: ") }),
    let n = Int(line.dropFirst(8).prefix { $0.isNumber })
  else { throw CocoaError(.fileReadUnknown) }
  return n
}

@Suite struct RouteCommandsEndToEndTests {
  @Test(arguments: StoreKind.available)
  func routeShowAlongAndSnapshot(kind: StoreKind) throws {
    let w = try ExampleWorkspace(kind)
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let route = w.root.appendingPathComponent("walk.csv")
    try "\u{FEFF}lat,lon\r\n35.6812,139.7671\r\n35.6800, 139.7505\r\n\r\n35.6736,139.7560\r\n35.6655,139.7707\r\n"
      .write(to: route, atomically: true, encoding: .utf8)
    let show = try Binary.run(["route", "show", route.path, "--format", "json"], environment: w.env)
    #expect(show.status == 0)
    let object = try json(show.stdout)
    #expect(object["points"] as? Int == 4)
    let region = try #require(object["region"] as? [String: Any])
    let center = try #require(region["center"] as? [String: Double])
    #expect(abs((center["latitude"] ?? 0) - (35.6812 + 35.6655) / 2) < 1e-9)
    #expect(abs((center["longitude"] ?? 0) - (139.7505 + 139.7707) / 2) < 1e-9)

    // CSV is CSV: one header and one row with the JSON form's figures.
    let csv = try Binary.run(["route", "show", route.path, "--format", "csv"], environment: w.env)
    #expect(csv.status == 0)
    let lines = csv.stdout.split(separator: "\r\n").map { $0.split(separator: ",").map(String.init) }
    #expect(lines.count == 2)
    #expect(
      lines.first == [
        "points", "length", "south", "west", "north", "east", "center_latitude", "center_longitude", "latitude_delta",
        "longitude_delta",
      ])
    let row = lines.last ?? []
    #expect(row.first == "4")
    #expect(Double(row[2]) == 35.6655 && Double(row[3]) == 139.7505 && Double(row[4]) == 35.6812)
    #expect(abs((Double(row[6]) ?? 0) - (35.6812 + 35.6655) / 2) < 1e-7)
    // The length: the three legs' great-circle distances, summed independently here.
    let points = [(35.6812, 139.7671), (35.6800, 139.7505), (35.6736, 139.7560), (35.6655, 139.7707)]
    let length = zip(points, points.dropFirst()).reduce(0.0) {
      $0 + haversine(Coordinate(latitude: $1.0.0, longitude: $1.0.1), Coordinate(latitude: $1.1.0, longitude: $1.1.1))
    }
    #expect(abs((Double(row[1]) ?? 0) - length) < 0.2)

    let along = try Binary.run(["along", route.path, "--within", "300m", "-f", "json"], environment: w.env)
    let annotations = try #require(try json(along.stdout)["annotations"] as? [[String: Any]])
    let titles = annotations.compactMap { $0["title"] as? String }
    #expect(titles.first == "Tokyo Station, Marunouchi side" && titles.last == "Tsukiji Outer Market")
    let alongs = annotations.compactMap { $0["distanceAlong"] as? Double }
    #expect(alongs == alongs.sorted() && alongs.count == annotations.count)
    #expect(annotations.allSatisfy { ($0["distance"] as? Double ?? 1e9) <= 300 })

    let png = w.root.appendingPathComponent("walk.png")
    let snap = try Binary.run(["snapshot", "--route", route.path, "--labels", "-o", png.path], environment: w.env)
    #expect(snap.status == 0 && snap.stdout.hasPrefix("wrote \(png.path) (400×400 px"))
    #expect(try Data(contentsOf: png).starts(with: [0x89, 0x50, 0x4E, 0x47]))

    let bad = try Binary.run(["route", "show", route.path + ".missing"], environment: w.env)
    #expect(bad.status == 1 && bad.stderr.hasPrefix("Error: ") && bad.stderr.contains("cannot read"))
    try "1,2\nnot a point\n".write(to: route, atomically: true, encoding: .utf8)
    let line = try Binary.run(["route", "show", route.path], environment: w.env)
    #expect(line.status == 1 && line.stderr.contains("walk.csv:2: "))
  }

  @Test(arguments: [
    ["snapshot", "-o", "/tmp/x.png"], ["snapshot", "--near", "1,2", "--bbox", "1,2,3,4", "-o", "/tmp/x.png"],
    ["snapshot", "--near", "1,2", "-o", "/tmp/x.jpg"], ["snapshot", "--near", "1,2"],
    ["snapshot", "--near", "1,2", "-o", "/tmp/x.png", "--size", "huge"],
  ])
  func snapshotUsageErrors(args: [String]) throws {
    let r = try Binary.run(args, environment: ["GEOPHOTO_DB": "/nonexistent/index.sqlite"])
    #expect(r.status == 64 && r.stderr.hasPrefix("Error: "))
  }
}

@Suite struct GeotagEndToEndTests {
  @Test(arguments: StoreKind.available)
  func placesUnlocatedPhotosFromATrack(kind: StoreKind) throws {
    let w = try ExampleWorkspace(kind, withPhotos: false)
    // Three photos without GPS taken at 10:00:30, 10:30:00 and 13:00:00 in Tokyo (+09:00),
    // one without a zone.
    func photo(_ name: String, _ h: Int, _ m: Int, _ s: Int, offset: Int?) throws {
      try SampleJPEG.write(to: w.photos.appendingPathComponent(name)) {
        $0.takenAt = CaptureDate(year: 2024, month: 5, day: 3, hour: h, minute: m, second: s, utcOffsetMinutes: offset)
        $0.imageDescription = name
      }
    }
    try photo("a.jpg", 10, 0, 30, offset: 540)
    try photo("b.jpg", 10, 30, 0, offset: 540)
    try photo("c.jpg", 13, 0, 0, offset: 540)
    try photo("d.jpg", 10, 0, 30, offset: nil)
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    // The track: 01:00:00Z and 01:01:00Z (10:00 and 10:01 in Tokyo), then nothing until 03:00Z.
    let gpx = w.root.appendingPathComponent("day.gpx")
    try """
    <gpx version="1.1"><trk><trkseg>
    <trkpt lat="35.6800" lon="139.7600"><time>2024-05-03T01:00:00Z</time></trkpt>
    <trkpt lat="35.6810" lon="139.7600"><time>2024-05-03T01:01:00Z</time></trkpt>
    <trkpt lat="35.7000" lon="139.8000"><time>2024-05-03T03:00:00Z</time></trkpt>
    </trkseg></trk></gpx>
    """.write(to: gpx, atomically: true, encoding: .utf8)

    let preview = w.root.appendingPathComponent("preview.png")
    let dry = try Binary.run(
      ["geotag", "--track", gpx.path, "--all", "--dry-run", "--preview", preview.path], environment: w.env)
    // The preview shows the track's line and the placed photo's pin.
    let image = try PNGImage(contentsOf: preview)
    var colours: Set<String> = []
    for y in stride(from: 0, to: image.height, by: 2) {
      for x in stride(from: 0, to: image.width, by: 2) {
        guard let p = image.rgb(x: x, y: y) else { continue }
        func near(_ c: (Double, Double, Double)) -> Bool {
          abs(p.r - Int(c.0 * 255)) < 6 && abs(p.g - Int(c.1 * 255)) < 6 && abs(p.b - Int(c.2 * 255)) < 6
        }
        if near(SnapshotRenderer.routeColor) { colours.insert("route") }
        if near(SnapshotRenderer.pinColor) { colours.insert("pin") }
      }
    }
    #expect(colours == ["route", "pin"])
    #expect(dry.stderr.contains("wrote \(preview.path) (2 track lines, 1 photo)"))
    #expect(dry.status == 0)
    #expect(dry.stdout.contains("a.jpg  35.680500,139.760000  day.gpx  interpolated over 60 s"))
    #expect(
      dry.stdout.contains(
        "would place 1 of 4 photos without a location; no time zone 1, after the track 1, in a gap 1"))
    #expect(dry.stderr.contains("day.gpx: GPX, 3 points"))
    #expect(try Binary.run(["near", "35.68,139.76"], environment: w.env).stdout.isEmpty)  // nothing changed
    // a.jpg shows a clock reading 10:00:00 when the camera said 10:00:30: 30 s fast, so it
    // was taken at the first point.
    let synced = try Binary.run(
      [
        "geotag", "--track", gpx.path, "--sync", w.photos.appendingPathComponent("a.jpg").path + "=10:00:00", "--all",
        "-n",
      ],
      environment: w.env)
    #expect(
      synced.stderr.contains("--sync: a.jpg shows 10:00:00: -00:00:30") && synced.stderr.contains("clock: -00:00:30"))
    #expect(synced.stdout.contains("a.jpg  35.680000,139.760000  day.gpx  at a fix"), "\(synced.stdout)")

    let real = try Binary.run(
      ["geotag", "--track", gpx.path, w.photos.path, "--tz", "+09:00", "--max-gap", "3h"], environment: w.env)
    #expect(real.stdout.contains("placed 3 of 4 photos"))
    #expect(real.stdout.contains("d.jpg  35.680500,139.760000  day.gpx  interpolated over 60 s"))
    let near = try Binary.run(["near", "35.68,139.76", "-f", "json"], environment: w.env)
    let annotations = try #require(try json(near.stdout)["annotations"] as? [[String: Any]])
    #expect(annotations.count == 3)
    #expect(annotations.allSatisfy { $0["estimated"] as? Bool == true })
    // Each says where it came from: all three lie between the first two points, 60 s apart.
    for annotation in annotations {
      let estimate = try #require(annotation["estimate"] as? [String: Any])
      #expect(estimate["source"] as? String == "track" && estimate["name"] as? String == "day.gpx")
      #expect(estimate["method"] as? String == "interpolated" || estimate["method"] as? String == "exact")
    }
    #expect((annotations.first?["subtitle"] as? String)?.hasSuffix("estimated location") == true)
    // The files are untouched, and a later sync keeps the estimates.
    try photo("a.jpg", 10, 0, 30, offset: 540)
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let again = try Binary.run(["near", "35.68,139.76", "-f", "csv"], environment: w.env)
    #expect(again.stdout.split(separator: "\r\n").count == 4)
  }
}

extension GeotagEndToEndTests {
  /// Placing by hand at a place name, as near resolves it (GeoNames' Kyoto: 35.02107, 135.75385),
  /// then clearing; and the usage errors of the modes.
  @Test func photosArePlacedByHandAndCleared() throws {
    let w = try ExampleWorkspace(.sqlite, withPhotos: false)
    for name in ["a.jpg", "b.jpg"] {
      try SampleJPEG.write(to: w.photos.appendingPathComponent(name)) {
        $0.takenAt = CaptureDate(year: 2024, month: 5, day: 3, hour: 10, minute: 0, second: 0, utcOffsetMinutes: 540)
      }
    }
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let a = w.photos.appendingPathComponent("a.jpg").path
    let placed = try Binary.run(["geotag", "--at", "Kyoto", a], environment: w.env)
    #expect(placed.status == 0, "\(placed.stderr)")
    #expect(placed.stdout.contains("placed 1 of 1 photo without a location"))
    let near = try Binary.run(["near", "35.02107,135.75385", "-f", "json", "--radius", "2km"], environment: w.env)
    let annotations = try #require(try json(near.stdout)["annotations"] as? [[String: Any]])
    #expect(annotations.count == 1)
    let estimate = try #require(annotations.first?["estimate"] as? [String: Any])
    #expect(estimate["source"] as? String == "hand" && estimate["method"] as? String == "hand")
    let cleared = try Binary.run(["geotag", "--clear", w.photos.path], environment: w.env)
    #expect(cleared.stdout.hasSuffix("cleared 1 estimated position\n"))
    #expect(try Binary.run(["near", "35.02107,135.75385"], environment: w.env).stdout.isEmpty)
    for (arguments, error) in [
      (
        ["geotag", "--all"],
        "Missing expected option '--track <file|dir>' (or --from-photos, --at, --clear or --write-xmp)"
      ),
      (["geotag", "--at", "Kyoto", "--track", a, a], "--at places photos by hand"),
      (["geotag", "--clear", "--from-photos", "--all"], "--clear removes positions"),
      (["geotag", "--track", a, "--from", w.photos.path, "--all"], "--from chooses the photos of --from-photos"),
      (["geotag", "--at", "Kyoto", w.photos.path, a], "is a folder"),
      (["geotag", "--at", "Kyoto", "--all", a], "not both"),
    ] {
      let run = try Binary.run(arguments, environment: w.env)
      #expect(run.status == 64 && run.stderr.contains(error), "\(arguments): \(run.status) \(run.stderr)")
    }
  }
}

extension GeotagEndToEndTests {
  /// --tz auto with the shipped gazetteer's zones: a local 13:00 from a camera that went from
  /// Elvas (Portugal, UTC+1 in July) to Badajoz (Spain, UTC+2) and stayed, is 11:00Z in Badajoz.
  @Test func theTracksOwnZoneComesFromTheGazetteer() throws {
    let w = try ExampleWorkspace(.sqlite, withPhotos: false)
    try SampleJPEG.write(to: w.photos.appendingPathComponent("local.jpg")) {
      $0.takenAt = CaptureDate(year: 2024, month: 7, day: 1, hour: 13, minute: 0, second: 0, utcOffsetMinutes: nil)
    }
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    var gpx = "<gpx version=\"1.1\"><trk><trkseg>\n"
    for minute in stride(from: 0, through: 240, by: 5) {
      let f = min(1, Double(minute) / 60)
      let lat = 38.8815 + (38.87789 - 38.8815) * f
      let lon = -7.16282 + (-6.97061 - -7.16282) * f
      gpx +=
        "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><time>2024-07-01T\(String(format: "%02d:%02d", 10 + minute / 60, minute % 60)):00Z</time></trkpt>\n"
    }
    gpx += "</trkseg></trk></gpx>\n"
    let track = w.root.appendingPathComponent("border.gpx")
    try gpx.write(to: track, atomically: true, encoding: .utf8)
    let run = try Binary.run(
      ["geotag", "--track", track.path, "--tz", "auto", "--all", "--dry-run"], environment: w.env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("local.jpg  38.877890,-6.970610  border.gpx"), "\(run.stdout)")
    let fixed = try Binary.run(
      ["geotag", "--track", track.path, "--tz", "+01:00", "--all", "--dry-run"], environment: w.env)
    // Read as Lisbon's +1 instead: 12:00Z, also in Badajoz, the same place; the zone differs.
    #expect(fixed.stdout.contains("local.jpg  38.877890,-6.970610  border.gpx  at a fix"))
  }
}

extension GeotagEndToEndTests {
  /// From a phone's Timeline export (Android's shape): a photo taken during a stay is placed
  /// at the stay's place, whatever its length; one on a walk between two path points is
  /// interpolated; one hours after everything is not placed.
  @Test func aPhonesTimelineExportPlacesPhotosAtItsVisitsAndOnItsPaths() throws {
    let w = try ExampleWorkspace(.sqlite, withPhotos: false)
    func photo(_ name: String, _ h: Int, _ m: Int) throws {
      try SampleJPEG.write(to: w.photos.appendingPathComponent(name)) {
        $0.takenAt = CaptureDate(year: 2024, month: 5, day: 2, hour: h, minute: m, second: 0, utcOffsetMinutes: 60)
      }
    }
    try photo("stay.jpg", 12, 30)  // 11:30Z, inside the 09:00–13:00Z stay
    try photo("walk.jpg", 14, 15)  // 13:15Z, half way between path points at 13:10 and 13:20Z
    try photo("night.jpg", 23, 0)  // 22:00Z, long after
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let ms = { (h: Int, m: Int) in Int64(1_714_608_000 + h * 3_600 + m * 60) * 1_000 }  // 2024-05-02T00:00Z
    let stay = GoogleHistoryFixture.Stay(
      startMilliseconds: ms(9, 0), endMilliseconds: ms(13, 0), latitudeE7: 387_110_200, longitudeE7: -91_425_100)
    let walk = GoogleHistoryFixture.Move(
      start: .init(milliseconds: ms(13, 0), latitudeE7: 387_110_200, longitudeE7: -91_425_100),
      end: .init(milliseconds: ms(13, 30), latitudeE7: 387_200_000, longitudeE7: -91_300_000),
      path: [
        .init(milliseconds: ms(13, 10), latitudeE7: 387_150_000, longitudeE7: -91_400_000),
        .init(milliseconds: ms(13, 20), latitudeE7: 387_170_000, longitudeE7: -91_350_000),
      ])
    let timeline = w.root.appendingPathComponent("Timeline.json")
    try Data(GoogleHistoryFixture.androidTimeline(stays: [stay], moves: [walk], signals: [])).write(to: timeline)
    let run = try Binary.run(["geotag", "--track", timeline.path, "--all", "-n"], environment: w.env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("Timeline.json: Google location history"), "\(run.stderr)")
    #expect(run.stdout.contains("stay.jpg  38.711020,-9.142510  Timeline.json  visit"), "\(run.stdout)")
    #expect(
      run.stdout.contains("walk.jpg  38.716000,-9.137500  Timeline.json  interpolated over 600 s"), "\(run.stdout)")
    #expect(run.stdout.contains("would place 2 of 3 photos without a location; after the track 1"))
  }
}

extension GeotagEndToEndTests {
  static let exiftool = "/usr/bin/exiftool"

  /// exiftool's reading of a sidecar: latitude, longitude, altitude, and the GPS date-time.
  func exiftoolReads(_ sidecar: URL) throws -> [String] {
    try ToolRun(
      Self.exiftool, ["-n", "-T", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-XMP:GPSDateTime", sidecar.path]
    ).stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\t").map(String.init)
  }

  /// --write-xmp: sidecars exiftool reads as the positions placed, left alone when they hold
  /// one, a sync after them changes nothing, --all writes the index's estimates, and --clear
  /// says what the sidecars still hold.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: exiftool), "needs exiftool"))
  func positionsAreWrittenToSidecarsThatExiftoolAndTheNextSyncRead() throws {
    let w = try ExampleWorkspace(.sqlite, withPhotos: false)
    for (name, minute) in [("a.jpg", 0), ("b.jpg", 30)] {
      try SampleJPEG.write(to: w.photos.appendingPathComponent(name)) {
        $0.takenAt = CaptureDate(
          year: 2024, month: 5, day: 3, hour: 10, minute: minute, second: 30, utcOffsetMinutes: 540)
      }
    }
    try SampleJPEG.write(to: w.photos.appendingPathComponent("hand.jpg")) { $0.imageDescription = "hand" }
    let imageBytes = try Data(contentsOf: w.photos.appendingPathComponent("a.jpg"))
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let gpx = w.root.appendingPathComponent("day.gpx")
    try """
    <gpx version="1.1"><trk><trkseg>
    <trkpt lat="35.6800" lon="139.7600"><ele>40</ele><time>2024-05-03T01:00:00Z</time></trkpt>
    <trkpt lat="35.6810" lon="139.7620"><ele>44</ele><time>2024-05-03T01:01:00Z</time></trkpt>
    </trkseg></trk></gpx>
    """.write(to: gpx, atomically: true, encoding: .utf8)
    let run = try Binary.run(["geotag", "--track", gpx.path, "--write-xmp", "--all"], environment: w.env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("sidecars: 1 created, 0 updated"), "\(run.stdout)")
    // a.jpg, 01:00:30Z, half way: exiftool reads the position, altitude and the fix's time.
    let sidecar = w.photos.appendingPathComponent("a.jpg.xmp")
    let read = try exiftoolReads(sidecar)
    #expect(read.count == 4, "\(read)")
    if read.count == 4 {
      #expect(abs((Double(read[0]) ?? 0) - 35.6805) < 1e-6 && abs((Double(read[1]) ?? 0) - 139.761) < 1e-6)
      #expect(abs((Double(read[2]) ?? 0) - 42) < 1e-3 && read[3].hasPrefix("2024:05:03 01:00:30"), "\(read)")
    }
    #expect(try Data(contentsOf: w.photos.appendingPathComponent("a.jpg")) == imageBytes)  // the image untouched
    // The next sync reads the sidecar and changes nothing: the same answer, still estimated.
    let before = try Binary.run(["near", "35.68,139.76", "-f", "json"], environment: w.env).stdout
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let after = try Binary.run(["near", "35.68,139.76", "-f", "json"], environment: w.env).stdout
    // (The sidecar is now one of the photo's files; nothing else differs.)
    func withoutFiles(_ text: String) throws -> NSArray? {
      (try json(text)["annotations"] as? [[String: Any]])?.map { $0.filter { $0.key != "files" } } as NSArray?
    }
    #expect(try withoutFiles(before) == withoutFiles(after))
    let estimate = try (json(after)["annotations"] as? [[String: Any]])?.first?["estimate"] as? [String: Any]
    #expect(estimate?["name"] as? String == "day.gpx" && estimate?["method"] as? String == "interpolated")
    // Again: the sidecar holds a position, left alone unless --overwrite.
    let again = try Binary.run(["geotag", "--track", gpx.path, "--write-xmp", "--all"], environment: w.env)
    #expect(again.stdout.contains("sidecars: 0 created, 0 updated, 1 left alone (1 already hold a position"))
    let forced = try Binary.run(
      ["geotag", "--track", gpx.path, "--write-xmp", "--overwrite", "--all"], environment: w.env)
    #expect(forced.stdout.contains("sidecars: 0 created, 1 updated"))
    // A hand placement, then every estimate in the index written in Lightroom's naming.
    _ = try Binary.run(
      ["geotag", "--at", "35.0,135.0", w.photos.appendingPathComponent("hand.jpg").path], environment: w.env)
    let all = try Binary.run(["geotag", "--write-xmp", "--xmp-name", "base", "--all"], environment: w.env)
    #expect(all.stdout.contains("sidecars: 1 created, 0 updated, 1 left alone"), "\(all.stdout)")
    let hand = try exiftoolReads(w.photos.appendingPathComponent("hand.xmp"))
    #expect(hand.first.flatMap(Double.init) == 35 && hand.dropFirst().first.flatMap(Double.init) == 135)
    // Clearing says the sidecars still hold positions.
    let cleared = try Binary.run(["geotag", "--clear", "--all"], environment: w.env)
    #expect(cleared.stdout.contains("cleared 2 estimated positions\n2 sidecars written earlier still hold positions"))
    let usage = try Binary.run(["geotag", "--track", gpx.path, "--overwrite", "--all"], environment: w.env)
    #expect(usage.status == 64 && usage.stderr.contains("give them with --write-xmp"))
  }
}

@Suite struct PlaceNameEndToEndTests {
  @Test func namesWhereCoordinatesGo() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let byName = try Binary.run(["near", "Tokyo", "-n", "3", "-f", "csv"], environment: w.env)
    #expect(byName.status == 0)
    #expect(byName.stdout.split(separator: "\r\n").count == 4)
    // An ambiguous name takes the most populous match (from the extract: Springfield,
    // Missouri, 170,188 people) and names the others it could have meant.
    let ambiguous = try Binary.run(["near", "springfield", "-n", "1"], environment: w.env)
    #expect(ambiguous.status == 0)
    #expect(
      ambiguous.stderr.contains("note: 'springfield' matches ")
        && ambiguous.stderr.contains("; using the most populous, Springfield, Missouri, US (")
        && ambiguous.stderr.contains("; others: Springfield, "), "\(ambiguous.stderr)")
    let qualified = try Binary.run(["near", "Kyoto, JP", "-n", "1"], environment: w.env)
    #expect(qualified.status == 0 && qualified.stdout.contains("km"))
    // It says where it searched: the place it took, with its coordinate.
    let said = qualified.stderr.split(separator: "\n").first { $0.hasPrefix("near: Kyoto") } ?? ""
    #expect(said.hasPrefix("near: Kyoto, Kyoto, JP ("), "stderr: \(qualified.stderr)")
    let numbers = said.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }.split(separator: ",")
      .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    #expect(numbers.count == 2 && abs(numbers[0] - 35.02) < 0.05 && abs(numbers[1] - 135.75) < 0.05)
    let unknown = try Binary.run(["near", "Tokio"], environment: w.env)
    #expect(unknown.status == 64)
    #expect(
      unknown.stderr.hasPrefix("Error: 'Tokio' is neither a coordinate (LAT,LON) nor a known place; did you mean"))
    #expect(unknown.stderr.contains("'Tokyo'"))
    let version = try Binary.run(["--version"])
    #expect(version.stdout.contains("Place names: GeoNames (https://www.geonames.org), licensed under CC BY 4.0"))
  }

  @Test func importingAGeoNamesDumpRenamesThePlaces() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let cities = w.root.appendingPathComponent("cities500.txt")
    let admin1 = w.root.appendingPathComponent("admin1CodesASCII.txt")
    try "1\tMarunouchi\tMarunouchi\t\t35.6812\t139.7671\tP\tPPL\tJP\t\t40\t\t\t\t7000\t\t0\tAsia/Tokyo\t2024-01-01\n"
      .write(to: cities, atomically: true, encoding: .utf8)
    try "JP.40\tTokyo\tTokyo\t1850144\n".write(to: admin1, atomically: true, encoding: .utf8)
    let r = try Binary.run(["places", "import", cities.path, admin1.path], environment: w.env)
    #expect(r.status == 0 && r.stdout.hasPrefix("imported 1 places"))
    let near = try Binary.run(["near", "35.68,139.76", "-n", "1", "-f", "json"], environment: w.env)
    let first = try #require((try json(near.stdout)["annotations"] as? [[String: Any]])?.first)
    #expect((first["subtitle"] as? String)?.hasPrefix("Marunouchi, Tokyo, JP · ") == true)
    let bad = try Binary.run(["places", "import", admin1.path, admin1.path], environment: w.env)
    #expect(bad.status == 1 && bad.stderr.contains("not a GeoNames row"))
  }
}
