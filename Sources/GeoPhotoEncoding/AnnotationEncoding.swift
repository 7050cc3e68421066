public import GeoPhotoCore

/// The question a list of annotations answers, echoed in JSON output.
public struct NearQuery: Equatable, Sendable {
  public var center: Coordinate
  public var limit: Int
  /// Metres, when the query was limited to a radius.
  public var radius: Double?

  public init(center: Coordinate, limit: Int, radius: Double? = nil) {
    self.center = center
    self.limit = limit
    self.radius = radius
  }
}

/// Encodings of annotation lists: JSON, GeoJSON (RFC 7946), CSV and an aligned text table.
///
/// The model stays free of any encoding; every output format lives here, so the command line
/// and the server print the same shapes.
public enum AnnotationEncoding {
  /// Distances are printed to the decimetre: the spherical model is good to 0.56 %, more
  /// digits would only be noise.

  static func distance(_ d: Double) -> JSONValue { JSONValue.rounded(d, places: 1) }

  /// Degrees are printed to 1e-7 (about 1 cm): enough for any camera, and free of the
  /// binary noise of degree-minute-second conversions (`35.681239999999995`).
  public static func degrees(_ d: Double) -> JSONValue { JSONValue.rounded(d, places: 7) }

  /// Which fields to include; servers leave out local file paths.
  public struct Options: Sendable {
    public var includePaths: Bool
    public init(includePaths: Bool = true) { self.includePaths = includePaths }
  }

  /// The members of one annotation; `coordinate` is left out inside GeoJSON features, whose
  /// geometry carries it.
  static func writeMembers(_ a: Annotation, _ options: Options, coordinate: Bool, to w: inout JSONWriter) {
    w.key("id")
    w.integer(a.id)
    w.key("source")
    w.string(a.source.rawValue)
    if coordinate {
      w.key("coordinate")
      writeCoordinate(a.coordinate, to: &w)
    }
    w.key("title")
    w.string(a.title)
    w.key("subtitle")
    w.string(a.subtitle)
    w.key("distance")
    if let d = a.distance { w.rounded(d, places: 1) } else { w.null() }
    w.key("takenAt")
    w.string(a.takenAt?.iso8601)
    if let place = a.place {
      w.key("place")
      w.beginObject()
      w.key("name")
      w.string(place.name)
      w.key("admin1")
      w.string(place.admin1)
      w.key("admin2")
      w.string(place.admin2)
      w.key("countryCode")
      w.string(place.countryCode)
      w.key("distance")
      w.rounded(place.distance, places: 1)
      w.endObject()
    }
    if a.estimated {
      w.key("estimated")
      w.bool(true)
    }
    if let along = a.distanceAlong {
      w.key("distanceAlong")
      w.rounded(along, places: 1)
    }
    if options.includePaths, let path = a.path {
      w.key("path")
      w.string(path)
    }
    if let url = a.url {
      w.key("url")
      w.string(url)
    }
    if let thumbnail = a.thumbnailURL {
      w.key("thumbnailURL")
      w.string(thumbnail)
    }
  }

  /// `{"query": {...}, "annotations": [{"id", "source", "coordinate", "title", "subtitle", ...}]}`
  public static func json(
    _ annotations: [Annotation], query: NearQuery, options: Options = Options(), pretty: Bool = false
  ) -> [UInt8] {
    var w = JSONWriter(pretty: pretty, capacity: 256 + 220 * annotations.count)
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
    for a in annotations {
      w.beginObject()
      writeMembers(a, options, coordinate: true, to: &w)
      w.endObject()
    }
    w.endArray()
    w.endObject()
    return w.bytes
  }

  /// An RFC 7946 FeatureCollection: positions are [longitude, latitude].
  public static func geoJSON(_ annotations: [Annotation], options: Options = Options(), pretty: Bool = false) -> [UInt8]
  {
    var w = JSONWriter(pretty: pretty, capacity: 256 + 260 * annotations.count)
    w.beginObject()
    w.key("type")
    w.string("FeatureCollection")
    w.key("features")
    w.beginArray()
    for a in annotations {
      w.beginObject()
      w.key("type")
      w.string("Feature")
      w.key("id")
      w.integer(a.id)
      w.key("geometry")
      writePoint(a.coordinate, to: &w)
      w.key("properties")
      w.beginObject()
      writeMembers(a, options, coordinate: false, to: &w)
      w.endObject()
      w.endObject()
    }
    w.endArray()
    w.endObject()
    return w.bytes
  }

  /// `{"latitude", "longitude"}` to 1e-7 degrees (about 1 cm), the shape map clients decode.
  public static func writeCoordinate(_ c: Coordinate, to w: inout JSONWriter) {
    w.beginObject()
    w.key("latitude")
    w.rounded(c.latitude, places: 7)
    w.key("longitude")
    w.rounded(c.longitude, places: 7)
    w.endObject()
  }

  /// A GeoJSON LineString, positions longitude first, to 1e-7 degrees.
  public static func writeLineString(_ points: [Coordinate], to w: inout JSONWriter) {
    w.beginObject()
    w.key("type")
    w.string("LineString")
    w.key("coordinates")
    w.beginArray()
    for c in points {
      w.beginArray()
      w.rounded(c.longitude, places: 7)
      w.rounded(c.latitude, places: 7)
      w.endArray()
    }
    w.endArray()
    w.endObject()
  }

  /// A GeoJSON Point, longitude first, to 1e-7 degrees.
  public static func writePoint(_ c: Coordinate, to w: inout JSONWriter) {
    w.beginObject()
    w.key("type")
    w.string("Point")
    w.key("coordinates")
    w.beginArray()
    w.rounded(c.longitude, places: 7)
    w.rounded(c.latitude, places: 7)
    w.endArray()
    w.endObject()
  }

  /// RFC 4180 CSV with a header row.
  public static func csv(_ annotations: [Annotation], options: Options = Options()) -> String {
    let alongRoute = annotations.contains { $0.distanceAlong != nil }
    var header = ["id", "source", "latitude", "longitude", "title", "subtitle", "distance", "taken_at"]
    if alongRoute { header.append("distance_along") }
    if options.includePaths { header.append("path") }
    header += ["url", "thumbnail_url"]
    var lines = [header.joined(separator: ",")]
    for a in annotations {
      var fields = [
        String(a.id), a.source.rawValue, degrees(a.coordinate.latitude).serialized(),
        degrees(a.coordinate.longitude).serialized(), a.title, a.subtitle,
        a.distance.map { distance($0).serialized() } ?? "", a.takenAt?.iso8601 ?? "",
      ]
      if alongRoute { fields.append(a.distanceAlong.map { distance($0).serialized() } ?? "") }
      if options.includePaths { fields.append(a.path ?? "") }
      fields += [a.url ?? "", a.thumbnailURL ?? ""]
      lines.append(fields.map(csvField).joined(separator: ","))
    }
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  static func csvField(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
    return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// An aligned table for people: distance, title, date, coordinate and id.
  public static func table(_ annotations: [Annotation]) -> String {
    let alongRoute = annotations.contains { $0.distanceAlong != nil }
    let withPlaces = annotations.contains { $0.place != nil }
    var header = ["DISTANCE", "TITLE"] + (withPlaces ? ["PLACE"] : []) + ["TAKEN", "LATITUDE,LONGITUDE", "ID"]
    if alongRoute { header = ["ALONG", "OFF ROUTE"] + header.dropFirst() }
    let rows = annotations.map { a in
      (alongRoute ? [a.distanceAlong.map(DistanceFormat.human) ?? ""] : [])
        + [a.distance.map(DistanceFormat.human) ?? "", a.title] + (withPlaces ? [a.place?.label ?? ""] : []) + [
          a.takenAt.map { String($0.iso8601.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "",
          String(format6(a.coordinate.latitude)) + "," + format6(a.coordinate.longitude),
          String(a.id),
        ]
    }
    let all = [header] + rows
    var widths = [Int](repeating: 0, count: header.count)
    for row in all { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    // Distances align right, the rest left; the last column is not padded.
    return all.map { row in
      row.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        if i == 0 || (alongRoute && i == 1) { return pad + cell }
        return i == row.count - 1 ? cell : cell + pad
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  /// Six decimals (about 10 cm), without trailing zeros.
  static func format6(_ d: Double) -> String {
    let scaled = (d * 1_000_000).rounded()
    let negative = scaled < 0
    let magnitude = Int64(abs(scaled))
    var fraction = String(magnitude % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let whole = (negative ? "-" : "") + String(magnitude / 1_000_000)
    return fraction.isEmpty ? whole : whole + "." + fraction
  }
}

extension String {
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = Substring(self)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
