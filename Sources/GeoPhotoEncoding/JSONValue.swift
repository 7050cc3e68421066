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
    scaled(value, places: places).map { .fixed($0, places: places) } ?? .null
  }

  /// `value` times 10^`places` (0–9), rounded to an integer; nil when not finite or too large.
  @inline(__always)
  static func scaled(_ value: Double, places: Int) -> Int64? {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (value * scale).rounded()
    guard scaled.isFinite, abs(scaled) < 9e18 else { return nil }
    return Int64(scaled)
  }

  static func appendFixed(_ value: Int64, places: Int, into out: inout [UInt8]) {
    withFixed(value, places: places) { out.append(contentsOf: $0) }
  }

  /// The text of a scaled integer (see `fixed`) for `body`: written backwards into a buffer on
  /// the stack, from the last decimal (trailing zeros dropped) to the sign, without allocating.
  @inline(__always)
  static func withFixed(_ value: Int64, places: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
    precondition((0...24).contains(places), "at most 24 decimals")
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
      body(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
    }
  }

  /// Shortest round-trip form; integral values without a fraction; non-finite as null.
  static func format(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

}
