import Foundation
import GeoPhotoCore
import Testing

@testable import GeoPhotoTravel

/// Trips found in a four-year timeline whose trips are known: a home in Helsinki, then a move
/// to Berlin; day trips that are no trips, a trip split by a gap, trips across time zones and
/// across the antimeridian, photos without positions inside a trip.
@Suite struct TripFinderTests {
  static let countryNames = [
    "FI": "Finland", "DE": "Germany", "JP": "Japan", "KR": "South Korea", "IT": "Italy", "FJ": "Fiji", "WS": "Samoa",
  ]

  struct Expected {
    var start: String
    var end: String
    var name: String
    var ids: Set<Int64>
  }

  /// The timeline and the trips in it, newest first.
  static func timeline() -> (Timeline, [Expected]) {
    var t = Timeline()
    var expected: [Expected] = []
    typealias T = Timeline
    let day: Int64 = 86_400
    // Days away from home (no home photos on them), as [start, end) local days.
    var away: [(Int64, Int64)] = []
    func trip(_ spots: [(T.Spot, Int)], from start: Int64, name: String, skip: Int = 0) -> Set<Int64> {
      var first = start
      var ids: [Int64] = []
      for (spot, days) in spots {
        ids += t.days(spot, from: first, days: days)
        first += Int64(days) * day
      }
      away.append((start - day, first + Int64(skip) * day))
      return Set(ids)
    }
    // Tampere for a weekend: 160 km, a trip.
    let tampere = trip([(T.tampere, 2)], from: T.local(2018, 4, 14), name: "Tampere, FI")
    expected.append(Expected(start: "2018-04-14", end: "2018-04-15", name: "Tampere, FI", ids: tampere))
    // Japan, with three photos without a position on its fifth day.
    var japan = trip([(T.tokyo, 6), (T.kyoto, 3), (T.tokyo, 1)], from: T.local(2018, 5, 1), name: "")
    for k in 0..<3 { japan.insert(t.add(T.tokyo, at: T.local(2018, 5, 5, 15, k * 10), located: false)) }
    expected.append(Expected(start: "2018-05-01", end: "2018-05-10", name: "Tokyo & Kyoto, JP", ids: japan))
    // Rome, split by three days without photos.
    let rome1 = trip([(T.rome, 4)], from: T.local(2018, 9, 1), name: "", skip: 3)
    let rome2 = trip([(T.rome, 3)], from: T.local(2018, 9, 8), name: "")
    expected.append(Expected(start: "2018-09-01", end: "2018-09-04", name: "Rome, IT", ids: rome1))
    expected.append(Expected(start: "2018-09-08", end: "2018-09-10", name: "Rome, IT", ids: rome2))
    // Fiji to Samoa, across the antimeridian (and the date line: +12:00 to +13:00).
    let pacific = trip([(T.suva, 6), (T.apia, 4)], from: T.local(2019, 2, 1), name: "")
    expected.append(Expected(start: "2019-02-01", end: "2019-02-10", name: "Fiji & Samoa", ids: pacific))
    // Japan and Korea: two countries.
    let asia = trip([(T.tokyo, 3), (T.seoul, 3)], from: T.local(2019, 10, 3), name: "")
    expected.append(Expected(start: "2019-10-03", end: "2019-10-08", name: "Japan & South Korea", ids: asia))
    // After the move to Berlin, Helsinki is away.
    let back = trip([(T.helsinki, 3), (T.espoo, 2)], from: T.local(2021, 6, 10), name: "")
    expected.append(Expected(start: "2021-06-10", end: "2021-06-14", name: "Helsinki & Espoo, FI", ids: back))

    // Home: Helsinki every other day until June 2020 (Espoo now and then), Berlin after;
    // day trips to Porvoo (50 km) are no trips.
    var d = T.local(2018, 1, 1)
    var n = 0
    while d < T.local(2022, 1, 1) {
      defer {
        d += 2 * day
        n += 1
      }
      guard !away.contains(where: { d >= $0.0 + day && d < $0.1 }) else { continue }
      let home = d < T.local(2020, 7, 1) ? (n % 5 == 0 ? T.espoo : T.helsinki) : T.berlin
      let spot = n % 40 == 7 && d < T.local(2020, 7, 1) ? T.porvoo : home
      t.days(spot, from: d, days: 1, perDay: spot.name == "Porvoo" ? 6 : 3)
    }
    // A photo without a position at home, in no trip.
    t.add(T.helsinki, at: T.local(2018, 6, 20), located: false)
    return (t, expected.reversed())
  }

  @Test func theKnownTripsAreFound() throws {
    let (timeline, expected) = Self.timeline()
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
    #expect(haversine(homes[0].center, Timeline.helsinki.coordinate) < 15_000)
  }

  @Test func photosWithoutAPositionBelongToTheTripTheyWereTakenDuring() throws {
    let (timeline, _) = Self.timeline()
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
    let (timeline, _) = Self.timeline()
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
    var (timeline, _) = Self.timeline()
    let before = TripFinder().trips(in: timeline.photos).trips
    // A photo synced later into the Rome trip, and another at home.
    timeline.add(Timeline.rome, at: Timeline.local(2018, 9, 2, 18))
    timeline.add(Timeline.helsinki, at: Timeline.local(2021, 12, 30, 18))
    let after = TripFinder().trips(in: timeline.photos).trips
    #expect(after.map(\.id) == before.map(\.id))
    // The trip's lowest photo removed: the id changes, the others stay.
    let rome = try #require(before.first { $0.start.text == "2018-09-01" })
    let lowest = rome.photoIDs.min()!
    let without = TripFinder().trips(in: timeline.photos.filter { $0.id != lowest }).trips
    #expect(without.map(\.id) == before.map { $0.id == rome.id ? Trip.id(lowestPhoto: lowest + 1) : $0.id })
  }

  @Test func aFixedHomeMeasuresEveryTripFromIt() throws {
    let (timeline, _) = Self.timeline()
    let helsinki = TripFinder(home: .fixed(Timeline.helsinki.coordinate, label: "Helsinki")).trips(in: timeline.photos)
    // The visit to Helsinki from Berlin is home now; Berlin's days, two days apart, are no trip.
    #expect(!helsinki.trips.contains { $0.start.text == "2021-06-10" })
    #expect(helsinki.homes.map(\.label) == ["Helsinki"])
    #expect(helsinki.trips.count == 6)
  }

  @Test func theRulesAreOptions() throws {
    let (timeline, _) = Self.timeline()
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
