/// What was wrong with bytes read from a file, and where: one line, worded as the warning a
/// sync prints ("IFD0 offset 4294967280 past the end (72 bytes)").
public struct DataDamage: Error, Equatable, Sendable, CustomStringConvertible {
  public var description: String

  @inlinable
  public init(_ description: String) { self.description = description }

  /// `what value` lies outside a structure of `count` bytes.
  @inlinable
  public static func pastEnd(_ what: String, _ value: some BinaryInteger, count: Int) -> DataDamage {
    DataDamage("\(what) \(value) past the end (\(count) bytes)")
  }
}

/// The one place numbers read from a file become offsets and lengths. Every offset, length and
/// count a reader takes from a file's bytes goes through these (or `ByteCursor`, built on
/// them): they answer nil or throw, never trap, on a negative value, an overflow, or anything
/// past the end. A value is taken as whatever integer type it was read as (`UInt64`, `UInt32`,
/// `Int`), so a 2⁶³ − 1 offset is refused here rather than trapping on its way to an `Int`.
public enum Bounds {
  /// `offset ..< offset + length` when all of it lies in `0 ..< count`.
  @inlinable
  public static func range(offset: some BinaryInteger, length: some BinaryInteger, within count: Int) -> Range<Int>? {
    guard let start = Int(exactly: offset), let n = Int(exactly: length), start >= 0, n >= 0, start <= count,
      n <= count - start
    else { return nil }
    return start..<(start + n)
  }

  /// `a + b` as an `Int`, nil when either is negative or the sum does not fit.
  @inlinable
  public static func sum(_ a: some BinaryInteger, _ b: some BinaryInteger) -> Int? {
    guard let x = Int(exactly: a), let y = Int(exactly: b), x >= 0, y >= 0 else { return nil }
    let (s, overflow) = x.addingReportingOverflow(y)
    return overflow ? nil : s
  }

  /// `a × b` as an `Int`, nil when either is negative or the product does not fit.
  @inlinable
  public static func product(_ a: some BinaryInteger, _ b: some BinaryInteger) -> Int? {
    guard let x = Int(exactly: a), let y = Int(exactly: b), x >= 0, y >= 0 else { return nil }
    let (p, overflow) = x.multipliedReportingOverflow(by: y)
    return overflow ? nil : p
  }

  /// `range` when it lies in `0 ..< count`, else the damage naming `what`.
  @inlinable
  public static func check(
    offset: some BinaryInteger, length: some BinaryInteger, within count: Int, _ what: String
  ) throws(DataDamage) -> Range<Int> {
    if let r = range(offset: offset, length: length, within: count) { return r }
    if Int(exactly: offset).map({ $0 >= 0 && $0 <= count }) == true {
      throw DataDamage("\(what) at \(offset): length \(length) past the end (\(count) bytes)")
    }
    throw DataDamage.pastEnd(what, offset, count: count)
  }
}

/// A bounds-checked reader over bytes in memory: numbers in either byte order, and `seek`,
/// `skip` and `take` that throw `DataDamage` instead of trapping on an overflow or anything
/// past the end. Every structure a reader walks in memory (a box's content, a TIFF directory,
/// a chunk) is read through one.
public struct ByteCursor: Sendable {
  public let bytes: [UInt8]
  /// What the bytes are, for messages: `iloc box`, `IFD0`.
  public let label: String
  public var bigEndian: Bool
  public private(set) var offset = 0

  public init(_ bytes: [UInt8], label: String, bigEndian: Bool = true) {
    self.bytes = bytes
    self.label = label
    self.bigEndian = bigEndian
  }

  public init(_ bytes: ArraySlice<UInt8>, label: String, bigEndian: Bool = true) {
    self.init(Array(bytes), label: label, bigEndian: bigEndian)
  }

  public var count: Int { bytes.count }
  public var remaining: Int { bytes.count - offset }
  public var isAtEnd: Bool { offset >= bytes.count }

  private func damage(_ what: String, _ value: some BinaryInteger) -> DataDamage {
    DataDamage.pastEnd("\(label): \(what)", value, count: bytes.count)
  }

  /// Moves to `position` (0 … count).
  public mutating func seek(to position: some BinaryInteger, _ what: String = "offset") throws(DataDamage) {
    guard let p = Int(exactly: position), p >= 0, p <= bytes.count else { throw damage(what, position) }
    offset = p
  }

  /// Moves `n` bytes on.
  public mutating func skip(_ n: some BinaryInteger, _ what: String = "length") throws(DataDamage) {
    guard let end = Bounds.sum(offset, n), end <= bytes.count else { throw damage(what, n) }
    offset = end
  }

  /// The next `n` bytes.
  public mutating func take(_ n: some BinaryInteger, _ what: String = "length") throws(DataDamage) -> ArraySlice<UInt8>
  {
    let start = offset
    try skip(n, what)
    return bytes[start..<offset]
  }

  /// `n` bytes at `position`, without moving.
  public func slice(at position: some BinaryInteger, count n: some BinaryInteger, _ what: String = "offset")
    throws(DataDamage) -> ArraySlice<UInt8>
  {
    guard let r = Bounds.range(offset: position, length: n, within: bytes.count) else {
      throw damage(what, position)
    }
    return bytes[r]
  }

  /// The bytes up to (not including) the next `terminator`, and the cursor after it.
  public mutating func upTo(_ terminator: UInt8, _ what: String = "text") throws(DataDamage) -> ArraySlice<UInt8> {
    guard let end = bytes[offset...].firstIndex(of: terminator) else {
      throw DataDamage("\(label): \(what) at \(offset) has no end")
    }
    defer { offset = end + 1 }
    return bytes[offset..<end]
  }

  public mutating func u8(_ what: String = "byte") throws(DataDamage) -> UInt8 {
    guard offset < bytes.count else { throw damage(what, offset) }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// An unsigned number of `size` bytes (0, 1, 2, 3, 4 or 8; 0 reads nothing and answers 0) in
  /// the cursor's byte order.
  public mutating func unsigned(size: Int, _ what: String = "number") throws(DataDamage) -> UInt64 {
    guard (0...8).contains(size) else { throw DataDamage("\(label): \(what) has a size of \(size) bytes") }
    let start = offset
    try skip(size, what)
    var v: UInt64 = 0
    if bigEndian {
      for k in start..<offset { v = v << 8 | UInt64(bytes[k]) }
    } else {
      for k in (start..<offset).reversed() { v = v << 8 | UInt64(bytes[k]) }
    }
    return v
  }

  public mutating func u16(_ what: String = "number") throws(DataDamage) -> UInt16 {
    UInt16(truncatingIfNeeded: try unsigned(size: 2, what))
  }

  public mutating func u32(_ what: String = "number") throws(DataDamage) -> UInt32 {
    UInt32(truncatingIfNeeded: try unsigned(size: 4, what))
  }

  public mutating func u64(_ what: String = "number") throws(DataDamage) -> UInt64 { try unsigned(size: 8, what) }

  /// An unsigned number that must fit an `Int` (a length or offset to use).
  public mutating func int(size: Int, _ what: String = "number") throws(DataDamage) -> Int {
    let v = try unsigned(size: size, what)
    guard let n = Int(exactly: v) else { throw DataDamage("\(label): \(what) \(v) is too large") }
    return n
  }
}

/// The first damage a reader met in a file it went on reading where it could: one warning per
/// file, however many things are wrong with it.
public struct DamageLog: Sendable {
  public private(set) var first: DataDamage?

  public init() {}

  public mutating func note(_ damage: DataDamage) {
    if first == nil { first = damage }
  }

  public mutating func note(_ description: String) { note(DataDamage(description)) }

  /// `body`'s value, or nil with its damage noted.
  public mutating func attempt<T>(_ body: () throws(DataDamage) -> T) -> T? {
    do {
      return try body()
    } catch {
      note(error)
      return nil
    }
  }
}

extension ByteCursor {
  /// The unsigned number of `size` bytes (0 … 8) at `at` in `bytes`, without a cursor; nil
  /// when not all of it is there.
  /// (Inlinable, so each reader's call is specialised for its collection: generic, it cost
  /// every TIFF entry a walk of witness tables and an array for the reversed bytes.)
  @inlinable
  public static func number(_ bytes: some Collection<UInt8>, at: Int, size: Int, bigEndian: Bool) -> UInt64? {
    guard at >= 0, (0...8).contains(size) else { return nil }
    let field = bytes.dropFirst(at).prefix(size)
    guard field.count == size else { return nil }
    var v: UInt64 = 0
    var shift: UInt64 = 0
    for b in field {
      if bigEndian {
        v = v << 8 | UInt64(b)
      } else {
        v |= UInt64(b) << shift
        shift += 8
      }
    }
    return v
  }
}
