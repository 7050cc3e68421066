import Foundation
import GeoPhotoFixtures
import GeoPhotoSync
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
    // Places came with the gazetteer that named them: none is left to name again.
    let psql = Process()
    psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    psql.arguments = [
      "psql", url, "-Atc", "SELECT count(*) FROM photos WHERE latitude IS NOT NULL AND place_gazetteer IS NULL",
    ]
    let out = Pipe()
    psql.standardOutput = out
    try psql.run()
    let unplaced = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    psql.waitUntilExit()
    #expect(unplaced == "0\n")
    // File states and synced folders came along: a sync against the database reads nothing again.
    let resync = try Binary.run(["sync", w.photos.path, "--db", url], environment: w.env)
    #expect(
      resync.status == 0 && resync.stdout.contains("added 0, updated 0") && resync.stdout.contains("unchanged 13"))

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

    // And back: the PostGIS index copied into a new SQLite file answers the same, with the
    // places, file states and synced folders it had.
    let back = w.root.appendingPathComponent("back.sqlite")
    let reverse = try Binary.run(["migrate", "--from", url, "--to", "sqlite:\(back.path)"], environment: w.env)
    #expect(reverse.status == 0, "stderr: \(reverse.stderr)")
    #expect(reverse.stdout == "copied 13 photos to \(back.path); counts per source match (local 13)\n")
    let copy = try json(try Binary.run(["near", "35.68,139.76", "-f", "json", "--db", back.path]).stdout)
    let c = try #require(copy["annotations"] as? [[String: Any]])
    #expect(c.compactMap { $0["subtitle"] as? String } == a.compactMap { $0["subtitle"] as? String })
    let resyncCopy = try Binary.run(["sync", w.photos.path, "--db", back.path], environment: w.env)
    #expect(resyncCopy.stdout.contains("added 0, updated 0") && resyncCopy.stdout.contains("unchanged 13"))
    let same = try Binary.run(["migrate", "--from", url, "--to", url], environment: w.env)
    #expect(same.status == 64 && same.stderr.contains("the same index"))

    // Nothing within 1 km of Null Island, but the index has photos: no hint.
    let none = try Binary.run(["near", "0,0", "--radius", "1km", "--db", url])
    #expect(none.status == 0 && none.stdout.isEmpty && !none.stderr.contains("no located photos"))

    let bad = try Binary.run(["near", "1,2", "--db", "postgresql://ann:hunter22@/nosuchdb?host=/nonexistent-socket"])
    #expect(bad.status == 1 && bad.stderr.contains("ann:REDACTED@") && !bad.stderr.contains("hunter22"))
  }
}

@Suite(.enabled(if: postgresTestURL != nil, "needs PostgreSQL: run through 'make test' (Scripts/with-postgres.sh)"))
struct PostgresCommandsEndToEndTests {
  /// Runs SQL on the test cluster as its superuser.
  func admin(_ sql: String) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["psql", try #require(postgresTestURL), "-qc", sql]
    try p.run()
    p.waitUntilExit()
    try #require(p.terminationStatus == 0, "psql failed: \(sql)")
  }

  @Test func infoSourcesAndForgetOnPostgres() throws {
    let w = try ExampleWorkspace(.postgres)
    // A password in the URL (ignored by the test cluster's trust rule) is never printed.
    let url = w.database.replacingOccurrences(of: "postgresql://geophoto@", with: "postgresql://geophoto:s3cret-pw@")
    let env = ["GEOPHOTO_DB": url]
    let sync = try Binary.run(["sync", w.photos.path], environment: env)
    #expect(sync.status == 0 && sync.stdout.contains("added 13"), "\(sync.stderr)")
    let info = try Binary.run(["info"], environment: env)
    #expect(info.status == 0)
    #expect(info.stdout.hasPrefix("index: postgresql://geophoto:REDACTED@/geophoto_test"))
    #expect(info.stdout.contains("photos: 13 (12 with a location, 1 without)"))
    #expect(info.stdout.contains("synced folders:\n  \(SyncEngine.canonicalRoot(w.photos.path)) (last sync 20"))
    #expect(!info.stdout.contains("s3cret-pw"))

    let local = try Binary.run(["near", "35.68,139.76", "--source", "local", "-n", "3", "-f", "csv"], environment: env)
    #expect(local.status == 0 && local.stdout.split(separator: "\r\n").count == 4)
    let flickr = try Binary.run(["near", "35.68,139.76", "--source", "flickr"], environment: env)
    #expect(flickr.status == 0 && flickr.stdout.isEmpty)

    // A role that may only read (a read replica's, say) answers without touching the schema.
    let reader = "reader_\(UUID().uuidString.prefix(6).lowercased())"
    let schema = try #require(url.split(separator: "%3D").last?.split(separator: ",").first.map(String.init))
    try admin("CREATE ROLE \(reader) LOGIN")
    try admin("GRANT USAGE ON SCHEMA \(schema) TO \(reader)")
    try admin("GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(reader)")
    let readOnly = try Binary.run(
      [
        "near", "35.68,139.76", "-f", "csv", "--db",
        w.database.replacingOccurrences(of: "//geophoto@", with: "//\(reader)@"),
      ])
    #expect(readOnly.status == 0 && readOnly.stdout.split(separator: "\r\n").count == 13, "\(readOnly.stderr)")

    let forget = try Binary.run(["forget", w.photos.path], environment: env)
    #expect(forget.status == 0 && forget.stdout == "removed 13 photos from the index\n")
    let empty = try Binary.run(["near", "35.68,139.76"], environment: env)
    #expect(empty.stderr.contains("the index at postgresql://geophoto:REDACTED@") && !empty.stderr.contains("s3cret"))
  }

  @Test func wrongRoleAndMissingPostGISAreClearErrors() throws {
    let base = try #require(postgresTestURL)
    let role = "nobody_\(UUID().uuidString.prefix(6).lowercased())"
    let unknown = try Binary.run(
      ["near", "1,2", "--db", base.replacingOccurrences(of: "//geophoto@", with: "//\(role):pw@")])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.hasPrefix("Error: cannot connect to postgresql://\(role):REDACTED@"))
    #expect(unknown.stderr.contains("role \"\(role)\" does not exist"))

    // An ordinary user in a database without PostGIS cannot create the extension.
    let database = "nogis_\(UUID().uuidString.prefix(6).lowercased())"
    try admin("CREATE ROLE \(role) LOGIN")
    try admin("CREATE DATABASE \(database) OWNER \(role)")
    let url = base.replacingOccurrences(of: "//geophoto@/geophoto_test", with: "//\(role)@/\(database)")
    let sync = try Binary.run(["sync", "/nonexistent", "--db", url])
    #expect(sync.status == 1)
    #expect(sync.stderr.contains("PostGIS is not available in postgresql://\(role)@/\(database)"))
    #expect(sync.stderr.contains("CREATE EXTENSION postgis;"))
  }
}
