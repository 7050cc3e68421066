internal import GeoPhotoCore

/// Reads QuickTime and MP4-family videos (MOV, MP4, M4V, 3GP/3G2): a walk over the top-level
/// boxes to `moov` (before or after `mdat`), then the places phones, cameras and tools keep a
/// position and the rest. Only box headers and the small boxes that hold values are read, so
/// a 2 GB video costs a few small reads.
///
/// Where each value is taken from, best first:
/// - position: the `mdta` key `com.apple.quicktime.location.ISO6709` (Apple, exiftool), the
///   item list's `©xyz` (`udta/meta/ilst`), `udta/©xyz` (Android, ffmpeg's MOV), 3GPP `loci`;
/// - capture time: the key `…creationdate` (local time with its offset), `©day`, then the
///   movie header's creation time (UTC);
/// - make, model and title: the keys `…make`, `…model`, `…title`, then `©mak`, `©mod`, `©nam`;
/// - duration from the movie header, pixel size and rotation from the first video track;
/// - the Live Photo identifier from the key `com.apple.quicktime.content.identifier`.
enum VideoReader {
  static func read(_ file: any RandomAccessBytes) -> PhotoMetadata {
    var fields = VideoFields()
    let top = ContainerReader.topLevelBoxes(file, damage: &fields.damage)
    if let moov = top.first(where: { $0.type == "moov" }) { fields.read(moov: moov, in: file) }
    var m = fields.metadata
    if let packet = ContainerReader.uuidXMP(file, top) {
      m.merge(XMPReader.read(packet, damage: &fields.damage), overriding: false)
    }
    m.damage = fields.damage.first
    return m
  }
}

/// The values found in a movie box, by where they came from.
struct VideoFields {
  typealias Box = ContainerReader.Box

  /// `mdta` keys (`com.apple.quicktime.make`) with their text values.
  var keys: [String: String] = [:]
  /// QuickTime text items (`©xyz`, `©mak`) from the item list, then from `udta`.
  var items: [String: String] = [:]
  var userData: [String: String] = [:]
  var location3GPP: ISO6709Point?
  /// Movie header creation time, seconds since 1970 (UTC).
  var created: Int?
  var duration: Double?
  var width: Int?
  var height: Int?
  var rotation: Int?
  /// The first damage met in the boxes.
  var damage = DamageLog()

  static let maximumValue = 64 * 1024

  var metadata: PhotoMetadata {
    var m = PhotoMetadata()
    let location =
      [keys["com.apple.quicktime.location.ISO6709"], items["©xyz"], userData["©xyz"]]
      .lazy.compactMap { $0.flatMap(ISO6709Point.init) }.first ?? location3GPP
    if let location, location.coordinate.isPlausiblePhotoLocation {
      m.coordinate = location.coordinate
      m.altitude = location.altitude
    }
    m.takenAt =
      [keys["com.apple.quicktime.creationdate"], items["©day"], userData["©day"]]
      .lazy.compactMap { $0.flatMap(CaptureDate.init(timestamp:)) }.first
      ?? created.map { CaptureDate(secondsSinceEpoch: $0, utcOffsetMinutes: 0) }
    func text(_ key: String, _ code: String) -> String? {
      [keys["com.apple.quicktime." + key], items[code], userData[code]].lazy.compactMap { $0 }.first
    }
    m.cameraMake = text("make", "©mak")
    m.cameraModel = text("model", "©mod")
    m.title = text("title", "©nam")
    m.duration = duration
    m.contentIdentifier = keys["com.apple.quicktime.content.identifier"]
    m.width = width
    m.height = height
    // As EXIF would say it: rotated 90° clockwise is orientation 6.
    m.orientation = [90: 6, 180: 3, 270: 8][rotation ?? 0]
    return m
  }

  mutating func read(moov: Box, in file: any RandomAccessBytes) {
    for box in ContainerReader.children(of: moov, in: file, damage: &damage) {
      switch box.type {
      case "mvhd": movieHeader(box, file)
      case "meta": meta(box, file)
      case "udta": userData(box, file)
      case "trak" where width == nil: track(box, file)
      default: continue
      }
    }
  }

  mutating func movieHeader(_ box: Box, _ file: any RandomAccessBytes) {
    guard var c = ContainerReader.cursor(of: box, in: file, limit: 256) else { return }
    let header = damage.attempt { () throws(DataDamage) -> (UInt64, UInt64, UInt64) in
      let wide = try c.u8("version") == 1
      try c.skip(3, "flags")
      let creation = try c.unsigned(size: wide ? 8 : 4, "creation time")
      _ = try c.unsigned(size: wide ? 8 : 4, "modification time")
      let timescale = try c.u32("time scale")
      let length = try c.unsigned(size: wide ? 8 : 4, "duration")
      // A 32-bit duration of all ones means unknown.
      return (creation, UInt64(timescale), wide || length < UInt32.max ? length : 0)
    }
    guard let (creation, timescale, length) = header else { return }
    // Seconds since 1904-01-01; 0 means unset; past year 9999 is nonsense.
    if creation > 2_082_844_800, creation < 255_000_000_000 { created = Int(creation - 2_082_844_800) }
    if timescale > 0, length > 0 { duration = Double(length) / Double(timescale) }
  }

  mutating func userData(_ udta: Box, _ file: any RandomAccessBytes) {
    for box in ContainerReader.children(of: udta, in: file, damage: &damage) {
      if box.type == "meta" {
        meta(box, file)
      } else if box.type == "loci" {
        location3GPP = Self.loci(ContainerReader.content(of: box, in: file, limit: Self.maximumValue))
      } else if box.type.hasPrefix("©"), userData[box.type] == nil,
        let b = ContainerReader.content(of: box, in: file, limit: Self.maximumValue),
        let value = Self.internationalText(b)
      {
        userData[box.type] = value
      }
    }
  }

  /// A QuickTime user data text: u16 length, u16 language, the text.
  static func internationalText(_ b: [UInt8]) -> String? {
    guard b.count >= 4 else { return nil }
    let length = Int(b[0]) << 8 | Int(b[1])
    guard length > 0, 4 + length <= b.count else { return nil }
    return text(b[4..<(4 + length)])
  }

  static func text(_ bytes: ArraySlice<UInt8>) -> String? {
    let value = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: " \t\r\n")
    return value.isEmpty ? nil : value
  }

  /// A `meta` box: a handler (`mdir` for the item list, `mdta` for named keys), the keys, and
  /// the item list. QuickTime's `moov/meta` has no version and flags; ISO's has them.
  mutating func meta(_ box: Box, _ file: any RandomAccessBytes) {
    let plain = file.bytes(at: box.start + 4, count: 4) == Array("hdlr".utf8)
    let children = ContainerReader.children(of: box, in: file, skipping: plain ? 0 : 4, damage: &damage)
    var names: [UInt32: String] = [:]
    if let keysBox = children.first(where: { $0.type == "keys" }),
      var c = ContainerReader.cursor(of: keysBox, in: file, limit: Self.maximumValue)
    {
      // Version and flags, a count, then each key: its size (with these 8 bytes), a
      // namespace and the name.
      _ = damage.attempt { () throws(DataDamage) in
        try c.skip(4, "flags")
        let count = try c.u32("key count")
        for index in 1...max(1, min(count, 1_000)) where count > 0 {
          let size = try c.u32("key size")
          guard size >= 8 else { throw DataDamage("\(c.label): key \(index) has size \(size)") }
          try c.skip(4, "key namespace")
          names[index] = String(decoding: try c.take(size - 8, "key \(index)"), as: UTF8.self)
        }
      }
    }
    guard let ilst = children.first(where: { $0.type == "ilst" }) else { return }
    for item in ContainerReader.children(of: ilst, in: file, damage: &damage) {
      guard
        let data = ContainerReader.children(of: item, in: file, damage: &damage).first(where: { $0.type == "data" }),
        let b = ContainerReader.content(of: data, in: file, limit: Self.maximumValue), b.count > 8,
        b[0] == 0, b[1] == 0, b[2] == 0, b[3] == 1,  // well-known type 1: UTF-8 text
        let value = Self.text(b[8...])
      else { continue }
      if item.type.hasPrefix("©") {
        if items[item.type] == nil { items[item.type] = value }
      } else {
        let index = item.type.unicodeScalars.reduce(UInt32(0)) { $0 << 8 | ($1.value & 0xFF) }
        if let name = names[index], keys[name] == nil { keys[name] = value }
      }
    }
  }

  /// 3GPP TS 26.244 location: version and flags, language, a place name, a role byte, then
  /// longitude, latitude and altitude as signed 16.16 fixed point.
  static func loci(_ bytes: [UInt8]?) -> ISO6709Point? {
    guard let bytes else { return nil }
    var c = ByteCursor(bytes, label: "'loci' box")
    do {
      try c.skip(6, "language")
      if bytes.count >= 8, bytes[6] == 0xFE, bytes[7] == 0xFF {  // a UTF-16 name, ending in two zero bytes
        try c.skip(2)
        while try c.u16("place name") != 0 {}
      } else {
        _ = try c.upTo(0, "place name")
      }
      try c.skip(1, "role")
      let longitude = try fixed(&c)
      let latitude = try fixed(&c)
      let altitude = try fixed(&c)
      guard let coordinate = Coordinate(validatingLatitude: latitude, longitude: longitude) else { return nil }
      return ISO6709Point(coordinate: coordinate, altitude: altitude)
    } catch {
      return nil
    }
  }

  /// A signed 16.16 fixed-point number.
  static func fixed(_ c: inout ByteCursor) throws(DataDamage) -> Double {
    Double(Int32(bitPattern: try c.u32("fixed-point number"))) / 65_536
  }

  /// The first video track's pixel size and rotation, from its header's size and matrix.
  mutating func track(_ trak: Box, _ file: any RandomAccessBytes) {
    let children = ContainerReader.children(of: trak, in: file, damage: &damage)
    guard let mdia = children.first(where: { $0.type == "mdia" }),
      let hdlr = ContainerReader.children(of: mdia, in: file, damage: &damage).first(where: { $0.type == "hdlr" }),
      file.bytes(at: hdlr.start + 8, count: 4) == Array("vide".utf8),
      let tkhd = children.first(where: { $0.type == "tkhd" }),
      var c = ContainerReader.cursor(of: tkhd, in: file, limit: 256)
    else { return }
    // Version 1 has 64-bit times; then the 3×3 matrix (a, b, u, c, d, v, x, y, w) and the size.
    let header = damage.attempt { () throws(DataDamage) -> ([Double], Double, Double) in
      try c.seek(to: try c.u8("version") == 1 ? 52 : 40, "matrix")
      var matrix: [Double] = []
      for _ in 0..<9 { matrix.append(try Self.fixed(&c)) }
      return (matrix, try Self.fixed(&c), try Self.fixed(&c))
    }
    guard let (matrix, fixedWidth, fixedHeight) = header, fixedWidth >= 1, fixedHeight >= 1,
      fixedWidth < 1e9, fixedHeight < 1e9
    else { return }
    width = Int(fixedWidth)
    height = Int(fixedHeight)
    switch (matrix[0], matrix[1], matrix[3], matrix[4]) {
    case (0, 1, -1, 0): rotation = 90
    case (-1, 0, 0, -1): rotation = 180
    case (0, -1, 1, 0): rotation = 270
    default: rotation = 0
    }
  }
}
