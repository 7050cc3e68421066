import Foundation
import GeoPhotoBasemap
import GeoPhotoFixtures
import GeoPhotoSnapshot
import GeoPhotoStreetMap
import GeoPhotoVectorTiles

/// The OpenStreetMap archives of central Helsinki that `Scripts/osm-test-archives.sh` builds,
/// and the shipped Natural Earth basemap.
enum Helsinki {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/osm", isDirectory: true)
  static let mbtiles = folder.appendingPathComponent("helsinki.mbtiles").path
  static let pmtiles = folder.appendingPathComponent("helsinki.pmtiles").path
  static let artifacts = folder.deletingLastPathComponent().appendingPathComponent("test-artifacts/street-map")

  static var areBuilt: Bool {
    FileManager.default.fileExists(atPath: mbtiles) && FileManager.default.fileExists(atPath: pmtiles)
      && Basemap.shippedURL != nil
  }

  static func renderer(_ path: String = pmtiles) throws -> MapTileRenderer {
    let archive: any TileArchive =
      path.hasSuffix(".pmtiles") ? try PMTilesArchive(path: path) : try MBTilesArchive(path: path)
    let basemap = try Basemap.shippedURL.map { BasemapRenderer(basemap: try Basemap(contentsOf: $0)) }
    return MapTileRenderer(basemap: basemap, streets: StreetMap(archives: [archive]))
  }

  /// Keeps a rendered image for a person to look at.
  static func keep(_ png: [UInt8], _ name: String) {
    try? FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
    try? Data(png).write(to: artifacts.appendingPathComponent(name))
  }

  /// The pixel of world pixel `x`, `y` at zoom `z`, for a position.
  static func worldPixel(latitude: Double, longitude: Double, zoom: Int) -> (x: Double, y: Double) {
    let n = 256 * pow(2, Double(zoom))
    let l = latitude * .pi / 180
    return ((longitude + 180) / 360 * n, (1 - log(tan(l) + 1 / cos(l)) / .pi) / 2 * n)
  }
}

extension Helsinki {
  /// The cleaned extract tilemaker read.
  static let extract = folder.appendingPathComponent("work/helsinki.osm.pbf").path

  /// Points OpenStreetMap itself gives, read with pyosmium (not through the archives): for the
  /// ways with `tag` in `values`, the midpoints of their segments of at least `minimum` metres
  /// (`segments`), or a point inside their polygon well away from its edge (`inside`).
  static func osmPoints(tag: String, values: [String], mode: String, minimum: Double = 30) throws -> [(
    latitude: Double, longitude: Double, value: String
  )] {
    let program = """
      import math, sys, osmium
      tag, values, mode, minimum = sys.argv[2], set(sys.argv[3].split(",")), sys.argv[4], float(sys.argv[5])
      class H(osmium.SimpleHandler):
          def way(self, w):
              v = w.tags.get(tag)
              if v not in values: return
              pts = [(n.lat, n.lon) for n in w.nodes if n.location.valid()]
              if mode == "segments":
                  for (a, b), (c, d) in zip(pts, pts[1:]):
                      if math.hypot((c - a) * 111320, (d - b) * 55500) >= minimum:
                          print((a + c) / 2, (b + d) / 2, v)
              elif len(pts) >= 4 and pts[0] == pts[-1]:
                  # The centre of the ring's box, kept when it is inside and far from every edge.
                  lat = (min(p[0] for p in pts) + max(p[0] for p in pts)) / 2
                  lon = (min(p[1] for p in pts) + max(p[1] for p in pts)) / 2
                  inside = False
                  for (a, b), (c, d) in zip(pts, pts[1:]):
                      if (a > lat) != (c > lat) and lon < (d - b) * (lat - a) / (c - a) + b: inside = not inside
                  def dist(a, b, c, d):
                      ax, ay, bx, by = (b - lon) * 55500, (a - lat) * 111320, (d - lon) * 55500, (c - lat) * 111320
                      dx, dy = bx - ax, by - ay
                      t = max(0, min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy or 1)))
                      return math.hypot(ax + t * dx, ay + t * dy)
                  if inside and min(dist(a, b, c, d) for (a, b), (c, d) in zip(pts, pts[1:])) >= minimum:
                      print(lat, lon, v)
      H().apply_file(sys.argv[1], locations=True)
      """
    let run = try ToolRun(
      "/usr/bin/python3", ["-c", program, extract, tag, values.joined(separator: ","), mode, String(minimum)])
    guard run.status == 0 else { throw OSMError(description: run.stderr) }
    return run.stdout.split(separator: "\n").compactMap { line in
      let p = line.split(separator: " ")
      guard p.count == 3, let lat = Double(p[0]), let lon = Double(p[1]) else { return nil }
      return (lat, lon, String(p[2]))
    }
  }

  struct OSMError: Error, CustomStringConvertible {
    var description: String
  }
}

/// A tile's pixels, read back from its PNG.
func pixels(_ png: [UInt8]) throws -> PNGImage {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("tile-\(UUID().uuidString).png")
  defer { try? FileManager.default.removeItem(at: file) }
  try Data(png).write(to: file)
  return try PNGImage(contentsOf: file)
}

/// Whether a pixel is within `tolerance` of the colour `hex` in each channel.
func near(_ c: (r: Int, g: Int, b: Int)?, _ hex: Int, tolerance: Int = 6) -> Bool {
  guard let c else { return false }
  return abs(c.r - (hex >> 16 & 0xFF)) <= tolerance && abs(c.g - (hex >> 8 & 0xFF)) <= tolerance
    && abs(c.b - (hex & 0xFF)) <= tolerance
}
