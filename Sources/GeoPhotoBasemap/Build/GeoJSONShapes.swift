import Foundation
import GeoPhotoCore

/// The shapes of one Natural Earth GeoJSON layer, projected to Web Mercator world units:
/// rings of its polygons or its lines, with each feature's properties.
struct GeoJSONShapes {
  /// Rings (areas) or lines, as x, y pairs in world units.
  var paths: [[SIMD2<Double>]] = []
  /// Point features with their properties (label layers).
  var points: [(position: SIMD2<Double>, properties: [String: Any])] = []

  struct ReadError: Error, CustomStringConvertible {
    var description: String
  }

  /// Reads `url`: polygons and multipolygons as rings, line strings as lines, points as points;
  /// other geometry (stray points in an area layer) is left out.
  init(contentsOf url: URL, areas: Bool) throws {
    let data = try Data(contentsOf: url)
    guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let features = root["features"] as? [[String: Any]]
    else { throw ReadError(description: "\(url.path): not a GeoJSON FeatureCollection") }
    for feature in features {
      guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String else {
        continue
      }
      let coordinates = geometry["coordinates"]
      switch (type, areas) {
      case ("Polygon", true):
        for ring in coordinates as? [[[Double]]] ?? [] { paths.append(Self.project(ring)) }
      case ("MultiPolygon", true):
        for polygon in coordinates as? [[[[Double]]]] ?? [] {
          for ring in polygon { paths.append(Self.project(ring)) }
        }
      case ("LineString", false):
        paths.append(Self.project(coordinates as? [[Double]] ?? []))
      case ("MultiLineString", false):
        for line in coordinates as? [[[Double]]] ?? [] { paths.append(Self.project(line)) }
      case ("Point", _):
        if let p = coordinates as? [Double], p.count >= 2 {
          points.append((Self.project(p), feature["properties"] as? [String: Any] ?? [:]))
        }
      default: continue
      }
    }
    // Lines along the antimeridian are where a shape was cut, not a coast: left out.
    if !areas { paths = paths.flatMap(Self.splitAtAntimeridian) }
    paths.removeAll { $0.count < 2 }
  }

  static func splitAtAntimeridian(_ line: [SIMD2<Double>]) -> [[SIMD2<Double>]] {
    var pieces: [[SIMD2<Double>]] = [[]]
    for (i, p) in line.enumerated() {
      if i > 0, p.x == line[i - 1].x, p.x == 0 || p.x == 1 { pieces.append([]) }
      pieces[pieces.count - 1].append(p)
    }
    return pieces
  }

  static func project(_ positions: [[Double]]) -> [SIMD2<Double>] {
    positions.compactMap { $0.count >= 2 ? project($0) : nil }
  }

  /// How close to ±180° a position is moved onto it. The physical layers are quantised to
  /// 1/120°, so a shape cut at the antimeridian may end one step short of it on one side:
  /// moved onto it, the two sides meet without a seam.
  static let antimeridianSnap = 1.0 / 119

  /// [longitude, latitude] to world units (latitude clamped to the Mercator limit).
  static func project(_ p: [Double]) -> SIMD2<Double> {
    let unit = WebMercator(zoom: 0)
    let longitude = p[0] >= 180 - antimeridianSnap ? 180 : p[0] <= -180 + antimeridianSnap ? -180 : p[0]
    let point = unit.point(Coordinate(latitude: p[1], longitude: longitude))
    return SIMD2(point.x / 256, point.y / 256)
  }
}
