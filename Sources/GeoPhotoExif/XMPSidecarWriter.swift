import Foundation
public import GeoPhotoCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A position to write into an XMP sidecar.
public struct XMPPosition: Equatable, Sendable {
  public var coordinate: Coordinate
  /// Metres above mean sea level (negative below), or nil when not known: then no altitude is
  /// written, and an old one is removed.
  public var altitude: Double?
  /// The instant of the fix, seconds since 1970 UTC, written as `exif:GPSTimeStamp`
  /// (`2024-05-02T08:41:10Z`, to the nearest second); nil when there is none (a hand placement).
  public var instant: Double?

  public init(coordinate: Coordinate, altitude: Double? = nil, instant: Double? = nil) {
    self.coordinate = coordinate
    self.altitude = altitude
    self.instant = instant
  }
}

/// Why a position was not written into a sidecar.
public enum XMPWriteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The position cannot be written (out of range, 0,0, not finite).
  case badPosition(String)
  /// The sidecar is refused before parsing: a DTD, not UTF-8, or what FoundationXML traps on.
  case refused(String)
  /// The sidecar is not well-formed XML.
  case notXML(String)
  /// The sidecar has no top-level `rdf:Description` to hold a position.
  case noDescription
  /// The Description the position would go into keeps a property of another namespace with a
  /// GPS name (`foo:GPSLatitude`): readers that go by local names could take either.
  case conflicting(String)
  /// The merged sidecar did not read back as the new position.
  case notVerified(String)

  public var description: String {
    switch self {
    case .badPosition(let why): "the position cannot be written: \(why)"
    case .refused(let why): "the sidecar is refused: it \(why)"
    case .notXML(let why): "the sidecar is not well-formed XML: \(why)"
    case .noDescription: "the sidecar has no rdf:Description to hold a position"
    case .conflicting(let name): "the sidecar's rdf:Description also holds \(name), which could be read as the position"
    case .notVerified(let why): "the merged sidecar does not read back as the new position: \(why)"
    }
  }
}

/// Writes a position into an XMP sidecar as the `exif` schema's GPS properties
/// (`GPSLatitude`/`GPSLongitude` as `GPSCoordinateText`, `GPSAltitude` as metres/1000 with
/// `GPSAltitudeRef`, `GPSTimeStamp` as a UTC date-time).
///
/// Into an existing sidecar it splices: every other byte stays as it was (other properties,
/// namespaces, comments, white space, the xpacket wrapper). The GPS properties geophoto owns
/// (`XMPTagScanner.owned`, in the namespace `http://ns.adobe.com/exif/1.0/` whatever its prefix)
/// are removed from every top-level Description, as attributes or elements, and the new ones go
/// into the first Description in the form it uses, with `xmlns:exif` declared there when no
/// prefix for it is in scope. A sidecar that is refused, is not XML or has no Description is
/// not merged into; every merge is read back with `XMPReader` and must give the new position.
/// A new sidecar is geophoto's own packet around the same properties (its tests read every
/// form back with `XMPReader` and exiftool).
public enum XMPSidecarWriter {
  /// The sidecar's bytes with `position` in it; a complete new packet when `existing` is nil.
  public static func merge(existing: [UInt8]?, position: XMPPosition) throws(XMPWriteError) -> [UInt8] {
    let properties = try self.properties(of: position)
    guard let existing else { return newPacket(properties) }
    let merged = try splice(properties, into: existing)
    try verify(merged, holds: position)
    return merged
  }

  /// The sidecar's bytes without a position: every GPS property removed, all else kept (an
  /// edit on the map undone). Read back: no position may remain.
  public static func removingPosition(from existing: [UInt8]) throws(XMPWriteError) -> [UInt8] {
    let removed = try splice([], into: existing)
    var damage = DamageLog()
    let read = XMPReader.read(removed, damage: &damage)
    if let first = damage.first { throw .notVerified("\(first)") }
    guard read.coordinate == nil else { throw .notVerified("a position is still read from it") }
    return removed
  }

  /// Whether the sidecar's bytes already give a position (as `XMPReader` reads them).
  public static func holdsPosition(_ bytes: [UInt8]) -> Bool { XMPReader.read(bytes)?.coordinate != nil }

  // MARK: Values

  /// The properties to write, by local name, in order.
  static func properties(of position: XMPPosition) throws(XMPWriteError) -> [(name: String, value: String)] {
    let c = position.coordinate
    guard let valid = Coordinate(validatingLatitude: c.latitude, longitude: c.longitude) else {
      throw .badPosition("\(c) is out of range")
    }
    guard valid.isPlausiblePhotoLocation else { throw .badPosition("0,0 is what GPS units write without a fix") }
    guard let latitude = GPSCoordinateText.text(valid.latitude, axis: .latitude),
      let longitude = GPSCoordinateText.text(valid.longitude, axis: .longitude)
    else { throw .badPosition("\(c) is out of range") }
    var properties = [("GPSLatitude", latitude), ("GPSLongitude", longitude)]
    if let altitude = position.altitude {
      // XMPReader ignores altitudes beyond 100 km: one it would drop is not written.
      guard altitude.isFinite, abs(altitude) <= 100_000 else {
        throw .badPosition("altitude \(altitude) m is not between -100 km and 100 km")
      }
      let millimetres = Int64((altitude * 1000).rounded())
      properties.append(("GPSAltitude", "\(millimetres.magnitude)/1000"))
      properties.append(("GPSAltitudeRef", millimetres < 0 ? "1" : "0"))
    }
    if let instant = position.instant {
      // 0001-01-01T00:00:00Z … 9999-12-31T23:59:59Z.
      guard instant.isFinite, instant >= -62_135_596_800, instant < 253_402_300_799.5 else {
        throw .badPosition("the instant \(instant) is not between the years 1 and 9999")
      }
      let date = CaptureDate(secondsSinceEpoch: Int(instant.rounded()), utcOffsetMinutes: 0)
      properties.append(("GPSTimeStamp", Self.utcText(date)))
    }
    return properties.map { (name: $0.0, value: $0.1) }
  }

  /// `2024-05-02T08:41:10Z`.
  static func utcText(_ d: CaptureDate) -> String {
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let year = String(d.year)
    return String(repeating: "0", count: max(0, 4 - year.count)) + year
      + "-\(two(d.month))-\(two(d.day))T\(two(d.hour)):\(two(d.minute)):\(two(d.second))Z"
  }

  // MARK: A new packet

  static func newPacket(_ properties: [(name: String, value: String)]) -> [UInt8] {
    var text = """
      <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
      <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="geophoto">
       <rdf:RDF xmlns:rdf="\(XMPTagScanner.rdfURI)">
        <rdf:Description rdf:about=""
          xmlns:exif="\(XMPTagScanner.exifURI)">

      """
    for (name, value) in properties { text += "   <exif:\(name)>\(value)</exif:\(name)>\n" }
    text += """
        </rdf:Description>
       </rdf:RDF>
      </x:xmpmeta>
      <?xpacket end="w"?>

      """
    return Array(text.utf8)
  }

  // MARK: Merging

  static func splice(_ properties: [(name: String, value: String)], into bytes: [UInt8]) throws(XMPWriteError)
    -> [UInt8]
  {
    try precheck(bytes)
    // The scanner first: it is linear and refuses what makes XMLParser slow (an unclosed comment,
    // thousands of attributes on one tag) before XMLParser sees it.
    let plan: XMPTagScanner.Plan
    do {
      plan = try XMPTagScanner.scan(bytes)
    } catch {
      throw .notXML("\(error.reason) (byte \(error.offset))")
    }
    try parse(bytes)
    guard let target = plan.target else { throw .noDescription }
    if let name = target.conflictingAttribute { throw .conflicting(name) }

    var prefix = target.exifPrefix
    var declaration: [UInt8] = []
    if prefix == nil && !properties.isEmpty {
      // A prefix that changes the meaning of no name in the packet.
      var candidate = "exif"
      var n = 1
      while !plan.isFree(Array(candidate.utf8)) {
        n += 1
        candidate = "exif\(n)"
      }
      prefix = Array(candidate.utf8)
      declaration = Array("xmlns:\(candidate)=\"\(XMPTagScanner.exifURI)\"".utf8)
    }
    let p = String(decoding: prefix ?? [], as: UTF8.self)

    var edits: [(range: Range<Int>, text: [UInt8])] = plan.removals.map { ($0, []) }
    let separator = target.attributeSeparator
    let asAttributes = target.usesAttributes || target.isEmptyElement
    var inTag: [UInt8] = []
    if !declaration.isEmpty { inTag += separator + declaration }
    if asAttributes {
      for (name, value) in properties { inTag += separator + Array("\(p):\(name)=\"\(value)\"".utf8) }
    } else {
      // Each element on a line of its own, indented as the Description's first child is.
      var space = target.tagEnd
      while space < bytes.count,
        bytes[space] == 0x20 || bytes[space] == 0x09 || bytes[space] == 0x0A
          || bytes[space] == 0x0D
      {
        space += 1
      }
      var lead = Array(bytes[target.tagEnd..<space])
      if let newline = bytes[target.tagEnd..<space].lastIndex(of: 0x0A) {
        let from = newline > target.tagEnd && bytes[newline - 1] == 0x0D ? newline - 1 : newline
        lead = Array(bytes[from..<space])
      }
      var children: [UInt8] = []
      for (name, value) in properties { children += lead + Array("<\(p):\(name)>\(value)</\(p):\(name)>".utf8) }
      edits.append((target.tagEnd..<target.tagEnd, children))
    }
    if !inTag.isEmpty { edits.append((target.attributesEnd..<target.attributesEnd, inTag)) }

    // Sorted by where they start, an insertion before a removal at the same place.
    edits.sort { a, b in
      a.range.lowerBound != b.range.lowerBound
        ? a.range.lowerBound < b.range.lowerBound : a.range.upperBound < b.range.upperBound
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 512)
    var at = 0
    for edit in edits {
      // The scanner's ranges are in order and apart; never copy backwards if they were not.
      guard edit.range.lowerBound >= at, edit.range.upperBound <= bytes.count else {
        throw .notXML("overlapping edits at byte \(edit.range.lowerBound)")
      }
      out += bytes[at..<edit.range.lowerBound]
      out += edit.text
      at = edit.range.upperBound
    }
    out += bytes[at...]
    return out
  }

  /// Refuses bytes XMLParser must not see.
  static func precheck(_ bytes: [UInt8]) throws(XMPWriteError) {
    if let problem = XMLPrecheck.problem(in: bytes) { throw .refused(problem) }
    // UTF-16 and UTF-32 packets are valid UTF-8 when their text is ASCII; splicing UTF-8 into
    // them would break them.
    if bytes.contains(0) { throw .refused("is not UTF-8 text (it holds zero bytes)") }
  }

  /// Refuses bytes XMLParser does not take as well-formed XML.
  static func parse(_ bytes: [UInt8]) throws(XMPWriteError) {
    let parser = XMLParser(data: Data(bytes))
    parser.shouldResolveExternalEntities = false
    if !parser.parse() {
      let reason = (parser.parserError as? NSError)?.localizedDescription ?? "not well-formed"
      throw .notXML("line \(parser.lineNumber): \(LogText.escaped(reason))")
    }
  }

  /// Refuses `bytes` unless XMPReader reads them back as `position`.
  static func verify(_ bytes: [UInt8], holds position: XMPPosition) throws(XMPWriteError) {
    var damage = DamageLog()
    let read = XMPReader.read(bytes, damage: &damage)
    if let first = damage.first { throw .notVerified("\(first)") }
    guard let c = read.coordinate else { throw .notVerified("no position is read from it") }
    let dLat = abs(c.latitude - position.coordinate.latitude)
    var dLon = abs(c.longitude - position.coordinate.longitude)
    dLon = min(dLon, 360 - dLon)
    guard dLat <= 1e-7, dLon <= 1e-7 else { throw .notVerified("it reads as \(c)") }
    switch (position.altitude, read.altitude) {
    case (nil, nil): break
    case (let a?, let b?) where abs(a - b) <= 0.0006: break
    case (_, let b): throw .notVerified("its altitude reads as \(b.map { "\($0) m" } ?? "none")")
    }
  }
}
