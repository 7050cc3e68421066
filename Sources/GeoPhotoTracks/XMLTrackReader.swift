import CGeoPhotoExpat
import Foundation
import GeoPhotoCore

/// Tracks written as XML, told apart by their root element:
///
/// - **GPX** 1.0 and 1.1: track points (`trkpt`, with `ele` and `time`) and waypoints with a
///   time (`wpt`); route points have no times and are no fixes;
/// - **KML** 2.2: `gx:Track` (its `when`s and `gx:coord`s paired in order, interleaved or
///   grouped), Placemarks with a `TimeStamp` and a `Point`, and Placemarks with a `TimeSpan`: a
///   `Point` is a visit over the span, a `LineString` is spread evenly over it (as exiftool
///   does). Altitudes only where the `altitudeMode` is absolute (KML's default clamps to ground);
/// - **Garmin TCX** (`TrainingCenterDatabase`: activities' `Trackpoint`s with `Time`,
///   `Position/LatitudeDegrees`, `LongitudeDegrees`, `AltitudeMeters`) and Garmin's older
///   logbook (`History`: `Position/Latitude`, `Longitude`, `Altitude`).
///
/// Elements are matched by local name, so documents with or without namespaces read alike. A
/// document declared ISO-8859-1 is read as such. Points without a time, or with a position out
/// of range, are skipped and counted; a document that is not XML, has a DTD, or holds no fix is
/// refused, naming its line.
public enum XMLTrackReader {
  public enum Kind: String, Sendable {
    case gpx = "GPX"
    case kml = "KML"
    case tcx = "TCX"
    case garminLogbook = "Garmin logbook"
  }

  /// The kind of XML track whose first bytes these are, from its root element; nil for none.
  public static func kind(head: [UInt8]) -> Kind? {
    var i = 0
    // Past the declaration, comments and processing instructions to the first element.
    while i < head.count {
      guard let open = head[i...].firstIndex(of: UInt8(ascii: "<")), open + 1 < head.count else { return nil }
      let next = head[open + 1]
      if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") {
        guard let close = head[open...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        i = close + 1
        continue
      }
      let name = head[(open + 1)...].prefix { !(" \t\r\n/>".utf8.contains($0)) }
      let local = name.split(separator: UInt8(ascii: ":")).last.map { String(decoding: $0, as: UTF8.self) }
      switch local {
      case "gpx": return .gpx
      case "kml": return .kml
      case "TrainingCenterDatabase": return .tcx
      case "History": return .garminLogbook
      default: return nil
      }
    }
    return nil
  }

  public static func read(_ bytes: [UInt8], name: String) throws(TrackReadError) -> TrackContents {
    let document = utf8Document(bytes)
    if let problem = XMLPrecheck.problem(in: document) { throw TrackReadError(name, "the XML \(problem)") }
    guard let kind = kind(head: Array(document.prefix(4_096))) else {
      throw TrackReadError(name, "not a GPX, KML or TCX document")
    }
    let collector = Collector(kind: kind)
    guard let parser = XML_ParserCreate(nil) else { throw TrackReadError(name, "the XML parser could not start") }
    defer { XML_ParserFree(parser) }
    XML_SetUserData(parser, Unmanaged.passUnretained(collector).toOpaque())
    XML_SetElementHandler(
      parser,
      { context, name, attributes in
        guard let context, let name else { return }
        let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
        var pairs: [String: String] = [:]
        var i = 0
        while let key = attributes?[i], let value = attributes?[i + 1] {
          pairs[String(cString: key)] = String(cString: value)
          i += 2
        }
        collector.start(String(cString: name), attributes: pairs)
      },
      { context, name in
        guard let context, let name else { return }
        Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().end(String(cString: name))
      })
    XML_SetCharacterDataHandler(parser) { context, text, length in
      guard let context, let text, length > 0 else { return }
      let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
      guard collector.collecting else { return }
      text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
        collector.characters(String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self))
      }
    }
    // Fed a megabyte at a time.
    let ok = document.withUnsafeBufferPointer { all -> Bool in
      var offset = 0
      repeat {
        let count = min(1 << 20, all.count - offset)
        let last: Int32 = offset + count >= all.count ? 1 : 0
        let status =
          all.baseAddress.map { base in
            base.advanced(by: offset).withMemoryRebound(to: CChar.self, capacity: count) {
              XML_Parse(parser, $0, Int32(count), last)
            }
          } ?? XML_Parse(parser, nil, 0, 1)
        guard status == XML_STATUS_OK else { return false }
        offset += count
      } while offset < all.count
      return true
    }
    guard ok else {
      throw TrackReadError(name, line: Int(XML_GetCurrentLineNumber(parser)), "malformed XML")
    }
    var contents = TrackContents(fixes: collector.fixes, visits: collector.visits)
    if collector.untimed > 0 { contents.notes.append("\(collector.untimed) points without a time skipped") }
    if collector.outOfRange > 0 { contents.notes.append("\(collector.outOfRange) points out of range skipped") }
    if collector.zoneless > 0 { contents.notes.append("\(collector.zoneless) times without a zone read as UTC") }
    if collector.unpaired > 0 {
      contents.notes.append("\(collector.unpaired) gx:Track times or coordinates without a partner skipped")
    }
    guard !contents.fixes.isEmpty || !contents.visits.isEmpty else {
      throw TrackReadError(name, "no point with a time and a position in this \(kind.rawValue) document")
    }
    return contents
  }

  /// The document as UTF-8: a byte-order mark dropped, and a document declared ISO-8859-1
  /// (or Latin-1) transcoded, its declaration then saying UTF-8.
  static func utf8Document(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.prefix(200).firstIndex(of: UInt8(ascii: ">"))
    else { return bytes }
    let declaration = String(decoding: bytes[..<end], as: UTF8.self)
    let latin1 = ["iso-8859-1", "latin1", "latin-1", "iso8859-1", "us-ascii"].contains {
      declaration.lowercased().contains("encoding=\"\($0)\"") || declaration.lowercased().contains("encoding='\($0)'")
    }
    guard latin1 else { return bytes }
    var document = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?".utf8)
    document.reserveCapacity(bytes.count - end + 64)
    for byte in bytes[end...] {
      if byte < 0x80 {
        document.append(byte)
      } else {
        document.append(0xC0 | byte >> 6)
        document.append(0x80 | byte & 0x3F)
      }
    }
    return document
  }

  /// The parser's delegate: fixes and visits gathered as elements end.
  final class Collector {
    let kind: Kind
    var fixes: [Fix] = []
    var visits: [Visit] = []
    var untimed = 0
    var outOfRange = 0
    var zoneless = 0
    var unpaired = 0

    /// Local names of the open elements.
    private var path: [String] = []
    private var text = ""
    private(set) var collecting = false
    /// The point being read: its position from attributes or child elements, its time and altitude.
    private var latitude: Double?
    private var longitude: Double?
    private var altitude: Double?
    private var time: Double?
    /// KML: a gx:Track's times and coordinates, a Placemark's stamp, span, point, line and mode.
    private var whens: [Double?] = []
    private var coords: [(Coordinate, Double?)?] = []
    private var stamp: Double?
    private var span: (begin: Double?, end: Double?) = (nil, nil)
    private var point: (Coordinate, Double?)?
    private var line: [(Coordinate, Double?)] = []
    private var absolute = false

    init(kind: Kind) { self.kind = kind }

    func start(_ element: String, attributes: [String: String]) {
      let local = Self.local(element)
      path.append(local)
      text = ""
      collecting = false
      switch (kind, local) {
      case (.gpx, "trkpt"), (.gpx, "wpt"):
        reset()
        latitude = attributes["lat"].flatMap(Self.number)
        longitude = attributes["lon"].flatMap(Self.number)
      case (.tcx, "Trackpoint"), (.garminLogbook, "Trackpoint"):
        reset()
      case (.kml, "Placemark"):
        stamp = nil
        span = (nil, nil)
        point = nil
        line = []
        absolute = false
      case (.kml, "Track"):
        whens = []
        coords = []
      default:
        collecting = true
      }
    }

    func characters(_ string: String) {
      if collecting { text += string }
    }

    func end(_ element: String) {
      let local = Self.local(element)
      let parent = path.count >= 2 ? path[path.count - 2] : ""
      defer {
        path.removeLast()
        text = ""
      }
      switch kind {
      case .gpx: endGPX(local)
      case .tcx, .garminLogbook: endGarmin(local, parent: parent)
      case .kml: endKML(local, parent: parent)
      }
    }

    private func endGPX(_ local: String) {
      switch local {
      case "ele": altitude = Self.number(text)
      case "time": time = instant(text)
      case "trkpt", "wpt": emit(untimedCounts: local == "trkpt")
      default: break
      }
    }

    private func endGarmin(_ local: String, parent: String) {
      switch local {
      case "Time": time = instant(text)
      case "LatitudeDegrees": latitude = Self.number(text)
      case "LongitudeDegrees": longitude = Self.number(text)
      case "Latitude" where parent == "Position": latitude = Self.number(text)
      case "Longitude" where parent == "Position": longitude = Self.number(text)
      case "AltitudeMeters", "Altitude": altitude = Self.number(text)
      case "Trackpoint": emit(untimedCounts: latitude != nil || longitude != nil)
      default: break
      }
    }

    private func endKML(_ local: String, parent: String) {
      switch local {
      case "when" where parent == "Track": whens.append(instant(text))
      case "coord" where parent == "Track": coords.append(Self.coordinate(text, separator: " ", absolute: true))
      case "Track":
        if whens.count != coords.count { unpaired += abs(whens.count - coords.count) }
        for (when, coord) in zip(whens, coords) {
          guard let when, let coord else {
            if when == nil { untimed += 1 } else { outOfRange += 1 }
            continue
          }
          fixes.append(Fix(time: when, coordinate: coord.0, altitude: absolute ? coord.1 : nil))
        }
        whens = []
        coords = []
      case "when" where parent == "TimeStamp": stamp = instant(text)
      case "begin" where parent == "TimeSpan": span.begin = instant(text)
      case "end" where parent == "TimeSpan": span.end = instant(text)
      case "altitudeMode": absolute = Self.trimmed(text) == "absolute"
      case "coordinates" where parent == "Point":
        point = Self.coordinate(text, separator: ",", absolute: true)
        if point == nil { outOfRange += 1 }
      case "coordinates" where parent == "LineString":
        line = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).compactMap {
          Self.coordinate($0, separator: ",", absolute: true)
        }
      case "Placemark":
        placemark()
      default: break
      }
    }

    /// A Placemark's point at its stamp, its point as a visit over its span, or its line
    /// spread evenly over its span.
    private func placemark() {
      let altitude = { (c: (Coordinate, Double?)) in self.absolute ? c.1 : nil }
      if let stamp, let point {
        fixes.append(Fix(time: stamp, coordinate: point.0, altitude: altitude(point)))
      } else if let begin = span.begin, let end = span.end, begin <= end {
        if let point {
          visits.append(Visit(start: begin, end: end, coordinate: point.0))
        } else if line.count == 1 {
          visits.append(Visit(start: begin, end: end, coordinate: line[0].0))
        } else if line.count > 1 {
          let step = (end - begin) / Double(line.count - 1)
          for (i, c) in line.enumerated() {
            fixes.append(Fix(time: begin + step * Double(i), coordinate: c.0, altitude: altitude(c)))
          }
        }
      } else if point != nil || !line.isEmpty {
        untimed += 1
      }
    }

    private func reset() {
      latitude = nil
      longitude = nil
      altitude = nil
      time = nil
    }

    private func emit(untimedCounts: Bool) {
      guard let latitude, let longitude, let coordinate = Coordinate(validatingLatitude: latitude, longitude: longitude)
      else {
        if latitude != nil || longitude != nil { outOfRange += 1 }
        return
      }
      guard let time else {
        if untimedCounts { untimed += 1 }
        return
      }
      fixes.append(Fix(time: time, coordinate: coordinate, altitude: altitude))
    }

    private func instant(_ text: String) -> Double? {
      var trimmed = String(Self.trimmed(text))
      guard let time = trimmed.withUTF8({ TrackTime(utf8: $0) }) else { return nil }
      if !time.zoned { zoneless += 1 }
      return time.seconds
    }

    /// The text without white space around it (ASCII's, as XML's is).
    static func trimmed(_ text: some StringProtocol) -> Substring {
      var t = Substring(text)
      while let c = t.utf8.first, c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D { t = t.dropFirst() }
      while let c = t.utf8.last, c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D { t = t.dropLast() }
      return t
    }

    static func local(_ name: String) -> String {
      guard let colon = name.lastIndex(of: ":") else { return name }
      return String(name[name.index(after: colon)...])
    }

    /// A finite number (Swift reads `nan` and `inf` as numbers too).
    static func number(_ text: some StringProtocol) -> Double? {
      Double(Self.trimmed(text)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// KML's `lon,lat[,alt]` (a Point's or a line's) or `lon lat alt` (a gx:coord).
    static func coordinate(_ text: some StringProtocol, separator: Character, absolute: Bool) -> (Coordinate, Double?)?
    {
      let parts = Self.trimmed(text).split(separator: separator)
      guard parts.count >= 2, let lon = number(parts[0]), let lat = number(parts[1]),
        let c = Coordinate(validatingLatitude: lat, longitude: lon)
      else { return nil }
      return (c, parts.count >= 3 ? number(parts[2]) : nil)
    }
  }
}
