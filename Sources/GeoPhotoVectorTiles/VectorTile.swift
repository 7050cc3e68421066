public import GeoPhotoCore

/// A Mapbox Vector Tile (2.1): named layers of features, each with tags into its layer's key and
/// value tables and a geometry kept as the range of its command stream (decoded when drawn,
/// `TileGeometry`).
///
/// Framing that is wrong (a length past the end, a wire type that does not fit the field, a
/// layer without a name, a string that is not UTF-8) refuses the whole tile. A feature that is
/// wrong on its own (tags not in pairs or pointing past the tables, an unknown geometry type) is
/// dropped and counted in `dropped`; a layer of another version than 1 or 2 is skipped, and a
/// layer named twice keeps its first.
public struct VectorTile: Sendable {
  /// The decompressed tile.
  public let bytes: [UInt8]
  public private(set) var layers: [Layer] = []
  /// Features (and layers) dropped for damage of their own.
  public private(set) var dropped = 0

  public enum GeometryType: UInt8, Sendable {
    case unknown = 0
    case point = 1
    case line = 2
    case polygon = 3
  }

  /// A tag's value. Numbers of every encoding (float, double, int, uint, sint) are numbers.
  public enum Value: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)

    public var string: String? {
      if case .string(let s) = self { return s }
      return nil
    }

    /// The value as a finite number (nil for text that is none, and for NaN and infinities).
    public var number: Double? {
      let n: Double? =
        switch self {
        case .number(let n): n
        case .bool(let b): b ? 1 : 0
        case .string(let s): s.utf8.count <= 64 ? Double(s) : nil
        }
      return n.flatMap { $0.isFinite ? $0 : nil }
    }
  }

  public struct Feature: Sendable {
    public var id: UInt64?
    public var type: GeometryType
    /// Key and value indexes, in pairs, each checked against the layer's tables.
    public var tags: [UInt32]
    /// The command stream's bytes in the tile.
    public var geometry: Range<Int>
  }

  public struct Layer: Sendable {
    public var name: String
    public var version: Int
    /// Units from one tile edge to the other.
    public var extent: Int
    public var keys: [String]
    public var values: [Value]
    public var features: [Feature]
    /// Each key's index in `keys`.
    private var keyIndex: [String: UInt32]

    init(name: String, version: Int, extent: Int, keys: [String], values: [Value], features: [Feature]) {
      self.name = name
      self.version = version
      self.extent = extent
      self.keys = keys
      self.values = values
      self.features = features
      var index: [String: UInt32] = [:]
      for (k, key) in keys.enumerated() where index[key] == nil { index[key] = UInt32(k) }
      keyIndex = index
    }

    /// The index of `key` in the key table, to look tags up by (`value(_:of:)`).
    public func keyID(_ key: String) -> UInt32? { keyIndex[key] }

    /// The feature's value for the key whose index is `key`.
    public func value(_ key: UInt32?, of feature: Feature) -> Value? {
      guard let key else { return nil }
      var i = 0
      while i + 1 < feature.tags.count {
        if feature.tags[i] == key { return values[Int(feature.tags[i + 1])] }
        i += 2
      }
      return nil
    }

    /// The feature's value for `key`.
    public func value(_ key: String, of feature: Feature) -> Value? { value(keyID(key), of: feature) }
  }

  /// The largest extent accepted: producers use 4,096 or 8,192.
  public static let maximumExtent = 1 << 16

  /// Decodes the (decompressed) tile `bytes`; `label` names it in errors ("tile 14/9327/4742").
  public init(decoding bytes: [UInt8], label: String) throws(DataDamage) {
    self.bytes = bytes
    var reader = ProtobufReader(bytes, label: label)
    var names: Set<String> = []
    while !reader.isAtEnd {
      let (number, type) = try reader.field()
      guard number == 3 else {
        try reader.skip(type)
        continue
      }
      guard type == .lengthDelimited else { throw DataDamage("\(label): a layer that is not a message") }
      let range = try reader.lengthDelimited()
      guard let layer = try Self.layer(bytes, range, label: label, dropped: &dropped) else { continue }
      guard names.insert(layer.name).inserted else {
        dropped += 1
        continue
      }
      layers.append(layer)
    }
  }

  /// The layer named `name`.
  public func layer(named name: String) -> Layer? { layers.first { $0.name == name } }

  private static func layer(_ bytes: [UInt8], _ range: Range<Int>, label: String, dropped: inout Int)
    throws(DataDamage) -> Layer?
  {
    var reader = ProtobufReader(bytes, range: range, label: label)
    var name: String?
    var version = 1
    var extent = 4_096
    var keys: [String] = []
    var values: [Value] = []
    var features: [Range<Int>] = []
    while !reader.isAtEnd {
      let (number, type) = try reader.field()
      switch (number, type) {
      case (1, .lengthDelimited): name = try reader.string()
      case (2, .lengthDelimited): features.append(try reader.lengthDelimited())
      case (3, .lengthDelimited): keys.append(try reader.string())
      case (4, .lengthDelimited): values.append(try value(bytes, try reader.lengthDelimited(), label: label))
      case (5, .varint):
        let e = try reader.varint()
        guard e > 0, e <= UInt64(maximumExtent) else { throw DataDamage("\(label): a layer's extent is \(e)") }
        extent = Int(e)
      case (15, .varint):
        let v = try reader.varint()
        version = v <= 255 ? Int(v) : 255
      case (1, _), (2, _), (3, _), (4, _), (5, _), (15, _):
        throw DataDamage("\(label): layer field \(number) has the wrong wire type")
      default: try reader.skip(type)
      }
    }
    guard let name else { throw DataDamage("\(label): a layer without a name") }
    guard version == 1 || version == 2 else {
      dropped += 1
      return nil
    }
    var decoded: [Feature] = []
    decoded.reserveCapacity(features.count)
    for range in features {
      if let feature = try feature(bytes, range, keys: keys.count, values: values.count, label: label) {
        decoded.append(feature)
      } else {
        dropped += 1
      }
    }
    return Layer(name: name, version: version, extent: extent, keys: keys, values: values, features: decoded)
  }

  /// A feature; nil when it is damaged on its own.
  private static func feature(_ bytes: [UInt8], _ range: Range<Int>, keys: Int, values: Int, label: String)
    throws(DataDamage) -> Feature?
  {
    var reader = ProtobufReader(bytes, range: range, label: label)
    var feature = Feature(id: nil, type: .unknown, tags: [], geometry: 0..<0)
    var typeCode: UInt64 = 0
    while !reader.isAtEnd {
      let (number, type) = try reader.field()
      switch (number, type) {
      case (1, .varint): feature.id = try reader.varint()
      case (2, .lengthDelimited):
        var packed = ProtobufReader(bytes, range: try reader.lengthDelimited(), label: label)
        while !packed.isAtEnd {
          let tag = try packed.varint()
          guard tag <= UInt64(UInt32.max) else { return nil }
          feature.tags.append(UInt32(tag))
        }
      case (2, .varint):
        let tag = try reader.varint()
        guard tag <= UInt64(UInt32.max) else { return nil }
        feature.tags.append(UInt32(tag))
      case (3, .varint): typeCode = try reader.varint()
      case (4, .lengthDelimited): feature.geometry = try reader.lengthDelimited()
      case (1, _), (3, _), (4, _): throw DataDamage("\(label): feature field \(number) has the wrong wire type")
      default: try reader.skip(type)
      }
    }
    guard typeCode <= 3, let type = GeometryType(rawValue: UInt8(typeCode)), type != .unknown else { return nil }
    feature.type = type
    guard feature.tags.count % 2 == 0 else { return nil }
    var i = 0
    while i < feature.tags.count {
      guard feature.tags[i] < keys, feature.tags[i + 1] < values else { return nil }
      i += 2
    }
    return feature
  }

  /// A `Value` message: exactly one of its seven fields.
  private static func value(_ bytes: [UInt8], _ range: Range<Int>, label: String) throws(DataDamage) -> Value {
    var reader = ProtobufReader(bytes, range: range, label: label)
    var found: Value?
    while !reader.isAtEnd {
      let (number, type) = try reader.field()
      let value: Value
      switch (number, type) {
      case (1, .lengthDelimited): value = .string(try reader.string())
      case (2, .fixed32): value = .number(Double(Float(bitPattern: try reader.fixed32())))
      case (3, .fixed64): value = .number(Double(bitPattern: try reader.fixed64()))
      case (4, .varint): value = .number(Double(Int64(bitPattern: try reader.varint())))
      case (5, .varint): value = .number(Double(try reader.varint()))
      case (6, .varint): value = .number(Double(ProtobufReader.zigzag(try reader.varint())))
      case (7, .varint): value = .bool(try reader.varint() != 0)
      default: throw DataDamage("\(label): a tag value with field \(number), wire type \(type.rawValue)")
      }
      guard found == nil else { throw DataDamage("\(label): a tag value with two values") }
      found = value
    }
    guard let found else { throw DataDamage("\(label): a tag value without a value") }
    return found
  }
}
