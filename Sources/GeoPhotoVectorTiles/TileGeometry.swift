public import GeoPhotoCore

/// A point in a layer's tile units (0 … extent from edge to edge; beyond is the buffer).
public struct TilePoint: Equatable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A feature's geometry, decoded from its command stream: points (one part), lines (a part
/// each) or polygon rings (a part each, exteriors and their holes, the closing vertex not
/// repeated).
///
/// The rules of the 2.1 specification, checked: the stream starts with a MoveTo, counts never
/// exceed the integers left, ClosePath has a count of 1 and appears only in polygons, and the
/// cursor is kept in 64 bits. A repeated vertex and a ring of zero area are dropped, and anything
/// else wrong makes the feature's geometry nil (the feature is not drawn). Rings are told apart
/// by their area's sign in y-down tile units: positive is an exterior (`isExterior`), as version
/// 2 promises; drawing all of a feature's rings with the even-odd rule does not depend on it
/// (version 1 promised nothing).
public struct TileGeometry: Sendable {
  public var type: VectorTile.GeometryType
  public var parts: [[TilePoint]]
  /// For polygons: whether each ring is an exterior.
  public var isExterior: [Bool]

  /// Coordinates further than this many units from the tile's corner make a feature damaged
  /// rather than merely outside: 256 extents of 4,096, far beyond any producer's buffer, and
  /// within what cairo's fixed-point coordinates hold at the deepest overzoom.
  static let reach: Int64 = 1 << 20

  /// Decodes the feature's geometry from `tile`; nil when it is damaged.
  public init?(_ feature: VectorTile.Feature, in tile: VectorTile) {
    var reader = ProtobufReader(tile.bytes, range: feature.geometry, label: "geometry")
    type = feature.type
    parts = []
    isExterior = []
    var x: Int64 = 0
    var y: Int64 = 0
    var current: [TilePoint] = []
    var first = true
    func parameter() throws(DataDamage) -> Int64 {
      let value = try reader.varint()
      guard value <= UInt64(UInt32.max) else { throw DataDamage("geometry: a parameter beyond 32 bits") }
      return ProtobufReader.zigzag(value)
    }
    do {
      while !reader.isAtEnd {
        let command = try reader.varint()
        guard command <= UInt64(UInt32.max) else { return nil }
        let id = command & 7
        let count = Int(command >> 3)
        // Each pair of parameters takes at least two bytes.
        guard id == 7 || count <= (reader.end - reader.offset) / 2 else { return nil }
        if first {
          guard id == 1 else { return nil }
          first = false
        }
        switch id {
        case 1, 2:
          guard count >= 1 else { return nil }
          if id == 1 {
            guard type == .point || count == 1 else { return nil }
            if type != .point, !current.isEmpty { try finish(&current) }
          } else {
            guard type != .point, !current.isEmpty else { return nil }
          }
          for _ in 0..<count {
            let dx = try parameter()
            let dy = try parameter()
            x += dx
            y += dy
            guard abs(x) < Self.reach, abs(y) < Self.reach else { return nil }
            let point = TilePoint(x: Double(x), y: Double(y))
            // LineTo(0, 0) is forbidden: the vertex is dropped.
            if id == 2 && dx == 0 && dy == 0 { continue }
            current.append(point)
          }
        case 7:
          guard count == 1, type == .polygon, !current.isEmpty else { return nil }
          try finish(&current)
        default:
          return nil
        }
      }
      if !current.isEmpty { try finish(&current) }
    } catch {
      return nil
    }
    if parts.isEmpty { return nil }
  }

  /// Ends the part being read: a point set, a line of two or more vertices, or a ring of three
  /// or more with a non-zero area (holes only after an exterior).
  private mutating func finish(_ current: inout [TilePoint]) throws(DataDamage) {
    defer { current.removeAll(keepingCapacity: true) }
    switch type {
    case .point:
      parts.append(current)
    case .line:
      guard current.count >= 2 else { throw DataDamage("geometry: a line of one vertex") }
      parts.append(current)
    case .polygon:
      guard current.count >= 3 else { return }
      let area = Self.signedArea(current)
      guard area != 0 else { return }
      parts.append(current)
      isExterior.append(area > 0)
    case .unknown:
      throw DataDamage("geometry: unknown type")
    }
  }

  /// Twice the ring's area in y-down units: positive for an exterior ring.
  public static func signedArea(_ ring: [TilePoint]) -> Double {
    var sum = 0.0
    var previous = ring[ring.count - 1]
    for point in ring {
      sum += previous.x * point.y - point.x * previous.y
      previous = point
    }
    return sum
  }
}
