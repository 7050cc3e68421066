import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import GeoPhotoSnapshot
import Testing

/// `geophoto serve` as a user runs it, and the web map in a real (headless) browser.
@Suite(.serialized) struct ServeEndToEndTests {
  /// Starts `geophoto serve --port 0` on the workspace index and waits for its address.
  func start(_ w: ExampleWorkspace, _ extra: [String] = [], tiles: String = "none") throws -> (Binary.Running, String) {
    try Binary.serve(["--tiles", tiles] + extra, environment: w.env)
  }

  func fetch(_ url: String) throws -> (Int, Data) {
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = 5
    let response = try HTTPClient(options: options).get(url)
    return (response.status, Data(response.body))
  }

  @Test(arguments: StoreKind.available)
  func servesAndStopsCleanlyOnSIGTERM(kind: StoreKind) throws {
    let w = try ExampleWorkspace(kind)
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let (running, base) = try start(w)
    let health = try fetch(base + "/healthz")
    #expect(health.0 == 200 && health.1 == Data(#"{"status":"ok"}"#.utf8))
    let (status, body) = try fetch(base + "/v1/status")
    #expect(status == 200)
    #expect(String(decoding: body, as: UTF8.self).contains("\"photos\":12"))
    // A sync of a new photo is served without a restart.
    try SampleJPEG.write(to: w.photos.appendingPathComponent("new.jpg")) {
      $0.coordinate = .init(latitude: 1, longitude: 2)
    }
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    var photos = ""
    for _ in 0..<100 {
      photos = String(decoding: try fetch(base + "/v1/status").1, as: UTF8.self)
      if photos.contains("\"photos\":13") { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(photos.contains("\"photos\":13"))
    kill(running.process.processIdentifier, SIGTERM)
    running.process.waitUntilExit()
    let result = running.result()
    #expect(result.status == 0)
    #expect(result.stderr.contains("GET /healthz 200 "))
    #expect(result.stderr.hasSuffix("stopped\n"))
    #expect(result.stdout.hasPrefix("serving 12 photos"))
  }

  /// A RAW + JPEG pair with its sidecar is one pin that lists its files; a video is a video.
  @Test func aShotIsOnePinWithItsFilesAndAVideoSaysSo() throws {
    let w = try ExampleWorkspace(withPhotos: false)
    let here = Coordinate(latitude: 35.6812, longitude: 139.7671)
    try SampleJPEG.write(to: w.photos.appendingPathComponent("IMG_0001.JPG")) { $0.coordinate = here }
    try SampleTIFF.write(to: w.photos.appendingPathComponent("IMG_0001.CR2")) { $0.coordinate = here }
    try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8).write(to: w.photos.appendingPathComponent("IMG_0001.xmp"))
    try SampleVideo.write(
      to: w.photos.appendingPathComponent("walk.MOV"), location: "+35.6815+139.7675/", duration: 12.5)
    let sync = try Binary.run(["sync", w.photos.path], environment: w.env)
    #expect(sync.status == 0, "\(sync.stderr)")
    let near = try json(try Binary.run(["near", "35.6812,139.7671", "--format", "json"], environment: w.env).stdout)
    let annotations = try #require(near["annotations"] as? [[String: Any]])
    #expect(annotations.count == 2)
    let pair = try #require(annotations.first { ($0["title"] as? String) == "IMG_0001" })
    let files = try #require(pair["files"] as? [[String: String]])
    #expect(files.map { $0["name"] ?? "" } == ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp"])
    #expect(files.map { $0["role"] ?? "" } == ["primary", "raw", "sidecar"])
    #expect(files[1]["path"]?.hasSuffix("/tokyo/IMG_0001.CR2") == true)
    #expect(pair["mediaType"] as? String == "photo" && pair["duration"] == nil)
    let walk = try #require(annotations.first { ($0["title"] as? String) == "walk" })
    #expect(walk["mediaType"] as? String == "video" && walk["duration"] as? Double == 12.5)

    let (running, base) = try start(w)
    defer {
      running.process.terminate()
      running.process.waitUntilExit()
    }
    let served = try json(String(decoding: try fetch(base + "/v1/near?lat=35.6812&lon=139.7671").1, as: UTF8.self))
    let servedPair = try #require(
      (served["annotations"] as? [[String: Any]])?.first { ($0["title"] as? String) == "IMG_0001" })
    let servedFiles = try #require(servedPair["files"] as? [[String: String]])
    #expect(servedFiles.map { $0["role"] ?? "" } == ["primary", "raw", "sidecar"])
    #expect(servedFiles.allSatisfy { $0["path"] == nil })  // the server shows no local paths
    let id = try #require(servedPair["id"] as? Int)
    let detail = try json(String(decoding: try fetch(base + "/v1/photos/\(id)").1, as: UTF8.self))
    #expect(
      (detail["files"] as? [[String: String]])?.map { $0["name"] ?? "" } == [
        "IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp",
      ])
    let map = try json(
      String(decoding: try fetch(base + "/v1/annotations?bbox=139.7,35.6,139.8,35.7&zoom=18").1, as: UTF8.self))
    let kinds = (map["features"] as? [[String: Any]])?.compactMap {
      ($0["properties"] as? [String: Any])?["mediaType"] as? String
    }
    #expect(kinds?.sorted() == ["photo", "video"])
  }

  @Test func aHostNameIsResolvedAndServedOnEveryAddress() throws {
    let w = try ExampleWorkspace(withPhotos: false)
    let running = try Binary.start(
      ["serve", "--host", "localhost", "--port", "0", "--tiles", "none"], environment: w.env)
    var out = ""
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline && !out.contains("\n") {
      out = (try? String(contentsOf: running.out, encoding: .utf8)) ?? ""
      Thread.sleep(forTimeInterval: 0.05)
    }
    let port = try #require(out.range(of: "http://localhost:").map { out[$0.upperBound...].prefix { $0.isNumber } })
    #expect(try fetch("http://127.0.0.1:\(port)/healthz").0 == 200)
    kill(running.process.processIdentifier, SIGTERM)
    running.process.waitUntilExit()
    let result = running.result()
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("serving 0 photos (index generation 0) on http://localhost:\(port)/ (127.0.0.1"))
    #expect(!result.stderr.contains("other machines can reach"))
  }

  /// Where screenshots are kept after the run (`.build/test-artifacts`).
  static func artifacts() throws -> URL {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/test-artifacts")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// With a token, the page shows nothing of the photos until it is given the token: it asks
  /// for it (the API answered 401), and no pin, title or extent is in the page.
  @Test func webMapWithATokenAsksForIt() throws {
    guard let chromium = Self.chromium else {
      if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("chromium is not installed") }
      return
    }
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let file = w.root.appendingPathComponent("token")
    try "a-token-for-the-page-test\n".write(to: file, atomically: true, encoding: .utf8)
    chmod(file.path, 0o600)
    let (running, base) = try start(w, ["--token-file", file.path])
    defer {
      running.process.terminate()
      running.process.waitUntilExit()
    }
    let browser = HeadlessChromium(executable: chromium, base: base)
    defer { browser.clean() }
    let dom = try browser.open("/", ["--dump-dom"])
    let form = try #require(dom.range(of: "<form id=\"gp-token\"").map { dom[$0.lowerBound...].prefix { $0 != ">" } })
    #expect(!form.contains("hidden"), "the token form is shown: \(form)")
    #expect(!dom.contains("data-ready"))
    #expect(!dom.contains("gp-marker") && !dom.contains("gp-cluster"))
    for title in ["Tokyo Station", "Senso-ji", "Hibiya"] { #expect(!dom.contains(title)) }
  }

  @Test func webMapShowsThePinsInABrowser() throws {
    guard let chromium = Self.chromium else {
      if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("chromium is not installed") }
      return
    }
    let w = try ExampleWorkspace()
    // A burst of six shots at one spot: a cluster bubble at any zoom up to 16.
    for i in 0..<6 {
      try SampleJPEG.write(to: w.photos.appendingPathComponent("burst-\(i).jpg")) {
        $0.coordinate = .init(latitude: 35.7101, longitude: 139.8107)
      }
    }
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let (running, base) = try start(w)
    defer {
      running.process.terminate()
      running.process.waitUntilExit()
    }
    let artifacts = try Self.artifacts()
    let screenshot = artifacts.appendingPathComponent("webmap.png")
    try? FileManager.default.removeItem(at: screenshot)
    let browser = HeadlessChromium(executable: chromium, base: base)
    defer { browser.clean() }
    func runChromium(_ extra: [String], page: String = "/") throws -> String { try browser.open(page, extra) }
    let dom = try runChromium(["--dump-dom"])
    #expect(dom.contains("data-ready=\"1\""), "the page never drew its annotations")
    func attribute(_ name: String) -> String? {
      guard let r = dom.range(of: "data-\(name)=\"") else { return nil }
      return String(dom[r.upperBound...].prefix { $0 != "\"" })
    }
    let markers = Int(attribute("markers") ?? "") ?? -1
    let clusters = Int(attribute("clusters") ?? "") ?? -1
    // The DOM holds as many pins and bubbles as the page reports…
    #expect(dom.components(separatedBy: "gp-marker").count - 1 == markers)
    #expect(dom.components(separatedBy: "gp-cluster").count - 1 == clusters)
    #expect(markers >= 10 && clusters >= 1)
    // …and as the API answers for the viewport the page asked about.
    let bbox = try #require(attribute("bbox"))
    let zoom = try #require(attribute("zoom"))
    let (_, body) = try fetch(base + "/v1/annotations?bbox=\(bbox)&zoom=\(zoom)")
    let features =
      (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["features"] as? [[String: Any]] ?? []
    let apiClusters = features.filter { ($0["properties"] as? [String: Any])?["cluster"] as? Bool == true }.count
    #expect(apiClusters == clusters && features.count - apiClusters == markers)
    var total = 0
    for f in features {
      let p = f["properties"] as? [String: Any] ?? [:]
      total += (p["cluster"] as? Bool == true) ? (p["point_count"] as? Int ?? 0) : 1
    }
    #expect(total == 18)  // the page fits every photo

    // The panel lists the photos in view nearest the map's centre first, as /v1/near ranks them.
    #expect(dom.contains("leaflet-control-scale"), "a scale bar")
    #expect(attribute("listed") == "18")
    let center = try #require(attribute("center"))
    let (_, nearBody) = try fetch(
      base + "/v1/near?lat=\(center.split(separator: ",")[0])&lon=\(center.split(separator: ",")[1])&limit=1")
    let nearest =
      (try JSONSerialization.jsonObject(with: nearBody) as? [String: Any])?["annotations"] as? [[String: Any]]
    let nearestTitle = try #require(nearest?.first?["title"] as? String)
    let list = try #require(dom.range(of: "id=\"gp-list\"").map { String(dom[$0.upperBound...]) })
    let firstItem = try #require(
      list.range(of: "<button type=\"button\">").map { list[$0.upperBound...].prefix { $0 != "<" } })
    #expect(String(firstItem) == nearestTitle.replacingOccurrences(of: "&", with: "&amp;"))

    // A permalink (the view in the URL's hash) opens the same view.
    let permalink = try runChromium(["--dump-dom"], page: "/#map=15/35.68124/139.76712")
    #expect(permalink.contains("data-zoom=\"15\""), "\(permalink.prefix(600))")
    let linked = permalink.range(of: "data-bbox=\"").map { r in
      permalink[r.upperBound...].prefix { $0 != "\"" }.split(separator: ",").compactMap { Double($0) }
    }
    if let linked, linked.count == 4 {
      #expect(abs((linked[0] + linked[2]) / 2 - 139.76712) < 1e-3 && abs((linked[1] + linked[3]) / 2 - 35.68124) < 1e-3)
    } else {
      Issue.record("the permalinked page asked for no viewport")
    }

    // A date range in the page's URL fills the form and filters what the map asks for.
    let day = ExamplePhotos.all.filter { $0.coordinate != nil && $0.takenAt.day == 4 }.count
    let filtered = try runChromium(["--dump-dom"], page: "/?since=2024-05-04&until=2024-05-04")
    #expect(filtered.contains("data-filter=\"since=2024-05-04&amp;until=2024-05-04\""), "\(filtered.prefix(600))")
    let shown = filtered.components(separatedBy: "gp-marker").count - 1
    let bubbles = filtered.components(separatedBy: "gp-cluster").count - 1
    #expect(day > 0 && shown + bubbles >= 1 && shown <= day)

    // So does a search: two photos have "bridge" in their titles.
    let searched = try runChromium(["--dump-dom"], page: "/?text=bridge")
    #expect(searched.contains("data-filter=\"text=bridge\""), "\(searched.prefix(600))")
    let found = searched.components(separatedBy: "gp-marker").count - 1
    let foundBubbles = searched.components(separatedBy: "gp-cluster").count - 1
    #expect(found + foundBubbles >= 1 && found <= 2)

    // The place box goes to the most populous place of the name (in the URL, it opens there):
    // the viewport the page then asks about is around Kyoto's centre (GeoNames: 35.02107,
    // 135.75385).
    let kyoto = try runChromium(["--dump-dom"], page: "/?place=Kyoto")
    #expect(kyoto.contains("data-place=\"Kyoto, Kyoto, JP\""), "\(kyoto.prefix(600))")
    let box = kyoto.range(of: "data-bbox=\"").map { r in
      kyoto[r.upperBound...].prefix { $0 != "\"" }.split(separator: ",").compactMap { Double($0) }
    }
    let kyotoBox = try #require(box)
    #expect(kyotoBox.count == 4)
    if kyotoBox.count == 4 {
      #expect(kyotoBox[0] < 135.75385 && 135.75385 < kyotoBox[2] && kyotoBox[1] < 35.02107 && 35.02107 < kyotoBox[3])
      #expect(kyotoBox[2] - kyotoBox[0] < 2, "a city's zoom, not the world's")
    }
    // A name no place has offers the spellings it may mean.
    let misspelt = try runChromium(["--dump-dom"], page: "/?place=Kyotto")
    #expect(misspelt.contains("Did you mean") && misspelt.contains(">Kyoto</button>"), "\(misspelt.prefix(600))")

    _ = try runChromium(["--screenshot=\(screenshot.path)"])
    let png = try Data(contentsOf: screenshot)
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    // The same in the system's dark style, kept beside it.
    let dark = artifacts.appendingPathComponent("webmap-dark.png")
    try? FileManager.default.removeItem(at: dark)
    _ = try runChromium(["--force-dark-mode", "--blink-settings=preferredColorScheme=0", "--screenshot=\(dark.path)"])
    #expect(try Data(contentsOf: dark).starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }

  /// The web map over geophoto's own basemap: land and water where Natural Earth has them, in
  /// the system's light or dark style, no request to any other origin, and the photo viewer.
  /// Its screenshots (world and city, light and dark) are kept as test artifacts.
  @Test func webMapDrawsItsOwnBasemapAndAsksNoOtherOrigin() throws {
    guard let chromium = Self.chromium else {
      if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("chromium is not installed") }
      return
    }
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let (running, base) = try start(w, tiles: "builtin")
    defer {
      running.process.terminate()
      running.process.waitUntilExit()
    }
    let artifacts = try Self.artifacts()
    let browser = HeadlessChromium(executable: chromium, base: base)
    defer { browser.clean() }
    let scratch = browser.scratch
    let (width, height) = (browser.width, browser.height)
    func browse(_ page: String, _ extra: [String]) throws -> String { try browser.open(page, extra) }
    let dark = ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"]

    // Land and water, read from the screenshot where the map puts each place (the map's centre
    // is the window's): most pixels round it (a name may cover a few) in the light style's
    // colours of sea and of land.
    enum Surface { case land, water }
    func surface(_ image: PNGImage, around c: Coordinate, centre: Coordinate, zoom: Int) -> Surface? {
      let projection = WebMercator(zoom: zoom)
      let (p, o) = (projection.point(c), projection.point(centre))
      let (x, y) = (Int(p.x - o.x) + width / 2, Int(p.y - o.y) + height / 2)
      var land = 0
      var water = 0
      for dy in -4...4 {
        for dx in -4...4 {
          guard let rgb = image.rgb(x: x + dx, y: y + dy) else { continue }
          func near(_ hex: Int) -> Bool {
            abs(rgb.r - (hex >> 16 & 0xFF)) <= 3 && abs(rgb.g - (hex >> 8 & 0xFF)) <= 3
              && abs(rgb.b - (hex & 0xFF)) <= 3
          }
          if near(0xAAD0E2) { water += 1 } else if near(0xF2EFE9) || near(0xE4DDD3) { land += 1 }
        }
      }
      return land + water < 30 ? nil : land > water ? .land : .water
    }
    let bay = Coordinate(latitude: 35.45, longitude: 139.85)
    for (zoom, centre, land) in [
      (8, Coordinate(latitude: 35.6, longitude: 139.7), Coordinate(latitude: 36.05, longitude: 139.55)),
      (10, bay, Coordinate(latitude: 35.62, longitude: 139.25)),
    ] {
      let shot = scratch.appendingPathComponent("map-\(zoom).png")
      let log = scratch.appendingPathComponent("net-\(zoom).json")
      _ = try browse(
        "/#map=\(zoom)/\(centre.latitude)/\(centre.longitude)",
        ["--screenshot=\(shot.path)", "--log-net-log=\(log.path)"])
      let image = try PNGImage(contentsOf: shot)
      #expect(surface(image, around: bay, centre: centre, zoom: zoom) == .water, "Tokyo Bay at zoom \(zoom)")
      #expect(surface(image, around: land, centre: centre, zoom: zoom) == .land, "the Kanto plain at zoom \(zoom)")
      // Every request the page made (those with an initiator: the browser's own update and
      // account checks have none) went to this server, the basemap's tiles among them.
      let events =
        (try JSONSerialization.jsonObject(with: try Data(contentsOf: log)) as? [String: Any])?["events"]
        as? [[String: Any]] ?? []
      var asked: Set<String> = []
      for event in events {
        guard let params = event["params"] as? [String: Any], let url = params["url"] as? String,
          let initiator = params["initiator"] as? String, initiator.hasPrefix("http")
        else { continue }
        asked.insert(url)
      }
      #expect(asked.contains { $0.hasPrefix(base + "/tiles/\(zoom)/") }, "no tiles asked for at zoom \(zoom)")
      #expect(asked.allSatisfy { $0.hasPrefix(base + "/") }, "\(asked.filter { !$0.hasPrefix(base + "/") })")
    }

    // The dark style's tiles when the system is dark: the sea is dark.
    let world = (zoom: 2, centre: Coordinate(latitude: 25, longitude: 10))
    let city = (zoom: 12, centre: Coordinate(latitude: 35.684, longitude: 139.765))
    for (name, view) in [("world", world), ("city", city)] {
      for (style, flags) in [("light", [String]()), ("dark", dark)] {
        let shot = artifacts.appendingPathComponent("webmap-\(name)-\(style).png")
        try? FileManager.default.removeItem(at: shot)
        _ = try browse(
          "/#map=\(view.zoom)/\(view.centre.latitude)/\(view.centre.longitude)", flags + ["--screenshot=\(shot.path)"])
        let image = try PNGImage(contentsOf: shot)
        if name == "world" {
          // The middle of the Atlantic (0°, 25°W).
          let projection = WebMercator(zoom: world.zoom)
          let (p, o) = (
            projection.point(Coordinate(latitude: 0, longitude: -25)), projection.point(world.centre)
          )
          let sea = try #require(image.rgb(x: Int(p.x - o.x) + width / 2, y: Int(p.y - o.y) + height / 2))
          #expect(style == "dark" ? sea.r + sea.g + sea.b < 200 : sea.b > 200, "the \(style) sea: \(sea)")
        }
      }
    }

    // A photo's viewer, opened from the page's URL: the large thumbnail, the title, the place,
    // the camera, and where it is among the photos in view.
    let (_, body) = try fetch(base + "/v1/near?lat=35.681&lon=139.767&limit=1")
    let first = try #require(
      ((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["annotations"] as? [[String: Any]])?.first)
    let id = try #require(first["id"] as? Int)
    let title = try #require(first["title"] as? String)
    let dom = try browse("/?photo=\(id)#map=15/35.681/139.767", ["--dump-dom"])
    #expect(dom.contains("data-photo=\"\(id)\""), "\(dom.prefix(400))")
    #expect(dom.contains("/v1/photos/\(id)/thumbnail?size=1024"))
    #expect(dom.contains(">" + title.replacingOccurrences(of: "&", with: "&amp;") + "</h2>"))
    #expect(dom.contains("<dt>Place</dt>") && dom.contains("<dt>Taken</dt>"))
    #expect(dom.range(of: #"id="gp-position"[^>]*>\d+ of \d+<"#, options: .regularExpression) != nil)
    // Photos are thumbnails on the map, clusters show one of theirs.
    #expect(dom.contains("<img alt=\"\" loading=\"lazy\" src=\"/v1/photos/"))
  }
}

/// The web map over an OpenStreetMap archive (central Helsinki, `Scripts/osm-test-archives.sh`):
/// streets at city zoom, light and dark, credited to OpenStreetMap, and still no request to any
/// other origin. Its screenshots are kept as test artifacts.
@Suite struct StreetMapWebTests {
  static let helsinki = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/osm/helsinki.pmtiles").path

  @Test(.enabled(if: FileManager.default.fileExists(atPath: helsinki), "needs Scripts/osm-test-archives.sh"))
  func theWebMapShowsStreetsFromAnArchive() throws {
    guard let chromium = ServeEndToEndTests.chromium else {
      if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("chromium is not installed") }
      return
    }
    let w = try ExampleWorkspace(withPhotos: false)
    let (running, base) = try Binary.serve(["--tiles", "builtin", "--basemap", Self.helsinki], environment: w.env)
    defer {
      running.process.terminate()
      running.process.waitUntilExit()
    }
    let artifacts = try ServeEndToEndTests.artifacts()
    let browser = HeadlessChromium(executable: chromium, base: base)
    defer { browser.clean() }
    let page = "/#map=15/60.1705/24.9420"
    let dom = try browser.open(page, ["--dump-dom"])
    #expect(dom.contains("OpenStreetMap contributors"), "the credit is not on the page")
    #expect(dom.contains("https://www.openstreetmap.org/copyright"))
    for (style, flags) in [
      ("light", [String]()), ("dark", ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"]),
    ] {
      let shot = artifacts.appendingPathComponent("webmap-streets-\(style).png")
      try? FileManager.default.removeItem(at: shot)
      let log = browser.scratch.appendingPathComponent("net-\(style).json")
      _ = try browser.open(page, flags + ["--screenshot=\(shot.path)", "--log-net-log=\(log.path)"])
      let image = try PNGImage(contentsOf: shot)
      // Buildings and main roads in the style's colours fill much of the window.
      let building = style == "light" ? 0xD9D0C9 : 0x3D3E44
      let road = style == "light" ? 0xFCD6A4 : 0x8A7658
      var (buildings, roads) = (0, 0)
      for y in stride(from: 0, to: browser.height, by: 2) {
        for x in stride(from: 0, to: browser.width, by: 2) {
          guard let c = image.rgb(x: x, y: y) else { continue }
          func near(_ hex: Int) -> Bool {
            abs(c.r - (hex >> 16 & 0xFF)) <= 4 && abs(c.g - (hex >> 8 & 0xFF)) <= 4 && abs(c.b - (hex & 0xFF)) <= 4
          }
          if near(building) { buildings += 1 }
          if near(road) { roads += 1 }
        }
      }
      #expect(buildings > 5_000, "\(style): \(buildings) building pixels")
      #expect(roads > 500, "\(style): \(roads) main-road pixels")
      // Every request the page made went to this server, street tiles among them.
      let events =
        (try JSONSerialization.jsonObject(with: try Data(contentsOf: log)) as? [String: Any])?["events"]
        as? [[String: Any]] ?? []
      var asked: Set<String> = []
      for event in events {
        guard let params = event["params"] as? [String: Any], let url = params["url"] as? String,
          let initiator = params["initiator"] as? String, initiator.hasPrefix("http")
        else { continue }
        asked.insert(url)
      }
      #expect(asked.contains { $0.hasPrefix(base + "/tiles/15/") }, "no tiles asked for at zoom 15")
      #expect(asked.allSatisfy { $0.hasPrefix(base + "/") }, "\(asked.filter { !$0.hasPrefix(base + "/") })")
    }
  }
}

extension StreetMapWebTests {
  /// A snapshot over the archive draws its streets and credits OpenStreetMap on the image.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: helsinki), "needs Scripts/osm-test-archives.sh"))
  func snapshotsDrawTheStreetsAndCreditThem() throws {
    let w = try ExampleWorkspace(withPhotos: false)
    let out = w.root.appendingPathComponent("helsinki.png")
    let plainOut = w.root.appendingPathComponent("plain.png")
    let box = ["--bbox", "24.937,60.166,24.951,60.177", "--size", "600x600"]
    let run = try Binary.run(["snapshot"] + box + ["--basemap", Self.helsinki, "-o", out.path], environment: w.env)
    #expect(run.status == 0, "\(run.stderr)")
    let plain = try Binary.run(["snapshot"] + box + ["-o", plainOut.path], environment: w.env)
    #expect(plain.status == 0, "\(plain.stderr)")
    let image = try PNGImage(contentsOf: out)
    let without = try PNGImage(contentsOf: plainOut)
    func count(_ hex: Int, _ image: PNGImage, rows: Range<Int>) -> Int {
      var n = 0
      for y in rows {
        for x in 0..<image.width {
          guard let c = image.rgb(x: x, y: y) else { continue }
          if abs(c.r - (hex >> 16 & 0xFF)) <= 4 && abs(c.g - (hex >> 8 & 0xFF)) <= 4 && abs(c.b - (hex & 0xFF)) <= 4 {
            n += 1
          }
        }
      }
      return n
    }
    // Buildings where the plain map has none.
    #expect(count(0xD9D0C9, image, rows: 0..<560) > 10_000)
    #expect(count(0xD9D0C9, without, rows: 0..<560) == 0)
    // The credit's band is longer with OpenStreetMap's credit in it: more text pixels.
    let band = (image.height - 16)..<image.height
    #expect(count(0x333333, image, rows: band) > count(0x333333, without, rows: band))
  }
}

/// Headless Chromium opening pages of a server: each run with a fresh profile in a scratch
/// folder (removed by `clean()`), a 1280 × 800 window and ten seconds of virtual time.
struct HeadlessChromium {
  let executable: String
  let base: String
  let width = 1280
  let height = 800
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-chromium-\(UUID().uuidString)")

  /// The page's standard output (the DOM with `--dump-dom`).
  func open(_ page: String, _ extra: [String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--user-data-dir=\(scratch.appendingPathComponent("profile-\(UUID().uuidString)").path)",
        "--window-size=\(width),\(height)", "--virtual-time-budget=10000",
      ] + extra + [base + page]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  func clean() { try? FileManager.default.removeItem(at: scratch) }
}
