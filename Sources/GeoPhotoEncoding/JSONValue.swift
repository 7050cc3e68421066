/// A JSON document with object keys kept in the order they were written, so output is stable
/// and reads in a sensible order (`id` before `title`).
public indirect enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    a.serialized() == b.serialized()
  }

  /// `nil` becomes `null`.
  public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
  public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }

  /// Serializes as RFC 8259 JSON; `pretty` indents by two spaces.
  public func serialized(pretty: Bool = false) -> String {
    var out = ""
    write(to: &out, pretty: pretty, indent: 0)
    return out
  }

  private func write(to out: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .integer(let i): out += String(i)
    case .number(let d): out += JSONValue.format(d)
    case .string(let s): JSONValue.quote(s, into: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        if pretty { newline(&out, indent + 1) }
        item.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { newline(&out, indent) }
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        if pretty { newline(&out, indent + 1) }
        JSONValue.quote(key, into: &out)
        out += pretty ? ": " : ":"
        value.write(to: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { newline(&out, indent) }
      out += "}"
    }
  }

  private func newline(_ out: inout String, _ indent: Int) {
    out += "\n"
    out += String(repeating: "  ", count: indent)
  }

  /// Shortest round-trip form; integral values without a fraction; non-finite as null.
  static func format(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

  static func quote(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
