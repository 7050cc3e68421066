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
  static func roundedDistance(_ d: Double) -> Double { (d * 10).rounded() / 10 }

  /// Degrees are printed to 1e-7 (about 1 cm): enough for any camera, and free of the
  /// binary noise of degree-minute-second conversions (`35.681239999999995`).
  static func degrees(_ d: Double) -> JSONValue { .number((d * 1e7).rounded() / 1e7) }

  /// Which fields to include; servers leave out local file paths.
  public struct Options: Sendable {
    public var includePaths: Bool
    public init(includePaths: Bool = true) { self.includePaths = includePaths }
  }

  static func properties(_ a: Annotation, _ options: Options, coordinate: Bool) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [("id", .integer(a.id)), ("source", .string(a.source.rawValue))]
    if coordinate {
      members.append(
        (
          "coordinate",
          .object([("latitude", degrees(a.coordinate.latitude)), ("longitude", degrees(a.coordinate.longitude))])
        ))
    }
    members += [
      ("title", .string(a.title)),
      ("subtitle", .string(a.subtitle)),
      ("distance", .optional(a.distance.map(roundedDistance))),
      ("takenAt", .optional(a.takenAt?.iso8601)),
    ]
    if options.includePaths, let path = a.path { members.append(("path", .string(path))) }
    if let url = a.url { members.append(("url", .string(url))) }
    if let thumbnail = a.thumbnailURL { members.append(("thumbnailURL", .string(thumbnail))) }
    return members
  }

  static func query(_ q: NearQuery) -> JSONValue {
    .object([
      ("latitude", .number(q.center.latitude)),
      ("longitude", .number(q.center.longitude)),
      ("limit", .integer(Int64(q.limit))),
      ("radius", .optional(q.radius)),
    ])
  }

  /// `{"query": {...}, "annotations": [{"id", "source", "coordinate", "title", "subtitle", ...}]}`
  public static func json(_ annotations: [Annotation], query: NearQuery, options: Options = Options()) -> JSONValue {
    .object([
      ("query", self.query(query)),
      ("annotations", .array(annotations.map { .object(properties($0, options, coordinate: true)) })),
    ])
  }

  /// An RFC 7946 FeatureCollection: positions are [longitude, latitude].
  public static func geoJSON(_ annotations: [Annotation], options: Options = Options()) -> JSONValue {
    .object([
      ("type", .string("FeatureCollection")),
      (
        "features",
        .array(
          annotations.map { a in
            .object([
              ("type", .string("Feature")),
              ("id", .integer(a.id)),
              (
                "geometry",
                .object([
                  ("type", .string("Point")),
                  ("coordinates", .array([degrees(a.coordinate.longitude), degrees(a.coordinate.latitude)])),
                ])
              ),
              ("properties", .object(properties(a, options, coordinate: false))),
            ])
          })
      ),
    ])
  }

  /// RFC 4180 CSV with a header row.
  public static func csv(_ annotations: [Annotation], options: Options = Options()) -> String {
    var header = ["id", "source", "latitude", "longitude", "title", "subtitle", "distance", "taken_at"]
    if options.includePaths { header.append("path") }
    header += ["url", "thumbnail_url"]
    var lines = [header.joined(separator: ",")]
    for a in annotations {
      var fields = [
        String(a.id), a.source.rawValue, degrees(a.coordinate.latitude).serialized(),
        degrees(a.coordinate.longitude).serialized(), a.title, a.subtitle,
        a.distance.map { JSONValue.format(roundedDistance($0)) } ?? "", a.takenAt?.iso8601 ?? "",
      ]
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
    let header = ["DISTANCE", "TITLE", "TAKEN", "LATITUDE,LONGITUDE", "ID"]
    let rows = annotations.map { a in
      [
        a.distance.map(DistanceFormat.human) ?? "",
        a.title,
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
        if i == 0 { return pad + cell }
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
