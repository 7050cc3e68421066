import Foundation
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

/// Readers on a hot-standby replica: a real primary and a standby streaming from it
/// (`Scripts/with-postgres.sh` starts both, each on a private socket).
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["GEOPHOTO_TEST_POSTGRES_STANDBY_URL"] != nil,
    "needs a PostgreSQL primary and standby: run through 'make test' (Scripts/with-postgres.sh)"))
struct ReplicaEndToEndTests {
  let primaryBase = ProcessInfo.processInfo.environment["GEOPHOTO_TEST_POSTGRES_URL"] ?? ""
  let standbyBase = ProcessInfo.processInfo.environment["GEOPHOTO_TEST_POSTGRES_STANDBY_URL"] ?? ""

  func near(_ database: String, _ point: String = "35.68,139.76") throws -> [[String: Any]] {
    let run = try Binary.run(["near", point, "-f", "json", "--db", database])
    guard run.status == 0 else { return [] }
    return (try json(run.stdout)["annotations"] as? [[String: Any]]) ?? []
  }

  /// The body of a GET, "" when it fails.
  func fetch(_ url: String) -> String {
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = 5
    return (try? HTTPClient(options: options).get(url)).map { String(decoding: $0.body, as: UTF8.self) } ?? ""
  }

  func health(_ base: String) -> String { fetch(base + "/v1/status") }

  /// Waits up to `seconds` for `condition` (generous: replication lags behind a busy test run).
  func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try condition() { return true }
      Thread.sleep(forTimeInterval: 0.2)
    }
    return try condition()
  }

  @Test func aServerOnTheStandbyAnswersWhatIsSyncedOnThePrimary() throws {
    // The workspace's schema on the primary, and the same schema as the standby sees it.
    let w = try ExampleWorkspace(.postgres)
    try #require(w.database.hasPrefix(primaryBase))
    let standby = standbyBase + w.database.dropFirst(primaryBase.count)
    let sync = try Binary.run(["sync", w.photos.path], environment: w.env)
    #expect(sync.status == 0, "stderr: \(sync.stderr)")

    // `near` on the standby, once it has replayed the sync, answers as the primary does.
    let onPrimary = try near(w.database)
    #expect(onPrimary.count == 12)
    #expect(try eventually(60) { try near(standby).count == onPrimary.count })
    #expect(
      try near(standby).compactMap { $0["title"] as? String } == onPrimary.compactMap { $0["title"] as? String })

    // `serve` on the standby follows a sync on the primary.
    let (server, base) = try Binary.serve(["--tiles", "none", "--db", standby])
    #expect(health(base).contains("\"photos\":12"))
    try SampleJPEG.write(to: w.photos.appendingPathComponent("replicated.jpg")) {
      $0.coordinate = .init(latitude: -33.8568, longitude: 151.2153)
      $0.imageDescription = "Replicated to the standby"
    }
    let again = try Binary.run(["sync", w.photos.path], environment: w.env)
    #expect(again.status == 0 && again.stdout.contains("added 1"), "stdout: \(again.stdout)")
    #expect(eventually(60) { health(base).contains("\"photos\":13") })
    let sydney = fetch(base + "/v1/near?lat=-33.86&lon=151.21&limit=1")
    #expect(sydney.contains("Replicated to the standby"))

    // Commands that write are sent to the primary, with the index untouched.
    for arguments in [["sync", w.photos.path], ["forget", w.root.appendingPathComponent("gone").path]] {
      let refused = try Binary.run(arguments + ["--db", standby])
      #expect(refused.status != 0, "\(arguments[0]) on the standby: \(refused.stdout)")
      #expect(
        refused.stderr.contains("is a read-only standby") && refused.stderr.contains("must use the primary")
          && !refused.stderr.contains("ERROR:"), "\(arguments[0]): \(refused.stderr)")
    }
    #expect(try near(w.database, "-33.8568,151.2153").first?["title"] as? String == "Replicated to the standby")

    kill(server.process.processIdentifier, SIGTERM)
    server.process.waitUntilExit()
    let served = server.result()
    #expect(served.status == 0)
    #expect(served.stderr.contains("index reloaded") && !served.stderr.contains("reload failed"), "\(served.stderr)")
  }
}
