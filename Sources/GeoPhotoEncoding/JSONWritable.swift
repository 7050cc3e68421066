public import GeoPhotoCore

/// A value with one JSON form, written through `JSONWriter` (GEOSwift's shape: the value type
/// in one file, its encoding beside it).
public protocol JSONWritable {
  func write(to writer: inout JSONWriter)
}

extension JSONWritable {
  /// The value as UTF-8 JSON; `pretty` indents by two spaces.
  public func encoded(pretty: Bool = false, capacity: Int = 1024) -> [UInt8] {
    var writer = JSONWriter(pretty: pretty, capacity: capacity)
    write(to: &writer)
    return writer.bytes
  }
}

extension JSONWriter {
  /// Degrees to 1e-7 (about 1 cm): enough for any camera, and free of the binary noise of
  /// degree-minute-second conversions (`35.681239999999995` is written `35.68124`).
  public mutating func degrees(_ value: Double) { rounded(value, places: 7) }

  /// Metres to the decimetre: the spherical model is good to 0.56 %, more digits would only be
  /// noise.
  public mutating func metres(_ value: Double) { rounded(value, places: 1) }

  /// Seconds to the tenth.
  public mutating func seconds(_ value: Double) { rounded(value, places: 1) }

  /// `{"latitude", "longitude"}` in degrees, the shape map clients decode.
  public mutating func coordinate(_ c: Coordinate) {
    beginObject()
    key("latitude")
    degrees(c.latitude)
    key("longitude")
    degrees(c.longitude)
    endObject()
  }

  /// `{"south", "west", "north", "east"}` in degrees.
  public mutating func bounds(_ b: BoundingBox) {
    beginObject()
    key("south")
    degrees(b.south)
    key("west")
    degrees(b.west)
    key("north")
    degrees(b.north)
    key("east")
    degrees(b.east)
    endObject()
  }

  /// A box as GeoJSON's `bbox` writes it (RFC 7946 §5): `[west, south, east, north]` in
  /// degrees, west > east across the antimeridian.
  public mutating func bbox(_ b: BoundingBox) {
    beginArray()
    for v in [b.west, b.south, b.east, b.north] { degrees(v) }
    endArray()
  }

  /// A member whose value another writable writes.
  public mutating func member(_ name: StaticString, _ value: some JSONWritable) {
    key(name)
    value.write(to: &self)
  }
}

/// `{"latitude", "longitude"}`, as `JSONWriter.coordinate` writes it.
extension Coordinate: DescribedJSON {
  public static let schemaName = "Coordinate"
  public static let schema = JSONSchema.object(
    properties: [("latitude", .number), ("longitude", .number)], required: ["latitude", "longitude"])
}
