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
    var damage = DamageLog()
    let metadata = read(bytes, damage: &damage)
    return metadata == XMPMetadata() ? nil : metadata
  }

  /// What the packet says, with what is wrong with it noted in `damage` (not XML, a refused
  /// construct, a parse error and its line); a packet cut short still yields what came
  /// before the damage.
  public static func read(_ bytes: [UInt8], damage: inout DamageLog) -> XMPMetadata {
    guard let body = document(bytes) else {
      damage.note("the XMP packet holds no XML")
      return XMPMetadata()
    }
    if let problem = XMLPrecheck.problem(in: body) {
      damage.note("the XMP packet is refused: \(problem)")
      return XMPMetadata()
    }
    let collector = Collector()
    let parser = XMLParser(data: Data(body))
    parser.shouldResolveExternalEntities = false
    parser.delegate = collector
    if !parser.parse() {
      let reason = (parser.parserError as? NSError)?.localizedDescription ?? "not well-formed"
      damage.note("the XMP packet is damaged at line \(parser.lineNumber): \(LogText.escaped(reason))")
    }
    return collector.result()
  }

  /// The packet's XML as UTF-8, from its first `<` to its last non-blank character: packets
  /// may carry a BOM or padding around `<?xpacket`, and may be UTF-16 or UTF-32 in either byte
  /// order (the XMP specification allows all five). The zero bytes around the first `<` say
  /// which; where both orders fit (ASCII reads the same in each), the one that decodes cleanly
  /// (the xpacket's BOM, any non-ASCII text) wins.
  static func document(_ bytes: [UInt8]) -> [UInt8]? {
    guard let lt = bytes.firstIndex(of: UInt8(ascii: "<")) else { return nil }
    func zero(_ i: Int) -> Bool { i >= 0 && i < bytes.count && bytes[i] == 0 }
    var candidates: [[UInt8]] = []
    if zero(lt - 1) && zero(lt - 2) && zero(lt - 3) {
      candidates.append(decode(bytes[(lt - 3)...], unit: 4, bigEndian: true))
    }
    if zero(lt + 1) && zero(lt + 2) && zero(lt + 3) {
      candidates.append(decode(bytes[lt...], unit: 4, bigEndian: false))
    }
    if candidates.isEmpty {
      if zero(lt - 1) { candidates.append(decode(bytes[(lt - 1)...], unit: 2, bigEndian: true)) }
      if zero(lt + 1) { candidates.append(decode(bytes[lt...], unit: 2, bigEndian: false)) }
    }
    let replacement = Array("\u{FFFD}".utf8)
    var text =
      candidates.min { a, b in a.ranges(of: replacement).count < b.ranges(of: replacement).count }
      ?? Array(bytes[lt...])
    while let last = text.last, last == 0 || last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 {
      text.removeLast()
    }
    return text.isEmpty ? nil : text
  }

  /// UTF-16 or UTF-32 text as UTF-8 (what does not decode becomes U+FFFD).
  static func decode(_ bytes: ArraySlice<UInt8>, unit: Int, bigEndian: Bool) -> [UInt8] {
    var units: [UInt32] = []
    units.reserveCapacity(bytes.count / unit)
    var i = bytes.startIndex
    while bytes.endIndex - i >= unit {
      units.append(UInt32(ByteCursor.number(bytes[i..<(i + unit)], at: 0, size: unit, bigEndian: bigEndian) ?? 0))
      i += unit
    }
    let string =
      unit == 2
      ? String(decoding: units.map { UInt16(truncatingIfNeeded: $0) }, as: UTF16.self)
      : String(String.UnicodeScalarView(units.map { Unicode.Scalar($0) ?? "\u{FFFD}" }))
    return Array(string.utf8)
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

    func result() -> XMPMetadata {
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
      return m
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
