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
