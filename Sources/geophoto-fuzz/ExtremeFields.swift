/// Structure-aware mutation: the size, offset, length and count fields of a file, found by
/// walking its structure as a reader would (ISO-BMFF boxes and a HEIF's `iloc`, TIFF
/// directories and their entries, PNG and RIFF chunks, JPEG segments and the EXIF inside, a
/// RAF header), set to extreme values: zero, one, all ones, just past a power of two, the
/// file's size and its neighbours, 2⁶³ − 1. Random mutation rarely writes such a value; each
/// of them has crashed a reader somewhere.
enum ExtremeFields {
  /// A field of a file: where it is, how wide, and its byte order.
  struct Field: Equatable {
    var offset: Int
    var width: Int
    var bigEndian: Bool
  }

  /// The fields of `bytes` (at most a few thousand), whatever format it is.
  static func fields(in bytes: [UInt8]) -> [Field] {
    var found: [Field] = []
    if bytes.starts(with: [0xFF, 0xD8]) {
      jpeg(bytes, into: &found)
    } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      chunks(bytes, from: 8, sizeFirst: true, bigEndian: true, into: &found)
    } else if bytes.starts(with: Array("RIFF".utf8)) {
      found.append(Field(offset: 4, width: 4, bigEndian: false))
      chunks(bytes, from: 12, sizeFirst: false, bigEndian: false, into: &found)
    } else if bytes.starts(with: Array("FUJIFILMCCD-RAW".utf8)) {
      for offset in stride(from: 84, to: 100, by: 4) { found.append(Field(offset: offset, width: 4, bigEndian: true)) }
    } else if bytes.starts(with: [0x00, 0x4D, 0x52, 0x4D]) {
      found.append(Field(offset: 4, width: 4, bigEndian: true))
      chunks(bytes, from: 8, sizeFirst: false, bigEndian: true, into: &found)
    } else if let bigEndian = tiffOrder(bytes, at: 0) {
      tiff(bytes, base: 0, bigEndian: bigEndian, into: &found)
    } else if bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) || bytes.starts(with: [0, 0, 0, 0x0C]) {
      boxes(bytes, from: 0, to: bytes.count, depth: 0, into: &found)
    }
    return Array(found.prefix(4_096))
  }

  /// Sets one field (or, without any, a random aligned position) of `data` to an extreme value.
  static func mutate(_ data: UnsafeMutableBufferPointer<UInt8>, random: inout SeededRandom) {
    guard !data.isEmpty else { return }
    let bytes = Array(data)
    let found = fields(in: bytes)
    let field: Field
    if let chosen = found.isEmpty ? nil : found[random.next(found.count)] {
      field = chosen
    } else {
      let width = [2, 4, 8][random.next(3)]
      guard data.count >= width else { return }
      field = Field(
        offset: random.next(data.count - width + 1) & ~(width - 1), width: width, bigEndian: random.next(2) == 0)
    }
    // Fields of 1 to 8 bytes only (a damaged iloc may say 15), inside the data.
    guard (1...8).contains(field.width), field.offset >= 0, field.offset <= data.count - field.width else { return }
    let bits = UInt64(field.width * 8)
    let all: UInt64 = bits == 64 ? .max : (1 << bits) - 1
    let size = UInt64(data.count)
    let candidates: [UInt64] = [
      0, 1, 2, all, all - 1, all - 15, all >> 1, (all >> 1) + 1, 1 << (bits - 1), size, size &- 1, size &+ 1,
      size &+ 8, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFF0, 0x1_0000_0000, UInt64(Int64.max), UInt64(random.next(1 << 30)),
    ]
    let value = candidates[random.next(candidates.count)] & all
    for k in 0..<field.width {
      let shift = UInt64(field.bigEndian ? field.width - 1 - k : k) * 8
      data[field.offset + k] = UInt8(truncatingIfNeeded: value >> shift)
    }
  }

  // MARK: Walks

  static func read(_ b: [UInt8], _ at: Int, _ width: Int, bigEndian: Bool) -> UInt64? {
    guard at >= 0, width <= 8, at <= b.count - width else { return nil }
    var v: UInt64 = 0
    for k in 0..<width { v |= UInt64(b[at + k]) << UInt64((bigEndian ? width - 1 - k : k) * 8) }
    return v
  }

  static let containers: Set<String> = [
    "moov", "trak", "mdia", "minf", "stbl", "udta", "dinf", "iprp", "ipco", "edts", "meta", "ilst", "uuid",
  ]

  /// ISO-BMFF boxes: each size (and 64-bit size), into the containers, and a HEIF's `iloc`.
  static func boxes(_ b: [UInt8], from start: Int, to end: Int, depth: Int, into found: inout [Field]) {
    var at = start
    var count = 0
    while at + 8 <= end, count < 512, found.count < 4_096 {
      count += 1
      found.append(Field(offset: at, width: 4, bigEndian: true))
      guard var size = read(b, at, 4, bigEndian: true) else { return }
      let type = String(decoding: b[(at + 4)..<(at + 8)], as: UTF8.self)
      var header = 8
      if size == 1 {
        found.append(Field(offset: at + 8, width: 8, bigEndian: true))
        guard let large = read(b, at + 8, 8, bigEndian: true) else { return }
        size = large
        header = 16
      } else if size == 0 {
        size = UInt64(end - at)
      }
      guard size >= UInt64(header), size <= UInt64(end - at) else { return }
      let boxEnd = at + Int(size)
      if type == "iloc" { iloc(b, at + header, boxEnd, into: &found) }
      if type == "iinf" { boxes(b, from: min(at + header + 6, boxEnd), to: boxEnd, depth: depth + 1, into: &found) }
      if depth < 6, containers.contains(type) {
        let skip = type == "meta" ? 4 : type == "uuid" ? 16 : 0
        if at + header + skip <= boxEnd {
          boxes(b, from: at + header + skip, to: boxEnd, depth: depth + 1, into: &found)
        }
      }
      at = boxEnd
    }
  }

  /// `iloc`: the item count, then each item's base offset, extent count, offsets and lengths.
  static func iloc(_ b: [UInt8], _ start: Int, _ end: Int, into found: inout [Field]) {
    guard start + 8 <= end else { return }
    let version = Int(b[start])
    let offsetSize = Int(b[start + 4] >> 4)
    let lengthSize = Int(b[start + 4] & 0x0F)
    let baseSize = Int(b[start + 5] >> 4)
    let indexSize = version >= 1 ? Int(b[start + 5] & 0x0F) : 0
    let idSize = version < 2 ? 2 : 4
    var at = start + 6
    found.append(Field(offset: at, width: idSize, bigEndian: true))
    guard let items = read(b, at, idSize, bigEndian: true) else { return }
    at += idSize
    for _ in 0..<min(items, 64) {
      at += idSize + (version >= 1 ? 2 : 0) + 2
      if baseSize > 0 { found.append(Field(offset: at, width: baseSize, bigEndian: true)) }
      at += baseSize
      found.append(Field(offset: at, width: 2, bigEndian: true))
      guard let extents = read(b, at, 2, bigEndian: true), at < end else { return }
      at += 2
      for _ in 0..<min(extents, 16) {
        at += indexSize
        if offsetSize > 0 { found.append(Field(offset: at, width: offsetSize, bigEndian: true)) }
        at += offsetSize
        if lengthSize > 0 { found.append(Field(offset: at, width: lengthSize, bigEndian: true)) }
        at += lengthSize
        guard at < end else { return }
      }
    }
  }

  static func tiffOrder(_ b: [UInt8], at: Int) -> Bool? {
    guard at + 8 <= b.count else { return nil }
    if b[at] == 0x49 && b[at + 1] == 0x49 { return false }
    if b[at] == 0x4D && b[at + 1] == 0x4D { return true }
    return nil
  }

  /// A TIFF structure: IFD0's offset, then each directory's count, its entries' counts and
  /// value offsets, and the next directory's offset; the Exif and GPS directories too.
  static func tiff(_ b: [UInt8], base: Int, bigEndian: Bool, into found: inout [Field]) {
    found.append(Field(offset: base + 4, width: 4, bigEndian: bigEndian))
    var queue: [UInt64] = [read(b, base + 4, 4, bigEndian: bigEndian) ?? 0]
    var seen: Set<UInt64> = []
    while let offset = queue.popLast(), seen.count < 8 {
      guard offset >= 8, seen.insert(offset).inserted, offset < UInt64(b.count - base) else { continue }
      let start = base + Int(offset)
      found.append(Field(offset: start, width: 2, bigEndian: bigEndian))
      guard let count = read(b, start, 2, bigEndian: bigEndian) else { continue }
      for i in 0..<min(Int(count), 256) {
        let entry = start + 2 + 12 * i
        guard entry + 12 <= b.count else { break }
        found.append(Field(offset: entry + 4, width: 4, bigEndian: bigEndian))
        found.append(Field(offset: entry + 8, width: 4, bigEndian: bigEndian))
        let tag = read(b, entry, 2, bigEndian: bigEndian)
        if tag == 0x8769 || tag == 0x8825 || tag == 0x014A, let next = read(b, entry + 8, 4, bigEndian: bigEndian) {
          queue.append(next)
        }
      }
      let next = start + 2 + 12 * min(Int(count), 256)
      found.append(Field(offset: next, width: 4, bigEndian: bigEndian))
      if let chained = read(b, next, 4, bigEndian: bigEndian) { queue.append(chained) }
    }
  }

  /// Chunks of a size and a four-byte name (PNG: size first; RIFF and MRW: name first).
  static func chunks(_ b: [UInt8], from start: Int, sizeFirst: Bool, bigEndian: Bool, into found: inout [Field]) {
    var at = start
    var count = 0
    while at + 8 <= b.count, count < 1_024 {
      count += 1
      let sizeAt = sizeFirst ? at : at + 4
      found.append(Field(offset: sizeAt, width: 4, bigEndian: bigEndian))
      guard let size = read(b, sizeAt, 4, bigEndian: bigEndian), size <= UInt64(b.count) else { return }
      let padding = !sizeFirst && !bigEndian ? Int(size & 1) : 0
      at += 8 + Int(size) + (sizeFirst ? 4 : 0) + padding
    }
  }

  /// JPEG segments: each length, and the TIFF fields of an EXIF segment.
  static func jpeg(_ b: [UInt8], into found: inout [Field]) {
    var at = 2
    var count = 0
    while at + 4 <= b.count, count < 256, b[at] == 0xFF {
      count += 1
      let marker = b[at + 1]
      if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
        at += 2
        continue
      }
      if marker == 0xDA || marker == 0xD9 { return }
      found.append(Field(offset: at + 2, width: 2, bigEndian: true))
      guard let length = read(b, at + 2, 2, bigEndian: true), length >= 2 else { return }
      if marker == 0xE1, at + 10 <= b.count, b[(at + 4)..<(at + 10)].elementsEqual(Array("Exif\0\0".utf8)),
        let order = tiffOrder(b, at: at + 10)
      {
        tiff(b, base: at + 10, bigEndian: order, into: &found)
      }
      at += 2 + Int(length)
    }
  }
}
