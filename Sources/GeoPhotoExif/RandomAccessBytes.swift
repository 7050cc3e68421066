/// Bytes of a file read at any offset: the containers geophoto reads keep their metadata
/// wherever the writer put it (a HEIC's Exif item may sit at the end of the file).
public protocol RandomAccessBytes {
  var count: Int { get }
  /// Exactly `count` bytes at `offset`, or `nil` when they are not all there.
  func bytes(at offset: Int, count: Int) -> [UInt8]?
}

/// An in-memory file.
public struct MemoryBytes: RandomAccessBytes {
  public let data: [UInt8]
  public init(_ data: [UInt8]) { self.data = data }
  public var count: Int { data.count }
  public func bytes(at offset: Int, count: Int) -> [UInt8]? {
    guard offset >= 0, count >= 0, offset <= data.count - count else { return nil }
    return Array(data[offset..<(offset + count)])
  }
}
