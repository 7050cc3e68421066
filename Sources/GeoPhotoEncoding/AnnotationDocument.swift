public import GeoPhotoCore

/// A list of map annotations (the answer of `near`, `along` and `/v1/near`) in each output
/// format: JSON `{"query", "annotations"}`, a GeoJSON FeatureCollection, CSV and a table.
public struct AnnotationDocument: OutputDocument {
  /// Which fields to include; servers leave out local file paths.
  public struct Options: Sendable {
    public var includePaths: Bool
    public init(includePaths: Bool = true) { self.includePaths = includePaths }
  }

  public var annotations: [Annotation]
  public var query: NearQuery
  public var options: Options

  public init(_ annotations: [Annotation], query: NearQuery, options: Options = Options()) {
    self.annotations = annotations
    self.query = query
    self.options = options
  }

  /// `{"query": {...}, "annotations": [{"id", "source", "coordinate", "title", "subtitle", ...}]}`
  public func json(pretty: Bool = false) -> [UInt8] {
    Self.json(query: query, pretty: pretty, capacity: 256 + 220 * annotations.count) { w in
      for a in annotations { AnnotationMembers.write(a, options: options, coordinate: true, to: &w) }
    }
  }

  /// The JSON form around annotations that `writeAnnotations` writes, one value each (as
  /// `AnnotationMembers` with its coordinate, or an `EncodedAnnotation` of the object form).
  public static func json(
    query: NearQuery, pretty: Bool = false, capacity: Int, annotations writeAnnotations: (inout JSONWriter) -> Void
  ) -> [UInt8] {
    var w = JSONWriter(pretty: pretty, capacity: capacity)
    w.beginObject()
    w.key("query")
    w.beginObject()
    w.key("latitude")
    w.number(query.center.latitude)
    w.key("longitude")
    w.number(query.center.longitude)
    w.key("limit")
    w.integer(Int64(query.limit))
    w.key("radius")
    if let r = query.radius { w.number(r) } else { w.null() }
    w.endObject()
    w.key("annotations")
    w.beginArray()
    writeAnnotations(&w)
    w.endArray()
    w.endObject()
    return w.bytes
  }

  /// An RFC 7946 FeatureCollection: one Point feature per annotation, its members as properties.
  public func geoJSON(pretty: Bool = false) -> [UInt8] {
    Self.geoJSON(pretty: pretty, capacity: 256 + 260 * annotations.count) { w in
      for a in annotations { AnnotationMembers.writeFeature(a, options: options, to: &w) }
    }
  }

  /// The FeatureCollection around features that `writeFeatures` writes, one value each.
  public static func geoJSON(
    pretty: Bool = false, capacity: Int, features writeFeatures: (inout JSONWriter) -> Void
  ) -> [UInt8] {
    var w = JSONWriter(pretty: pretty, capacity: capacity)
    GeoJSON.writeFeatureCollection(to: &w, features: writeFeatures)
    return w.bytes
  }

  /// A header row and one row per annotation.
  public func csv() -> CSV {
    let alongRoute = annotations.contains { $0.distanceAlong != nil }
    return CSV(
      header: Self.csvHeader(alongRoute: alongRoute, includePaths: options.includePaths),
      rows: annotations.map { Self.csvRow($0, alongRoute: alongRoute, includePaths: options.includePaths) })
  }

  /// The CSV columns: the distance along a route only for route answers, paths only where
  /// the answer carries them.
  public static func csvHeader(alongRoute: Bool, includePaths: Bool) -> [String] {
    var header = ["id", "source", "latitude", "longitude", "title", "subtitle", "distance", "taken_at"]
    if alongRoute { header.append("distance_along") }
    if includePaths { header.append("path") }
    return header + ["url", "thumbnail_url", "media_type", "duration"]
  }

  /// One annotation's CSV fields, in `csvHeader` order.
  public static func csvRow(_ a: Annotation, alongRoute: Bool, includePaths: Bool) -> [String] {
    var fields = [
      String(a.id), a.source.rawValue, CSV.number(a.coordinate.latitude, places: 7),
      CSV.number(a.coordinate.longitude, places: 7), a.title, a.subtitle,
      a.distance.map { CSV.number($0, places: 1) } ?? "", a.takenAt?.iso8601 ?? "",
    ]
    if alongRoute { fields.append(a.distanceAlong.map { CSV.number($0, places: 1) } ?? "") }
    if includePaths { fields.append(a.path ?? "") }
    return fields + [
      a.url ?? "", a.thumbnailURL ?? "", a.mediaType.rawValue, a.duration.map { CSV.number($0, places: 3) } ?? "",
    ]
  }

  /// An aligned table for people: distance, title, place, date, coordinate and id; empty
  /// when there are no annotations.
  public func table() -> String {
    guard !annotations.isEmpty else { return "" }
    let alongRoute = annotations.contains { $0.distanceAlong != nil }
    let withPlaces = annotations.contains { $0.place != nil }
    var header = ["DISTANCE", "TITLE"] + (withPlaces ? ["PLACE"] : []) + ["TAKEN", "LATITUDE,LONGITUDE", "ID"]
    if alongRoute { header = ["ALONG", "OFF ROUTE"] + header.dropFirst() }
    let rows = annotations.map { a in
      (alongRoute ? [a.distanceAlong.map(DistanceFormat.human) ?? ""] : [])
        + [a.distance.map(DistanceFormat.human) ?? "", a.title] + (withPlaces ? [a.place?.label ?? ""] : []) + [
          a.takenAt.map { String($0.iso8601.prefix(16)).replacing("T", with: " ") } ?? "",
          Self.sixDecimals(a.coordinate.latitude) + "," + Self.sixDecimals(a.coordinate.longitude),
          String(a.id),
        ]
    }
    // Distances align right.
    return TextTable(header: header, rows: rows, rightAligned: alongRoute ? [0, 1] : [0]).text
  }

  /// Six decimals (about 10 cm), without trailing zeros.
  static func sixDecimals(_ d: Double) -> String { CSV.number(d, places: 6) }
}

/// One annotation's members: as a JSON object (with its coordinate) or as the properties of a
/// GeoJSON feature, whose geometry carries the coordinate.
public struct AnnotationMembers: JSONWritable {
  public var annotation: Annotation
  public var options: AnnotationDocument.Options
  public var coordinate: Bool

  public init(annotation: Annotation, options: AnnotationDocument.Options, coordinate: Bool) {
    self.annotation = annotation
    self.options = options
    self.coordinate = coordinate
  }

  public func write(to w: inout JSONWriter) {
    Self.write(annotation, options: options, coordinate: coordinate, to: &w)
  }

  /// `annotation` as a GeoJSON Point feature, its members (but the coordinate) as properties.
  public static func writeFeature(
    _ annotation: borrowing Annotation, options: AnnotationDocument.Options, to w: inout JSONWriter
  ) {
    GeoJSON.writeFeature(id: annotation.id, geometry: GeoJSON.Point(annotation.coordinate), to: &w) {
      write(annotation, options: options, coordinate: false, to: &$0)
    }
  }

  /// The members of `annotation`, written from where it lies (not copied into an
  /// `AnnotationMembers` first): an export writes a million of them.
  public static func write(
    _ annotation: borrowing Annotation, options: AnnotationDocument.Options, coordinate: Bool, to w: inout JSONWriter
  ) {
    w.beginObject()
    w.key("id")
    w.integer(annotation.id)
    w.key("source")
    w.string(annotation.source.rawValue)
    if coordinate {
      w.key("coordinate")
      w.coordinate(annotation.coordinate)
    }
    w.key("title")
    w.string(annotation.title)
    // The subtitle and distance values are marked: `EncodedAnnotation` fills them per answer.
    w.key("subtitle")
    w.mark()
    w.string(annotation.subtitle)
    w.mark()
    w.key("distance")
    w.mark()
    if let d = annotation.distance { w.metres(d) } else { w.null() }
    w.mark()
    w.key("takenAt")
    w.date(annotation.takenAt)
    if let zone = annotation.timeZone {
      w.key("timeZone")
      w.string(zone)
    }
    if let source = annotation.offsetSource {
      w.key("offsetSource")
      w.string(source.rawValue)
    }
    if let ambiguity = annotation.offsetAmbiguity {
      w.key("offsetAmbiguity")
      w.string(ambiguity.rawValue)
    }
    w.media(annotation.mediaType, duration: annotation.duration)
    w.files(annotation.files, paths: options.includePaths)
    if let place = annotation.place { w.member("place", PlaceObject(photoPlace: place)) }
    w.estimate(estimated: annotation.estimated, source: annotation.estimateSource)
    if let along = annotation.distanceAlong {
      w.key("distanceAlong")
      w.metres(along)
    }
    if options.includePaths, let path = annotation.path {
      w.key("path")
      w.string(path)
    }
    if let url = annotation.url {
      w.key("url")
      w.string(url)
    }
    if let thumbnail = annotation.thumbnailURL {
      w.key("thumbnailURL")
      w.string(thumbnail)
    }
    w.endObject()
  }
}

/// The members several answers share, as their writers below write them.
enum SharedMembers {
  /// `mediaType` and `duration` (`JSONWriter.media`).
  static let media: [(String, JSONSchema)] = [
    ("mediaType", .word(MediaType.allCases.map(\.rawValue))),
    ("duration", .described(.number, "A video's length in seconds")),
  ]
  /// `files` (`JSONWriter.files`).
  static func files(paths: Bool) -> (String, JSONSchema) {
    (
      "files",
      .described(
        .array(
          .object(
            properties: [("name", .string), ("role", .word(FileRole.allCases.map(\.rawValue)))]
              + (paths ? [("path", JSONSchema.described(.string, "Local answers only"))] : []),
            required: ["name", "role"])),
        "The shot's files: the primary one, then a RAW, a Live Photo's video, sidecars")
    )
  }
}

extension JSONWriter {
  /// `"mediaType": "photo"` or `"video"`, and a video's `"duration"` in seconds (to the
  /// millisecond): the same members in annotations, map features and photo details.
  mutating func media(_ type: MediaType, duration: Double?) {
    key("mediaType")
    string(type.rawValue)
    if let duration {
      key("duration")
      rounded(duration, places: 3)
    }
  }
}

extension JSONWriter {
  /// `"files": [{"name", "role", "path"}]`, a shot's files (the path only where answers carry
  /// local paths); nothing when there are none.
  mutating func files(_ files: [PhotoFile], paths: Bool) {
    guard !files.isEmpty else { return }
    key("files")
    beginArray()
    for file in files {
      beginObject()
      key("name")
      string(file.name)
      key("role")
      string(file.role.rawValue)
      if paths {
        key("path")
        string(file.path)
      }
      endObject()
    }
    endArray()
  }
}

/// A place as every answer shows it: a photo's place (`distance` from the photo, and
/// `countryOnly` when no place was near) or a place found by name (`label` and `coordinate`).
/// One writer and one shape for both.
public struct PlaceObject: JSONWritable, DescribedJSON {
  public var place: PlaceName
  /// How far the photo is from the place; nil for a place found by name.
  public var distance: Double?
  /// A found place's label (`Kyoto, Kyoto, JP`) and position.
  public var label: String?
  public var coordinate: Coordinate?

  /// A photo's place.
  public init(photoPlace place: PlaceName) {
    self.place = place
    distance = place.distance
  }

  /// A place found by name.
  public init(found place: PlaceName, label: String, coordinate: Coordinate) {
    self.place = place
    self.label = label
    self.coordinate = coordinate
  }

  public func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("name")
    w.string(place.name)
    w.key("admin1")
    w.string(place.admin1)
    w.key("admin2")
    w.string(place.admin2)
    w.key("countryCode")
    w.string(place.countryCode)
    if let label {
      w.key("label")
      w.string(label)
    }
    if let coordinate {
      w.key("coordinate")
      w.coordinate(coordinate)
    }
    if let distance {
      w.key("distance")
      w.metres(distance)
    }
    if let population = place.population {
      w.key("population")
      w.integer(Int64(population))
    }
    if let zone = place.timeZone {
      w.key("timeZone")
      w.string(zone)
    }
    if let id = place.geonameID {
      w.key("geonameId")
      w.integer(Int64(id))
    }
    if place.isCountry {
      w.key("countryOnly")
      w.bool(true)
    }
    w.endObject()
  }

  public static let schemaName = "Place"
  public static let schema = JSONSchema.object(
    properties: [
      ("name", .string), ("admin1", .string), ("admin2", .string), ("countryCode", .string),
      ("label", .described(.string, "A place found by name: name, first-level division and country code")),
      ("coordinate", .described(Coordinate.reference, "A place found by name: its position")),
      ("distance", .described(.number, "A photo's place: metres from the photo")),
      ("population", .integer), ("timeZone", .described(.string, "The place's IANA time zone")),
      ("geonameId", .described(.integer, "The place's GeoNames id")),
      ("countryOnly", .described(.boolean, "No place was near: the name is the country's")),
    ], required: ["name", "admin1", "admin2", "countryCode"])
}

extension AnnotationMembers: DescribedJSON {
  public static let schemaName = "Annotation"
  public static var schema: JSONSchema { members(coordinate: true) }

  /// An annotation's members: with its coordinate (the JSON form), or without (a feature's
  /// properties, the geometry carrying it). Paths and the distance along a route come only in
  /// local answers (the CLI's), never from a server.
  static func members(coordinate: Bool) -> JSONSchema {
    var properties: [(String, JSONSchema)] = [
      ("id", .integer), ("source", .word(PhotoSource.known.map(\.rawValue))),
    ]
    if coordinate { properties.append(("coordinate", Coordinate.reference)) }
    properties += [
      ("title", .string), ("subtitle", .string),
      ("distance", .described(.nullable(.number), "Metres from the query point")),
      ("takenAt", .described(.nullable(.string), "ISO 8601, with the UTC offset when known")),
      ("timeZone", .described(.string, "The IANA zone a local capture time was read in, from the position")),
      (
        "offsetSource",
        .annotated(
          .described(.string, "Where the offset comes from; absent for a floating time"),
          [("enum", .array(OffsetSource.allCases.map { .string($0.rawValue) }))])
      ),
      (
        "offsetAmbiguity",
        .annotated(
          .described(.string, "The zone skips (gap) or doubles (fold) the local time; the earlier instant is used"),
          [("enum", .array(LocalTimeAmbiguity.allCases.map { .string($0.rawValue) }))])
      ),
    ]
    properties += SharedMembers.media + [SharedMembers.files(paths: true), ("place", PlaceObject.reference)]
    properties +=
      SharedMembers.estimate + [
        ("distanceAlong", .described(.number, "Metres along the route (answers along a route)")),
        ("path", .described(.string, "The local file (local answers only)")),
        ("url", .described(.string, "The photo's page, for remote photos")), ("thumbnailURL", .string),
      ]
    return .object(
      properties: properties, required: ["id", "source"] + (coordinate ? ["coordinate"] : []) + ["title", "subtitle"])
  }
}

extension AnnotationDocument: DescribedJSON {
  public static let schemaName = "NearResult"
  public static let schema = JSONSchema.object(
    properties: [
      (
        "query",
        .object(
          properties: [
            ("latitude", .number), ("longitude", .number), ("limit", .integer), ("radius", .nullable(.number)),
          ], required: ["latitude", "longitude", "limit", "radius"])
      ),
      ("annotations", .array(AnnotationMembers.reference)),
    ], required: ["query", "annotations"])

  /// The GeoJSON form (`geoJSON()`): a FeatureCollection of Point features with the
  /// annotations' members as properties.
  public enum FeatureForm: DescribedJSON {
    public static let schemaName = "AnnotationFeatureCollection"
    public static let schema = GeoJSON.featureCollectionSchema(
      features: GeoJSON.pointFeatureSchema(properties: AnnotationMembers.members(coordinate: false)))
  }
}

extension JSONWriter {
  /// `"estimated": true` and `"estimate": {"source", "name", "method", "seconds"}` for a
  /// position geophoto estimated or a hand placed; nothing for one the file recorded.
  public mutating func estimate(estimated: Bool, source estimate: EstimateSource?) {
    if estimated {
      key("estimated")
      bool(true)
    }
    guard let estimate else { return }
    key("estimate")
    beginObject()
    key("source")
    string(estimate.kind.rawValue)
    if !estimate.name.isEmpty {
      key("name")
      string(estimate.name)
    }
    key("method")
    string(estimate.methodName)
    switch estimate.method {
    case .interpolated(let seconds), .endFix(let seconds):
      key("seconds")
      number(seconds)
    case .exact, .visit, .hand:
      break
    }
    endObject()
  }
}

extension SharedMembers {
  /// `estimated` and `estimate`, as `JSONWriter.estimate` writes them.
  static let estimate: [(String, JSONSchema)] = [
    (
      "estimated",
      .described(.boolean, "The position was estimated (by geotag) or placed by hand, not what the file recorded")
    ),
    (
      "estimate",
      .described(
        .object(
          properties: [
            (
              "source",
              .annotated(
                .described(.string, "A track or location history, the photos around it, or a hand"),
                [("enum", .array(EstimateSource.Kind.allCases.map { .string($0.rawValue) }))])
            ),
            ("name", .described(.string, "The track's file name, or the neighbouring photo's")),
            (
              "method",
              .annotated(
                .string,
                [("enum", .array(["exact", "interpolated", "end fix", "visit", "hand"].map { .string($0) }))])
            ),
            ("seconds", .described(.number, "Between the fixes interpolated, or to the end fix used")),
          ], required: ["source", "method"]),
        "Where an estimated position came from")
    ),
  ]
}
