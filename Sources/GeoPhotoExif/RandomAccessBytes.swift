public import GeoPhotoCore

/// Bytes of a file read at any offset: the containers geophoto reads keep their metadata
/// wherever the writer put it (a HEIC's Exif item may sit at the end of the file).
public protocol RandomAccessBytes {
  var count: Int { get }
  /// Exactly `count` bytes at `offset`, or `nil` when they are not all there.
  func bytes(at offset: Int, count: Int) -> [UInt8]?
}

extension RandomAccessBytes {
  /// `n` bytes at `offset`, both as a file gave them (any integer type, any value): the
  /// damage naming `what` when they are not all in the file. Readers fetch through this, so no
  /// number from a file reaches an offset without `Bounds`.
  public func read(at offset: some BinaryInteger, count n: some BinaryInteger, _ what: String) throws(DataDamage)
    -> [UInt8]
  {
    let range = try Bounds.check(offset: offset, length: n, within: count, what)
    guard let bytes = bytes(at: range.lowerBound, count: range.count) else {
      throw DataDamage("\(what): cannot read \(range.count) bytes at \(range.lowerBound)")
    }
    return bytes
  }

  /// The unsigned number of `size` bytes at `offset`.
  public func number(at offset: some BinaryInteger, size: Int, _ what: String, bigEndian: Bool = true)
    throws(DataDamage) -> UInt64
  {
    var c = try cursor(at: offset, count: size, what, bigEndian: bigEndian)
    return try c.unsigned(size: size, what)
  }

  /// A cursor over `n` bytes at `offset`.
  public func cursor(
    at offset: some BinaryInteger, count n: some BinaryInteger, _ what: String, bigEndian: Bool = true
  ) throws(DataDamage) -> ByteCursor {
    ByteCursor(try read(at: offset, count: n, what), label: what, bigEndian: bigEndian)
  }
}

/// An in-memory file.
public struct MemoryBytes: RandomAccessBytes {
  public let data: [UInt8]
  public init(_ data: [UInt8]) { self.data = data }
  public var count: Int { data.count }
  public func bytes(at offset: Int, count: Int) -> [UInt8]? {
    guard let range = Bounds.range(offset: offset, length: count, within: data.count) else { return nil }
    return Array(data[range])
  }
}
