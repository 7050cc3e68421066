import Foundation
import GeoPhotoCore

/// Writes gazetteer files: the shipped one from the GeoNames extract and country outlines in
/// `../shared/data/places/` (`make gazetteer`), or one from GeoNames dumps a user downloaded
/// (`geophoto places import`).
public enum GazetteerBuilder {
  public struct InputError: Error, CustomStringConvertible {
    public var description: String
  }

  /// A country: its two-letter code and its name.
  public typealias Country = (code: String, name: String)
  /// One outline ring of a country: its code and its points in degrees (not closed).
  public typealias Ring = (code: String, points: [(latitude: Double, longitude: Double)])

  /// The gazetteer file for `places`, with `countries` (a code without a name here is named
  /// by its code) and their outline `rings`.
  public static func build(_ places: [Place], countries: [Country] = [], rings: [Ring] = []) throws(InputError)
    -> [UInt8]
  {
    var strings: [UInt8] = []
    var offsets: [String: UInt32] = [:]
    func intern(_ s: String) -> UInt32 {
      if let o = offsets[s] { return o }
      let o = UInt32(strings.count)
      strings += Array(s.utf8.filter { $0 != 0 }) + [0]
      offsets[s] = o
      return o
    }
    _ = intern("")
    // Tables of admin names, countries and time zones; index 0 is the empty one of each.
    var adminIndex: [String: UInt32] = ["": 0]
    var adminNames: [UInt32] = [intern("")]
    func admin(_ name: String) -> UInt32 {
      if let i = adminIndex[name] { return i }
      adminNames.append(intern(name))
      adminIndex[name] = UInt32(adminNames.count - 1)
      return UInt32(adminNames.count - 1)
    }
    var countryIndex: [String: UInt16] = [:]
    var countryCodes: [UInt8] = []
    var countryNames: [UInt32] = []
    func country(_ code: String, name: String? = nil) throws(InputError) -> UInt16 {
      let key = String(code.uppercased().prefix(2)).padding(toLength: 2, withPad: " ", startingAt: 0)
      if let i = countryIndex[key] { return i }
      guard countryNames.count < 65_535 else { throw InputError(description: "more than 65535 countries") }
      countryCodes += Array(key.utf8.prefix(2))
      countryNames.append(intern(name ?? key.trimmingCharacters(in: .whitespaces)))
      countryIndex[key] = UInt16(countryNames.count - 1)
      return UInt16(countryNames.count - 1)
    }
    _ = try country("")
    for c in countries { _ = try country(c.code, name: c.name) }
    var zoneIndex: [String: UInt16] = ["": 0]
    var zoneNames: [UInt32] = [intern("")]
    func zone(_ name: String) throws(InputError) -> UInt16 {
      if let i = zoneIndex[name] { return i }
      guard zoneNames.count < 65_535 else { throw InputError(description: "more than 65535 time zones") }
      zoneNames.append(intern(name))
      zoneIndex[name] = UInt16(zoneNames.count - 1)
      return UInt16(zoneNames.count - 1)
    }
    // The places in the order of their kd-tree: a place's position in it is its index.
    let tree = SpatialIndex(points: places.enumerated().map { (Int64($0.offset), $0.element.coordinate) })
    let order = tree.ids.map { Int($0) }
    var columns = (
      lat: [Int32](), lon: [Int32](), name: [UInt32](), folded: [UInt32](), population: [UInt32](), id: [UInt32](),
      admin1: [UInt32](), admin2: [UInt32](), country: [UInt16](), zone: [UInt16](), weight: [Double]()
    )
    for i in order {
      let p = places[i]
      columns.lat.append(Int32((p.coordinate.latitude * 1e6).rounded()))
      columns.lon.append(Int32((p.coordinate.longitude * 1e6).rounded()))
      columns.name.append(intern(p.name))
      columns.folded.append(intern(SearchText.fold(p.name)))
      columns.population.append(UInt32(clamping: max(0, p.population)))
      columns.id.append(UInt32(clamping: max(0, p.geonameID)))
      columns.admin1.append(admin(p.admin1))
      columns.admin2.append(admin(p.admin2))
      columns.country.append(try country(p.countryCode))
      columns.zone.append(try zone(p.timeZone))
      columns.weight.append(PlaceRule.weight(population: p.population))
    }
    var outlineRings: [(country: UInt16, points: [(latitude: Double, longitude: Double)])] = []
    for ring in rings { outlineRings.append((try country(ring.code), ring.points)) }
    let outlines = CountryOutlines(rings: outlineRings)
    return GazetteerFile.assemble([
      .vectors: GazetteerFile.bytes(Array(tree.vectors)), .axes: Array(tree.axes),
      .latitudes: GazetteerFile.bytes(columns.lat),
      .longitudes: GazetteerFile.bytes(columns.lon), .names: GazetteerFile.bytes(columns.name),
      .foldedNames: GazetteerFile.bytes(columns.folded), .populations: GazetteerFile.bytes(columns.population),
      .geonameIDs: GazetteerFile.bytes(columns.id), .admin1: GazetteerFile.bytes(columns.admin1),
      .admin2: GazetteerFile.bytes(columns.admin2), .countries: GazetteerFile.bytes(columns.country),
      .timeZones: GazetteerFile.bytes(columns.zone), .weights: GazetteerFile.bytes(columns.weight),
      .adminNames: GazetteerFile.bytes(adminNames), .countryCodes: countryCodes,
      .countryNames: GazetteerFile.bytes(countryNames), .timeZoneNames: GazetteerFile.bytes(zoneNames),
      .bandHeight: GazetteerFile.bytes([outlines.bandHeight]),
      .ringCountries: GazetteerFile.bytes(Array(outlines.ringCountries)),
      .ringStarts: GazetteerFile.bytes(Array(outlines.ringStarts)),
      .ringBoxes: GazetteerFile.bytes(Array(outlines.ringBoxes)),
      .ringBandStarts: GazetteerFile.bytes(Array(outlines.ringBandStarts)),
      .ringPoints: GazetteerFile.bytes(Array(outlines.points)),
      .bandStarts: GazetteerFile.bytes(Array(outlines.bandStarts)),
      .bandEdges: GazetteerFile.bytes(Array(outlines.bandEdges)),
      .cellStarts: GazetteerFile.bytes(Array(outlines.cellStarts)),
      .cellRings: GazetteerFile.bytes(Array(outlines.cellRings)), .strings: strings,
    ])
  }

  // MARK: - The shipped extract

  /// Tab-separated rows with a header, split into fields; `name` says which file in errors.
  static func rows(_ text: String, name: String, columns: Int) throws(InputError) -> [[Substring]] {
    var rows: [[Substring]] = []
    for (n, line) in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).enumerated().dropFirst() {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count >= columns else {
        throw InputError(description: "\(name):\(n + 1): expected \(columns) tab-separated columns")
      }
      rows.append(fields)
    }
    return rows
  }

  /// `geonames-cities500.tsv`: geonameid, lat, lon, name, cc, admin1_code, admin1, admin2,
  /// population, tz.
  public static func placesFromTSV(_ text: String) throws(InputError) -> [Place] {
    var places: [Place] = []
    for (n, f) in try rows(text, name: "places", columns: 10).enumerated() {
      guard let id = Int(f[0]), let lat = Double(f[1]), let lon = Double(f[2]),
        let c = Coordinate(validatingLatitude: lat, longitude: lon), let population = Int(f[8])
      else { throw InputError(description: "places:\(n + 2): a bad id, position or population") }
      places.append(
        Place(
          name: String(f[3]), admin1: String(f[6]), admin2: String(f[7]), countryCode: String(f[4]), coordinate: c,
          population: population, timeZone: String(f[9]), geonameID: id))
    }
    return places
  }

  /// `countries.tsv`: cc, iso3, country, …
  public static func countriesFromTSV(_ text: String) throws(InputError) -> [Country] {
    try rows(text, name: "countries", columns: 3).map { (String($0[0]), String($0[2])) }
  }

  /// `countries-ne10m.tsv`: cc, ne_name, ring, kind, the box, then `lat,lon lat,lon …`.
  public static func ringsFromTSV(_ text: String) throws(InputError) -> [Ring] {
    var rings: [Ring] = []
    for (n, f) in try rows(text, name: "outlines", columns: 9).enumerated() {
      var points: [(latitude: Double, longitude: Double)] = []
      for pair in f[8].split(separator: " ") {
        let parts = pair.split(separator: ",")
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]), abs(lat) <= 90,
          abs(lon) <= 180
        else { throw InputError(description: "outlines:\(n + 2): a bad point '\(pair)'") }
        points.append((lat, lon))
      }
      rings.append((String(f[0]), points))
    }
    return rings
  }

  // MARK: - GeoNames dumps

  /// A GeoNames dump: `cities500.txt` (or 1000, 5000, 15000; tab-separated, 19 columns) with
  /// the names of its divisions from `admin1CodesASCII.txt` and, optionally,
  /// `admin2Codes.txt`. Historical places (PPLH) are left out; neighbourhoods (PPLX) stay:
  /// Tokyo's wards and Sydney's suburbs are coded that way.
  public static func placesFromGeoNames(cities: String, admin1: String, admin2: String?) throws(InputError) -> [Place] {
    func codes(_ text: String, name: String) throws(InputError) -> [String: String] {
      var map: [String: String] = [:]
      for (n, line) in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).enumerated() {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard f.count >= 3 else { throw InputError(description: "\(name):\(n + 1): expected code, name, ASCII name") }
        map[String(f[0])] = String(f[1].isEmpty ? f[2] : f[1])
      }
      return map
    }
    let a1 = try codes(admin1, name: "admin1 codes")
    let a2 = try admin2.map { text throws(InputError) in try codes(text, name: "admin2 codes") } ?? [:]
    var places: [Place] = []
    for (n, line) in cities.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).enumerated() {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard f.count >= 18, let lat = Double(f[4]), let lon = Double(f[5]),
        let c = Coordinate(validatingLatitude: lat, longitude: lon)
      else { throw InputError(description: "cities:\(n + 1): not a GeoNames row (19 tab-separated columns)") }
      if f[7] == "PPLH" { continue }
      let name = f[1].isEmpty ? f[2] : f[1]
      let division2 = a2["\(f[8]).\(f[10]).\(f[11])"] ?? ""
      places.append(
        Place(
          name: name, admin1: a1["\(f[8]).\(f[10])"] ?? "", admin2: division2 == name ? "" : division2,
          countryCode: f[8], coordinate: c, population: Int(f[14]) ?? 0, timeZone: f[17], geonameID: Int(f[0]) ?? 0))
    }
    return places
  }

  /// GeoNames' `countryInfo.txt`: comment lines, then ISO, ISO3, ISO-numeric, FIPS, name, ….
  public static func countriesFromGeoNames(_ text: String) throws(InputError) -> [Country] {
    var countries: [Country] = []
    for (n, line) in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).enumerated()
    where !line.hasPrefix("#") {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard f.count >= 5, f[0].count == 2 else {
        throw InputError(description: "countryInfo:\(n + 1): expected ISO, ISO3, ISO-numeric, FIPS and a name")
      }
      countries.append((String(f[0]), String(f[4])))
    }
    return countries
  }
}

extension Gazetteer {
  /// The countries and outline rings of this gazetteer, to carry into one built from a
  /// GeoNames dump (which has neither outlines nor, without countryInfo, country names).
  public var countryData: (countries: [GazetteerBuilder.Country], rings: [GazetteerBuilder.Ring]) {
    let countries = (0..<countryNames.count).map { country($0) }.filter { !$0.code.isEmpty }
    var rings: [GazetteerBuilder.Ring] = []
    for ring in 0..<outlines.ringCount {
      let start = Int(outlines.ringStarts[ring])
      let end = Int(outlines.ringStarts[ring + 1])
      let points = (start..<end).map {
        (latitude: Double(outlines.points[2 * $0]) / 1e6, longitude: Double(outlines.points[2 * $0 + 1]) / 1e6)
      }
      rings.append((countryCode(Int(outlines.ringCountries[ring])), points))
    }
    return (countries, rings)
  }
}
