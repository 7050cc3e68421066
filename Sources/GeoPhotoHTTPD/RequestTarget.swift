/// A request's target as the client sent it (RFC 9112 §3.2), read by geophoto itself from the
/// raw bytes, not by the transport: what the server acts on is exactly what was asked.
///
/// Only two forms are taken: origin-form (`/v1/near?lat=…`) and absolute-form
/// (`http://host/v1/near?lat=…`, whose path is matched like any other and whose authority is
/// the host asked for). Anything else (`x/v1/photos/1`, `*`, an authority alone) is refused,
/// and so is a path that could mean two things: an empty segment (`//`), a `.` or `..`
/// segment (plain or percent-encoded), an encoded `/` (`%2F`), an encoded NUL, a bad percent
/// escape, or bytes that are not UTF-8 once decoded. Query parameters are split on `&` and
/// `=` and decoded (`+` is a space) in the order sent.
public struct RequestTarget: Equatable, Sendable {
  public enum Form: Equatable, Sendable {
    case origin
    /// The authority (`host` or `host:port`) of an absolute-form target.
    case absolute(authority: String)
  }

  public var form: Form
  /// The path, percent-decoded; always starts with `/`.
  public var path: String
  /// Query parameters in the order sent, decoded.
  public var query: [(name: String, value: String)]

  public static func == (a: RequestTarget, b: RequestTarget) -> Bool {
    a.form == b.form && a.path == b.path && a.query.elementsEqual(b.query) { $0 == $1 }
  }

  /// Why a target is refused, worded for a 400 answer.
  public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  public init(form: Form = .origin, path: String, query: [(name: String, value: String)] = []) {
    self.form = form
    self.path = path
    self.query = query
  }

  /// Reads a target from its bytes as sent.
  public init(parsing raw: some Collection<UInt8>) throws(Problem) {
    let bytes = Array(raw)
    guard !bytes.isEmpty else { throw Problem("the request target is empty") }
    // Visible ASCII only: anything else must be percent-encoded.
    if let bad = bytes.first(where: { $0 <= 0x20 || $0 >= 0x7F }) {
      throw Problem("the request target holds the byte 0x\(String(bad, radix: 16, uppercase: true)) unencoded")
    }
    if bytes.contains(UInt8(ascii: "#")) { throw Problem("the request target holds a fragment ('#')") }
    var rest = bytes[...]
    if bytes.first == UInt8(ascii: "/") {
      form = .origin
    } else if let afterScheme = Self.dropScheme(bytes) {
      let end = afterScheme.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? afterScheme.endIndex
      let authority = afterScheme[afterScheme.startIndex..<end]
      guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")), !authority.contains(UInt8(ascii: "%")) else {
        throw Problem("the request target's host is missing or malformed")
      }
      form = .absolute(authority: String(decoding: authority, as: UTF8.self))
      rest = afterScheme[end...]
    } else {
      throw Problem("the request target must start with '/' (or be an absolute http:// URL)")
    }
    let questionMark = rest.firstIndex(of: UInt8(ascii: "?"))
    let rawPath = rest[rest.startIndex..<(questionMark ?? rest.endIndex)]
    path = rawPath.isEmpty ? "/" : try Self.decodePath(rawPath)
    if let questionMark {
      query = try Self.decodeQuery(rest[(questionMark + 1)...])
    } else {
      query = []
    }
  }

  /// The bytes after `http://` or `https://` (the scheme in any case), nil for another start.
  static func dropScheme(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
    let lower = bytes.prefix(8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
    for scheme in ["http://", "https://"] where lower.starts(with: scheme.utf8) {
      return bytes.dropFirst(scheme.utf8.count)
    }
    return nil
  }

  /// The path's segments decoded and joined again: refused when one is empty (but the last),
  /// is `.` or `..`, or decodes to a `/` or NUL.
  static func decodePath(_ raw: ArraySlice<UInt8>) throws(Problem) -> String {
    // Most paths hold no escape: checked as they are, in one pass (visible ASCII is UTF-8).
    if !raw.contains(UInt8(ascii: "%")) {
      var segmentStart = raw.startIndex + 1
      for i in (raw.startIndex + 1)...raw.endIndex where i == raw.endIndex || raw[i] == UInt8(ascii: "/") {
        let segment = raw[segmentStart..<i]
        if segment.isEmpty && i < raw.endIndex { throw Problem("the path holds an empty segment ('//')") }
        if segment.elementsEqual([0x2E]) || segment.elementsEqual([0x2E, 0x2E]) {
          throw Problem("the path holds a '.' or '..' segment")
        }
        segmentStart = i + 1
      }
      return String(decoding: raw, as: UTF8.self)
    }
    let segments = raw.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
    var decoded: [String] = []
    for (index, segment) in segments.enumerated() {
      if segment.isEmpty && index < segments.count - 1 {
        throw Problem("the path holds an empty segment ('//')")
      }
      let bytes = try percentDecoded(segment, plusIsSpace: false, what: "the path")
      if bytes.contains(UInt8(ascii: "/")) { throw Problem("the path holds an encoded '/' (%2F)") }
      if bytes == [0x2E] || bytes == [0x2E, 0x2E] { throw Problem("the path holds a '.' or '..' segment") }
      guard let text = String(validating: bytes, as: UTF8.self) else { throw Problem("the path is not UTF-8") }
      decoded.append(text)
    }
    return "/" + decoded.joined(separator: "/")
  }

  static func decodeQuery(_ raw: ArraySlice<UInt8>) throws(Problem) -> [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = []
    for piece in raw.split(separator: UInt8(ascii: "&")) {
      let equals = piece.firstIndex(of: UInt8(ascii: "="))
      let name = try percentDecoded(
        piece[piece.startIndex..<(equals ?? piece.endIndex)], plusIsSpace: true, what: "a query name")
      var value: [UInt8] = []
      if let equals { value = try percentDecoded(piece[(equals + 1)...], plusIsSpace: true, what: "a query value") }
      guard let n = String(validating: name, as: UTF8.self), let v = String(validating: value, as: UTF8.self) else {
        throw Problem("the query is not UTF-8")
      }
      pairs.append((n, v))
    }
    return pairs
  }

  /// `%HH` escapes decoded (and `+` as a space where `plusIsSpace`); a bad escape or an
  /// encoded NUL is refused.
  static func percentDecoded(_ raw: ArraySlice<UInt8>, plusIsSpace: Bool, what: String) throws(Problem) -> [UInt8] {
    if !raw.contains(UInt8(ascii: "%")) && !(plusIsSpace && raw.contains(UInt8(ascii: "+"))) { return Array(raw) }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var i = raw.startIndex
    while i < raw.endIndex {
      let byte = raw[i]
      if byte == UInt8(ascii: "%") {
        guard raw.endIndex - i >= 3, let high = hex(raw[i + 1]), let low = hex(raw[i + 2]) else {
          throw Problem("\(what) holds a bad percent escape")
        }
        let value = high << 4 | low
        if value == 0 { throw Problem("\(what) holds an encoded NUL (%00)") }
        out.append(value)
        i += 3
      } else {
        out.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
        i += 1
      }
    }
    return out
  }

  static func hex(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x41 + 10
    case 0x61...0x66: return b - 0x61 + 10
    default: return nil
    }
  }
}
