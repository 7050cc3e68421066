import CGeoPhotoZlib
import GeoPhotoCore

/// The entries of a ZIP archive (as a KMZ is), found through its central directory, and one
/// entry's bytes: stored, or deflated and inflated with zlib up to a size cap. Every offset and
/// length is checked against the archive; ZIP64, encryption and other methods are refused.
struct ZipArchive {
  struct Entry: Equatable {
    var name: String
    var method: UInt16
    var flags: UInt16
    var crc: UInt32
    var compressedSize: Int
    var size: Int
    var localHeader: Int
  }

  let bytes: [UInt8]
  let entries: [Entry]

  /// The longest entry geophoto inflates: a KML of a few million points.
  static let maximumEntrySize = 512 << 20

  static func isArchive(head: [UInt8]) -> Bool { head.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

  init(_ bytes: [UInt8]) throws(DataDamage) {
    self.bytes = bytes
    // The end record: 22 bytes and a comment of at most 65,535, found from the end.
    let signature: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
    guard bytes.count >= 22 else { throw DataDamage("too short for a ZIP archive") }
    var at = bytes.count - 22
    let lowest = max(0, bytes.count - 22 - 65_535)
    while at >= lowest, !bytes[at..<(at + 4)].elementsEqual(signature) { at -= 1 }
    guard at >= lowest else { throw DataDamage("no ZIP end record") }
    var end = ByteCursor(bytes, label: "ZIP end record", bigEndian: false)
    try end.seek(to: at + 10)
    let count = Int(try end.u16("entry count"))
    let size = try end.u32("directory size")
    let offset = try end.u32("directory offset")
    guard count != 0xFFFF, size != 0xFFFF_FFFF, offset != 0xFFFF_FFFF else {
      throw DataDamage("a ZIP64 archive (not supported)")
    }
    guard Bounds.range(offset: offset, length: size, within: bytes.count) != nil else {
      throw DataDamage.pastEnd("ZIP directory offset", offset, count: bytes.count)
    }
    var cursor = ByteCursor(bytes, label: "ZIP directory", bigEndian: false)
    try cursor.seek(to: offset)
    var entries: [Entry] = []
    for _ in 0..<count {
      guard try cursor.u32("entry signature") == 0x0201_4B50 else {
        throw DataDamage("a ZIP directory entry is damaged")
      }
      try cursor.skip(4)
      let flags = try cursor.u16("flags")
      let method = try cursor.u16("method")
      try cursor.skip(4)
      let crc = try cursor.u32("checksum")
      let compressed = try cursor.u32("compressed size")
      let size = try cursor.u32("size")
      let nameLength = try cursor.u16("name length")
      let extraLength = try cursor.u16("extra length")
      let commentLength = try cursor.u16("comment length")
      try cursor.skip(8)
      let local = try cursor.u32("entry offset")
      let name = String(decoding: try cursor.take(nameLength, "entry name"), as: UTF8.self)
      try cursor.skip(Int(extraLength) + Int(commentLength), "entry extra")
      entries.append(
        Entry(
          name: name, method: method, flags: flags, crc: crc, compressedSize: Int(compressed), size: Int(size),
          localHeader: Int(local)))
    }
    self.entries = entries
  }

  /// The main document of a KMZ: `doc.kml` at the root, else the first `.kml` at the root,
  /// else the first anywhere (Google Earth's rule).
  var mainKML: Entry? {
    let kml = entries.filter { $0.name.lowercased().hasSuffix(".kml") && !$0.name.hasPrefix("__MACOSX/") }
    return kml.first { $0.name.lowercased() == "doc.kml" } ?? kml.first { !$0.name.contains("/") } ?? kml.first
  }

  /// The bytes of `entry`, checked against its checksum.
  func contents(of entry: Entry) throws(DataDamage) -> [UInt8] {
    guard entry.flags & 1 == 0 else { throw DataDamage("\(entry.name) is encrypted") }
    guard entry.size <= Self.maximumEntrySize else {
      throw DataDamage("\(entry.name) is larger than \(Self.maximumEntrySize >> 20) MiB")
    }
    var cursor = ByteCursor(bytes, label: "ZIP entry", bigEndian: false)
    try cursor.seek(to: entry.localHeader)
    guard try cursor.u32("entry signature") == 0x0403_4B50 else { throw DataDamage("\(entry.name): damaged entry") }
    try cursor.skip(22)
    let nameLength = try cursor.u16("name length")
    let extraLength = try cursor.u16("extra length")
    try cursor.skip(Int(nameLength) + Int(extraLength), "entry header")
    let data = try cursor.take(entry.compressedSize, "entry data")
    let result: [UInt8]
    switch entry.method {
    case 0:
      guard data.count == entry.size else { throw DataDamage("\(entry.name): stored size does not match") }
      result = Array(data)
    case 8:
      // Deflate shrinks at most about 1,032 to 1: a larger claim is no real entry.
      guard entry.size <= max(1 << 16, entry.compressedSize * 1_100) else {
        throw DataDamage("\(entry.name): claims \(entry.size) bytes from \(entry.compressedSize)")
      }
      result = try Self.inflate(data, size: entry.size, name: entry.name)
    default:
      throw DataDamage("\(entry.name): compression method \(entry.method) (not supported)")
    }
    let crc = result.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
    guard UInt32(truncatingIfNeeded: crc) == entry.crc else {
      throw DataDamage("\(entry.name): checksum does not match")
    }
    return result
  }

  /// Raw deflate data inflated into exactly `size` bytes; more or fewer is damage.
  static func inflate(_ data: ArraySlice<UInt8>, size: Int, name: String) throws(DataDamage) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: size)
    var stream = z_stream()
    guard geophoto_inflate_init(&stream, -15) == Z_OK else { throw DataDamage("\(name): zlib could not start") }
    defer { inflateEnd(&stream) }
    var status: Int32 = Z_OK
    var produced = 0
    data.withUnsafeBufferPointer { input in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = uInt(input.count)
      output.withUnsafeMutableBufferPointer { out in
        stream.next_out = out.baseAddress
        stream.avail_out = uInt(out.count)
        status = CGeoPhotoZlib.inflate(&stream, Z_FINISH)
        produced = out.count - Int(stream.avail_out)
      }
    }
    // Finishing within the declared size, and filling it: a longer stream cannot finish.
    guard status == Z_STREAM_END, produced == size else {
      throw DataDamage("\(name): the compressed data is damaged or not the size the archive says")
    }
    return output
  }
}
