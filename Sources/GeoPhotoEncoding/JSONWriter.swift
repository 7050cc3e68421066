public import GeoPhotoCore

/// Writes JSON straight into bytes, for answers that are encoded on every request.
///
/// Commas, colons and (with `pretty`) indentation are placed by the writer; the caller only
/// says what comes next. `JSONValue` documents are written through it too, so there is one
/// definition of the output format.
public struct JSONWriter {
  public internal(set) var bytes: [UInt8] = []
  private let pretty: Bool
  /// How many containers are open, and per open container whether it has a member yet: bit 0
  /// for the innermost, up to 64 levels (every answer's depth), the outer ones beyond that in
  /// `outerLevels`.
  private var depth = 0
  private var hasMember: UInt64 = 0
  private var outerLevels: [Bool] = []
  private var afterKey = false

  public init(pretty: Bool = false, capacity: Int = 1024) {
    self.pretty = pretty
    bytes.reserveCapacity(capacity)
  }

  private mutating func beforeValue() {
    if afterKey {
      afterKey = false
      return
    }
    guard depth > 0 else { return }
    if hasMember & 1 != 0 { bytes.append(UInt8(ascii: ",")) }
    hasMember |= 1
    if pretty { newline() }
  }

  private mutating func newline() {
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
  }

  public mutating func beginObject() {
    beforeValue()
    bytes.append(UInt8(ascii: "{"))
    open()
  }

  public mutating func endObject() { close(UInt8(ascii: "}")) }

  public mutating func beginArray() {
    beforeValue()
    bytes.append(UInt8(ascii: "["))
    open()
  }

  public mutating func endArray() { close(UInt8(ascii: "]")) }

  private mutating func open() {
    if depth >= 64 { outerLevels.append(hasMember >> 63 != 0) }
    hasMember <<= 1
    depth += 1
  }

  private mutating func close(_ byte: UInt8) {
    let had = hasMember & 1 != 0
    hasMember >>= 1
    depth -= 1
    if depth >= 64, outerLevels.removeLast() { hasMember |= 1 << 63 }
    if pretty && had { newline() }
    bytes.append(byte)
  }

  /// The name of the next object member.
  /// A member name written in the source: plain ASCII, appended as it is (no escaping to
  /// look for; every answer writes a dozen of them per photo).
  public mutating func key(_ name: StaticString) {
    beforeValue()
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    if pretty { bytes.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  /// A member name made at run time, escaped as JSON asks.
  public mutating func key(named name: String) {
    beforeValue()
    JSONValue.quote(name, into: &bytes)
    bytes.append(UInt8(ascii: ":"))
    if pretty { bytes.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  public mutating func string(_ value: String) {
    beforeValue()
    JSONValue.quote(value, into: &bytes)
  }

  public mutating func string(_ value: Substring) {
    beforeValue()
    JSONValue.quote(value, into: &bytes)
  }

  public mutating func string(_ value: String?) {
    guard let value else { return null() }
    string(value)
  }

  /// A capture time as ISO 8601 text (`CaptureDate.iso8601`: digits and `-:T+Z`, nothing to
  /// escape), or null.
  public mutating func date(_ value: CaptureDate?) {
    guard let value else { return null() }
    beforeValue()
    bytes.append(UInt8(ascii: "\""))
    value.appendISO8601(to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  public mutating func integer(_ value: Int64) {
    beforeValue()
    JSONValue.appendFixed(value, places: 0, into: &bytes)
  }

  /// A decimal given as a scaled integer (see `JSONValue.fixed`).
  public mutating func fixed(_ value: Int64, places: Int) {
    beforeValue()
    JSONValue.appendFixed(value, places: places, into: &bytes)
  }

  /// `value` rounded to `places` decimals.
  public mutating func rounded(_ value: Double, places: Int) {
    guard case .fixed(let v, let p) = JSONValue.rounded(value, places: places) else { return null() }
    fixed(v, places: p)
  }

  public mutating func number(_ value: Double) {
    beforeValue()
    bytes.append(contentsOf: JSONValue.format(value).utf8)
  }

  public mutating func bool(_ value: Bool) {
    beforeValue()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  public mutating func null() {
    beforeValue()
    bytes.append(contentsOf: "null".utf8)
  }

  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let b): bool(b)
    case .integer(let i): integer(i)
    case .number(let d): number(d)
    case .fixed(let v, let places): fixed(v, places: places)
    case .string(let s): string(s)
    case .array(let items):
      beginArray()
      for item in items { self.value(item) }
      endArray()
    case .object(let members):
      beginObject()
      for (name, member) in members {
        key(named: name)
        self.value(member)
      }
      endObject()
    }
  }
}
