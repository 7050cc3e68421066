import Foundation
import GeoPhotoCore
import Testing

@testable import GeoPhotoPlaces

/// The shipped gazetteer, found the way the product finds it (beside the executables).
let shipped: Gazetteer? = Gazetteer.locate(indexDirectory: nil).flatMap { try? Gazetteer(contentsOf: $0) }

@Suite(.enabled(if: shipped != nil, "the shipped gazetteer was not built next to the tests"))
struct ShippedGazetteerTests {
  let g = shipped!

  // Expected answers from the data's README (haversine, R = 6371.0088 km).
  @Test(arguments: [
    (35.68, 139.76, "Tokyo", "Tokyo", "JP", 6.26),
    (52.52, 13.40, "Mitte", "Berlin", "DE", 0.33),
    (43.4674483, 11.8851267, "Arezzo", "Tuscany", "IT", 2.63),
    (51.1782817, -1.82664, "Amesbury", "England", "GB", 3.23),
    (-17.7732778, 177.36575, "Nadi", "Western", "FJ", 6.16),
  ])
  func nearestPlaces(lat: Double, lon: Double, name: String, admin1: String, cc: String, km: Double) throws {
    let found = try #require(g.nearest(to: Coordinate(latitude: lat, longitude: lon)))
    #expect(found.place.name == name && found.place.admin1 == admin1 && found.place.countryCode == cc)
    #expect(abs(found.distance / 1000 - km) < 0.01)
  }

  @Test func farFromAnyPlaceOrNoLocation() {
    #expect(g.nearest(to: Coordinate(latitude: 65.0555778, longitude: -16.6257028)) == nil)  // Laugar is 81.75 km
    #expect(
      g.nearest(to: Coordinate(latitude: 65.0555778, longitude: -16.6257028), within: 100_000)?.place.name == "Laugar")
    #expect(g.nearest(to: Coordinate(latitude: 0, longitude: 0), within: 1e7) == nil)
    #expect(g.count == 144_563)
  }

  @Test func namesAsInput() throws {
    let tokyo = try #require(g.places(named: "tokyo").first)
    #expect(tokyo.label == "Tokyo, Tokyo, JP")
    let kyoto = g.places(named: "Kyoto, JP")
    #expect(!kyoto.isEmpty && kyoto.allSatisfy { $0.countryCode == "JP" })
    #expect(g.places(named: "Arezzo, Tuscany").first?.countryCode == "IT")
    #expect(g.places(named: "Qwxyzzy").isEmpty)
    #expect(g.suggestions(for: "Tokio").contains("Tokyo"))
  }
}

@Suite struct GazetteerFormatTests {
  @Test func roundTripAndDamage() throws {
    let places = [
      Place(
        name: "Alpha", admin1: "One", admin2: "", countryCode: "AA",
        coordinate: Coordinate(latitude: 10, longitude: 20), population: 5),
      Place(
        name: "Beta", admin1: "One", admin2: "Sub", countryCode: "BB",
        coordinate: Coordinate(latitude: -10, longitude: -20)),
      Place(
        name: "Alpha", admin1: "Two", admin2: "", countryCode: "AA",
        coordinate: Coordinate(latitude: 11, longitude: 21), population: 50),
    ]
    let bytes = try GazetteerBuilder.build(places)
    let g = try Gazetteer(data: bytes)
    #expect(g.count == 3 && g.place(1) == places[1])
    #expect(g.places(named: "alpha").map(\.admin1) == ["Two", "One"])  // most populous first
    #expect(g.nearest(to: Coordinate(latitude: 10.01, longitude: 20))?.place.name == "Alpha")
    #expect(throws: Gazetteer.FormatError.self) { try Gazetteer(data: Array(bytes.dropLast())) }
    #expect(throws: Gazetteer.FormatError.self) {
      try Gazetteer(data: Array("not a gazetteer at all, really not".utf8))
    }
    var damaged = bytes
    damaged[32 + 16] = 0xFF  // an admin1 index far past the table
    damaged[32 + 17] = 0xFF
    #expect(throws: Gazetteer.FormatError.self) { try Gazetteer(data: damaged) }
  }

  @Test func csvAndGeoNamesInput() throws {
    let csv =
      "lat,lon,name,admin1,admin2,cc\r\n35.6895,139.69171,Tokyo,Tokyo,,JP\r\n39.0,-0.2,\"Xeraco,Jaraco\",Valencia,Valencia,ES\r\n"
    let rows = try GazetteerBuilder.placesFromCSV(csv)
    #expect(rows.map(\.name) == ["Tokyo", "Xeraco,Jaraco"])
    let cities = [
      "1850147\tTokyo\tTokyo\t\t35.6895\t139.69171\tP\tPPLC\tJP\t\t40\t\t\t\t8336599\t\t44\tAsia/Tokyo\t2022-11-25",
      "1\tOld Town\tOld Town\t\t35.7\t139.7\tP\tPPLH\tJP\t\t40\t\t\t\t0\t\t0\tAsia/Tokyo\t2022-11-25",
      "2\tSuburb\tSuburb\t\t35.71\t139.71\tP\tPPLX\tJP\t\t40\t\t\t\t0\t\t0\tAsia/Tokyo\t2022-11-25",
    ].joined(separator: "\n")
    let places = try GazetteerBuilder.placesFromGeoNames(
      cities: cities, admin1: "JP.40\tTokyo\tTokyo\t1850144\n", admin2: nil)
    #expect(places.map(\.name) == ["Tokyo"])
    #expect(places[0].admin1 == "Tokyo" && places[0].population == 8_336_599)
    #expect(throws: GazetteerBuilder.InputError.self) {
      try GazetteerBuilder.placesFromGeoNames(cities: "junk", admin1: "", admin2: nil)
    }
  }
}
