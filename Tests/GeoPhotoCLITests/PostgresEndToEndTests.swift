import Foundation
import Testing

@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["GEOPHOTO_TEST_POSTGRES_URL"] != nil,
    "needs PostgreSQL: run through 'make test' (Scripts/with-postgres.sh)"))
struct PostgresEndToEndTests {
  @Test func migrateThenNearAnswersLikeSQLite() throws {
    let base = try #require(ProcessInfo.processInfo.environment["GEOPHOTO_TEST_POSTGRES_URL"])
    // A schema of its own, so the test meets no other test's tables.
    let schema = "e2e_\(UUID().uuidString.prefix(8).lowercased())"
    let admin = Process()
    admin.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    admin.arguments = ["psql", base, "-qc", "CREATE SCHEMA \(schema)"]
    try admin.run()
    admin.waitUntilExit()
    try #require(admin.terminationStatus == 0)
    let url = base + "&options=-csearch_path%3D\(schema),public"

    let w = try ExampleWorkspace()
    let before = try Binary.run(["near", "35.68,139.76", "--db", url])
    #expect(before.status == 0 && before.stdout.isEmpty && before.stderr.contains("has no located photos"))
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let migrate = try Binary.run(["migrate", "--from", "sqlite:\(w.db.path)", "--to", url], environment: w.env)
    #expect(migrate.status == 0, "stderr: \(migrate.stderr)")
    #expect(
      migrate.stdout.hasPrefix("copied 13 photos to ") && migrate.stdout.contains("counts per source match (local 13)"))
    // Again: nothing is copied twice.
    let again = try Binary.run(["migrate", "--from", "sqlite:\(w.db.path)", "--to", url], environment: w.env)
    #expect(again.status == 0 && again.stdout.contains("(local 13)"))

    let sqlite = try json(try Binary.run(["near", "35.68,139.76", "-f", "json"], environment: w.env).stdout)
    let postgres = try json(try Binary.run(["near", "35.68,139.76", "-f", "json", "--db", url]).stdout)
    let a = try #require(sqlite["annotations"] as? [[String: Any]])
    let b = try #require(postgres["annotations"] as? [[String: Any]])
    #expect(a.count == 12 && b.count == 12)
    #expect(a.compactMap { $0["title"] as? String } == b.compactMap { $0["title"] as? String })
    #expect(a.compactMap { $0["subtitle"] as? String } == b.compactMap { $0["subtitle"] as? String })
    for (x, y) in zip(a, b) {
      #expect(abs((x["distance"] as? Double ?? 0) - (y["distance"] as? Double ?? 1e9)) < 0.2)
    }

    // Nothing within 1 km of Null Island, but the index has photos: no hint.
    let none = try Binary.run(["near", "0,0", "--radius", "1km", "--db", url])
    #expect(none.status == 0 && none.stdout.isEmpty && !none.stderr.contains("no located photos"))

    let bad = try Binary.run(["near", "1,2", "--db", "postgresql://ann:hunter22@/nosuchdb?host=/nonexistent-socket"])
    #expect(bad.status == 1 && bad.stderr.contains("ann:REDACTED@") && !bad.stderr.contains("hunter22"))
  }
}
