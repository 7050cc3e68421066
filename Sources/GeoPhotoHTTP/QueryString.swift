/// Builds URL query strings with RFC 3986 percent-encoding (only unreserved characters are
/// left as they are: `|` in Commons coordinates and spaces in dates are encoded).
public enum QueryString {
  public static func encode(_ items: [(String, String)]) -> String {
    items.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  public static func escape(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }

  /// `base` with `items` appended as its query (after `?` or `&`).
  public static func url(_ base: String, _ items: [(String, String)]) -> String {
    base + (base.contains("?") ? "&" : "?") + encode(items)
  }
}

/// Removes secrets from text before it is printed or logged.
///
/// Query parameters with secret-sounding names lose their values, and every known secret value
/// is replaced wherever it appears (an error message can quote a URL in any form).
public struct Redactor: Sendable {
  public static let secretParameters: Set<String> = [
    "api_key", "apikey", "key", "token", "access_token", "password", "secret", "auth", "sig",
  ]
  public var secrets: [String]

  public init(secrets: [String] = []) {
    self.secrets = secrets.filter { $0.count >= 4 }
  }

  public func redact(_ text: String) -> String {
    var result = ""
    // Query values of secret parameters: name=value up to the next & or whitespace.
    var rest = Substring(text)
    while let eq = rest.firstIndex(of: "=") {
      let name = rest[..<eq].reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let key = String(name.reversed()).lowercased()
      result += rest[...eq]
      rest = rest[rest.index(after: eq)...]
      if Self.secretParameters.contains(key) {
        let value = rest.prefix { $0 != "&" && !$0.isWhitespace && $0 != "\"" && $0 != "'" }
        if !value.isEmpty { result += "REDACTED" }
        rest = rest.dropFirst(value.count)
      }
    }
    result += rest
    for secret in secrets {
      result = result.replacing(secret, with: "REDACTED")
      let escaped = QueryString.escape(secret)
      if escaped != secret { result = result.replacing(escaped, with: "REDACTED") }
    }
    return result
  }
}
