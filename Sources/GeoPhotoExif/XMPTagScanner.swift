/// A byte-level reader of an XMP packet's tags, for editing it in place: it finds the GPS
/// properties geophoto owns in every top-level `rdf:Description` (attributes or child elements,
/// their prefixes resolved by namespace URI through a stack of `xmlns` scopes) and where new
/// ones go in the first Description, as byte ranges of the original packet.
///
/// Comments, CDATA sections and processing instructions are skipped whole, and attribute
/// values may use either quote. Every index is checked before it is read, each byte is looked at
/// a bounded number of times, and nesting deeper than `maximumDepth` is refused, so no input
/// makes it trap, hang or grow without bound. It is run only on packets XMLParser accepted; it
/// still refuses, rather than guesses at, anything it does not understand.
struct XMPTagScanner {
  static let exifURI = "http://ns.adobe.com/exif/1.0/"
  static let rdfURI = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  static let xmlURI = "http://www.w3.org/XML/1998/namespace"
  static let maximumDepth = 4096
  /// More attributes on one tag are refused: XMLParser (libxml2) checks them against each other,
  /// in time that grows with their square. Lightroom's attribute-form settings are some hundreds.
  static let maximumAttributes = 4096

  /// The exif properties geophoto writes, and the non-standard ones it replaces (Apple's
  /// decimal degrees come with `GPSLatitudeRef`/`GPSLongitudeRef`).
  static let owned: Set<[UInt8]> = Set(
    [
      "GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef", "GPSAltitude", "GPSAltitudeRef",
      "GPSTimeStamp",
    ].map { Array($0.utf8) })

  /// The local names XMPReader takes a position from, whatever their namespace.
  static let read: Set<[UInt8]> = Set(
    ["GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef", "GPSAltitude", "GPSAltitudeRef"].map {
      Array($0.utf8)
    })

  struct Failure: Error, Equatable {
    var reason: String
    var offset: Int
  }

  /// Where new properties go: the first top-level Description (the first without
  /// `rdf:nodeID` when there is one: a node ID names a resource other than the photo).
  struct Target: Equatable {
    /// The byte after the element's name in its start tag.
    var nameEnd: Int
    /// The byte after the last attribute's closing quote, or `nameEnd`.
    var attributesEnd: Int
    /// The white space before the last attribute (how this tag separates attributes), or " ".
    var attributeSeparator: [UInt8]
    /// The byte after the start tag's `>`.
    var tagEnd: Int
    var isEmptyElement: Bool
    /// Whether it holds properties as attributes (`exif:GPSLatitude="…"`).
    var usesAttributes: Bool
    /// A prefix bound to the exif namespace where the element is, when one is.
    var exifPrefix: [UInt8]?
    var hasNodeID: Bool
    /// An attribute it keeps that XMPReader, which goes by local names, would take for part of
    /// the position (`foo:GPSLatitude` in another namespace), if any.
    var conflictingAttribute: String?
  }

  /// What a scan found.
  struct Plan {
    /// Byte ranges to remove, in order, never overlapping: owned GPS properties with the white
    /// space before each.
    var removals: [Range<Int>] = []
    var target: Target?
    /// The namespaces each prefix is declared with anywhere in the packet.
    var bindings: [[UInt8]: Set<String>] = [:]
    /// Every prefix a name uses.
    var used: Set<[UInt8]> = []

    /// Whether declaring `prefix` for the exif namespace on the target changes the meaning of
    /// no name: it is declared only ever for that namespace, or neither declared nor used.
    func isFree(_ prefix: [UInt8]) -> Bool {
      guard let uris = bindings[prefix] else { return !used.contains(prefix) }
      return uris == [XMPTagScanner.exifURI]
    }
  }

  /// `other` is outside every `rdf:RDF`; `nested` is anything inside a top-level Description's
  /// property, or beside the Descriptions (an `rdf:Bag` with a node ID), which is never edited.
  private enum Role { case other, rdf, topDescription, ownedProperty, property, nested }

  private struct Frame {
    var name: Range<Int>
    var declared: [[UInt8]]
    var role: Role
    var removalStart: Int
  }

  private struct Attribute {
    var name: Range<Int>
    var value: Range<Int>
    /// From the white space before the name to after the closing quote.
    var whole: Range<Int>
  }

  let bytes: [UInt8]
  private var i = 0
  private var stack: [Frame] = []
  /// Each prefix's bindings, innermost last; the empty prefix is the default namespace.
  private var scope: [[UInt8]: [String]] = [:]
  private var plan = Plan()

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  static func scan(_ bytes: [UInt8]) throws(Failure) -> Plan {
    var scanner = XMPTagScanner(bytes)
    try scanner.run()
    return scanner.plan
  }

  // MARK: Bytes

  private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  /// Ends a name: white space, `/`, `>`, `=`, `<` or a quote.
  private static func endsName(_ b: UInt8) -> Bool {
    isSpace(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: ">") || b == UInt8(ascii: "=")
      || b == UInt8(ascii: "<") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
  }

  private func byte(_ k: Int) -> UInt8? { k >= 0 && k < bytes.count ? bytes[k] : nil }

  private func starts(with text: StaticString, at k: Int) -> Bool {
    let count = text.utf8CodeUnitCount
    guard k >= 0, count <= bytes.count - k else { return false }
    return text.withUTF8Buffer { needle in
      for j in 0..<count where bytes[k + j] != needle[j] { return false }
      return true
    }
  }

  /// The index of the first byte of `text` at or after `k`, or nil.
  private func find(_ text: StaticString, from k: Int) -> Int? {
    var j = max(0, k)
    let count = text.utf8CodeUnitCount
    while count <= bytes.count - j {
      if starts(with: text, at: j) { return j }
      j += 1
    }
    return nil
  }

  private func fail(_ reason: String, at offset: Int) -> Failure { Failure(reason: reason, offset: offset) }

  // MARK: Tokens

  private mutating func run() throws(Failure) {
    while i < bytes.count {
      guard bytes[i] == UInt8(ascii: "<") else {
        i += 1
        continue
      }
      if starts(with: "<!--", at: i) {
        guard let end = find("-->", from: i + 4) else { throw fail("a comment is not closed", at: i) }
        i = end + 3
      } else if starts(with: "<![CDATA[", at: i) {
        guard let end = find("]]>", from: i + 9) else { throw fail("a CDATA section is not closed", at: i) }
        i = end + 3
      } else if starts(with: "<?", at: i) {
        guard let end = find("?>", from: i + 2) else { throw fail("a processing instruction is not closed", at: i) }
        i = end + 2
      } else if starts(with: "<!", at: i) {
        throw fail("a declaration XMP does not use", at: i)
      } else if starts(with: "</", at: i) {
        try endTag()
      } else {
        try startTag()
      }
    }
    guard stack.isEmpty else { throw fail("an element is not closed", at: bytes.count) }
  }

  /// Reads a name at `i`; `i` moves past it.
  private mutating func name() throws(Failure) -> Range<Int> {
    let start = i
    while let b = byte(i), !Self.endsName(b) { i += 1 }
    guard i > start else { throw fail("a name is missing", at: start) }
    return start..<i
  }

  private mutating func skipSpace() { while let b = byte(i), Self.isSpace(b) { i += 1 } }

  private mutating func startTag() throws(Failure) {
    let tagStart = i
    i += 1
    let elementName = try name()
    var attributes: [Attribute] = []
    var isEmpty = false
    while true {
      let spaceStart = i
      skipSpace()
      guard let b = byte(i) else { throw fail("a tag is not closed", at: tagStart) }
      if b == UInt8(ascii: ">") {
        i += 1
        break
      }
      if b == UInt8(ascii: "/") {
        guard byte(i + 1) == UInt8(ascii: ">") else { throw fail("a stray / in a tag", at: i) }
        i += 2
        isEmpty = true
        break
      }
      guard i > spaceStart else { throw fail("attributes are not separated", at: i) }
      guard attributes.count < Self.maximumAttributes else {
        throw fail("a tag has more than \(Self.maximumAttributes) attributes", at: tagStart)
      }
      let attributeName = try name()
      skipSpace()
      guard byte(i) == UInt8(ascii: "=") else { throw fail("an attribute has no value", at: i) }
      i += 1
      skipSpace()
      guard let quote = byte(i), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
        throw fail("an attribute value is not quoted", at: i)
      }
      let valueStart = i + 1
      var end = valueStart
      while let c = byte(end), c != quote { end += 1 }
      guard end < bytes.count else { throw fail("an attribute value is not closed", at: i) }
      i = end + 1
      attributes.append(Attribute(name: attributeName, value: valueStart..<end, whole: spaceStart..<i))
    }
    try open(element: elementName, tag: tagStart..<i, attributes: attributes, isEmpty: isEmpty)
  }

  private mutating func endTag() throws(Failure) {
    let tagStart = i
    i += 2
    let closing = try name()
    skipSpace()
    guard byte(i) == UInt8(ascii: ">") else { throw fail("an end tag is not closed", at: tagStart) }
    i += 1
    guard let frame = stack.popLast() else { throw fail("an end tag closes nothing", at: tagStart) }
    guard bytes[closing] == bytes[frame.name] else { throw fail("an end tag does not match", at: tagStart) }
    close(frame, end: i)
  }

  // MARK: Elements

  private static func split(_ name: ArraySlice<UInt8>) -> (prefix: [UInt8], local: ArraySlice<UInt8>) {
    guard let colon = name.firstIndex(of: UInt8(ascii: ":")) else { return ([], name) }
    return (Array(name[..<colon]), name[(colon + 1)...])
  }

  /// The namespace `prefix` is bound to here (`xml` always is); an unprefixed attribute has none.
  private func namespace(_ prefix: [UInt8], attribute: Bool) -> String? {
    if prefix == Array("xml".utf8) { return Self.xmlURI }
    if prefix.isEmpty && attribute { return nil }
    return scope[prefix]?.last
  }

  private mutating func open(
    element: Range<Int>, tag: Range<Int>, attributes: [Attribute], isEmpty: Bool
  ) throws(Failure) {
    guard stack.count < Self.maximumDepth else { throw fail("elements nest too deep", at: tag.lowerBound) }
    var declared: [[UInt8]] = []
    for attribute in attributes {
      let name = bytes[attribute.name]
      let (prefix, local) = Self.split(name)
      if prefix == Array("xmlns".utf8) || (prefix.isEmpty && local.elementsEqual("xmlns".utf8)) {
        let bound = prefix.isEmpty ? [] : Array(local)
        let uri = Self.decoded(bytes[attribute.value])
        declared.append(bound)
        plan.bindings[bound, default: []].insert(uri)
        scope[bound, default: []].append(uri)
      } else {
        plan.used.insert(prefix)
      }
    }
    let (prefix, local) = Self.split(bytes[element])
    plan.used.insert(prefix)
    let uri = namespace(prefix, attribute: false)
    let parent = stack.last?.role
    var role = Role.other
    var removalStart = tag.lowerBound
    switch parent {
    case nil, .other?:
      if uri == Self.rdfURI && local.elementsEqual("RDF".utf8) { role = .rdf }
    case .rdf?:
      role = .nested
      if uri == Self.rdfURI && local.elementsEqual("Description".utf8) {
        role = .topDescription
        description(element: element, tag: tag, attributes: attributes, isEmpty: isEmpty)
      }
    case .topDescription?:
      role = .property
      if uri == Self.exifURI && Self.owned.contains(Array(local)) {
        role = .ownedProperty
        // With the white space before it: the lines around it keep their layout.
        while removalStart > 0, Self.isSpace(bytes[removalStart - 1]) { removalStart -= 1 }
      }
    case .property?, .ownedProperty?, .nested?:
      role = .nested
    }
    let frame = Frame(name: element, declared: declared, role: role, removalStart: removalStart)
    if isEmpty {
      close(frame, end: tag.upperBound)
    } else {
      stack.append(frame)
    }
  }

  private mutating func close(_ frame: Frame, end: Int) {
    for prefix in frame.declared.reversed() {
      _ = scope[prefix]?.popLast()
      if scope[prefix]?.isEmpty == true { scope[prefix] = nil }
    }
    if frame.role == .ownedProperty { plan.removals.append(frame.removalStart..<end) }
  }

  /// A top-level Description: its owned attributes are removed, and the first one is noted as
  /// where new properties go (called with its own namespace declarations in scope).
  private mutating func description(element: Range<Int>, tag: Range<Int>, attributes: [Attribute], isEmpty: Bool) {
    var usesAttributes = false
    var hasNodeID = false
    var conflicting: String?
    for attribute in attributes {
      let (prefix, local) = Self.split(bytes[attribute.name])
      if prefix == Array("xmlns".utf8) || (prefix.isEmpty && local.elementsEqual("xmlns".utf8)) { continue }
      let uri = prefix.isEmpty ? nil : namespace(prefix, attribute: true)
      if uri == Self.exifURI && Self.owned.contains(Array(local)) {
        plan.removals.append(attribute.whole)
        usesAttributes = true
        continue
      }
      if conflicting == nil, Self.read.contains(Array(local.split(separator: UInt8(ascii: ":")).last ?? local)) {
        conflicting = String(decoding: bytes[attribute.name], as: UTF8.self)
      }
      switch uri {
      case nil: continue
      case Self.rdfURI?: if local.elementsEqual("nodeID".utf8) { hasNodeID = true }
      case Self.xmlURI?: continue
      default: usesAttributes = true
      }
    }
    // The first Description, replaced once by the first without a node ID if it has one.
    guard plan.target.map({ $0.hasNodeID && !hasNodeID }) ?? true else { return }
    let last = attributes.last
    var separator = Array(" ".utf8)
    if let last {
      let spaceEnd = bytes[last.whole].firstIndex { !Self.isSpace($0) } ?? last.whole.upperBound
      if spaceEnd > last.whole.lowerBound { separator = Array(bytes[last.whole.lowerBound..<spaceEnd]) }
    }
    let target = Target(
      nameEnd: element.upperBound, attributesEnd: last?.whole.upperBound ?? element.upperBound,
      attributeSeparator: separator, tagEnd: tag.upperBound, isEmptyElement: isEmpty, usesAttributes: usesAttributes,
      exifPrefix: exifPrefix(), hasNodeID: hasNodeID, conflictingAttribute: conflicting)
    plan.target = target
  }

  /// A prefix bound to the exif namespace here (`exif` when that one is), or nil.
  private func exifPrefix() -> [UInt8]? {
    let exif = Array("exif".utf8)
    if scope[exif]?.last == Self.exifURI { return exif }
    return scope.filter { !$0.key.isEmpty && $0.value.last == Self.exifURI }.keys.min {
      $0.lexicographicallyPrecedes($1)
    }
  }

  /// An attribute value with its character and entity references replaced (a namespace URI is
  /// compared as text).
  static func decoded(_ value: ArraySlice<UInt8>) -> String {
    guard value.contains(UInt8(ascii: "&")) else { return String(decoding: value, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(value.count)
    var k = value.startIndex
    while k < value.endIndex {
      let b = value[k]
      guard b == UInt8(ascii: "&"), let semicolon = value[k...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
        out.append(b)
        k += 1
        continue
      }
      let reference = String(decoding: value[(k + 1)..<semicolon], as: UTF8.self)
      var scalar: Unicode.Scalar?
      switch reference {
      case "amp": scalar = "&"
      case "lt": scalar = "<"
      case "gt": scalar = ">"
      case "quot": scalar = "\""
      case "apos": scalar = "'"
      default:
        if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
          scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        } else if reference.hasPrefix("#") {
          scalar = UInt32(reference.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        }
      }
      guard let scalar else {
        out.append(b)
        k += 1
        continue
      }
      out.append(contentsOf: Array(String(Character(scalar)).utf8))
      k = semicolon + 1
    }
    return String(decoding: out, as: UTF8.self)
  }
}
