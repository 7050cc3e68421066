import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
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
}
