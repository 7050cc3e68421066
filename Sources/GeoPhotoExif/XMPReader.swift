import Foundation
public import GeoPhotoCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// What geophoto takes from an XMP packet (embedded or a sidecar file).
public struct XMPMetadata: Equatable, Sendable {
  public var coordinate: Coordinate?
  public var altitude: Double?
  public var title: String?
  public var takenAt: CaptureDate?
  /// `dc:description` (its first language alternative).
  public var description: String?
  /// `dc:subject` and every level of `lr:hierarchicalSubject` (`Places|Japan|Kyoto`), in
  /// order, without repeats.
  public var keywords: [String] = []

  public init() {}
}

/// Reads XMP with FoundationXML's XMLParser: `exif:GPSLatitude`/`GPSLongitude` in the
/// degree-minute forms of the XMP specification (`35,40.8N`, `51,15,17.5N`) and as decimals
/// with separate `GPSLatitudeRef`/`GPSLongitudeRef` (as Apple writes them), `exif:GPSAltitude`,
/// `dc:title`, `dc:description`, keywords from `dc:subject` and `lr:hierarchicalSubject`, and
/// the capture time from `photoshop:DateCreated`, `exif:DateTimeOriginal` or `xmp:CreateDate`. Values may be attributes or elements. DTDs are refused.
///
/// The position is the top-level `exif:GPS*` properties', or else those inside the IPTC
/// Extension's `Iptc4xmpExt:LocationCreated`; never those inside `LocationShown`, which say
/// where the subject is, not where the photo was taken.
public enum XMPReader {
  public static func read(_ bytes: [UInt8]) -> XMPMetadata? {
    // Packets may carry padding or a BOM before <?xpacket; the parser wants the document.
    guard let start = bytes.firstRange(of: Array("<".utf8))?.lowerBound else { return nil }
    let body = Array(bytes[start...])
    guard XMLPrecheck.problem(in: body) == nil else { return nil }
    let collector = Collector()
    let parser = XMLParser(data: Data(body))
    parser.shouldResolveExternalEntities = false
    parser.delegate = collector
    _ = parser.parse()  // a packet cut short still yields what came before
    return collector.result()
  }

  /// `51,15.291100N`, `51,15,17.5N`, `47.675403` (sign from `ref`), `-33.8` → signed degrees.
  static func degrees(_ text: String, ref: String?) -> Double? {
    var t = text.trimmingCharacters(in: .whitespaces)
    var hemisphere = ref?.trimmingCharacters(in: .whitespaces).uppercased().first
    if let last = t.uppercased().last, "NSEW".contains(last) {
      hemisphere = last
      t.removeLast()
    }
    let parts = t.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ ($0 ?? .nan).isFinite }) else { return nil }
    var value = 0.0
    for (k, part) in parts.enumerated() { value += (part ?? 0) / [1.0, 60.0, 3600.0][k] }
    if let h = hemisphere, h == "S" || h == "W" { value = -abs(value) }
    return value
  }

  final class Collector: NSObject, XMLParserDelegate {
    var values: [String: String] = [:]
    /// GPS values inside `Iptc4xmpExt:LocationCreated`, used when the top level has none.
    var created: [String: String] = [:]
    private var stack: [String] = []
    private var text = ""
    private var inTitle = false
    private var inDescription = false
    /// Inside `dc:subject` (plain keywords) or `lr:hierarchicalSubject` (levels split on `|`).
    private var inKeywords: (hierarchical: Bool, depth: Int)?
    var keywords: [String] = []

    static let wanted: Set<String> = [
      "GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef", "GPSAltitude", "GPSAltitudeRef",
      "DateCreated", "DateTimeOriginal", "CreateDate",
    ]

    static func local(_ name: String) -> String { name.split(separator: ":").last.map(String.init) ?? name }

    /// Where a value found now belongs: the top level, `created`, or nowhere (`LocationShown`).
    private func store(_ name: String, _ value: String) {
      guard !stack.contains("LocationShown") || !name.hasPrefix("GPS") else { return }
      if name.hasPrefix("GPS") && stack.contains("LocationCreated") {
        if created[name] == nil { created[name] = value }
      } else if values[name] == nil {
        values[name] = value
      }
    }

    func parser(
      _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      let name = Self.local(element)
      stack.append(name)
      text = ""
      for (key, value) in attributes where Self.wanted.contains(Self.local(key)) { store(Self.local(key), value) }
      if name == "title" { inTitle = true }
      if name == "description", element.hasPrefix("dc:") || namespaceURI == "http://purl.org/dc/elements/1.1/" {
        inDescription = true
      }
      if name == "subject" || name == "hierarchicalSubject" {
        inKeywords = (name == "hierarchicalSubject", stack.count)
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
      let name = Self.local(element)
      let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if Self.wanted.contains(name), !value.isEmpty { store(name, value) }
      if inTitle, name == "li", !value.isEmpty, values["title"] == nil { values["title"] = value }
      if name == "title" {
        if !value.isEmpty, values["title"] == nil { values["title"] = value }
        inTitle = false
      }
      if inDescription, name == "li", !value.isEmpty, values["dc:description"] == nil {
        values["dc:description"] = value
      }
      if name == "description", inDescription {
        if !value.isEmpty, values["dc:description"] == nil { values["dc:description"] = value }
        inDescription = false
      }
      if let k = inKeywords {
        if name == "li", !value.isEmpty {
          let words = k.hierarchical ? value.split(separator: "|").map(String.init) : [value]
          for word in words.map({ $0.trimmingCharacters(in: .whitespaces) }) where !word.isEmpty {
            if !keywords.contains(word) { keywords.append(word) }
          }
        }
        if stack.count == k.depth { inKeywords = nil }
      }
      text = ""
      _ = stack.popLast()
    }

    func result() -> XMPMetadata? {
      if values["GPSLatitude"] == nil || values["GPSLongitude"] == nil {
        for key in Self.wanted where key.hasPrefix("GPS") { values[key] = created[key] }
      }
      var m = XMPMetadata()
      if let lat = values["GPSLatitude"].flatMap({ XMPReader.degrees($0, ref: values["GPSLatitudeRef"]) }),
        let lon = values["GPSLongitude"].flatMap({ XMPReader.degrees($0, ref: values["GPSLongitudeRef"]) }),
        let c = Coordinate(validatingLatitude: lat, longitude: lon), c.isPlausiblePhotoLocation
      {
        m.coordinate = c
        if let text = values["GPSAltitude"] {
          let parts = text.split(separator: "/").map { Double($0) }
          var altitude: Double?
          if parts.count == 2, let n = parts[0], let d = parts[1], d != 0 { altitude = n / d }
          if parts.count == 1 { altitude = parts[0] ?? nil }
          if let a = altitude, a.isFinite, abs(a) <= 100_000 { m.altitude = values["GPSAltitudeRef"] == "1" ? -a : a }
        }
      }
      m.title = values["title"]
      m.description = values["dc:description"]
      m.keywords = keywords
      for key in ["DateTimeOriginal", "DateCreated", "CreateDate"] {
        if let text = values[key], let date = XMPReader.date(text) {
          m.takenAt = date
          break
        }
      }
      return m == XMPMetadata() ? nil : m
    }
  }

  /// ISO 8601 as XMP writes it: `2020-01-01T17:28:23`, with fractions, `Z` or `±HH:MM`.
  static func date(_ text: String) -> CaptureDate? {
    var t = Substring(text.trimmingCharacters(in: .whitespaces))
    var offset: Int?
    if t.hasSuffix("Z") {
      offset = 0
      t = t.dropLast()
    } else if t.count > 19, let o = CaptureDate.parseOffset(String(t.suffix(6))) {
      offset = o
      t = t.dropLast(6)
    }
    if let dot = t.firstIndex(of: ".") { t = t[..<dot] }
    guard var date = CaptureDate(exif: t.count == 10 ? String(t) + " 00:00:00" : String(t)) else { return nil }
    date.utcOffsetMinutes = offset
    return date
  }
}
