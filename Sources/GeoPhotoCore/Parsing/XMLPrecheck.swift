/// Checks XML before it reaches FoundationXML's XMLParser, refusing what must not be parsed.
///
/// - A document type definition: the bodies geophoto reads (Flickr answers, GPX, XMP) never
///   need one, and internal entities are how entity-expansion bombs blow up memory.
/// - Text that is not UTF-8, namespace declarations without a quoted value and processing
///   instructions without data: FoundationXML traps on them (found by fuzzing the XMP reader),
///   so they are refused first.
public enum XMLPrecheck {
  /// Why `bytes` must not be parsed, or `nil` when it may be.
  public static func problem(in bytes: [UInt8]) -> String? {
    guard String(validating: bytes, as: UTF8.self) != nil else { return "is not UTF-8 text" }
    if contains(bytes, "<!DOCTYPE") || contains(bytes, "<!ENTITY") { return "has a document type definition" }
    // <?target?> with no data: FoundationXML reads the missing data as a C string and traps.
    let open = Array("<?".utf8)
    var p = 0
    while let at = find(open, in: bytes, from: p) {
      var k = at + 2
      while k < bytes.count, isNameByte(bytes[k]) || bytes[k] == UInt8(ascii: ":") { k += 1 }
      while k < bytes.count, isSpace(bytes[k]) { k += 1 }
      if k >= bytes.count || bytes[k] == UInt8(ascii: "?") { return "has a processing instruction without data" }
      p = k
    }
    let xmlns = Array("xmlns".utf8)
    var i = 0
    while let at = find(xmlns, in: bytes, from: i) {
      i = at + xmlns.count
      // Only an attribute name counts: "xmlns" right after white space inside a tag.
      guard at > 0, isSpace(bytes[at - 1]) else { continue }
      var k = at + xmlns.count
      if k < bytes.count, bytes[k] == UInt8(ascii: ":") {
        k += 1
        while k < bytes.count, isNameByte(bytes[k]) { k += 1 }
      }
      while k < bytes.count, isSpace(bytes[k]) { k += 1 }
      // Inside text or a value "xmlns" is just a word; as an attribute it needs ="…".
      if k < bytes.count, bytes[k] == UInt8(ascii: "=") {
        k += 1
        while k < bytes.count, isSpace(bytes[k]) { k += 1 }
        guard k < bytes.count, bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'"),
          bytes[(k + 1)...].contains(bytes[k])
        else { return "has a namespace declaration without a value" }
      } else if k >= bytes.count || bytes[k] == UInt8(ascii: ">") || bytes[k] == UInt8(ascii: "/") {
        return "has a namespace declaration without a value"
      }
    }
    return nil
  }

  private static func isNameByte(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2E
      || b == 0x5F || b >= 0x80
  }

  private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

  private static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
    find(Array(text.utf8), in: bytes, from: 0, ignoringCase: true) != nil
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int, ignoringCase: Bool = false) -> Int? {
    guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
    func lower(_ b: UInt8) -> UInt8 { ignoringCase && b >= 0x41 && b <= 0x5A ? b + 32 : b }
    let first = lower(needle[0])
    var i = start
    while i <= bytes.count - needle.count {
      if lower(bytes[i]) == first {
        var k = 1
        while k < needle.count && lower(bytes[i + k]) == lower(needle[k]) { k += 1 }
        if k == needle.count { return i }
      }
      i += 1
    }
    return nil
  }
}
