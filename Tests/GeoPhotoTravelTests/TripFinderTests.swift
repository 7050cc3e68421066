import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTravel

/// Trips found in a four-year timeline whose trips are known: a home in Helsinki, then a move
/// to Berlin; day trips that are no trips, a trip split by a gap, trips across time zones and
/// across the antimeridian, photos without positions inside a trip.
@Suite struct TripFinderTests {
  static let countryNames = [
    "FI": "Finland", "DE": "Germany", "JP": "Japan", "KR": "South Korea", "IT": "Italy", "FJ": "Fiji", "WS": "Samoa",
  ]

  @Test func theKnownTripsAreFound() throws {
    let (timeline, expected) = TravelTimeline.fourYears()
    let (homes, trips) = TripFinder().trips(in: timeline.photos.shuffled()) { Self.countryNames[$0] ?? $0 }
    #expect(trips.map(\.name) == expected.map(\.name))
    #expect(trips.map(\.start.text) == expected.map(\.start))
    #expect(trips.map(\.end.text) == expected.map(\.end))
    for (trip, known) in zip(trips, expected) {
      #expect(Set(trip.photoIDs) == known.ids, "\(trip.name) \(trip.start.text)")
      #expect(trip.id == Trip.id(lowestPhoto: known.ids.min()!))
    }
    // Two homes: Helsinki, then Berlin from the first day there.
    #expect(homes.count == 2)
    #expect(homes.map(\.label) == ["Helsinki, Uusimaa, FI", "Berlin, Land Berlin, DE"])
    #expect(homes.last?.since.text == "2020-07-01")
    #expect(haversine(homes[0].center, TravelTimeline.helsinki.coordinate) < 15_000)
  }

  @Test func photosWithoutAPositionBelongToTheTripTheyWereTakenDuring() throws {
    let (timeline, _) = TravelTimeline.fourYears()
    let trips = TripFinder().trips(in: timeline.photos).trips
    let japan = try #require(trips.first { $0.start.text == "2018-05-01" })
    #expect(japan.photos == 33)
    #expect(japan.located == 30)
    // The one taken at home is in none.
    let unlocatedAtHome = try #require(timeline.photos.last).id
    #expect(!trips.contains { $0.photoIDs.contains(unlocatedAtHome) })
    // In time order.
    let byID = Dictionary(uniqueKeysWithValues: timeline.photos.map { ($0.id, $0) })
    let instants = japan.photoIDs.map { byID[$0]!.instant }
    #expect(instants == instants.sorted())
  }

  @Test func countsDistanceAndBoundsFollowThePhotos() throws {
    let (timeline, _) = TravelTimeline.fourYears()
    let trips = TripFinder().trips(in: timeline.photos).trips
    let byID = Dictionary(uniqueKeysWithValues: timeline.photos.map { ($0.id, $0) })
    for trip in trips {
      let located = trip.photoIDs.compactMap { byID[$0]!.coordinate }
      var distance = 0.0
      for (a, b) in zip(located, located.dropFirst()) { distance += haversine(a, b) }
      #expect(abs(trip.distance - distance) <= 1e-6 * max(1, distance), "\(trip.name)")
      let places = Set(trip.photoIDs.compactMap { byID[$0]!.place?.name })
      let countries = Set(trip.photoIDs.compactMap { byID[$0]!.place?.countryCode })
      #expect(trip.places == places.count)
      #expect(trip.countries == countries.count)
      #expect(located.allSatisfy(trip.bounds.contains))
      #expect(!trip.route.isEmpty && trip.route.count <= TripFinder.routePoints)
    }
    // Across the antimeridian: a box from Fiji east to Samoa, not around the world.
    let pacific = try #require(trips.first { $0.start.text == "2019-02-01" })
    #expect(pacific.bounds.crossesAntimeridian)
    #expect(pacific.bounds.west > 178 && pacific.bounds.east < -171)
    #expect(pacific.route.allSatisfy { abs($0.longitude) <= 180 })
    // Suva → Apia is about 1,150 km; the trip's distance holds that hop once.
    #expect(pacific.distance > 1_100_000 && pacific.distance < 1_300_000)
  }

  @Test func idsStayWhileTheirPhotosStay() throws {
    var (timeline, _) = TravelTimeline.fourYears()
    let before = TripFinder().trips(in: timeline.photos).trips
    // A photo synced later into the Rome trip, and another at home.
    timeline.add(TravelTimeline.rome, at: TravelTimeline.local(2018, 9, 2, 18))
    timeline.add(TravelTimeline.helsinki, at: TravelTimeline.local(2021, 12, 30, 18))
    let after = TripFinder().trips(in: timeline.photos).trips
    #expect(after.map(\.id) == before.map(\.id))
    // The trip's lowest photo removed: the id changes, the others stay.
    let rome = try #require(before.first { $0.start.text == "2018-09-01" })
    let lowest = rome.photoIDs.min()!
    let without = TripFinder().trips(in: timeline.photos.filter { $0.id != lowest }).trips
    #expect(without.map(\.id) == before.map { $0.id == rome.id ? Trip.id(lowestPhoto: lowest + 1) : $0.id })
  }

  @Test func aFixedHomeMeasuresEveryTripFromIt() throws {
    let (timeline, _) = TravelTimeline.fourYears()
    let helsinki = TripFinder(home: .fixed(TravelTimeline.helsinki.coordinate, label: "Helsinki")).trips(
      in: timeline.photos)
    // The visit to Helsinki from Berlin is home now; Berlin's days, two days apart, are no trip.
    #expect(!helsinki.trips.contains { $0.start.text == "2021-06-10" })
    #expect(helsinki.homes.map(\.label) == ["Helsinki"])
    #expect(helsinki.trips.count == 6)
  }

  @Test func theRulesAreOptions() throws {
    let (timeline, _) = TravelTimeline.fourYears()
    // Farther than Tampere: the weekend there is no trip.
    let far = TripFinder(rules: TripRules(away: 200_000)).trips(in: timeline.photos).trips
    #expect(!far.contains { $0.name == "Tampere, FI" })
    // A gap of five days joins the two halves of Rome.
    let long = TripFinder(rules: TripRules(gap: 5 * 86_400)).trips(in: timeline.photos).trips
    #expect(long.filter { $0.name == "Rome, IT" }.count == 1)
    // Seven photos at least: the weekend's six are too few.
    let many = TripFinder(rules: TripRules(minimumPhotos: 7)).trips(in: timeline.photos).trips
    #expect(!many.contains { $0.name == "Tampere, FI" })
    #expect(TripFinder().trips(in: []).trips.isEmpty)
  }

  @Test func aFilterLimitsTheTripsButNotTheHome() throws {
    let (timeline, expected) = TravelTimeline.fourYears()
    // Only Kyoto's photos shown (a filter, a privacy zone elsewhere, a shared link's scope).
    let isKyoto: (DatedPhoto) -> Bool = { $0.place?.name == "Kyoto" }
    let (homes, trips) = TripFinder().trips(in: timeline.photos, showing: isKyoto)
    #expect(homes.count == 2)
    let japan = try #require(expected.first { $0.start == "2018-05-01" })
    #expect(trips.count == 1)
    let kyoto = try #require(trips.first)
    // Its id and name stay; its days, photos, distance and box are Kyoto's.
    #expect(kyoto.id == Trip.id(lowestPhoto: japan.ids.min()!))
    #expect(kyoto.name == "Tokyo & Kyoto, JP")
    #expect(kyoto.start.text == "2018-05-07" && kyoto.end.text == "2018-05-09")
    #expect(kyoto.photos == 9 && kyoto.located == 9)
    #expect(kyoto.distance < 10_000)
    #expect(
      haversine(TravelTimeline.kyoto.coordinate, Coordinate(latitude: kyoto.bounds.north, longitude: kyoto.bounds.east))
        < 2_000)
    // Nothing shown, no trips.
    #expect(TripFinder().trips(in: timeline.photos, showing: { _ in false }).trips.isEmpty)
  }

  @Test func namesFollowThePlacesByPhotoCount() {
    let start = LocalDay(number: 0)
    #expect(TripName.name(cities: ["Kyoto"], countries: ["Japan"], codes: ["JP"], start: start) == "Kyoto, JP")
    #expect(
      TripName.name(cities: ["Tokyo", "Kyoto", "Osaka"], countries: ["Japan"], codes: ["JP"], start: start)
        == "Tokyo, Kyoto & Osaka, JP")
    #expect(
      TripName.name(cities: ["Tokyo", "Kyoto", "Osaka", "Nara"], countries: ["Japan"], codes: ["JP"], start: start)
        == "Japan")
    #expect(
      TripName.name(
        cities: [], countries: ["France", "Italy", "Spain", "Portugal", "Andorra"],
        codes: ["FR", "IT", "ES", "PT", "AD"],
        start: start) == "France, Italy & 3 more countries")
    #expect(TripName.name(cities: [], countries: [], codes: [], start: start) == "Trip of 1970-01-01")
  }
}
