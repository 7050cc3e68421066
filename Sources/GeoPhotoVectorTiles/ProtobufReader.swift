public import GeoPhotoCore

/// A bounds-checked reader of protocol buffers' wire format, the subset vector tiles use:
/// varints (at most 10 bytes, nothing beyond 64 bits), length-delimited fields whose length must
/// lie within what is left, fixed 32- and 64-bit values, and packed varints. Wire types 3 and 4
/// (groups, obsolete) are damage: they are also what a gzip stream read as a tile looks like.
/// Every number read goes through `Bounds`; nothing traps.
public struct ProtobufReader {
  public let bytes: [UInt8]
  /// The end of the message being read (a sub-message's reader stops at its end).
  public let end: Int
  public private(set) var offset: Int
  /// What the bytes are, for messages.
  public let label: String

  public init(_ bytes: [UInt8], label: String) {
    self.init(bytes, range: 0..<bytes.count, label: label)
  }

  /// A reader over `range` of `bytes` (a length-delimited field's payload).
  public init(_ bytes: [UInt8], range: Range<Int>, label: String) {
    self.bytes = bytes
    offset = max(0, min(range.lowerBound, bytes.count))
    end = max(offset, min(range.upperBound, bytes.count))
    self.label = label
  }

  public var isAtEnd: Bool { offset >= end }

  /// The wire types.
  public enum WireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
  }

  /// The next field's number and wire type.
  public mutating func field() throws(DataDamage) -> (number: UInt64, type: WireType) {
    let at = offset
    let key = try varint()
    guard let type = WireType(rawValue: UInt8(key & 7)) else {
      throw DataDamage("\(label): wire type \(key & 7) at byte \(at) (not a vector tile)")
    }
    let number = key >> 3
    guard number > 0 else { throw DataDamage("\(label): field number 0 at byte \(at)") }
    return (number, type)
  }

  /// The next varint.
  public mutating func varint() throws(DataDamage) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < end else { throw DataDamage("\(label): a number runs past the end (\(end) bytes)") }
      let byte = bytes[offset]
      offset += 1
      // The tenth byte holds only the 64th bit.
      if shift == 63 && byte > 1 { throw DataDamage("\(label): a number longer than 64 bits at byte \(offset - 1)") }
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  /// The payload of a length-delimited field, as a range of `bytes`; the reader moves past it.
  public mutating func lengthDelimited() throws(DataDamage) -> Range<Int> {
    let at = offset
    let length = try varint()
    guard let range = Bounds.range(offset: offset, length: length, within: end) else {
      throw DataDamage("\(label): a field of \(length) bytes at byte \(at) runs past the end (\(end) bytes)")
    }
    offset = range.upperBound
    return range
  }

  /// Four bytes, little-endian.
  public mutating func fixed32() throws(DataDamage) -> UInt32 {
    guard end - offset >= 4 else { throw DataDamage("\(label): a 4-byte number runs past the end (\(end) bytes)") }
    var value: UInt32 = 0
    for k in 0..<4 { value |= UInt32(bytes[offset + k]) << (8 * k) }
    offset += 4
    return value
  }

  /// Eight bytes, little-endian.
  public mutating func fixed64() throws(DataDamage) -> UInt64 {
    guard end - offset >= 8 else { throw DataDamage("\(label): an 8-byte number runs past the end (\(end) bytes)") }
    var value: UInt64 = 0
    for k in 0..<8 { value |= UInt64(bytes[offset + k]) << (8 * k) }
    offset += 8
    return value
  }

  /// Steps over a field's value of `type`.
  public mutating func skip(_ type: WireType) throws(DataDamage) {
    switch type {
    case .varint: _ = try varint()
    case .fixed64: _ = try fixed64()
    case .lengthDelimited: _ = try lengthDelimited()
    case .fixed32: _ = try fixed32()
    }
  }

  /// A field's UTF-8 string; damage when it is not UTF-8.
  public mutating func string() throws(DataDamage) -> String {
    let range = try lengthDelimited()
    guard let text = String(validating: bytes[range], as: UTF8.self) else {
      throw DataDamage("\(label): a string at byte \(range.lowerBound) is not UTF-8")
    }
    return text
  }

  /// `zigzag`-decoded: 0, −1, 1, −2 … from 0, 1, 2, 3 …
  @inlinable
  public static func zigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
  }
}
