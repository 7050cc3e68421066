public import GeoPhotoCore

/// GeoJSON (RFC 7946) values: positions are [longitude, latitude] in degrees, to 1e-7.
public enum GeoJSON {
  /// A single position.
  public struct Point: JSONWritable, Sendable, Equatable {
    public var coordinate: Coordinate
    public init(_ coordinate: Coordinate) { self.coordinate = coordinate }

    public func write(to w: inout JSONWriter) {
      w.beginObject()
      w.key("type")
      w.string("Point")
      w.key("coordinates")
      GeoJSON.writePosition(coordinate, to: &w)
      w.endObject()
    }
  }

  /// A line through positions in order.
  public struct LineString: JSONWritable, Sendable, Equatable {
    public var coordinates: [Coordinate]
    public init(_ coordinates: [Coordinate]) { self.coordinates = coordinates }

    public func write(to w: inout JSONWriter) {
      w.beginObject()
      w.key("type")
      w.string("LineString")
      w.key("coordinates")
      w.beginArray()
      for c in coordinates { GeoJSON.writePosition(c, to: &w) }
      w.endArray()
      w.endObject()
    }
  }

  /// Lines through positions in order: a path cut where it crosses the antimeridian, so that
  /// no part's representation crosses it (RFC 7946 §3.1.9).
  public struct MultiLineString: JSONWritable, Sendable, Equatable {
    public var lines: [[Coordinate]]
    public init(lines: [[Coordinate]]) { self.lines = lines }

    /// `path` cut at the antimeridian: a step of more than 180° of longitude crosses it, and
    /// both parts get the point where the line (straight in degrees) meets ±180.
    public init(cuttingAtAntimeridian path: [Coordinate]) {
      var lines: [[Coordinate]] = []
      var line: [Coordinate] = []
      for c in path {
        if let p = line.last, abs(c.longitude - p.longitude) > 180 {
          // Eastward across +180 (p near 180, c near -180), or westward.
          let east = p.longitude > c.longitude
          let edge = east ? 180.0 : -180.0
          let unwrapped = c.longitude + (east ? 360 : -360)
          let t = unwrapped == p.longitude ? 0 : (edge - p.longitude) / (unwrapped - p.longitude)
          let latitude = p.latitude + t * (c.latitude - p.latitude)
          line.append(Coordinate(latitude: latitude, longitude: edge))
          lines.append(line)
          line = [Coordinate(latitude: latitude, longitude: -edge)]
        }
        line.append(c)
      }
      if !line.isEmpty { lines.append(line) }
      self.lines = lines
    }

    public func write(to w: inout JSONWriter) {
      w.beginObject()
      w.key("type")
      w.string("MultiLineString")
      w.key("coordinates")
      w.beginArray()
      for line in lines {
        w.beginArray()
        for c in line { GeoJSON.writePosition(c, to: &w) }
        w.endArray()
      }
      w.endArray()
      w.endObject()
    }
  }

  /// No geometry: a feature whose position is unknown (`"geometry": null`, RFC 7946 §3.2).
  public struct NoGeometry: JSONWritable, Sendable, Equatable {
    public init() {}
    public func write(to w: inout JSONWriter) { w.null() }
  }

  /// A geometry with properties; `id` and `bbox` when known.
  public struct Feature<Geometry: JSONWritable, Properties: JSONWritable>: JSONWritable {
    public var id: Int64?
    public var bbox: BoundingBox?
    public var geometry: Geometry
    public var properties: Properties

    public init(id: Int64? = nil, bbox: BoundingBox? = nil, geometry: Geometry, properties: Properties) {
      self.id = id
      self.bbox = bbox
      self.geometry = geometry
      self.properties = properties
    }

    public func write(to w: inout JSONWriter) {
      GeoJSON.writeFeature(id: id, bbox: bbox, geometry: geometry, to: &w) { properties.write(to: &$0) }
    }
  }

  /// A Feature whose properties `writeProperties` writes: the members of a value that need not
  /// be copied into a `Feature` first.
  public static func writeFeature(
    id: Int64?, bbox: BoundingBox? = nil, geometry: some JSONWritable, to w: inout JSONWriter,
    properties writeProperties: (inout JSONWriter) -> Void
  ) {
    w.beginObject()
    w.key("type")
    w.string("Feature")
    if let id {
      w.key("id")
      w.integer(id)
    }
    if let bbox {
      w.key("bbox")
      w.bbox(bbox)
    }
    w.member("geometry", geometry)
    w.key("properties")
    writeProperties(&w)
    w.endObject()
  }

  /// Features, and members of the document's own after them (`truncated`, `total`, …).
  public struct FeatureCollection<Member: JSONWritable>: JSONWritable {
    public var features: [Member]
    public var foreignMembers: JSONMembers

    public init(_ features: [Member], foreignMembers: JSONMembers = JSONMembers()) {
      self.features = features
      self.foreignMembers = foreignMembers
    }

    public func write(to w: inout JSONWriter) {
      GeoJSON.writeFeatureCollection(foreignMembers: foreignMembers, to: &w) { w in
        for feature in features { feature.write(to: &w) }
      }
    }
  }

  /// A FeatureCollection whose features `writeFeatures` writes, one value each.
  public static func writeFeatureCollection(
    foreignMembers: JSONMembers = JSONMembers(), to w: inout JSONWriter,
    features writeFeatures: (inout JSONWriter) -> Void
  ) {
    w.beginObject()
    w.key("type")
    w.string("FeatureCollection")
    w.key("features")
    w.beginArray()
    writeFeatures(&w)
    w.endArray()
    foreignMembers.writeMembers(to: &w)
    w.endObject()
  }

  /// `[longitude, latitude]`.
  static func writePosition(_ c: Coordinate, to w: inout JSONWriter) {
    w.beginArray()
    w.degrees(c.longitude)
    w.degrees(c.latitude)
    w.endArray()
  }
}

/// Object members written in order, for the few members a document adds of its own.
public struct JSONMembers: JSONWritable {
  public var members: [(String, JSONValue)]
  public init(_ members: [(String, JSONValue)] = []) { self.members = members }

  /// The members, inside an object the caller opened.
  public func writeMembers(to w: inout JSONWriter) {
    for (name, value) in members {
      w.key(named: name)
      w.value(value)
    }
  }

  /// The members as an object of their own.
  public func write(to w: inout JSONWriter) {
    w.beginObject()
    writeMembers(to: &w)
    w.endObject()
  }
}

/// One of two kinds of feature in one collection (a route line and its waypoints).
public enum EitherFeature<First: JSONWritable, Second: JSONWritable>: JSONWritable {
  case first(First)
  case second(Second)

  public func write(to w: inout JSONWriter) {
    switch self {
    case .first(let f): f.write(to: &w)
    case .second(let s): s.write(to: &w)
    }
  }
}

extension GeoJSON {
  /// A Point's shape.
  public static let pointSchema = JSONSchema.object(
    properties: [
      ("type", .word(["Point"])),
      (
        "coordinates",
        .annotated(
          .array(.number),
          [("minItems", .integer(2)), ("maxItems", .integer(2)), ("description", .string("[longitude, latitude]"))])
      ),
    ], required: ["type", "coordinates"])

  /// A Point feature's shape with these properties.
  public static func pointFeatureSchema(properties: JSONSchema) -> JSONSchema {
    .object(
      properties: [
        ("type", .word(["Feature"])), ("id", .integer), ("geometry", pointSchema), ("properties", properties),
      ],
      required: ["type", "geometry", "properties"])
  }

  /// A FeatureCollection's shape: these features, and the document's own members after them.
  public static func featureCollectionSchema(features: JSONSchema, members: [(String, JSONSchema)] = [])
    -> JSONSchema
  {
    .object(
      properties: [("type", .word(["FeatureCollection"])), ("features", .array(features))] + members,
      required: ["type", "features"])
  }
}
