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
    guard let kind = kind(head: Array(document.prefix(4_096))) else {
      throw TrackReadError(name, "not a GPX, KML or TCX document")
    }
    guard let parser = XML_ParserCreate(nil) else { throw TrackReadError(name, "the XML parser could not start") }
    defer { XML_ParserFree(parser) }
    let collector = Collector(kind: kind, parser: parser)
    XML_SetUserData(parser, Unmanaged.passUnretained(collector).toOpaque())
    XML_SetElementHandler(
      parser,
      { context, name, attributes in
        guard let context, let name else { return }
        Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().start(
          XMLTrackElement(qualifiedName: name), attributes: attributes)
      },
      { context, _ in
        guard let context else { return }
        Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().end()
      })
    XML_SetCharacterDataHandler(parser) { context, text, length in
      guard let context, let text, length > 0 else { return }
      let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
      guard collector.collecting else { return }
      text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
        collector.text.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(length)))
      }
    }
    // A document type definition is refused (internal entities are how entity bombs grow):
    // the parse stops at its start.
    XML_SetStartDoctypeDeclHandler(parser) { context, _, _, _, _ in
      guard let context else { return }
      Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().refuse("has a document type definition")
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
    if let refusal = collector.refusal { throw TrackReadError(name, "the XML \(refusal)") }
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

  /// The parser's delegate: fixes and visits gathered as elements end. It sees the parser's
  /// bytes: elements by `XMLTrackElement`, text as bytes, numbers and times read from them.
  final class Collector {
    let kind: Kind
    let parser: XML_Parser
    var fixes: [Fix] = []
    var visits: [Visit] = []
    var untimed = 0
    var outOfRange = 0
    var zoneless = 0
    var unpaired = 0
    /// Why the document was refused while parsing (the parse is then stopped).
    private(set) var refusal: String?

    /// The open elements.
    private var path: [XMLTrackElement] = []
    /// The text of the innermost open element, when it is one whose text is read.
    var text: [UInt8] = []
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

    init(kind: Kind, parser: XML_Parser) {
      self.kind = kind
      self.parser = parser
      text.reserveCapacity(256)
    }

    func refuse(_ reason: String) {
      refusal = refusal ?? reason
      XML_StopParser(parser, XML_FALSE)
    }

    func start(_ element: XMLTrackElement, attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?) {
      path.append(element)
      text.removeAll(keepingCapacity: true)
      collecting = element.holdsText
      switch (kind, element) {
      case (.gpx, .trkpt), (.gpx, .wpt):
        reset()
        var i = 0
        while let key = attributes?[i], let value = attributes?[i + 1] {
          switch XMLTrackElement.attribute(key) {
          case .latitude: latitude = Self.number(cString: value)
          case .longitude: longitude = Self.number(cString: value)
          case .none: break
          }
          i += 2
        }
      case (.tcx, .trackpoint), (.garminLogbook, .trackpoint):
        reset()
      case (.kml, .placemark):
        stamp = nil
        span = (nil, nil)
        point = nil
        line = []
        absolute = false
      case (.kml, .track):
        whens = []
        coords = []
      default: break
      }
    }

    func end() {
      guard let element = path.popLast() else { return }
      let parent = path.last ?? .other
      defer {
        text.removeAll(keepingCapacity: true)
        collecting = false
      }
      switch kind {
      case .gpx: endGPX(element)
      case .tcx, .garminLogbook: endGarmin(element, parent: parent)
      case .kml: endKML(element, parent: parent)
      }
    }

    private func endGPX(_ element: XMLTrackElement) {
      switch element {
      case .ele: altitude = number()
      case .time: time = instant()
      case .trkpt, .wpt: emit(untimedCounts: element == .trkpt)
      default: break
      }
    }

    private func endGarmin(_ element: XMLTrackElement, parent: XMLTrackElement) {
      switch element {
      case .capitalTime: time = instant()
      case .latitudeDegrees: latitude = number()
      case .longitudeDegrees: longitude = number()
      case .latitude where parent == .position: latitude = number()
      case .longitude where parent == .position: longitude = number()
      case .altitudeMeters, .altitude: altitude = number()
      case .trackpoint: emit(untimedCounts: latitude != nil || longitude != nil)
      default: break
      }
    }

    private func endKML(_ element: XMLTrackElement, parent: XMLTrackElement) {
      switch element {
      case .when where parent == .track: whens.append(instant())
      case .coord where parent == .track: coords.append(Self.coordinate(string(), separator: " ", absolute: true))
      case .track:
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
      case .when where parent == .timeStamp: stamp = instant()
      case .begin where parent == .timeSpan: span.begin = instant()
      case .end where parent == .timeSpan: span.end = instant()
      case .altitudeMode: absolute = Self.trimmed(string()) == "absolute"
      case .coordinates where parent == .point:
        point = Self.coordinate(string(), separator: ",", absolute: true)
        if point == nil { outOfRange += 1 }
      case .coordinates where parent == .lineString:
        line = string().split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).compactMap {
          Self.coordinate($0, separator: ",", absolute: true)
        }
      case .placemark:
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

    /// The element's text as a string (KML's coordinate lists and modes).
    private func string() -> String { String(decoding: text, as: UTF8.self) }

    /// The element's text as a finite number.
    private func number() -> Double? {
      text.withUnsafeBufferPointer { DecimalNumber.finite(Self.trimmed($0)) }
    }

    /// The element's text as an instant (a time without a zone is read as UTC and counted).
    private func instant() -> Double? {
      guard let time = text.withUnsafeBufferPointer({ TrackTime(utf8: Self.trimmed($0)) }) else { return nil }
      if !time.zoned { zoneless += 1 }
      return time.seconds
    }

    /// `bytes` without XML's white space (ASCII's) around them.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
      func space(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }
      var lower = 0
      var upper = bytes.count
      while lower < upper, space(bytes[lower]) { lower += 1 }
      while upper > lower, space(bytes[upper - 1]) { upper -= 1 }
      return UnsafeBufferPointer(rebasing: bytes[lower..<upper])
    }

    /// A finite number written in the NUL-terminated `value` (an attribute's).
    static func number(cString value: UnsafePointer<CChar>) -> Double? {
      value.withMemoryRebound(to: UInt8.self, capacity: 1) { start in
        var count = 0
        while start[count] != 0 { count += 1 }
        return DecimalNumber.finite(trimmed(UnsafeBufferPointer(start: start, count: count)))
      }
    }

    /// The text without white space around it (ASCII's, as XML's is).
    static func trimmed(_ text: some StringProtocol) -> Substring {
      var t = Substring(text)
      while let c = t.utf8.first, c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D { t = t.dropFirst() }
      while let c = t.utf8.last, c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D { t = t.dropLast() }
      return t
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
