import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoPlaces

/// The shipped gazetteer, found the way the product finds it (beside the executables).
let shipped: Gazetteer? = Gazetteer.shippedURL.flatMap { try? Gazetteer(contentsOf: $0) }

/// The places extract the shipped gazetteer is built from (a build input, read by relative
/// path), when it is there.
let placesData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
  "../../../shared/data/places")

@Suite(.enabled(if: shipped != nil, "the shipped gazetteer was not built next to the tests"))
struct ShippedGazetteerTests {
  let g = shipped!

  func label(_ lat: Double, _ lon: Double) -> String? {
    g.placeName(at: Coordinate(latitude: lat, longitude: lon))?.label
  }

  /// The places the naming rule must give, from landmarks and from reports of wrong answers.
  @Test(arguments: [
    (35.6812, 139.7671, "Chūō, Tokyo, JP"),  // Tokyo Station
    (35.7148, 139.7967, "Asakusa, Tokyo, JP"),  // Senso-ji
    (35.6595, 139.7005, "Shibuya, Tokyo, JP"),  // Shibuya crossing
    (-33.8568, 151.2153, "Sydney, New South Wales, AU"),  // the Opera House
  ])
  func namesALocalWouldUse(lat: Double, lon: Double, expected: String) {
    #expect(label(lat, lon) == expected)
  }

  @Test func seaPolesAndNoLocation() {
    #expect(label(30, -40) == nil)  // the mid-Atlantic
    #expect(label(0, 0) == nil)
    #expect(label(0, -160) == nil)  // mid-Pacific
    let mcmurdo = g.placeName(at: Coordinate(latitude: -77.846, longitude: 166.676))
    #expect(mcmurdo?.label == "Antarctica" && mcmurdo?.isCountry == true && mcmurdo?.countryCode == "AQ")
    #expect(g.country(at: Coordinate(latitude: -90, longitude: 0))?.code == "AQ")
    #expect(g.country(at: Coordinate(latitude: 90, longitude: 0)) == nil)
    #expect(g.count == 234_908)
  }

  /// Across a border, a place of the country the point is in wins over a bigger one across it.
  @Test(arguments: [
    (42.3149, -83.0364, "CA"), (42.3314, -83.0458, "US"),  // Windsor, Ontario and Detroit
    (47.5596, 7.5886, "CH"), (47.5934, 7.6209, "DE"),  // Basel and Weil am Rhein
    (48.5734, 7.7521, "FR"), (48.5726, 7.8156, "DE"),  // Strasbourg and Kehl
  ])
  func bordersKeepTheirSide(lat: Double, lon: Double, country: String) {
    let c = Coordinate(latitude: lat, longitude: lon)
    #expect(g.country(at: c)?.code == country)
    #expect(g.placeName(at: c)?.countryCode == country)
  }

  /// Fiji and Wrangel Island lie across ±180°: the country on both sides (Labasa, Taveuni).
  @Test(arguments: [
    (-16.4167, 179.3833, "FJ"), (-16.7667, -179.9667, "FJ"), (71.2, 179.9, "RU"), (71.2, -179.9, "RU"),
  ])
  func acrossTheAntimeridian(lat: Double, lon: Double, country: String) {
    let c = Coordinate(latitude: lat, longitude: lon)
    #expect(g.country(at: c)?.code == country, "\(lat),\(lon)")
    #expect(g.placeName(at: c)?.countryCode == country, "\(lat),\(lon)")
  }

  @Test func timeZonesOfPositions() throws {
    let tokyo = Coordinate(latitude: 35.6812, longitude: 139.7671)
    #expect(g.timeZone(at: tokyo, named: g.placeName(at: tokyo))! == ("Asia/Tokyo", .place))
    // A ship mid-Pacific: no place within 100 km, the nautical zone.
    #expect(g.timeZone(at: Coordinate(latitude: 0, longitude: -150), named: nil)! == ("Etc/GMT+10", .sea))
    // No place within 25 km but one within 100 km (the Laugar test point, 81.75 km from it).
    let laugar = Coordinate(latitude: 65.0555778, longitude: -16.6257028)
    let named = g.placeName(at: laugar)
    #expect(named == nil || named?.isCountry == true)
    #expect(g.timeZone(at: laugar, named: named)! == ("Atlantic/Reykjavik", .place))
  }

  @Test func everyTimeZoneResolves() {
    let zones = Set((0..<g.count).map { g.place($0).timeZone })
    #expect(zones.count > 300)
    for zone in zones { #expect(TimeZone(identifier: zone) != nil, "\(zone)") }
  }

  @Test func namesAsInput() throws {
    #expect(g.places(named: "reykjavik").first?.name == "Reykjavík")
    #expect(g.places(named: "Reykjavík").first?.countryCode == "IS")
    let kyoto = g.places(named: "Kyoto, JP")
    #expect(!kyoto.isEmpty && kyoto.allSatisfy { $0.countryCode == "JP" })
    #expect(g.places(named: "Paris, Texas").first?.admin1 == "Texas")
    #expect(g.places(named: "Arezzo, Italy").first?.countryCode == "IT")
    #expect(g.places(named: "Qwxyzzy").isEmpty)
    #expect(g.suggestions(for: "Tokio").contains("Tokyo"))
  }

  /// The most populous of places with one name comes first: checked against the extract.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: placesData.appendingPathComponent("geonames-cities500.tsv").path),
      "needs the places extract in ../shared/data"))
  func anAmbiguousNameTakesTheMostPopulous() throws {
    let text = try String(contentsOf: placesData.appendingPathComponent("geonames-cities500.tsv"), encoding: .utf8)
    let springfields = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
      .filter { $0.count >= 10 && $0[3] == "Springfield" }
    let largest = try #require(springfields.max { Int($0[8]) ?? 0 < Int($1[8]) ?? 0 })
    let found = g.places(named: "springfield")
    #expect(found.count == springfields.count)
    #expect(found.first?.geonameID == Int(largest[0]))
  }

  /// A loaded gazetteer holds little of its file: its checks read the columns once and hand
  /// their pages back. Naming brings in the pages it reads, `releasePages` hands them back,
  /// and the names after are the same.
  @Test func theGazetteerHoldsOnlyThePagesItReads() throws {
    let g = try Gazetteer(contentsOf: try #require(Gazetteer.shippedURL))
    let loaded = try #require(ResidentMemory.kilobytes(ofMappingAt: g.storage.base))
    #expect(loaded < 1_024, "\(loaded) KB of the \(g.storage.count / 1_024) KB file held after loading")
    var rng = SeededGenerator(seed: 9)
    let points = (0..<300).map { _ in g.place(Int.random(in: 0..<g.count, using: &rng)).coordinate }
    let names = points.map { g.placeName(at: $0) }
    #expect(names.allSatisfy { $0 != nil })
    #expect(try #require(ResidentMemory.kilobytes(ofMappingAt: g.storage.base)) > loaded)
    g.releasePages()
    #expect(ResidentMemory.kilobytes(ofMappingAt: g.storage.base) == 0)
    #expect(points.map { g.placeName(at: $0) } == names)
  }

  /// The rule, answered with the tree and the banded outlines, against the rule applied by
  /// brute force (every place, every edge of every ring) on the same data: 10,000 random
  /// positions near places and 1,000 anywhere on Earth.
  @Test func theRuleAgreesWithBruteForce() {
    var rng = SystemRandomNumberGenerator()
    var points: [Coordinate] = []
    for _ in 0..<10_000 {
      let p = g.place(Int.random(in: 0..<g.count, using: &rng)).coordinate
      points.append(
        Coordinate(
          latitude: max(-90, min(90, p.latitude + Double.random(in: -0.3...0.3, using: &rng))),
          longitude: p.longitude + Double.random(in: -0.3...0.3, using: &rng)
        ).wrapped)
    }
    for _ in 0..<1_000 {
      points.append(
        Coordinate(
          latitude: asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi,
          longitude: Double.random(in: -180..<180, using: &rng)))
    }
    let bruteForce = BruteForce(g)
    var disagreements: [String] = []
    for c in points where bruteForce.match(c) != g.match(at: c) {
      disagreements.append("\(c.latitude),\(c.longitude): \(String(describing: g.match(at: c)))")
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
  }

  /// `PlaceRule` by brute force. Two exact shortcuts keep it affordable: a ring whose box
  /// (computed here from its points) does not hold the position has an even count of crossings,
  /// and a place more than 0.23° of latitude away is more than 25 km away.
  final class BruteForce: @unchecked Sendable {
    let g: Gazetteer
    let boxes: [(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double)]
    /// Place positions sorted by latitude.
    let byLatitude: [Int]

    init(_ g: Gazetteer) {
      self.g = g
      let o = g.outlines
      boxes = (0..<o.ringCount).map { ring in
        let range = Int(o.ringStarts[ring])..<Int(o.ringStarts[ring + 1])
        let lats = range.map { Double(o.points[2 * $0]) }
        let lons = range.map { Double(o.points[2 * $0 + 1]) }
        return (lats.min()!, lats.max()!, lons.min()!, lons.max()!)
      }
      byLatitude = (0..<g.count).sorted { g.latitudes[$0] < g.latitudes[$1] }
    }

    func match(_ c: Coordinate) -> PlaceMatch? {
      guard c.isPlausiblePhotoLocation else { return nil }
      // The country: the even-odd rule over every ring of each country, a ray to the east.
      let o = g.outlines
      let lat = c.latitude * 1e6
      let lon = c.longitude * 1e6
      var inside: [UInt16: Bool] = [:]
      var order: [UInt16] = []
      for ring in 0..<o.ringCount {
        let box = boxes[ring]
        guard box.minLat <= lat, lat <= box.maxLat, box.minLon <= lon, lon <= box.maxLon else { continue }
        let start = Int(o.ringStarts[ring])
        let end = Int(o.ringStarts[ring + 1])
        var odd = false
        for i in start..<end {
          let j = i + 1 == end ? start : i + 1
          let (aLat, aLon) = (Double(o.points[2 * i]), Double(o.points[2 * i + 1]))
          let (bLat, bLon) = (Double(o.points[2 * j]), Double(o.points[2 * j + 1]))
          if (aLat > lat) != (bLat > lat), lon < (bLon - aLon) * (lat - aLat) / (bLat - aLat) + aLon { odd.toggle() }
        }
        guard odd else { continue }
        let country = o.ringCountries[ring]
        if inside[country] == nil { order.append(country) }
        inside[country] = !(inside[country] ?? false)
      }
      let country = order.first { inside[$0] == true }
      // Every place within 25 km, by the same unit vectors.
      let q = GreatCircle.unitVector(c)
      let bound = GreatCircle.squaredChord(forDistance: 25_000)
      let v = g.index.vectors
      var candidates: [(position: Int, score: Double, d2: Double, country: UInt16)] = []
      let low = Int32((c.latitude - 0.23) * 1e6)
      let high = Int32((c.latitude + 0.23) * 1e6)
      var first = 0
      var last = byLatitude.count
      while first < last {
        let mid = (first + last) / 2
        if g.latitudes[byLatitude[mid]] < low { first = mid + 1 } else { last = mid }
      }
      for k in first..<byLatitude.count {
        let i = byLatitude[k]
        guard g.latitudes[i] <= high else { break }
        let (dx, dy, dz) = (v[3 * i] - q.x, v[3 * i + 1] - q.y, v[3 * i + 2] - q.z)
        let d2 = dx * dx + dy * dy + dz * dz
        guard d2 <= bound else { continue }
        let km = GreatCircle.distance(squaredChord: d2) / 1000
        let population = Int(g.populations[i])
        let weight = pow(Double(population >= 500 ? population : 3_000), 0.2)
        candidates.append((i, weight / max(km, 0.2), d2, g.countries[i]))
      }
      if let country, candidates.contains(where: { $0.country == country }) {
        candidates = candidates.filter { $0.country == country }
      }
      let best = candidates.min { a, b in
        if a.score != b.score { return a.score > b.score }
        if a.d2 != b.d2 { return a.d2 < b.d2 }
        return a.position < b.position
      }
      if let best { return .place(best.position, distance: GreatCircle.distance(squaredChord: best.d2)) }
      return country.map { .country(Int($0)) }
    }
  }
}

extension Coordinate {
  /// The same position with its longitude in −180..<180.
  var wrapped: Coordinate {
    var lon = longitude
    while lon >= 180 { lon -= 360 }
    while lon < -180 { lon += 360 }
    return Coordinate(latitude: latitude, longitude: lon)
  }
}

@Suite struct GazetteerFormatTests {
  static let places = [
    Place(
      name: "Alpha", admin1: "One", admin2: "", countryCode: "AA", coordinate: Coordinate(latitude: 10, longitude: 20),
      population: 5, timeZone: "Etc/GMT-1", geonameID: 7),
    Place(
      name: "Beta", admin1: "One", admin2: "Sub", countryCode: "BB",
      coordinate: Coordinate(latitude: -10, longitude: -20)),
    Place(
      name: "Alpha", admin1: "Two", admin2: "", countryCode: "AA", coordinate: Coordinate(latitude: 11, longitude: 21),
      population: 50, timeZone: "Etc/GMT-1", geonameID: 8),
  ]
  /// A square country around both Alphas, with a hole around the second.
  static let rings: [GazetteerBuilder.Ring] = [
    ("AA", [(9, 19), (9, 23), (12, 23), (12, 19)]), ("AA", [(10.9, 20.9), (10.9, 21.1), (11.1, 21.1), (11.1, 20.9)]),
  ]

  @Test func roundTrip() throws {
    let bytes = try GazetteerBuilder.build(
      Self.places, countries: [("AA", "Aland"), ("BB", "Bland")], rings: Self.rings)
    let g = try Gazetteer(data: Data(bytes))
    #expect(g.count == 3)
    #expect(Set((0..<3).map(g.place)) == Set(Self.places))
    #expect(g.places(named: "ALPHA").map(\.admin1) == ["Two", "One"])  // most populous first
    #expect(g.places(named: "alpha, Aland").count == 2)
    #expect(g.nearest(to: Coordinate(latitude: 10.01, longitude: 20))?.place.name == "Alpha")
    #expect(g.country(at: Coordinate(latitude: 10, longitude: 22))?.name == "Aland")
    #expect(g.country(at: Coordinate(latitude: 11, longitude: 21)) == nil)  // in the hole
    #expect(g.country(at: Coordinate(latitude: 0, longitude: 0)) == nil)
    let named = try #require(g.placeName(at: Coordinate(latitude: 10.01, longitude: 20)))
    #expect(named.timeZone == "Etc/GMT-1" && named.geonameID == 7 && named.population == 5 && !named.isCountry)
    // Far from both places but inside the square: the country alone.
    let country = try #require(g.placeName(at: Coordinate(latitude: 9.1, longitude: 22.9)))
    #expect(country.isCountry && country.label == "Aland" && country.countryCode == "AA")
    // A gazetteer with the same data has the same identity; other data another.
    #expect(try Gazetteer(data: Data(GazetteerBuilder.build(Self.places))).identity != g.identity)
    #expect(
      try Gazetteer(
        data: Data(
          GazetteerBuilder.build(Self.places, countries: [("AA", "Aland"), ("BB", "Bland")], rings: Self.rings))
      ).identity == g.identity)
  }

  /// A gazetteer file is read where it is mapped: it answers as the same bytes in memory do,
  /// and outlives the file's being replaced (as an import does, by renaming).
  @Test func aMappedFileAnswersAsItsBytesDo() throws {
    let bytes = try GazetteerBuilder.build(
      Self.places, countries: [("AA", "Aland"), ("BB", "Bland")], rings: Self.rings)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gaz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("places.gaz")
    try Data(bytes).write(to: url)
    let mapped = try Gazetteer(contentsOf: url)
    let copied = try Gazetteer(data: Data(bytes))
    try Data("replaced".utf8).write(to: url, options: .atomic)
    #expect(mapped.identity == copied.identity && mapped.count == copied.count)
    #expect(Set((0..<mapped.count).map(mapped.place)) == Set(Self.places))
    for c in [Coordinate(latitude: 10.01, longitude: 20), Coordinate(latitude: 9.1, longitude: 22.9)] {
      #expect(mapped.placeName(at: c) == copied.placeName(at: c))
    }
    #expect(throws: CocoaError.self) { try Gazetteer(contentsOf: dir.appendingPathComponent("missing.gaz")) }
    #expect(throws: Gazetteer.FormatError.self) { try Gazetteer(contentsOf: url) }
  }

  @Test func damagedFilesAreRefusedNotRead() throws {
    let bytes = try GazetteerBuilder.build(Self.places, countries: [("AA", "Aland")], rings: Self.rings)
    #expect(throws: Gazetteer.FormatError.self) { try Gazetteer(data: Data(bytes.dropLast())) }
    #expect(throws: Gazetteer.FormatError.self) { try Gazetteer(data: Data("not a gazetteer at all".utf8)) }
    #expect(throws: Gazetteer.FormatError.self) { try Gazetteer(data: Data("GPPLACE1 and more bytes here".utf8)) }
    // Every byte of the head and table, and a sample of the rest, flipped: refused or read,
    // never a crash.
    var rng = SystemRandomNumberGenerator()
    let offsets =
      Array(0..<(16 + 8 * GazetteerFile.Section.allCases.count))
      + (0..<300).map { _ in Int.random(in: 0..<bytes.count, using: &rng) }
    for offset in offsets {
      var damaged = bytes
      damaged[offset] ^= 0xA5
      if let g = try? Gazetteer(data: Data(damaged)) {
        _ = g.placeName(at: Coordinate(latitude: 10, longitude: 20))
        _ = g.places(named: "Alpha")
      }
    }
  }

  @Test func geoNamesDumps() throws {
    let cities = [
      "1850147\tTōkyō\tTokyo\t\t35.6895\t139.69171\tP\tPPLC\tJP\t\t40\t\t\t\t8336599\t\t44\tAsia/Tokyo\t2022-11-25",
      "1\tOld Town\tOld Town\t\t35.7\t139.7\tP\tPPLH\tJP\t\t40\t\t\t\t0\t\t0\tAsia/Tokyo\t2022-11-25",
      "2\tAsakusa\tAsakusa\t\t35.71\t139.79\tP\tPPLX\tJP\t\t40\t\t\t\t0\t\t0\tAsia/Tokyo\t2022-11-25",
    ].joined(separator: "\n")
    let places = try GazetteerBuilder.placesFromGeoNames(
      cities: cities, admin1: "JP.40\tTōkyō\tTokyo\t1850144\n", admin2: nil)
    #expect(places.map(\.name) == ["Tōkyō", "Asakusa"])  // native names; neighbourhoods kept
    #expect(places[0].admin1 == "Tōkyō" && places[0].population == 8_336_599)
    #expect(places[0].timeZone == "Asia/Tokyo" && places[0].geonameID == 1_850_147)
    #expect(throws: GazetteerBuilder.InputError.self) {
      try GazetteerBuilder.placesFromGeoNames(cities: "junk", admin1: "", admin2: nil)
    }
    let info = "#ISO\tISO3\tISO-Numeric\tfips\tCountry\n#comment\nJP\tJPN\t392\tJA\tJapan\tTokyo\n"
    #expect(try GazetteerBuilder.countriesFromGeoNames(info).map(\.name) == ["Japan"])
  }

  @Test func extractRowsNameTheirLine() throws {
    let header = "geonameid\tlat\tlon\tname\tcc\tadmin1_code\tadmin1\tadmin2\tpopulation\ttz\n"
    let rows = try GazetteerBuilder.placesFromTSV(header + "5\t1.5\t2.5\tX\tAA\t01\tOne\t\t700\tEtc/UTC\n")
    #expect(rows.first?.population == 700 && rows.first?.geonameID == 5)
    #expect {
      try GazetteerBuilder.placesFromTSV(header + "5\t1.5\t2.5\tX\tAA\t01\tOne\t\t700\tEtc/UTC\n6\t95\t0\tY")
    } throws: { ($0 as? GazetteerBuilder.InputError)?.description.contains("places:3") == true }
    let ringHeader = "cc\tne_name\tring\tkind\tmin_lat\tmin_lon\tmax_lat\tmax_lon\tpoints\n"
    let rings = try GazetteerBuilder.ringsFromTSV(ringHeader + "AA\tA\t0\touter\t0\t0\t1\t1\t0,0 0,1 1,1\n")
    #expect(rings.first?.points.count == 3)
    #expect(throws: GazetteerBuilder.InputError.self) {
      try GazetteerBuilder.ringsFromTSV(ringHeader + "AA\tA\t0\touter\t0\t0\t1\t1\t0,0 0,x\n")
    }
  }
}
