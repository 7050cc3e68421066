public import GeoPhotoCore

/// The formats `geophoto export` writes: what GIS tools, Google Earth and GPS devices open.
public enum ExportFormat: String, CaseIterable, Sendable {
  case geojson, kml, gpx, csv

  /// The file name extension and media type of the format.
  public var fileExtension: String { rawValue }

  /// A writer for the format, which emits the document piece by piece.
  public func writer(includePaths: Bool) -> ExportWriter { ExportWriter(format: self, includePaths: includePaths) }
}

/// Writes an export as its photos come: the document's head, one photo at a time, then its
/// tail, into a byte buffer the caller flushes, so a million photos take constant memory.
///
/// - GeoJSON: an RFC 7946 FeatureCollection, each photo a Point feature with the annotation's
///   members as properties (as `near --format geojson` writes them).
/// - KML 2.2: one `Placemark` per photo: `name` (the title), `description` (the subtitle, and
///   the thumbnail and page links of remote photos), `TimeStamp` and `Point` (longitude,
///   latitude, altitude when known).
/// - GPX 1.1: one `wpt` per photo: `ele` when known, `time` (in UTC, so only for capture times
///   with an offset: a floating time names no instant), `name`, `desc` and a `link` to a
///   remote photo's page.
/// - CSV: the columns `near --format csv` writes.
public struct ExportWriter: Sendable {
  public let format: ExportFormat
  public let includePaths: Bool
  private var count = 0

  public init(format: ExportFormat, includePaths: Bool) {
    self.format = format
    self.includePaths = includePaths
  }

  public mutating func begin(into out: inout [UInt8]) {
    switch format {
    case .geojson: out += Array(#"{"type":"FeatureCollection","features":["#.utf8)
    case .kml:
      out += Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>geophoto</name>

        """.utf8)
    case .gpx:
      out += Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="geophoto" xmlns="http://www.topografix.com/GPX/1/1">

        """.utf8)
    case .csv:
      out += Array(CSV(header: AnnotationDocument.csvHeader(alongRoute: false, includePaths: includePaths)).text.utf8)
    }
  }

  /// What goes between two photos (GeoJSON's comma; the other formats need none): written
  /// between the parts of an export encoded apart, each by a writer of its own.
  public var separator: [UInt8] { format == .geojson ? [UInt8(ascii: ",")] : [] }

  public mutating func write(_ a: Annotation, altitude: Double?, into out: inout [UInt8]) {
    defer { count += 1 }
    switch format {
    case .geojson:
      if count > 0 { out += separator }
      var w = JSONWriter(pretty: false, capacity: 1024)
      let options = AnnotationDocument.Options(includePaths: includePaths)
      GeoJSON.writeFeature(id: a.id, geometry: GeoJSON.Point(a.coordinate), to: &w) {
        AnnotationMembers.write(a, options: options, coordinate: false, to: &$0)
      }
      w.append(to: &out)
    case .kml:
      var description = a.subtitle
      if let thumbnail = a.thumbnailURL, a.source != .local { description += "\n" + thumbnail }
      if let url = a.url { description += "\n" + url }
      if includePaths, let path = a.path { description += "\n" + path }
      out += Array("<Placemark id=\"p\(a.id)\"><name>".utf8)
      XML.escape(a.title, into: &out)
      out += Array("</name><description>".utf8)
      XML.escape(description, into: &out)
      out += Array("</description>".utf8)
      if let t = a.takenAt { out += Array("<TimeStamp><when>\(t.iso8601)</when></TimeStamp>".utf8) }
      out += Array("<Point><coordinates>".utf8)
      out += Array(lonLat(a.coordinate, altitude: altitude).utf8)
      out += Array("</coordinates></Point></Placemark>\n".utf8)
    case .gpx:
      out += Array(
        "<wpt lat=\"\(CSV.number(a.coordinate.latitude, places: 7))\" lon=\"\(CSV.number(a.coordinate.longitude, places: 7))\">"
          .utf8)
      if let altitude, altitude.isFinite { out += Array("<ele>\(CSV.number(altitude, places: 2))</ele>".utf8) }
      if let instant = a.takenAt?.instant {
        out += Array("<time>\(CaptureDate(secondsSinceEpoch: instant, utcOffsetMinutes: 0).iso8601)</time>".utf8)
      }
      out += Array("<name>".utf8)
      XML.escape(a.title, into: &out)
      out += Array("</name><desc>".utf8)
      XML.escape(includePaths && a.path != nil ? a.subtitle + "\n" + (a.path ?? "") : a.subtitle, into: &out)
      out += Array("</desc>".utf8)
      if let url = a.url {
        out += Array("<link href=\"".utf8)
        XML.escape(url, into: &out)
        out += Array("\"/>".utf8)
      }
      out += Array("</wpt>\n".utf8)
    case .csv:
      let row = AnnotationDocument.csvRow(a, alongRoute: false, includePaths: includePaths)
      out += Array((row.map(CSV.field).joined(separator: ",") + "\r\n").utf8)
    }
  }

  public mutating func end(into out: inout [UInt8]) {
    switch format {
    case .geojson: out += Array("]}\n".utf8)
    case .kml: out += Array("</Document></kml>\n".utf8)
    case .gpx: out += Array("</gpx>\n".utf8)
    case .csv: break
    }
  }

  /// `lon,lat[,alt]` as KML writes a position.
  func lonLat(_ c: Coordinate, altitude: Double?) -> String {
    var text = CSV.number(c.longitude, places: 7) + "," + CSV.number(c.latitude, places: 7)
    if let altitude, altitude.isFinite { text += "," + CSV.number(altitude, places: 2) }
    return text
  }
}

/// XML text and attribute escaping.
enum XML {
  static func escape(_ text: String, into out: inout [UInt8]) {
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "&"): out += Array("&amp;".utf8)
      case UInt8(ascii: "<"): out += Array("&lt;".utf8)
      case UInt8(ascii: ">"): out += Array("&gt;".utf8)
      case UInt8(ascii: "\""): out += Array("&quot;".utf8)
      case 0x09, 0x0A, 0x0D: out.append(byte)
      case 0..<0x20: continue  // not allowed in XML 1.0
      default: out.append(byte)
      }
    }
  }
}
