public import Foundation
public import GeoPhotoCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A problem in a route file, naming the file and, where there is one, the line.
public struct RouteFileError: Error, Equatable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Reads routes and tracks: CSV (`lat,lon` per line, as MapKit route demos ship them), GPX
/// (`trk`/`trkseg`/`trkpt` and `rte`/`rtept`, with times and elevations) and GeoJSON
/// (a LineString, alone or in a Feature or FeatureCollection).
public enum RouteFile {
  public enum Format: String, Sendable { case csv, gpx, geojson }

  public static func read(_ url: URL) throws(RouteFileError) -> [RoutePoint] {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw RouteFileError("\(url.path): cannot read (\((error as NSError).localizedDescription))")
    }
    return try parse(data, name: url.path, format: format(of: url, data: data))
  }

  /// Decides by the extension, else by the first bytes.
  static func format(of url: URL, data: Data) -> Format {
    switch url.pathExtension.lowercased() {
    case "gpx": return .gpx
    case "geojson", "json": return .geojson
    case "csv", "txt": return .csv
    default:
      let head = String(decoding: data.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      if head.hasPrefix("<") { return .gpx }
      if head.hasPrefix("{") { return .geojson }
      return .csv
    }
  }

  public static func parse(_ data: Data, name: String, format: Format) throws(RouteFileError) -> [RoutePoint] {
    let points: [RoutePoint]
    switch format {
    case .csv: points = try parseCSV(data, name: name)
    case .gpx: points = try GPXReader.parse(data, name: name)
    case .geojson: points = try parseGeoJSON(data, name: name)
    }
    guard !points.isEmpty else { throw RouteFileError("\(name): no points") }
    return points
  }

  static func parseCSV(_ data: Data, name: String) throws(RouteFileError) -> [RoutePoint] {
    guard var text = String(data: data, encoding: .utf8) else { throw RouteFileError("\(name): not UTF-8 text") }
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    var points: [RoutePoint] = []
    // CRLF is one Character in Swift: split on any newline.
    for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty { continue }
      let lower = line.lowercased().replacingOccurrences(of: " ", with: "")
      if points.isEmpty && (lower == "lat,lon" || lower == "latitude,longitude" || lower == "lat,lng") { continue }
      do {
        points.append(RoutePoint(try InputParser.coordinate(line)))
      } catch {
        throw RouteFileError("\(name):\(index + 1): \(error.description)")
      }
    }
    return points
  }

  static func parseGeoJSON(_ data: Data, name: String) throws(RouteFileError) -> [RoutePoint] {
    guard let object = try? JSONDecoder().decode(GeoJSONObject.self, from: data) else {
      throw RouteFileError("\(name): not valid JSON")
    }
    guard let positions = object.firstLineString else {
      throw RouteFileError("\(name): no GeoJSON LineString (alone, in a Feature or in a FeatureCollection)")
    }
    var points: [RoutePoint] = []
    for (i, position) in positions.enumerated() {
      // RFC 7946: [longitude, latitude, (elevation)].
      guard let numbers = position.numbers, numbers.count >= 2,
        let c = Coordinate(validatingLatitude: numbers[1], longitude: numbers[0])
      else {
        throw RouteFileError("\(name): position \(i + 1) is not [longitude, latitude] in range")
      }
      points.append(RoutePoint(c, elevation: numbers.count > 2 ? numbers[2] : nil))
    }
    return points
  }
}

/// The GeoJSON a route file holds, as far as a route needs it: a LineString, alone, in a
/// Feature, or the first one in a FeatureCollection. Members of other shapes are left out.
struct GeoJSONObject: Decodable {
  var type: String?
  var coordinates: [Position]?
  var geometry: Box<GeoJSONObject>?
  var features: [GeoJSONObject]?

  enum CodingKeys: String, CodingKey { case type, coordinates, geometry, features }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    type = try? c.decodeIfPresent(String.self, forKey: .type)
    coordinates = try? c.decodeIfPresent([Position].self, forKey: .coordinates)
    geometry = try? c.decodeIfPresent(Box<GeoJSONObject>.self, forKey: .geometry)
    features = (try? c.decodeIfPresent([Lenient<GeoJSONObject>].self, forKey: .features))?.compactMap(\.value)
  }

  var firstLineString: [Position]? {
    switch type {
    case "LineString": coordinates
    case "Feature": geometry?.value.firstLineString
    case "FeatureCollection": features?.lazy.compactMap(\.firstLineString).first
    default: nil
    }
  }

  /// One position: its numbers, or nil when it is not an array of numbers.
  struct Position: Decodable {
    var numbers: [Double]?
    init(from decoder: any Decoder) throws { numbers = try? decoder.singleValueContainer().decode([Double].self) }
  }

  /// A member of the same type, boxed (a struct cannot hold itself).
  final class Box<T: Decodable>: Decodable {
    let value: T
    init(from decoder: any Decoder) throws { value = try T(from: decoder) }
  }

  /// A value that is left out when it does not decode.
  struct Lenient<T: Decodable>: Decodable {
    var value: T?
    init(from decoder: any Decoder) throws { value = try? T(from: decoder) }
  }
}

/// GPX 1.0/1.1 through FoundationXML's XMLParser. DTDs are refused (GPX never needs one).
final class GPXReader: NSObject, XMLParserDelegate {
  private var points: [RoutePoint] = []
  private var current: RoutePoint?
  private var text = ""
  private var error: RouteFileError?
  private let name: String
  private weak var parser: XMLParser?

  init(name: String) { self.name = name }

  static func parse(_ data: Data, name: String) throws(RouteFileError) -> [RoutePoint] {
    if let problem = XMLPrecheck.problem(in: [UInt8](data)) { throw RouteFileError("\(name): the XML \(problem)") }
    let reader = GPXReader(name: name)
    let parser = XMLParser(data: data)
    parser.shouldResolveExternalEntities = false
    parser.delegate = reader
    reader.parser = parser
    let ok = parser.parse()
    if let error = reader.error { throw error }
    if !ok || parser.parserError != nil {
      throw RouteFileError("\(name):\(parser.lineNumber): malformed XML")
    }
    // Tracks from some loggers are stored newest first: keep time order when times exist.
    if reader.points.allSatisfy({ $0.time != nil }) {
      return reader.points.enumerated().sorted { ($0.element.time ?? 0, $0.offset) < ($1.element.time ?? 0, $1.offset) }
        .map(\.element)
    }
    return reader.points
  }

  func parser(
    _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    let local = element.split(separator: ":").last.map(String.init) ?? element
    text = ""
    guard local == "trkpt" || local == "rtept" else { return }
    guard let lat = attributes["lat"].flatMap(InputParser.number),
      let lon = attributes["lon"].flatMap(InputParser.number),
      let c = Coordinate(validatingLatitude: lat, longitude: lon)
    else {
      error = error ?? RouteFileError("\(name):\(parser.lineNumber): <\(local)> needs lat and lon in range")
      parser.abortParsing()
      return
    }
    current = RoutePoint(c)
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
    let local = element.split(separator: ":").last.map(String.init) ?? element
    let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
    switch local {
    case "time" where current != nil:
      guard let t = ISOTime.seconds(value) else {
        error = error ?? RouteFileError("\(name):\(parser.lineNumber): '\(value)' is not an ISO 8601 time")
        parser.abortParsing()
        return
      }
      current?.time = t
    case "ele" where current != nil:
      current?.elevation = InputParser.number(value)
    case "trkpt", "rtept":
      if let p = current { points.append(p) }
      current = nil
    default:
      break
    }
  }
}

/// ISO 8601 times as GPX writes them: `2024-05-03T01:12:00Z`, with fractions or an offset.
public enum ISOTime {
  /// Seconds since the Unix epoch, or `nil` when the text is not such a time.
  public static func seconds(_ text: String) -> Double? {
    var body = Substring(text)
    var offset = 0
    if body.hasSuffix("Z") || body.hasSuffix("z") {
      body = body.dropLast()
    } else if body.count >= 25, let o = CaptureDate.parseOffset(String(body.suffix(6))) {
      offset = o
      body = body.dropLast(6)
    } else {
      return nil  // GPX times are UTC; a time without a zone is ambiguous
    }
    var fraction = 0.0
    if let dot = body.firstIndex(of: ".") {
      fraction = Double("0" + body[dot...]) ?? 0
      body = body[..<dot]
    }
    guard let date = CaptureDate(exif: String(body)) else { return nil }
    return Double(date.localSecondsSinceEpoch - offset * 60) + fraction
  }
}
