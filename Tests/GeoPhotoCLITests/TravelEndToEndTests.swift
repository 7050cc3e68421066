import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

/// `geophoto trips`, `places visited`, `export --trip` and `snapshot --trip` over an index
/// holding four years of a photographer's life whose trips are known (`TravelTimeline`).
@Suite(.serialized) struct TravelEndToEndTests {
  /// A workspace whose index holds the timeline; the store's id of each timeline photo.
  static func workspace(_ kind: StoreKind = .sqlite) throws -> (ExampleWorkspace, [Int64: Int64]) {
    let w = try ExampleWorkspace(kind, withPhotos: false)
    try FileManager.default.createDirectory(
      at: w.db.deletingLastPathComponent(), withIntermediateDirectories: true)
    let store = try openStore(kind, at: w.database)
    let (timeline, _) = TravelTimeline.fourYears()
    let ids = try store.copy(timeline.records())
    try store.refreshDerivedIndexes()
    return (w, Dictionary(uniqueKeysWithValues: zip(timeline.photos.map(\.id), ids)))
  }

  static func base36(_ id: Int64) -> String { "t" + String(id, radix: 36) }

  @Test(arguments: StoreKind.available)
  func tripsAreTheKnownOnes(kind: StoreKind) throws {
    let (w, ids) = try Self.workspace(kind)
    let (_, expected) = TravelTimeline.fourYears()
    let run = try Binary.run(["trips", "--format", "json"], environment: w.env)
    #expect(run.status == 0, "\(run.stderr)")
    let answer = try json(run.stdout)
    let trips = try #require(answer["trips"] as? [[String: Any]])
    #expect(trips.compactMap { $0["start"] as? String } == expected.map(\.start))
    #expect(trips.compactMap { $0["end"] as? String } == expected.map(\.end))
    #expect(trips.compactMap { $0["name"] as? String } == expected.map(\.name))
    #expect(trips.compactMap { $0["photos"] as? Int } == expected.map(\.ids.count))
    let tripIDs = expected.map { Self.base36($0.ids.compactMap { ids[$0] }.min() ?? 0) }
    #expect(trips.compactMap { $0["id"] as? String } == tripIDs)
    let homes = try #require(answer["homes"] as? [[String: Any]])
    #expect(homes.compactMap { $0["name"] as? String } == ["Helsinki, Uusimaa, FI", "Berlin, Land Berlin, DE"])
    #expect(homes.last?["since"] as? String == "2020-07-01")

    // The table, and the rules as options.
    let table = try Binary.run(["trips"], environment: w.env)
    #expect(table.stdout.contains("home: Berlin, Land Berlin, DE from 2020-07-01"), "\(table.stdout)")
    #expect(table.stdout.contains("Tokyo & Kyoto, JP"))
    let fixed = try Binary.run(["trips", "--home", "60.17,24.94", "--format", "csv"], environment: w.env)
    #expect(fixed.status == 0 && !fixed.stdout.contains("2021-06-10"), "\(fixed.stdout)")
    let far = try Binary.run(["trips", "--away", "200km", "--format", "csv"], environment: w.env)
    #expect(!far.stdout.contains("Tampere") && far.stdout.contains("Rome"), "\(far.stdout)")
    let joined = try Binary.run(
      ["trips", "--format", "csv"], environment: w.env.merging(["GEOPHOTO_TRIPS_GAP": "5d"]) { $1 })
    #expect(joined.stdout.components(separatedBy: "Rome").count == 2, "\(joined.stdout)")
    // Filters choose trips, home still from every year.
    let since = try Binary.run(["trips", "--since", "2019", "--format", "csv"], environment: w.env)
    let starts = since.stdout.split(separator: "\r\n").dropFirst().map { line in
      line.split(separator: ",").first { $0.count == 10 && $0.hasPrefix("20") }.map(String.init) ?? ""
    }
    #expect(starts == ["2021-06-10", "2019-10-03", "2019-02-01"], "\(since.stdout)")
    let bad = try Binary.run(["trips", "--away", "10m"], environment: w.env)
    #expect(bad.status == 64 && bad.stderr.contains("away"), "\(bad.stderr)")
  }

  @Test func aTripExportsAndDraws() throws {
    let (w, ids) = try Self.workspace()
    let (timeline, expected) = TravelTimeline.fourYears()
    let japan = try #require(expected.first { $0.start == "2018-05-01" })
    let id = Self.base36(japan.ids.compactMap { ids[$0] }.min() ?? 0)
    // Its located photos, in time order.
    let run = try Binary.run(["export", "--trip", id, "--format", "csv"], environment: w.env)
    #expect(run.status == 0, "\(run.stderr)")
    let rows = run.stdout.split(separator: "\r\n").dropFirst().map { Int64($0.split(separator: ",")[0]) ?? 0 }
    let located = timeline.photos.filter { japan.ids.contains($0.id) && $0.coordinate != nil }
      .sorted { ($0.instant, $0.id) < ($1.instant, $1.id) }
    #expect(rows == located.compactMap { ids[$0.id] })
    let gpx = w.root.appendingPathComponent("japan.gpx")
    let written = try Binary.run(["export", "--trip", id, "--format", "gpx", "-o", gpx.path], environment: w.env)
    #expect(written.stderr.contains("exported \(located.count) photos"), "\(written.stderr)")
    // A snapshot of it.
    let png = w.root.appendingPathComponent("japan.png")
    let drawn = try Binary.run(
      ["snapshot", "--trip", id, "-o", png.path, "--tiles", "none", "--limit", "100"], environment: w.env)
    #expect(drawn.status == 0 && drawn.stdout.contains("\(located.count) photos"), "\(drawn.stdout) \(drawn.stderr)")
    #expect(FileManager.default.fileExists(atPath: png.path))
    // A trip that is not there, and a trip with an area.
    let missing = try Binary.run(["export", "--trip", "tzzzz"], environment: w.env)
    #expect(missing.status == 1 && missing.stderr.contains("no trip 'tzzzz'"), "\(missing.stderr)")
    let both = try Binary.run(["export", "--trip", id, "--bbox", "1,2,3,4"], environment: w.env)
    #expect(both.status == 64, "\(both.stderr)")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
  func placesVisitedCountLikeSQL() throws {
    let (w, _) = try Self.workspace()
    let run = try Binary.run(["places", "visited", "--format", "csv"], environment: w.env)
    #expect(run.status == 0, "\(run.stderr)")
    // The same counts by SQL, from the rows, by Python's sqlite3.
    let script = """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      q = "SELECT place_cc, {}, count(*), min(date(taken_local, 'unixepoch')), max(date(taken_local, 'unixepoch')) " \\
          "FROM photos WHERE latitude IS NOT NULL AND taken_local IS NOT NULL AND source = 'local' {} GROUP BY 1, 2"
      for level, key, more in (("country", "''", ""), ("region", "place_admin1", "AND place_is_country = 0"),
                               ("city", "place_admin1 || '/' || place_name", "AND place_is_country = 0")):
          for row in db.execute(q.format(key, more)):
              print(level, row[0], row[1], row[2], row[3], row[4], sep="|")
      """
    let sql = try ToolRun("/usr/bin/python3", ["-c", script, w.db.path])
    let expected = Set(sql.stdout.split(separator: "\n").map(String.init))
    let rows = run.stdout.split(separator: "\r\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let got = Set(
      rows.map { r in
        let key = r[0] == "country" ? "" : r[0] == "region" ? r[3] : "\(r[3])/\(r[4])"
        return [r[0], r[1], key, r[5], r[6], r[7]].joined(separator: "|")
      })
    #expect(got == expected)
    #expect(rows.first?[2] == "Finland")
    // The tree for people, and one level.
    let table = try Binary.run(["places", "visited", "--level", "country"], environment: w.env)
    #expect(table.stdout.contains("Finland (FI)") && !table.stdout.contains("Uusimaa"), "\(table.stdout)")
    let bad = try Binary.run(["places", "somewhere"], environment: w.env)
    #expect(bad.status == 64 && bad.stderr.contains("'visited' or 'import'"), "\(bad.stderr)")
  }
}
