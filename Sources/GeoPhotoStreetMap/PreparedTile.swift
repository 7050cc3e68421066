import GeoPhotoCore
import GeoPhotoVectorTiles

/// A source tile made ready to draw at any zoom: its features' geometries decoded once, in
/// fractions of the tile (0 … 1 from edge to edge, whatever each layer's extent), grouped by
/// street role, each part with its bounding box; and its label candidates.
struct PreparedTile: Sendable {
  /// Parts of one role, flat: x and y pairs, where each part starts, and each part's box.
  struct Paths: Sendable {
    var points: [Double] = []
    var starts: [Int] = []
    var boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)] = []

    mutating func add(_ part: [TilePoint], extent: Double) {
      guard part.count >= 2 else { return }
      starts.append(points.count)
      var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
      for p in part {
        let x = p.x / extent
        let y = p.y / extent
        points.append(x)
        points.append(y)
        box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
      }
      boxes.append(box)
    }

    /// The points of part `i`, as a range of `points`.
    func part(_ i: Int) -> Range<Int> { starts[i]..<(i + 1 < starts.count ? starts[i + 1] : points.count) }
  }

  /// A name to place: a point's, or a line's (the line in tile fractions).
  struct LabelCandidate: Sendable {
    var role: LabelRole
    var rank: Double
    var text: String
    var x: Double
    var y: Double
    var line: [Double]
  }

  let address: TileAddress
  /// The column it is drawn at: its own, or one a world's width east or west.
  var column: Int
  var areas: [StreetRole: Paths] = [:]
  var lines: [StreetRole: Paths] = [:]
  var labels: [LabelCandidate] = []

  /// The largest number of vertices drawn from one tile: a hostile tile stops there.
  static let maximumVertices = 500_000
  /// The most names one tile offers, and the longest name drawn (a real tile has hundreds of
  /// names of a few words).
  static let maximumLabels = 5_000
  static let maximumNameLength = 200

  init(_ tile: VectorTile, at address: TileAddress, table: SchemaTable) {
    self.address = address
    column = address.x
    var vertices = 0
    for layer in tile.layers {
      let extent = Double(layer.extent)
      for feature in layer.features {
        let properties = SchemaTable.Properties(layer: layer, feature: feature)
        let role = table.role(layer: layer.name, properties)
        let label = labels.count < Self.maximumLabels ? table.label(layer: layer.name, properties) : nil
        let name = label == nil ? nil : properties.name.flatMap { $0.count <= Self.maximumNameLength ? $0 : nil }
        guard role != nil || name != nil, let geometry = TileGeometry(feature, in: tile) else { continue }
        vertices += geometry.parts.reduce(0) { $0 + $1.count }
        guard vertices <= Self.maximumVertices else { return }
        if let role {
          for part in geometry.parts {
            if role.isArea && feature.type == .polygon {
              areas[role, default: Paths()].add(part, extent: extent)
            } else if !role.isArea && feature.type == .line {
              lines[role, default: Paths()].add(part, extent: extent)
            }
          }
        }
        if let label, let name {
          switch feature.type {
          case .point:
            for p in geometry.parts.joined() {
              labels.append(
                LabelCandidate(
                  role: label.role, rank: label.rank, text: name, x: p.x / extent, y: p.y / extent, line: []))
            }
          case .line where label.role.followsLine:
            for part in geometry.parts {
              labels.append(
                LabelCandidate(
                  role: label.role, rank: label.rank, text: name, x: part[0].x / extent, y: part[0].y / extent,
                  line: part.flatMap { [$0.x / extent, $0.y / extent] }))
            }
          default: break
          }
        }
      }
    }
  }
}
