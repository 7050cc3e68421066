import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoPlaces
import GeoPhotoSQLite
import GeoPhotoServer
import GeoPhotoStore
import GeoPhotoTravel
import Testing

/// `/v1/places/visited`, `/v1/trips` and `/v1/trips/{id}` over a real SQLite index of four
/// years whose trips are known (`TravelTimeline`).
@Suite struct TravelEndpointTests {
  let directory: TemporaryDirectory
  let store: any PhotoStore
  /// The store's id of each timeline photo.
  let ids: [Int64: Int64]
  let timeline: TravelTimeline
  let expected: [TravelTimeline.Expected]

  init() throws {
    directory = try TemporaryDirectory()
    store = try makeScratchStore(.sqlite, in: directory.url)
    (timeline, expected) = TravelTimeline.fourYears()
    let written = try store.copy(timeline.records())
    try store.refreshDerivedIndexes()
    ids = Dictionary(uniqueKeysWithValues: zip(timeline.photos.map(\.id), written))
  }

  func api(zones: [PrivacyZone] = []) throws -> APIRouter {
    let holder = LoadedIndexHolder(privacyZones: zones, open: reopener(for: store))
    try holder.refresh()
    var configuration = APIConfiguration()
    configuration.places = Gazetteer.shippedURL.map { url in PlaceDirectory { try Gazetteer(contentsOf: url) } }
    return APIRouter(holder: holder, configuration: configuration)
  }

  func tripID(_ trip: TravelTimeline.Expected) -> String {
    Trip.id(lowestPhoto: trip.ids.compactMap { ids[$0] }.min() ?? 0)
  }

  @Test func tripsAreTheKnownOnes() throws {
    let r = get(try api(), "/v1/trips")
    #expect(r.status == 200)
    let trips = try #require(r.json["trips"] as? [[String: Any]])
    #expect(trips.compactMap { $0["id"] as? String } == expected.map(tripID))
    #expect(trips.compactMap { $0["start"] as? String } == expected.map(\.start))
    #expect(trips.compactMap { $0["name"] as? String } == expected.map(\.name))
    let homes = try #require(r.json["homes"] as? [[String: Any]])
    #expect(homes.count == 2)
    // Filters choose trips.
    let since = get(try api(), "/v1/trips?since=2019").json["trips"] as? [[String: Any]] ?? []
    #expect(since.compactMap { $0["start"] as? String } == ["2021-06-10", "2019-10-03", "2019-02-01"])
  }

  @Test func oneTripIsGeoJSONWithItsRouteAndPhotos() throws {
    let api = try api()
    let pacific = try #require(expected.first { $0.start == "2019-02-01" })
    let r = get(api, "/v1/trips/\(tripID(pacific))")
    #expect(r.status == 200)
    #expect(r.headers.first { $0.0 == "Content-Type" }?.1 == "application/geo+json")
    let features = try #require(r.json["features"] as? [[String: Any]])
    #expect(features.count == 1 + pacific.ids.count)
    // The route, cut at the antimeridian into two lines that meet there.
    let route = try #require(features.first?["geometry"] as? [String: Any])
    #expect(route["type"] as? String == "MultiLineString")
    let lines = try #require(route["coordinates"] as? [[[Double]]])
    #expect(lines.count == 2)
    #expect(lines[0].last?[0] == 180 && lines[1].first?[0] == -180)
    #expect(lines[0].last?[1] == lines[1].first?[1])
    // The photos in time order.
    let photoIDs = features.dropFirst().compactMap { $0["id"] as? Int64 }
    let byID = Dictionary(uniqueKeysWithValues: timeline.photos.map { ($0.id, $0) })
    let order = pacific.ids.sorted { (byID[$0]!.instant, $0) < (byID[$1]!.instant, $1) }.compactMap { ids[$0] }
    #expect(photoIDs == order)
    // Photos without a position have a null geometry.
    let japan = try #require(expected.first { $0.start == "2018-05-01" })
    let withNone = get(api, "/v1/trips/\(tripID(japan))").json["features"] as? [[String: Any]] ?? []
    #expect(withNone.filter { $0["geometry"] is NSNull }.count == 3)
    // Ids that are not trips.
    #expect(get(api, "/v1/trips/tzzzz").status == 404)
    #expect(get(api, "/v1/trips/T1").status == 400)
    #expect(get(api, "/v1/trips/" + String(repeating: "a", count: 33)).status == 400)
  }

  @Test func placesVisitedCountTheRows() throws {
    let r = get(try api(), "/v1/places/visited?level=region")
    #expect(r.status == 200)
    let countries = try #require(r.json["places"] as? [[String: Any]])
    // Counted here from the timeline's own photos.
    var counts: [String: Int] = [:]
    for p in timeline.photos where p.coordinate != nil {
      guard let place = p.place else { continue }
      counts[place.countryCode, default: 0] += 1
      counts["\(place.countryCode)/\(place.admin1)", default: 0] += 1
    }
    var seen = 0
    for country in countries {
      #expect(country["photos"] as? Int == counts[country["key"] as? String ?? ""])
      for region in country["children"] as? [[String: Any]] ?? [] {
        #expect(region["photos"] as? Int == counts[region["key"] as? String ?? ""])
        #expect((region["children"] as? [Any])?.isEmpty == true)
        seen += 1
      }
      seen += 1
    }
    #expect(seen == counts.count)
    #expect(countries.first?["name"] as? String == "Finland")
    #expect(get(try api(), "/v1/places/visited?level=planet").status == 400)
  }

  @Test func aPlaceFiltersEveryAnswer() throws {
    let api = try api()
    func count(_ key: String) -> Int {
      timeline.photos.filter { p in
        guard p.coordinate != nil, let place = p.place else { return false }
        return
          ([
            place.countryCode, "\(place.countryCode)/\(place.admin1)",
            "\(place.countryCode)/\(place.admin1)/\(place.name)",
          ])
          .contains(key)
      }.count
    }
    for key in ["JP", "JP/Kyoto", "JP/Kyoto/Kyoto", "FI/Uusimaa/Espoo", "DE"] {
      let near = get(api, "/v1/near?lat=0&lon=0&limit=1000&place=\(key)").json["annotations"] as? [[String: Any]] ?? []
      #expect(near.count == min(1_000, count(key)), "\(key)")
      let zoomedOut = get(api, "/v1/annotations?bbox=-180,-85,180,85&zoom=0&place=\(key)").json
      let total = (zoomedOut["features"] as? [[String: Any]] ?? []).map {
        ($0["properties"] as? [String: Any])?["point_count"] as? Int ?? 1
      }.reduce(0, +)
      #expect(total == count(key), "\(key)")
    }
    #expect(get(api, "/v1/near?lat=0&lon=0&place=Japan").status == 400)
    #expect(get(api, "/v1/near?lat=0&lon=0&place=JP/Kyoto/").status == 400)
  }

  @Test func privacyZonesHideTheirPhotosAndTheHome() throws {
    // A zone around Kyoto: Japan's trip shows Tokyo alone, and no home is told.
    let api = try api(zones: [PrivacyZone(center: TravelTimeline.kyoto.coordinate, radius: 20_000)])
    let r = get(api, "/v1/trips")
    #expect((r.json["homes"] as? [Any])?.isEmpty == true)
    let trips = r.json["trips"] as? [[String: Any]] ?? []
    let japan = try #require(trips.first { $0["start"] as? String == "2018-05-01" })
    #expect(japan["photos"] as? Int == 24)
    let visited = get(api, "/v1/places/visited").json["places"] as? [[String: Any]] ?? []
    let jp = try #require(visited.first { $0["key"] as? String == "JP" })
    #expect(jp["photos"] as? Int == 30)
    let id = try #require(japan["id"] as? String)
    let features = get(api, "/v1/trips/\(id)").json["features"] as? [[String: Any]] ?? []
    let kyoto = TravelTimeline.kyoto.coordinate
    for f in features.dropFirst() {
      guard let c = (f["geometry"] as? [String: Any])?["coordinates"] as? [Double] else { continue }
      #expect(haversine(kyoto, Coordinate(latitude: c[1], longitude: c[0])) > 20_000)
    }
  }
}
