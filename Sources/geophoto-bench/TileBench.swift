import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoPlaces

// MARK: - Basemap tiles

/// geophoto's own basemap tiles: drawn on one core (shapes, labels and PNG encoding) at zooms
/// 0–10 where people live, then served from the tile folder through `geophoto serve`.
func benchTiles() throws {
  print("Basemap tiles: 256 px, zooms 0–10, one core")
  guard let url = Basemap.shippedURL, let gazetteerURL = Gazetteer.shippedURL else {
    print("  the basemap or gazetteer is not built (make basemap): skipped")
    return
  }
  let (basemap, loaded) = try timed { try Basemap(contentsOf: url) }
  let renderer = BasemapRenderer(basemap: basemap)
  // Tiles over populated places (land, coasts and many labels: the costly ones), every zoom
  // as often.
  let gazetteer = try Gazetteer(contentsOf: gazetteerURL)
  var rng = SeededGenerator(seed: 10)
  let towns = (0..<gazetteer.count).filter { gazetteer.population($0) >= 1_000 }
  var tiles: [(z: Int, x: Int, y: Int)] = []
  for i in 0..<660 {
    let zoom = i % 11
    let c = gazetteer.coordinate(towns[Int.random(in: 0..<towns.count, using: &rng)])
    let p = WebMercator(zoom: zoom).point(c)
    tiles.append((zoom, Int(p.x) / 256, Int(p.y) / 256))
  }
  _ = try renderer.tile(zoom: 5, x: 28, y: 12, scale: 1, style: .light)  // fonts loaded
  var samples: [UInt64] = []
  var byZoom = [[UInt64]](repeating: [], count: 11)
  var bytes = 0
  for t in tiles {
    let (png, ns) = try timed { try renderer.tile(zoom: t.z, x: t.x, y: t.y, scale: 1, style: .light) }
    samples.append(ns)
    byZoom[t.z].append(ns)
    bytes += png.count
  }
  let all = Percentiles(samples)
  row(
    "basemap mapped and checked", format(milliseconds(loaded), "ms"), "\(basemap.identity) (\(url.lastPathComponent))")
  row(
    "uncached tile, drawn and PNG-encoded, p50", format(all.p50 / 1e3, "ms"),
    "goal ≤ 10 ms; \(bytes / tiles.count) bytes a tile")
  row("uncached tile, p99", format(all.p99 / 1e3, "ms"), "goal ≤ 40 ms")
  let medians = byZoom.map { $0.isEmpty ? 0 : Percentiles($0).p50 }
  if let slowest = medians.indices.max(by: { medians[$0] < medians[$1] }) {
    row(
      "  slowest zoom's p50", format(medians[slowest] / 1e3, "ms"),
      "zoom \(slowest); zoom 0: \(format(medians[0] / 1e3, "ms")), zoom 10: \(format(medians[10] / 1e3, "ms"))")
  }
  var retina: [UInt64] = []
  for t in tiles.prefix(110) {
    retina.append(timed { try? renderer.tile(zoom: t.z, x: t.x, y: t.y, scale: 2, style: .dark) }.1)
  }
  row("uncached @2x (512 px) dark tile, p50", format(Percentiles(retina).p50 / 1e3, "ms"))

  // Served from the tile folder by `geophoto serve`, one connection: the whole request.
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
    print("  wrk is not installed (apt-get install wrk): the cached figure is skipped")
    return
  }
  let folder = workDirectory.appendingPathComponent("tiles-serve")
  try? FileManager.default.removeItem(at: folder)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let server = try ServerProcess(
    ["--quiet", "--db", folder.appendingPathComponent("index.sqlite").path], folder: folder)
  defer { server.stop() }
  let base = server.base
  let tile = base + "/tiles/8/227/100.png"
  let etag = try entityTag(of: tile)
  let cached = try wrkFigures(tile, seconds: 4, connections: 1)
  let revalidated = try wrkFigures(tile, header: "If-None-Match: \(etag)", seconds: 4, connections: 1)
  row(
    "cached tile over HTTP (one connection), p50", String(format: "%.3f ms", cached.p50),
    String(format: "goal ≤ 1 ms; p99 %.3f ms, %.0f req/s", cached.p99, cached.rate))
  row(
    "  304 revalidation, p50", String(format: "%.3f ms", revalidated.p50),
    String(format: "p99 %.3f ms, %.0f req/s", revalidated.p99, revalidated.rate))
}
