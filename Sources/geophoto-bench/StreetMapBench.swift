import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStreetMap
import GeoPhotoVectorTiles

// MARK: - The street map

/// The street map from OpenStreetMap archives: tiles at zooms 14–16 over central Helsinki
/// (tilemaker's OpenMapTiles archive, `Scripts/osm-test-archives.sh`) drawn on one core, cold
/// (decoded and placed from nothing) and with its source tiles decoded; served from the tile
/// folder; and opening a PMTiles archive of 1,000,000 tiles.
func benchStreets() throws {
  print("Street map tiles: 256 px, zooms 14–16 over central Helsinki, one core")
  let archivePath = ".build/osm/helsinki.pmtiles"
  guard FileManager.default.fileExists(atPath: archivePath), let basemapURL = Basemap.shippedURL else {
    print(
      "  the OpenStreetMap archives are not built (Scripts/osm-test-archives.sh) or the basemap is missing: skipped")
    return
  }
  let basemap = BasemapRenderer(basemap: try Basemap(contentsOf: basemapURL))
  let archive = try PMTilesArchive(path: archivePath)
  guard let bounds = archive.info.bounds else { throw BenchFailure("the archive has no bounds") }
  // Every tile of zooms 14–16 the archive's bounds touch.
  var tiles: [(z: Int, x: Int, y: Int)] = []
  for z in 14...16 {
    let projection = WebMercator(zoom: z)
    let a = projection.point(Coordinate(latitude: bounds.north, longitude: bounds.west))
    let b = projection.point(Coordinate(latitude: bounds.south, longitude: bounds.east))
    for y in Int(a.y / 256)...Int(b.y / 256) { for x in Int(a.x / 256)...Int(b.x / 256) { tiles.append((z, x, y)) } }
  }
  func renderer() -> MapTileRenderer { MapTileRenderer(basemap: basemap, streets: StreetMap(archives: [archive])) }
  _ = try renderer().tile(zoom: 15, x: 18654, y: 9484, scale: 1, style: .light)  // fonts loaded
  // Cold: a new renderer for each tile (its source tiles and their neighbours decoded, names
  // placed); warm: one renderer for all, as a running server has.
  var cold: [UInt64] = []
  for t in tiles {
    cold.append(try timed { try renderer().tile(zoom: t.z, x: t.x, y: t.y, scale: 1, style: .light) }.1)
  }
  let warm = renderer()
  for t in tiles { _ = try warm.tile(zoom: t.z, x: t.x, y: t.y, scale: 1, style: .light) }
  var samples: [UInt64] = []
  var bytes = 0
  for _ in 0..<3 {
    for t in tiles {
      let (png, ns) = try timed { try warm.tile(zoom: t.z, x: t.x, y: t.y, scale: 1, style: .light) }
      samples.append(ns)
      bytes += png.count
    }
  }
  let drawn = Percentiles(samples)
  let fresh = Percentiles(cold)
  row(
    "uncached tile, drawn and PNG-encoded, p50", format(drawn.p50 / 1e3, "ms"),
    "goal ≤ 15 ms; \(tiles.count) tiles, \(bytes / samples.count) bytes a tile")
  row("uncached tile, p99", format(drawn.p99 / 1e3, "ms"), "goal ≤ 60 ms")
  row(
    "  cold (archive tiles decoded, names placed), p50 / p99",
    String(format: "%.1f / %.1f ms", fresh.p50 / 1e3, fresh.p99 / 1e3))
  var retina: [UInt64] = []
  for t in tiles { retina.append(try timed { try warm.tile(zoom: t.z, x: t.x, y: t.y, scale: 2, style: .dark) }.1) }
  row("uncached @2x (512 px) dark tile, p50", format(Percentiles(retina).p50 / 1e3, "ms"))

  try benchArchiveOpening()

  // Served from the tile folder by `geophoto serve --basemap`, one connection.
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
    print("  wrk is not installed (apt-get install wrk): the cached figure is skipped")
    return
  }
  let folder = workDirectory.appendingPathComponent("streets-serve")
  try? FileManager.default.removeItem(at: folder)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let server = try ServerProcess(
    ["--quiet", "--db", folder.appendingPathComponent("index.sqlite").path, "--basemap", archivePath], folder: folder)
  defer { server.stop() }
  let tile = server.base + "/tiles/16/37309/18969.png"
  _ = try entityTag(of: tile)  // drawn and kept
  let cached = try wrkFigures(tile, seconds: 4, connections: 1)
  row(
    "cached street tile over HTTP (one connection), p50", String(format: "%.3f ms", cached.p50),
    String(format: "p99 %.3f ms, %.0f req/s", cached.p99, cached.rate))
}

/// Opening a PMTiles archive of 1,000,000 addressed tiles (made once with Python's `pmtiles`
/// writer, leaf directories and all): the header, root directory and metadata are read, nothing
/// else.
func benchArchiveOpening() throws {
  let folder = workDirectory.appendingPathComponent("streets")
  let path = folder.appendingPathComponent("million.pmtiles").path
  let python = ".build/osm/work/pmtiles"
  if !FileManager.default.fileExists(atPath: path) {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let program = """
      import sys
      from pmtiles.tile import TileType, Compression
      from pmtiles.writer import Writer
      with open(sys.argv[1] + ".part", "wb") as f:
          w = Writer(f)
          for i in range(1000000):
              w.write_tile(i, i.to_bytes(8, "little") * (1 + i % 5))
          w.finalize({"tile_type": TileType.MVT, "tile_compression": Compression.NONE, "min_zoom": 0, "max_zoom": 10,
                      "min_lon_e7": -1800000000, "min_lat_e7": -850000000, "max_lon_e7": 1800000000,
                      "max_lat_e7": 850000000, "center_zoom": 0, "center_lon_e7": 0, "center_lat_e7": 0},
                     {"name": "a million tiles", "vector_layers": []})
      """
    let run = try ToolRun("/usr/bin/python3", ["-c", program, path], environment: ["PYTHONPATH": python])
    guard run.status == 0 else { throw BenchFailure("the million-tile archive: \(run.stderr)") }
    try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
  }
  var opens: [UInt64] = []
  var count = 0
  for _ in 0..<21 {
    let (archive, ns) = try timed { try PMTilesArchive(path: path) }
    opens.append(ns)
    count = archive.info.tileCount ?? 0
  }
  let open = Percentiles(opens)
  row(
    "open a PMTiles archive of \(count.formatted()) tiles, p50", format(open.p50 / 1e3, "ms"),
    "goal ≤ 50 ms; \(fileSize(URL(fileURLWithPath: path)) >> 20) MB, leaf directories read on demand")
}

struct BenchFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
