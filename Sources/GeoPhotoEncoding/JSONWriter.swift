public import GeoPhotoCore

#if canImport(Glibc)
  import Glibc
#endif

/// Writes JSON straight into bytes, for answers that are encoded on every request.
///
/// Commas, colons and (with `pretty`) indentation are placed by the writer; the caller only
/// says what comes next. `JSONValue` documents are written through it too, so there is one
/// definition of the output format.
///
/// The bytes grow in a buffer the writer owns (a store and a count per byte, a `memcpy` per
/// run of them, where an array would check its capacity and uniqueness on every append). A
/// writer is not copyable: it is passed `inout`, and its bytes are taken at the end.
public struct JSONWriter: ~Copyable {
  private var storage: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int
  let pretty: Bool
  /// How many containers are open, and per open container whether it has a member yet: bit 0
  /// for the innermost, up to 64 levels (every answer's depth), the outer ones beyond that in
  /// `outerLevels`.
  private var depth = 0
  private var hasMember: UInt64 = 0
  private var outerLevels: [Bool] = []
  var afterKey = false
  /// The byte offsets `mark()` remembered, when the writer records them (nil otherwise): where
  /// a pre-encoded fragment leaves room for what changes per answer (`EncodedAnnotation`).
  var marks: [Int]?

  public init(pretty: Bool = false, capacity: Int = 1024) {
    self.pretty = pretty
    self.capacity = max(capacity, 64)
    storage = .allocate(capacity: self.capacity)
  }

  deinit { storage.deallocate() }

  /// The JSON written so far.
  public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

  /// How many bytes have been written.
  public var byteCount: Int { count }

  /// Appends the JSON written so far to `out`, in one copy.
  public func append(to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: storage, count: count))
  }

  // MARK: - Bytes

  @inline(__always)
  private mutating func reserve(_ n: Int) {
    if count + n > capacity { grow(to: count + n) }
  }

  private mutating func grow(to needed: Int) {
    let larger = max(needed, 2 * capacity)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.update(from: storage, count: count)
    storage.deallocate()
    storage = moved
    capacity = larger
  }

  @inline(__always)
  private mutating func write(_ byte: UInt8) {
    reserve(1)
    storage[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func write(_ run: UnsafeRawBufferPointer) {
    guard let base = run.baseAddress, !run.isEmpty else { return }
    reserve(run.count)
    memcpy(storage + count, base, run.count)
    count += run.count
  }

  @inline(__always)
  private mutating func write(_ text: StaticString) {
    guard text.hasPointerRepresentation else {
      return text.withUTF8Buffer { write(UnsafeRawBufferPointer($0)) }
    }
    write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  // MARK: - Structure

  /// Remembers the current byte offset when the writer records marks.
  @inline(__always)
  mutating func mark() {
    if marks != nil { marks?.append(count) }
  }

  @inline(__always)
  mutating func beforeValue() {
    if afterKey {
      afterKey = false
      return
    }
    guard depth > 0 else { return }
    if hasMember & 1 != 0 { write(UInt8(ascii: ",")) }
    hasMember |= 1
    if pretty { newline() }
  }

  private mutating func newline() {
    write(UInt8(ascii: "\n"))
    reserve(2 * depth)
    for _ in 0..<(2 * depth) { write(UInt8(ascii: " ")) }
  }

  public mutating func beginObject() {
    beforeValue()
    write(UInt8(ascii: "{"))
    open()
  }

  public mutating func endObject() { close(UInt8(ascii: "}")) }

  public mutating func beginArray() {
    beforeValue()
    write(UInt8(ascii: "["))
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
    write(byte)
  }

  // MARK: - Members and values

  /// The name of the next object member.
  /// A member name written in the source: plain ASCII, appended as it is (no escaping to
  /// look for; every answer writes a dozen of them per photo).
  public mutating func key(_ name: StaticString) {
    beforeValue()
    guard name.hasPointerRepresentation, !pretty else {
      write(UInt8(ascii: "\""))
      write(name)
      write(UInt8(ascii: "\""))
      write(UInt8(ascii: ":"))
      if pretty { write(UInt8(ascii: " ")) }
      afterKey = true
      return
    }
    // `"name":` in one reserve: the quotes and colon around one copy of the name.
    let n = name.utf8CodeUnitCount
    reserve(n + 3)
    storage[count] = UInt8(ascii: "\"")
    memcpy(storage + count + 1, name.utf8Start, n)
    storage[count + n + 1] = UInt8(ascii: "\"")
    storage[count + n + 2] = UInt8(ascii: ":")
    count += n + 3
    afterKey = true
  }

  /// A member name made at run time, escaped as JSON asks.
  public mutating func key(named name: String) {
    beforeValue()
    quote(name)
    write(UInt8(ascii: ":"))
    if pretty { write(UInt8(ascii: " ")) }
    afterKey = true
  }

  public mutating func string(_ value: String) {
    beforeValue()
    quote(value)
  }

  public mutating func string(_ value: Substring) {
    beforeValue()
    var value = value
    value.withUTF8 { quote(utf8: $0) }
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
    write(UInt8(ascii: "\""))
    value.withISO8601 { write($0) }
    write(UInt8(ascii: "\""))
  }

  public mutating func integer(_ value: Int64) {
    beforeValue()
    JSONValue.withFixed(value, places: 0) { write($0) }
  }

  /// A decimal given as a scaled integer (see `JSONValue.fixed`).
  public mutating func fixed(_ value: Int64, places: Int) {
    beforeValue()
    JSONValue.withFixed(value, places: places) { write($0) }
  }

  /// `value` rounded to `places` decimals.
  public mutating func rounded(_ value: Double, places: Int) {
    guard let scaled = JSONValue.scaled(value, places: places) else { return null() }
    fixed(scaled, places: places)
  }

  public mutating func number(_ value: Double) {
    beforeValue()
    var text = JSONValue.format(value)
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  public mutating func bool(_ value: Bool) {
    beforeValue()
    write(value ? "true" : "false")
  }

  public mutating func null() {
    beforeValue()
    write("null")
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

  // MARK: - Strings

  /// `s` as a JSON string; text without quotes, backslashes or control characters (almost all
  /// of it) is copied as it is.
  private mutating func quote(_ s: String) {
    // Read where the string keeps its bytes (a copy of `s` to call `withUTF8` on costs a
    // retain and a release); only bridged strings, which have none, are copied.
    if let done: Void = s.utf8.withContiguousStorageIfAvailable({ quote(utf8: $0) }) { return done }
    var s = s
    s.withUTF8 { quote(utf8: $0) }
  }

  private mutating func quote(utf8 text: UnsafeBufferPointer<UInt8>) {
    write(UInt8(ascii: "\""))
    if !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
      write(UnsafeRawBufferPointer(text))
    } else {
      for byte in text {
        switch byte {
        case UInt8(ascii: "\""): write("\\\"")
        case UInt8(ascii: "\\"): write("\\\\")
        case 0x0A: write("\\n")
        case 0x0D: write("\\r")
        case 0x09: write("\\t")
        case 0..<0x20:
          let hex = Array(String(byte, radix: 16).utf8)
          write("\\u")
          for _ in hex.count..<4 { write(UInt8(ascii: "0")) }
          hex.withUnsafeBytes { write($0) }
        default: write(byte)
        }
      }
    }
    write(UInt8(ascii: "\""))
  }
}
