import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

/// `sync --watch` and `serve --watch` as a user runs them: a line per batch, changes in
/// answers within seconds, and a clean exit on SIGTERM.
@Suite(.serialized) struct WatchEndToEndTests {
  /// Waits up to 20 s for `condition`.
  func wait(_ what: String, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if try condition() { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Issue.record("timed out waiting for \(what)")
  }

  func output(_ running: Binary.Running) -> String { (try? String(contentsOf: running.out, encoding: .utf8)) ?? "" }
  func errors(_ running: Binary.Running) -> String { (try? String(contentsOf: running.err, encoding: .utf8)) ?? "" }

  @Test func syncWatchPrintsABatchLineAndStopsOnSIGTERM() throws {
    let w = try ExampleWorkspace()
    let running = try Binary.start(["sync", "--watch", w.photos.path], environment: w.env)
    try wait("the first sync") { output(running).hasPrefix("scanned ") }
    try SampleJPEG.write(to: w.photos.appendingPathComponent("new.jpg")) { b in
      b.coordinate = Coordinate(latitude: -33.8568, longitude: 151.2153)
      b.imageDescription = "Opera House"
    }
    try wait("the batch line") { output(running).contains("+1 ~0 -0 moved 0") }
    try FileManager.default.moveItem(
      at: w.photos.appendingPathComponent("new.jpg"), to: w.photos.appendingPathComponent("sydney.jpg"))
    try wait("the move line") { output(running).contains("+0 ~0 -0 moved 1") }
    running.process.terminate()  // SIGTERM
    running.process.waitUntilExit()
    let result = running.result()
    #expect(result.status == 0, "\(result.stderr)")
    let near = try Binary.run(["near", "-33.8568,151.2153", "--limit", "1"], environment: w.env)
    #expect(near.stdout.contains("Opera House"), "\(near.stdout)")
  }

  @Test func syncWatchQuietPrintsNoLinesAndAMissingFolderIsAnError() throws {
    let w = try ExampleWorkspace()
    let running = try Binary.start(["sync", "--watch", "--quiet", w.photos.path], environment: w.env)
    try wait("the first sync") { (try Binary.run(["info"], environment: w.env)).stdout.contains("12") }
    Thread.sleep(forTimeInterval: 0.5)
    running.process.interrupt()  // SIGINT
    running.process.waitUntilExit()
    let result = running.result()
    #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
    let typo = try Binary.run(["sync", "--watch", w.root.appendingPathComponent("nope").path], environment: w.env)
    #expect(typo.status == 1 && typo.stderr.contains("does not exist"), "\(typo.stderr)")
  }

  @Test func serveWatchAnswersWithAChangeWithinSeconds() throws {
    let w = try ExampleWorkspace()
    let (running, base) = try Binary.serve(["--tiles", "none", "--watch", w.photos.path], environment: w.env)
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = 5
    let client = try HTTPClient(options: options)
    func near() throws -> String {
      String(decoding: try client.get(base + "/v1/near?lat=64.1466&lon=-21.9426&limit=1").body, as: UTF8.self)
    }
    try wait("the first sync") {
      (try? client.get(base + "/v1/status").body).map { String(decoding: $0, as: UTF8.self) }?.contains("\"photos\":12")
        == true
    }
    try SampleJPEG.write(to: w.photos.appendingPathComponent("reykjavik.jpg")) { b in
      b.coordinate = Coordinate(latitude: 64.1466, longitude: -21.9426)
      b.imageDescription = "Hallgrímskirkja"
    }
    // How soon is make bench's to measure (the watch part); here, that it comes at all.
    try wait("the new photo in answers") { try near().contains("Hallgrímskirkja") }
    running.process.terminate()
    running.process.waitUntilExit()
    let result = running.result()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("watch: +1 ~0 -0 moved 0"), "\(result.stderr)")
  }
}
