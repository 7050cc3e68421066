import Foundation
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

/// `geophoto serve` as a user runs it, and the web map in a real (headless) browser.
@Suite(.serialized) struct ServeEndToEndTests {
  /// Starts `geophoto serve --port 0` on the workspace index and waits for its address.
  func start(_ w: ExampleWorkspace, _ extra: [String] = []) throws -> (Binary.Running, String) {
    let running = try Binary.start(["serve", "--port", "0", "--tiles", "none"] + extra, environment: w.env)
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let out = (try? String(contentsOf: running.out, encoding: .utf8)) ?? ""
      if let range = out.range(of: "http://127.0.0.1:"), let end = out[range.upperBound...].firstIndex(of: "/") {
        return (running, "http://127.0.0.1:" + out[range.upperBound..<end])
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    running.process.terminate()
    throw CocoaError(.fileReadUnknown)
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
    let (status, body) = try fetch(base + "/healthz")
    #expect(status == 200)
    #expect(String(decoding: body, as: UTF8.self).contains("\"photos\":12"))
    // A sync of a new photo is served without a restart.
    try SampleJPEG.write(to: w.photos.appendingPathComponent("new.jpg")) {
      $0.coordinate = .init(latitude: 1, longitude: 2)
    }
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    var photos = ""
    for _ in 0..<100 {
      photos = String(decoding: try fetch(base + "/healthz").1, as: UTF8.self)
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

  static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
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
    let artifacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/test-artifacts")
    try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
    let screenshot = artifacts.appendingPathComponent("webmap.png")
    try? FileManager.default.removeItem(at: screenshot)
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "geophoto-chromium-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: profile) }
    let common = [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
      "--user-data-dir=\(profile.path)", "--window-size=1280,800", "--virtual-time-budget=10000",
    ]
    func runChromium(_ extra: [String]) throws -> String {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: chromium)
      p.arguments = common + extra + [base + "/"]
      let out = Pipe()
      p.standardOutput = out
      p.standardError = FileHandle.nullDevice
      try p.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return String(decoding: data, as: UTF8.self)
    }
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

    _ = try runChromium(["--screenshot=\(screenshot.path)"])
    let png = try Data(contentsOf: screenshot)
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }
}
