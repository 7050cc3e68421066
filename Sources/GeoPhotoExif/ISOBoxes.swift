/// ISO base media file format (ISO/IEC 14496-12) boxes, the structure of HEIF, AVIF, CR3,
/// JPEG XL containers and QuickTime/MP4 videos: size, type, content. Only headers are read
/// to find a box; its content is fetched when a reader wants it.
extension ContainerReader {
  struct Box {
    var type: String
    /// Where the box's content starts and ends (after the header).
    var start: Int
    var end: Int
  }

  /// The boxes between `start` and `end`.
  static func boxes(_ file: any RandomAccessBytes, from start: Int, to end: Int) -> [Box] {
    var result: [Box] = []
    var offset = start
    while offset + 8 <= end, result.count < 10_000, let header = file.bytes(at: offset, count: 8) {
      var size = Int(be32(header, 0))
      // Latin-1, so QuickTime's `©xyz` (0xA9 'x' 'y' 'z') reads as written.
      let type = String(header[4..<8].map { Character(Unicode.Scalar($0)) })
      var headerSize = 8
      if size == 1 {
        guard let large = file.bytes(at: offset + 8, count: 8) else { break }
        let value = large.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else { break }
        size = Int(value)
        headerSize = 16
      } else if size == 0 {
        size = end - offset
      }
      guard size >= headerSize, offset <= end - size else { break }
      result.append(Box(type: type, start: offset + headerSize, end: offset + size))
      offset += size
    }
    return result
  }

  static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
  }

  /// A big-endian unsigned number of `size` bytes (0, 2, 4 or 8) at `i`, if the bytes are there.
  static func number(_ b: [UInt8], _ i: inout Int, _ size: Int) -> Int? {
    guard size == 0 || size == 1 || size == 2 || size == 4 || size == 8, i + size <= b.count else { return nil }
    var v: UInt64 = 0
    for k in 0..<size { v = v << 8 | UInt64(b[i + k]) }
    i += size
    return v <= UInt64(Int.max) ? Int(v) : nil
  }

  /// A box's content, when it is no larger than `limit`.
  static func content(of box: Box, in file: any RandomAccessBytes, limit: Int = maximumBlock) -> [UInt8]? {
    guard box.end - box.start <= limit else { return nil }
    return file.bytes(at: box.start, count: box.end - box.start)
  }

  /// The boxes inside `box`, after `skipping` bytes of its own fields (4 for a full box's
  /// version and flags, 16 for a `uuid` box's identifier).
  static func children(of box: Box, in file: any RandomAccessBytes, skipping: Int = 0) -> [Box] {
    box.start + skipping <= box.end ? boxes(file, from: box.start + skipping, to: box.end) : []
  }
}
