/// Protocol buffers' wire format, written: the little of it vector tiles and PMTiles
/// directories use, for tests that build tiles of their own (a schema no archive here has, a
/// damaged tile).
public enum ProtobufWriter {
  public static func varint(_ value: UInt64, into bytes: inout [UInt8]) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(v & 0x7F) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  public static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

  /// A length-delimited field.
  public static func field(_ number: UInt64, _ payload: [UInt8], into bytes: inout [UInt8]) {
    varint(number << 3 | 2, into: &bytes)
    varint(UInt64(payload.count), into: &bytes)
    bytes += payload
  }

  /// A varint field.
  public static func field(_ number: UInt64, varint value: UInt64, into bytes: inout [UInt8]) {
    varint(number << 3, into: &bytes)
    varint(value, into: &bytes)
  }
}

/// A Mapbox Vector Tile built feature by feature: layers of points, lines and polygons in tile
/// units, with string and number tags.
public struct VectorTileBuilder {
  public enum Value: Hashable {
    case string(String)
    case number(Double)
  }

  public enum Shape {
    case point(x: Int, y: Int)
    case line([(x: Int, y: Int)])
    /// Rings, each without its closing vertex.
    case polygon([[(x: Int, y: Int)]])
  }

  struct Layer {
    var name: String
    var extent: Int
    var keys: [String] = []
    var values: [Value] = []
    var features: [[UInt8]] = []
  }

  private var layers: [Layer] = []

  public init() {}

  /// Adds a feature to the layer `layer` (made on first use, with `extent`).
  public mutating func add(_ shape: Shape, to layer: String, tags: [String: Value] = [:], extent: Int = 4_096) {
    let index = layers.firstIndex { $0.name == layer } ?? layers.count
    if index == layers.count { layers.append(Layer(name: layer, extent: extent)) }
    var packedTags: [UInt8] = []
    for (key, value) in tags.sorted(by: { $0.key < $1.key }) {
      let k = layers[index].keys.firstIndex(of: key) ?? layers[index].keys.count
      if k == layers[index].keys.count { layers[index].keys.append(key) }
      let v = layers[index].values.firstIndex(of: value) ?? layers[index].values.count
      if v == layers[index].values.count { layers[index].values.append(value) }
      ProtobufWriter.varint(UInt64(k), into: &packedTags)
      ProtobufWriter.varint(UInt64(v), into: &packedTags)
    }
    var commands: [UInt8] = []
    var cursor = (x: 0, y: 0)
    func command(_ id: UInt64, _ count: Int) { ProtobufWriter.varint(UInt64(count) << 3 | id, into: &commands) }
    func move(to p: (x: Int, y: Int)) {
      ProtobufWriter.varint(ProtobufWriter.zigzag(Int64(p.x - cursor.x)), into: &commands)
      ProtobufWriter.varint(ProtobufWriter.zigzag(Int64(p.y - cursor.y)), into: &commands)
      cursor = p
    }
    let type: UInt64
    switch shape {
    case .point(let x, let y):
      type = 1
      command(1, 1)
      move(to: (x, y))
    case .line(let points):
      type = 2
      command(1, 1)
      move(to: points[0])
      command(2, points.count - 1)
      for p in points.dropFirst() { move(to: p) }
    case .polygon(let rings):
      type = 3
      for ring in rings {
        command(1, 1)
        move(to: ring[0])
        command(2, ring.count - 1)
        for p in ring.dropFirst() { move(to: p) }
        command(7, 1)
      }
    }
    var feature: [UInt8] = []
    if !packedTags.isEmpty { ProtobufWriter.field(2, packedTags, into: &feature) }
    ProtobufWriter.field(3, varint: type, into: &feature)
    ProtobufWriter.field(4, commands, into: &feature)
    layers[index].features.append(feature)
  }

  /// The tile's bytes (not compressed).
  public var bytes: [UInt8] {
    var tile: [UInt8] = []
    for layer in layers {
      var bytes: [UInt8] = []
      ProtobufWriter.field(15, varint: 2, into: &bytes)
      ProtobufWriter.field(1, Array(layer.name.utf8), into: &bytes)
      for feature in layer.features { ProtobufWriter.field(2, feature, into: &bytes) }
      for key in layer.keys { ProtobufWriter.field(3, Array(key.utf8), into: &bytes) }
      for value in layer.values {
        var v: [UInt8] = []
        switch value {
        case .string(let s): ProtobufWriter.field(1, Array(s.utf8), into: &v)
        case .number(let n):
          ProtobufWriter.varint(3 << 3 | 1, into: &v)
          var bits = n.bitPattern
          for _ in 0..<8 {
            v.append(UInt8(bits & 0xFF))
            bits >>= 8
          }
        }
        ProtobufWriter.field(4, v, into: &bytes)
      }
      ProtobufWriter.field(5, varint: UInt64(layer.extent), into: &bytes)
      ProtobufWriter.field(3, bytes, into: &tile)
    }
    return tile
  }
}
