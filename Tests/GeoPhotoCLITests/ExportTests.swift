import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

/// `geophoto export`, read back by GDAL: every format opens with the expected feature count
/// and coordinates round-trip to 1e-7 degrees.
@Suite(.serialized) struct ExportTests {
  static let gdal = FileManager.default.isExecutableFile(atPath: "/usr/bin/ogr2ogr")

  /// The bundled example's located photos: what an export of the whole index holds.
  static let located = ExamplePhotos.all.filter { $0.coordinate != nil }

  func export(_ w: ExampleWorkspace, _ args: [String]) throws -> Binary.Result {
    try Binary.run(["export"] + args, environment: w.env)
  }

  @Test(.enabled(if: gdal, "needs GDAL (make test installs gdal-bin)"), arguments: ["geojson", "kml", "gpx"])
  func gdalReadsEveryFormat(format: String) throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let file = w.root.appendingPathComponent("photos.\(format)")
    let run = try export(w, ["--format", format, "-o", file.path])
    #expect(run.status == 0 && run.stderr.contains("exported \(Self.located.count) photos"), "\(run.stderr)")
    let info = try ToolRun("/usr/bin/ogrinfo", ["-ro", "-al", "-so", file.path])
    let counts = info.stdout.split(separator: "\n").compactMap { line -> Int? in
      line.hasPrefix("Feature Count: ") ? Int(line.dropFirst("Feature Count: ".count)) : nil
    }
    #expect(counts.reduce(0, +) == Self.located.count, "\(info.stdout)")
    let layer = format == "gpx" ? ["waypoints"] : []
    let csv = try ToolRun(
      "/usr/bin/ogr2ogr", ["-f", "CSV", "/vsistdout/", file.path] + layer + ["-lco", "GEOMETRY=AS_XY"])
    let rows = csv.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", maxSplits: 2) }
    let points = rows.compactMap { r -> Coordinate? in
      guard r.count >= 2, let x = Double(r[0]), let y = Double(r[1]) else { return nil }
      return Coordinate(latitude: y, longitude: x)
    }
    #expect(points.count == Self.located.count)
    for expected in Self.located.compactMap(\.coordinate) {
      #expect(
        points.contains {
          abs($0.latitude - expected.latitude) <= 1e-7 && abs($0.longitude - expected.longitude) <= 1e-7
        },
        "\(format): \(expected) did not round-trip")
    }
  }

  @Test(arguments: StoreKind.available)
  func filtersAreasAndPaths(kind: StoreKind) throws {
    let w = try ExampleWorkspace(kind)
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    func csvRows(_ args: [String]) throws -> [String] {
      let run = try export(w, ["--format", "csv"] + args)
      #expect(run.status == 0, "\(args): \(run.stderr)")
      return run.stdout.split(separator: "\r\n").dropFirst().map(String.init)
    }
    #expect(try csvRows([]).count == Self.located.count)
    let day = Self.located.filter { $0.takenAt.day == 4 }.count
    #expect(try csvRows(["--on", "2024-05-04"]).count == day)
    let center = Coordinate(latitude: 35.68, longitude: 139.76)
    let near = Self.located.filter { haversine(center, $0.coordinate ?? center) <= 1_000 }.count
    #expect(try csvRows(["--near", "35.68,139.76", "--radius", "1km"]).count == near)
    #expect(try csvRows(["--near", "35.68,139.76", "--radius", "10km", "--limit", "3"]).count == 3)
    let box = Self.located.filter { ($0.coordinate?.latitude ?? 0) > 35.68 }.count
    #expect(try csvRows(["--bbox", "139,35.68,141,36"]).count == box)
    // Paths only when asked for.
    #expect(try !csvRows([]).joined().contains(w.photos.path))
    #expect(try csvRows(["--include-paths"]).joined().contains(w.photos.path))
    // Mistakes are usage errors; a failed export leaves no file.
    for (args, words) in [
      (["--near", "35.68,139.76"], ["--radius"]), (["--format", "shp"], ["--format", "shp"]),
      (["--bbox", "1,2,3"], ["--bbox"]), (["--near", "35,139", "--radius", "1km", "--bbox", "1,2,3,4"], ["two areas"]),
    ] {
      let run = try export(w, args)
      #expect(run.status == 64, "\(args)")
      for word in words { #expect(run.stderr.contains(word), "\(args): \(run.stderr)") }
    }
    let nowhere = w.root.appendingPathComponent("missing/out.kml")
    let failed = try export(w, ["--format", "kml", "-o", nowhere.path])
    #expect(failed.status == 1 && failed.stderr.contains("cannot write"))
    #expect(!FileManager.default.fileExists(atPath: nowhere.path))
  }

  /// An index whose ids span several of the export's windows, with a gap wider than one and
  /// photos without a position: every export is exactly the located photos by id (then cut at
  /// --limit), however the windows fall, in every format.
  @Test(arguments: StoreKind.available)
  func windowsOfIdsJoinExactly(kind: StoreKind) throws {
    let w = try ExampleWorkspace(kind, withPhotos: false)
    try FileManager.default.createDirectory(at: w.db.deletingLastPathComponent(), withIntermediateDirectories: true)
    let store = try openStore(kind, at: w.database)
    let records = (1...12_500).map { (i: Int) -> PhotoRecord in
      let latitude: Double? = i % 7 == 0 ? nil : Double(i % 170) - 85
      return record("/p/\(i).jpg", latitude, Double(i % 350) - 175, title: "p\(i)")
    }
    let ids = try store.write { try store.upsert(records, now: IndexTime(seconds: 1_767_225_600)).map(\.id) }
    // Ids 4,001 to 10,600 go: the second window of 5,000 is left empty.
    let gone = Set(ids.filter { (4_001...10_600).contains($0) })
    try store.write { for id in gone { try store.delete(id: id) } }
    var located: [(id: Int64, coordinate: Coordinate)] = []
    for (id, r) in zip(ids, records) where !gone.contains(id) {
      if let c = r.photo.coordinate { located.append((id, c)) }
    }
    func geoJSONIDs(_ args: [String]) throws -> [Int64] {
      let file = w.root.appendingPathComponent("out.geojson")
      let run = try export(w, ["-o", file.path] + args)
      #expect(run.status == 0, "\(args): \(run.stderr)")
      let document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
      let features = try #require(document?["features"] as? [[String: Any]], "\(args)")
      return features.compactMap { ($0["id"] as? NSNumber)?.int64Value }
    }
    // A store may number a batch in any order: exports go by id.
    located.sort { $0.id < $1.id }
    #expect(try geoJSONIDs([]) == located.map(\.id))
    // Cut inside the first window, at its end, and inside the last.
    let first = located.filter { $0.id < (ids.min() ?? 0) + 5_000 }.count
    for limit in [1, first, first + 1, located.count - 5] {
      #expect(try geoJSONIDs(["--limit", String(limit)]) == located.prefix(limit).map(\.id), "limit \(limit)")
    }
    let box = BoundingBox(west: 0, south: 0, east: 180, north: 90)
    #expect(try geoJSONIDs(["--bbox", "0,0,180,90"]) == located.filter { box.contains($0.coordinate) }.map(\.id))
    let csv = try export(w, ["--format", "csv"])
    #expect(csv.stdout.split(separator: "\r\n").count == located.count + 1)
  }
}
