public import GeoPhotoCore
public import GeoPhotoTravel

/// Places visited (`geophoto places visited`, `/v1/places/visited`) in each output format:
/// JSON as a tree, GeoJSON with a point feature per place (at the middle of its box, the box
/// as `bbox`), CSV with a row per place, and an indented table.
public struct PlacesVisitedDocument: OutputDocument, JSONWritable, DescribedJSON {
  public var visited: PlacesVisited
  public var level: PlaceLevel
  public var order: PlaceOrder

  public init(_ visited: PlacesVisited, level: PlaceLevel, order: PlaceOrder) {
    self.visited = visited
    self.level = level
    self.order = order
  }

  public func json(pretty: Bool) -> [UInt8] { encoded(pretty: pretty, capacity: 4_096) }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("level")
    w.string(level.rawValue)
    w.key("order")
    w.string(order.rawValue)
    w.key("places")
    w.beginArray()
    for place in visited.countries { Self.write(place, to: &w) }
    w.endArray()
    w.key("unnamed")
    w.integer(Int64(visited.unnamed))
    w.endObject()
  }

  static func write(_ place: VisitedPlace, to w: inout JSONWriter) {
    w.beginObject()
    members(of: place, to: &w)
    w.key("children")
    w.beginArray()
    for child in place.children { write(child, to: &w) }
    w.endArray()
    w.endObject()
  }

  /// A place's own members (its children aside).
  static func members(of place: VisitedPlace, to w: inout JSONWriter) {
    w.key("key")
    w.string(place.key)
    w.key("level")
    w.string(place.level.rawValue)
    w.key("name")
    w.string(place.name)
    w.key("countryCode")
    w.string(place.countryCode)
    if place.level != .country {
      w.key("region")
      w.string(place.region)
    }
    w.key("photos")
    w.integer(Int64(place.photos))
    w.key("first")
    w.string(place.first.text)
    w.key("last")
    w.string(place.last.text)
    w.key("photo")
    w.integer(place.representative)
    w.key("bbox")
    w.bbox(place.bounds)
  }

  public func geoJSON(pretty: Bool) -> [UInt8] {
    var w = JSONWriter(pretty: pretty, capacity: 4_096)
    GeoJSON.writeFeatureCollection(to: &w) { w in
      for place in visited.all {
        GeoJSON.writeFeature(
          id: nil, bbox: place.bounds, geometry: GeoJSON.Point(Self.middle(of: place.bounds)), to: &w
        ) { Self.members(of: place, to: &$0) }
      }
    }
    return w.bytes
  }

  /// The middle of a box, across the antimeridian when it crosses it.
  static func middle(of b: BoundingBox) -> Coordinate {
    var longitude = (b.west + b.east + (b.crossesAntimeridian ? 360 : 0)) / 2
    if longitude > 180 { longitude -= 360 }
    return Coordinate(latitude: (b.south + b.north) / 2, longitude: longitude)
  }

  public func csv() -> CSV {
    CSV(
      header: [
        "level", "country_code", "country", "region", "city", "photos", "first", "last", "photo_id", "west", "south",
        "east", "north",
      ],
      rows: rows { place, country in
        [
          place.level.rawValue, place.countryCode, country, place.level == .country ? "" : place.region,
          place.level == .city ? place.name : "", String(place.photos), place.first.text, place.last.text,
          String(place.representative),
        ]
          + [place.bounds.west, place.bounds.south, place.bounds.east, place.bounds.north].map {
            CSV.number($0, places: 7)
          }
      })
  }

  /// One row per place, depth first, each with the name of its country.
  func rows(_ row: (VisitedPlace, String) -> [String]) -> [[String]] {
    var rows: [[String]] = []
    func visit(_ places: [VisitedPlace], country: String?) {
      for place in places {
        let name = country ?? place.name
        rows.append(row(place, name))
        visit(place.children, country: name)
      }
    }
    visit(visited.countries, country: nil)
    return rows
  }

  /// `PLACE  PHOTOS  FIRST  LAST`, regions and cities indented under their country; empty
  /// when no place was visited.
  public func table() -> String {
    guard !visited.countries.isEmpty else { return "" }
    let rows = rows { place, _ in
      let indent = String(repeating: "  ", count: PlaceLevel.allCases.firstIndex(of: place.level) ?? 0)
      let name =
        place.level == .country
        ? "\(place.name) (\(place.countryCode))" : place.name.isEmpty ? "(no \(place.level.rawValue))" : place.name
      return [indent + name, String(place.photos), place.first.text, place.last.text]
    }
    var text = TextTable(header: ["PLACE", "PHOTOS", "FIRST", "LAST"], rows: rows, rightAligned: [1]).text
    if visited.unnamed > 0 { text += "\(visited.unnamed) photos are far from any named place\n" }
    return text
  }

  public static let schemaName = "PlacesVisited"
  public static let schema = JSONSchema.object(
    properties: [
      ("level", .word(PlaceLevel.allCases.map(\.rawValue))), ("order", .word(PlaceOrder.allCases.map(\.rawValue))),
      ("places", .array(.reference("VisitedPlace"))),
      ("unnamed", .described(.integer, "Located photos far from any named place")),
    ], required: ["level", "order", "places", "unnamed"])

  /// A place of the tree.
  public static let placeSchema = (
    "VisitedPlace",
    JSONSchema.object(
      properties: [
        ("key", .described(.string, "The place's path: JP, JP/Tokyo, JP/Tokyo/Chūō")),
        ("level", .word(PlaceLevel.allCases.map(\.rawValue))), ("name", .string), ("countryCode", .string),
        ("region", .described(.string, "The first-level division (regions and cities)")),
        ("photos", .integer), ("first", .described(.string, "The first local day with a photo there")),
        ("last", .described(.string, "The last local day with a photo there")),
        ("photo", .described(.integer, "The id of the photo nearest the middle of the place's photos")),
        ("bbox", .described(.array(.number), "west, south, east, north (west > east across the antimeridian)")),
        ("children", .array(.reference("VisitedPlace"))),
      ], required: ["key", "level", "name", "countryCode", "photos", "first", "last", "photo", "bbox", "children"])
  )
}
