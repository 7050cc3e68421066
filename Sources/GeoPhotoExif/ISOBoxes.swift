internal import GeoPhotoCore

/// ISO base media file format (ISO/IEC 14496-12) boxes, the structure of HEIF, AVIF, CR3,
/// JPEG XL containers and QuickTime/MP4 videos: size, type, content. Only headers are read
/// to find a box; its content is fetched when a reader wants it.
extension ContainerReader {
  struct Box {
    /// Latin-1, so QuickTime's `©xyz` (0xA9 'x' 'y' 'z') reads as written.
    var type: String
    /// Where the box's header starts, and where its content starts and ends.
    var offset: Int
    var start: Int
    var end: Int

    /// How warnings name it: `'iloc' box at 1204`.
    var shown: String { "'\(LogText.escaped(type))' box at \(offset)" }
  }

  /// The most boxes read at one level: a walk of a damaged file ends there.
  static let maximumBoxes = 10_000

  /// The boxes between `start` and `end` (offsets already inside the file). A box whose size
  /// runs past `end`, or is smaller than its header, ends the walk with its damage noted.
  static func boxes(_ file: any RandomAccessBytes, from start: Int, to end: Int, damage: inout DamageLog) -> [Box] {
    var result: [Box] = []
    var offset = start
    while end - offset >= 8, result.count < maximumBoxes {
      guard
        var header = damage.attempt({ () throws(DataDamage) in try file.cursor(at: offset, count: 8, "box header") })
      else { break }
      guard let size32 = damage.attempt({ () throws(DataDamage) in try header.u32() }),
        let typeBytes = damage.attempt({ () throws(DataDamage) in try header.take(4) })
      else { break }
      let type = String(String.UnicodeScalarView(typeBytes.map { Unicode.Scalar($0) }))
      let shown = "'\(LogText.escaped(bytes: typeBytes))' box at \(offset)"
      var size = UInt64(size32)
      var headerSize = 8
      if size32 == 1 {
        guard
          let large = damage.attempt({ () throws(DataDamage) in
            try file.number(at: offset + 8, size: 8, "\(shown): 64-bit size")
          })
        else { break }
        size = large
        headerSize = 16
      } else if size32 == 0 {
        size = UInt64(end - offset)  // to the end of its parent
      }
      guard size >= headerSize else {
        damage.note("\(shown): size \(size) is smaller than its header")
        break
      }
      guard let boxEnd = Bounds.sum(offset, size), boxEnd <= end else {
        damage.note(
          end == file.count
            ? "\(shown): size \(size) past the end (\(file.count) bytes)"
            : "\(shown): size \(size) past the end of the box that holds it (at \(end))")
        break
      }
      result.append(Box(type: type, offset: offset, start: offset + headerSize, end: boxEnd))
      offset = boxEnd
    }
    return result
  }

  /// The boxes of a file that has nothing but boxes, with the first damage they show.
  static func topLevelBoxes(_ file: any RandomAccessBytes, damage: inout DamageLog) -> [Box] {
    boxes(file, from: 0, to: file.count, damage: &damage)
  }

  /// A box's content, when it is no larger than `limit`.
  static func content(of box: Box, in file: any RandomAccessBytes, limit: Int = maximumBlock) -> [UInt8]? {
    guard box.end - box.start <= limit else { return nil }
    return file.bytes(at: box.start, count: box.end - box.start)
  }

  /// A cursor over a box's content, when it is no larger than `limit`.
  static func cursor(of box: Box, in file: any RandomAccessBytes, limit: Int = maximumBlock) -> ByteCursor? {
    content(of: box, in: file, limit: limit).map { ByteCursor($0, label: box.shown) }
  }

  /// The boxes inside `box`, after `skipping` bytes of its own fields (4 for a full box's
  /// version and flags, 16 for a `uuid` box's identifier).
  static func children(
    of box: Box, in file: any RandomAccessBytes, skipping: Int = 0, damage: inout DamageLog
  ) -> [Box] {
    box.end - box.start >= skipping ? boxes(file, from: box.start + skipping, to: box.end, damage: &damage) : []
  }
}
