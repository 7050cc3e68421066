import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoSnapshot

/// The shipped basemap (nil when it is not built: the tests that need it say they skipped).
let shippedBasemap: Basemap? = Basemap.shippedURL.flatMap { try? Basemap(contentsOf: $0) }

/// Natural Earth's source layers, read by the tests themselves.
let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("../shared/data/basemap").standardized
let hasSources = FileManager.default.fileExists(atPath: sourceFolder.appendingPathComponent("ne50_land.geojson").path)

/// A tile's pixels, read back from its PNG.
func pixels(_ png: [UInt8]) throws -> PNGImage {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("tile-\(UUID().uuidString).png")
  defer { try? FileManager.default.removeItem(at: file) }
  try Data(png).write(to: file)
  return try PNGImage(contentsOf: file)
}

/// Land or water as the style colours them (light style), or nil for anything else (labels,
/// lines, borders).
enum Surface: Equatable {
  case land, water

  init?(_ c: (r: Int, g: Int, b: Int)) {
    func near(_ hex: Int) -> Bool {
      abs(c.r - (hex >> 16 & 0xFF)) <= 3 && abs(c.g - (hex >> 8 & 0xFF)) <= 3 && abs(c.b - (hex & 0xFF)) <= 3
    }
    if near(0xF2EFE9) || near(0xE4DDD3) || near(0xFDFEFF) {
      self = .land
    } else if near(0xAAD0E2) {
      self = .water
    } else {
      return nil
    }
  }
}

/// Natural Earth's polygons straight from the GeoJSON, in degrees, with an even-odd point test:
/// the reference the drawn tiles are checked against.
struct SourcePolygons {
  var rings: [[(x: Double, y: Double)]] = []
  var boxes: [(west: Double, south: Double, east: Double, north: Double)] = []

  init(_ name: String) throws {
    let data = try Data(contentsOf: sourceFolder.appendingPathComponent(name + ".geojson"))
    let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    for feature in root["features"] as? [[String: Any]] ?? [] {
      let geometry = feature["geometry"] as? [String: Any] ?? [:]
      var polygons: [[[[Double]]]] = []
      switch geometry["type"] as? String {
      case "Polygon": polygons = [geometry["coordinates"] as? [[[Double]]] ?? []]
      case "MultiPolygon": polygons = geometry["coordinates"] as? [[[[Double]]]] ?? []
      default: continue
      }
      for ring in polygons.joined() {
        let points = ring.map { (x: $0[0], y: $0[1]) }
        rings.append(points)
        boxes.append(
          (points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!))
      }
    }
  }

  func contains(_ c: Coordinate) -> Bool {
    var inside = false
    for (ring, box) in zip(rings, boxes)
    where c.longitude >= box.west && c.longitude <= box.east && c.latitude >= box.south && c.latitude <= box.north {
      var j = ring.count - 1
      for i in ring.indices {
        let (a, b) = (ring[i], ring[j])
        if (a.y > c.latitude) != (b.y > c.latitude)
          && c.longitude < (b.x - a.x) * (c.latitude - a.y) / (b.y - a.y) + a.x
        {
          inside.toggle()
        }
        j = i
      }
    }
    return inside
  }
}
