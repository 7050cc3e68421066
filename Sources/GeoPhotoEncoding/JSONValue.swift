import Foundation

/// A JSON document with object keys kept in the order they were written, so output is stable
/// and reads in a sensible order (`id` before `title`).
public indirect enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  /// A decimal with a fixed number of places, given as the scaled integer
  /// (`fixed(356_812_400, places: 7)` is 35.68124): printed without a float formatter, trailing
  /// zeros dropped.
  case fixed(Int64, places: Int)
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
    String(decoding: encoded(pretty: pretty), as: UTF8.self)
  }

  /// Serializes as UTF-8 bytes, the form servers send.
  public func encoded(pretty: Bool = false) -> [UInt8] {
    var writer = JSONWriter(pretty: pretty)
    writer.value(self)
    return writer.bytes
  }

  /// `value` rounded to `places` decimals, as a fixed-point JSON number (null if not finite).
  public static func rounded(_ value: Double, places: Int) -> JSONValue {
    let scale = pow10[places]
    let scaled = (value * scale).rounded()
    guard scaled.isFinite, abs(scaled) < 9e18 else { return .null }
    return .fixed(Int64(scaled), places: places)
  }

  static let pow10: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

  static func appendFixed(_ value: Int64, places: Int, into out: inout [UInt8]) {
    precondition((0...24).contains(places), "at most 24 decimals")
    // Written backwards into a buffer on the stack, from the last decimal (trailing zeros
    // dropped) to the sign, then appended at once: no allocation, one copy.
    var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &scratch) { buffer in
      var magnitude = value.magnitude
      var start = buffer.count
      var end = buffer.count
      for _ in 0..<places {
        let digit = UInt8(magnitude % 10)
        magnitude /= 10
        start -= 1
        if start + 1 == end && digit == 0 {
          end -= 1
        } else {
          buffer[start] = UInt8(ascii: "0") + digit
        }
      }
      if start < end {
        start -= 1
        buffer[start] = UInt8(ascii: ".")
      }
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if value < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
    }
  }

  /// Shortest round-trip form; integral values without a fraction; non-finite as null.
  static func format(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

  /// Appends `s` as a JSON string; text without quotes, backslashes or control characters
  /// (almost all of it) is copied as it is.
  static func quote(_ s: String, into out: inout [UInt8]) {
    var s = s
    s.withUTF8 { quote(utf8: $0, into: &out) }
  }

  static func quote(_ s: Substring, into out: inout [UInt8]) {
    var s = s
    s.withUTF8 { quote(utf8: $0, into: &out) }
  }

  static func quote(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      out.append(contentsOf: bytes)
    } else {
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        case 0..<0x20:
          let hex = String(byte, radix: 16)
          out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        default: out.append(byte)
        }
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
