import Foundation
import GeoPhotoCore

/// The metadata both archive kinds share, as MBTiles' `metadata` table and PMTiles' JSON state
/// it: `name`, `description`, `attribution`, `bounds` and `center` (as text or arrays), zooms,
/// and `vector_layers`, directly or inside the `json` text MBTiles keeps them in (which
/// `pmtiles-convert` copies as it is).
enum ArchiveMetadata {
  /// The largest metadata read (JSON): real ones are a few kB, with tile statistics some MB.
  static let maximumSize = 16 << 20

  /// `values` (name → value as parsed from JSON, or text) applied to `info`.
  static func apply(_ values: [String: Any], to info: inout ArchiveInfo) {
    func text(_ key: String) -> String? {
      switch values[key] {
      case let s as String: s
      case let n as NSNumber: n.stringValue
      default: nil
      }
    }
    func numbers(_ key: String) -> [Double]? {
      switch values[key] {
      case let s as String:
        let parts = s.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        return parts.allSatisfy { $0?.isFinite == true } ? parts.compactMap { $0 } : nil
      case let a as [Any]:
        let parts = a.map { ($0 as? NSNumber)?.doubleValue }
        return parts.allSatisfy { $0?.isFinite == true } ? parts.compactMap { $0 } : nil
      default: return nil
      }
    }
    for (key, value) in values {
      switch value {
      case let s as String: info.metadata[key] = s
      case let n as NSNumber: info.metadata[key] = n.stringValue
      default:
        if JSONSerialization.isValidJSONObject(value),
          let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        {
          info.metadata[key] = String(decoding: data, as: UTF8.self)
        }
      }
    }
    if let name = text("name"), !name.isEmpty { info.name = name }
    info.description = text("description")
    info.attribution = text("attribution").flatMap { $0.isEmpty ? nil : $0 }
    if let b = numbers("bounds"), b.count == 4 { info.bounds = bounds(b) }
    if let c = numbers("center"), c.count >= 2, abs(c[0]) <= 180, abs(c[1]) <= 90 {
      let zoom = c.count >= 3 ? Int(exactly: c[2].rounded()) ?? 0 : 0
      info.center = (c[0], c[1], max(0, min(TileAddress.maximumZoom, zoom)))
    }
    var layers = values["vector_layers"]
    if layers == nil, let json = text("json"), json.utf8.count <= maximumSize,
      let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    {
      layers = object["vector_layers"]
    }
    if let list = layers as? [[String: Any]] {
      info.vectorLayers = list.compactMap { entry in
        guard let id = entry["id"] as? String else { return nil }
        var fields: [String: String] = [:]
        for (name, kind) in entry["fields"] as? [String: Any] ?? [:] { fields[name] = kind as? String ?? "" }
        return ArchiveInfo.VectorLayer(
          id: id, fields: fields, minZoom: (entry["minzoom"] as? NSNumber)?.intValue,
          maxZoom: (entry["maxzoom"] as? NSNumber)?.intValue)
      }
    }
  }

  /// `[west, south, east, north]` as a box; nil for all zeros (unknown: tilemaker writes them
  /// when its input has no bounding box), an inverted box, or one out of range.
  static func bounds(_ b: [Double]) -> BoundingBox? {
    guard b.count == 4, !b.allSatisfy({ $0 == 0 }), b[0] < b[2], b[1] < b[3], b[0] >= -180, b[2] <= 180,
      b[1] >= -90, b[3] <= 90
    else { return nil }
    return BoundingBox(west: b[0], south: b[1], east: b[2], north: b[3])
  }

  /// The box the tiles `x` and `y` span (inclusive ranges) at `zoom`.
  static func bounds(zoom: Int, x: ClosedRange<Int>, y: ClosedRange<Int>) -> BoundingBox {
    let n = Double(1 << zoom)
    func longitude(_ x: Int) -> Double { Double(x) / n * 360 - 180 }
    func latitude(_ y: Int) -> Double { atan(sinh(Double.pi * (1 - 2 * Double(y) / n))) * 180 / Double.pi }
    return BoundingBox(
      west: longitude(x.lowerBound), south: latitude(y.upperBound + 1), east: longitude(x.upperBound + 1),
      north: latitude(y.lowerBound))
  }
}
