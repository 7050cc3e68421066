import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoPlaces
import GeoPhotoShares
import GeoPhotoStore
import GeoPhotoTravel
import Synchronization
import Testing

@testable import GeoPhotoServer

/// Every route with a share link's token: the link's photos and nothing else, over a real
/// SQLite index of four years whose trips are known.
@Suite struct ShareScopeTests {
  let directory: TemporaryDirectory
  let store: any PhotoStore
  let ids: [Int64: Int64]
  let expected: [TravelTimeline.Expected]
  let serverToken = "server-token-1234567890"
  let tripToken: String
  let filterToken: String
  /// The links' clock: seconds since 1970, moved by the tests.
  final class Clock: Sendable {
    let now = Mutex<Int64>(1_800_000_000)
  }
  let clock = Clock()
  /// The Japan trip's photos in the store (the trip shared), and those with a position.
  let japan: Set<Int64>
  let japanLocated: Set<Int64>
  let japanID: String

  init() throws {
    tripToken = ShareToken.make()
    filterToken = ShareToken.make()
    directory = try TemporaryDirectory()
    store = try makeScratchStore(.sqlite, in: directory.url)
    let timeline: TravelTimeline
    (timeline, expected) = TravelTimeline.fourYears()
    let written = try store.copy(timeline.records())
    try store.refreshDerivedIndexes()
    let storeIDs = Dictionary(uniqueKeysWithValues: zip(timeline.photos.map(\.id), written))
    ids = storeIDs
    let trip = try #require(expected.first { $0.start == "2018-05-01" })
    let byID = Dictionary(uniqueKeysWithValues: timeline.photos.map { ($0.id, $0) })
    let shared = Set(trip.ids.compactMap { storeIDs[$0] })
    japan = shared
    japanLocated = Set(trip.ids.filter { byID[$0]?.coordinate != nil }.compactMap { storeIDs[$0] })
    japanID = Trip.id(lowestPhoto: shared.min() ?? 0)
    try store.addShare(
      Share(
        id: "trip0001", name: "Japan", tokenHash: ShareToken.hash(tripToken), trip: japanID, filter: "",
        created: 1_700_000_000, expires: 1_900_000_000))
    try store.addShare(
      Share(
        id: "rome0001", name: "Rome", tokenHash: ShareToken.hash(filterToken), trip: nil,
        filter: "since=2018-09-01&until=2018-09-10", created: 1_700_000_000, expires: nil))
  }

  func api() throws -> APIRouter {
    let holder = LoadedIndexHolder(open: reopener(for: store))
    try holder.refresh()
    var configuration = APIConfiguration()
    configuration.token = serverToken
    configuration.places = Gazetteer.shippedURL.map { url in PlaceDirectory { try Gazetteer(contentsOf: url) } }
    let open = reopener(for: store)
    let clock = self.clock
    configuration.shares = ShareDirectory(
      load: { try open()?.shares() ?? [] }, clock: { clock.now.withLock { $0 } })
    return APIRouter(holder: holder, configuration: configuration)
  }

  func call(_ api: APIRouter, _ target: String, token: String, method: String = "GET") -> ServerResponse {
    get(api, target, method: method, headers: ["authorization": "Bearer \(token)"])
  }

  /// Every photo id an answer names: annotations, features, leaves, trips' photos.
  func photoIDs(_ r: ServerResponse) -> Set<Int64> {
    var found = Set<Int64>()
    let json = r.json
    for list in [json["annotations"], json["features"]] {
      for item in list as? [[String: Any]] ?? [] {
        let properties = item["properties"] as? [String: Any] ?? item
        guard properties["cluster"] as? Bool != true, properties["kind"] as? String != "route" else { continue }
        if let id = (item["id"] as? Int64) ?? (properties["id"] as? Int64) { found.insert(id) }
      }
    }
    return found
  }

  @Test func everyRouteKeepsToTheTripShared() throws {
    let api = try api()
    let outside = try #require(ids.values.first { !japan.contains($0) })
    let inside = try #require(japanLocated.first)
    var tested = Set<String>()
    for route in EndpointTable.all where route.access != .open {
      tested.insert(route.operationID)
      switch route.operationID {
      case "near":
        let r = call(api, "/v1/near?lat=35.5&lon=137&limit=1000", token: tripToken)
        #expect(r.status == 200 && photoIDs(r) == japanLocated)
      case "annotations":
        let r = call(api, "/v1/annotations?bbox=-180,-85,180,85&zoom=22", token: tripToken)
        #expect(r.status == 200 && photoIDs(r).isSubset(of: japanLocated) && !photoIDs(r).isEmpty)
        let zoomedOut = call(api, "/v1/annotations?bbox=-180,-85,180,85&zoom=0", token: tripToken).json
        let counts = (zoomedOut["features"] as? [[String: Any]] ?? []).map {
          ($0["properties"] as? [String: Any])?["point_count"] as? Int ?? 1
        }
        #expect(counts.reduce(0, +) == japanLocated.count)
      case "clusterLeaves":
        let view = call(api, "/v1/annotations?bbox=-180,-85,180,85&zoom=3", token: tripToken).json
        let clusters = (view["features"] as? [[String: Any]] ?? []).compactMap {
          ($0["properties"] as? [String: Any])?["cluster_id"] as? Int
        }
        for cluster in clusters {
          let r = call(api, "/v1/clusters/\(cluster)/leaves?limit=1000", token: tripToken)
          #expect(r.status == 200 && photoIDs(r).isSubset(of: japanLocated))
        }
        #expect(!clusters.isEmpty)
      case "photo":
        #expect(call(api, "/v1/photos/\(inside)", token: tripToken).status == 200)
        #expect(call(api, "/v1/photos/\(outside)", token: tripToken).status == 404)
      case "thumbnail":
        let r = call(api, "/v1/photos/\(outside)/thumbnail", token: tripToken)
        let message = (r.json["error"] as? [String: Any])?["message"] as? String
        #expect(r.status == 404 && message == "no photo \(outside)")
      case "status":
        let r = call(api, "/v1/status", token: tripToken)
        #expect(r.json["photos"] as? Int == japanLocated.count)
      case "places":
        #expect(call(api, "/v1/places?q=Kyoto", token: tripToken).status == 200)
      case "placesVisited":
        let places = call(api, "/v1/places/visited", token: tripToken).json["places"] as? [[String: Any]] ?? []
        #expect(places.compactMap { $0["key"] as? String } == ["JP"])
        #expect(places.first?["photos"] as? Int == japanLocated.count)
      case "trips":
        let r = call(api, "/v1/trips", token: tripToken).json
        #expect((r["trips"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [japanID])
        #expect((r["homes"] as? [Any])?.isEmpty == true)
      case "trip":
        let r = call(api, "/v1/trips/\(japanID)", token: tripToken)
        #expect(r.status == 200 && photoIDs(r) == japan)
        let other = try #require(expected.first { $0.start == "2018-09-01" })
        let otherID = Trip.id(lowestPhoto: other.ids.compactMap { ids[$0] }.min() ?? 0)
        #expect(call(api, "/v1/trips/\(otherID)", token: tripToken).status == 404)
      case "unplaced":
        #expect(call(api, "/v1/unplaced", token: tripToken).status == 403)
      case "placePhoto", "clearPhotoLocation":
        let r = call(
          api, "/v1/photos/\(inside)/location", token: tripToken, method: route.method)
        #expect(r.status == 403, "\(route.operationID)")
      default:
        Issue.record("\(route.method) \(route.path) has no share test: say what a shared link sees there")
      }
    }
    #expect(tested.contains("near") && tested.contains("trip"))
  }

  @Test func tripsFoundForALinkFirstAreNamedAsAnyAnswerNamesThem() throws {
    let api = try api()
    // The link's scope finds the trips first; the owner's answer after it names countries.
    #expect(call(api, "/v1/status", token: tripToken).status == 200)
    let trips = call(api, "/v1/trips", token: serverToken).json["trips"] as? [[String: Any]] ?? []
    #expect(trips.compactMap { $0["name"] as? String } == expected.map(\.name))
  }

  @Test func aFilterLinkSeesItsFilterAndLinksEnd() throws {
    let api = try api()
    // Rome: the filter's located photos only.
    let r = call(api, "/v1/near?lat=41.9&lon=12.5&limit=1000", token: filterToken)
    #expect(r.status == 200 && photoIDs(r).count == 21)
    let trips = call(api, "/v1/trips", token: filterToken).json["trips"] as? [[String: Any]] ?? []
    #expect(trips.compactMap { $0["name"] as? String } == ["Rome, IT", "Rome, IT"])
    // The server's own token sees everything; a token that is no link's, nothing.
    #expect(photoIDs(call(api, "/v1/near?lat=41.9&lon=12.5&limit=1000", token: serverToken)).count == 1_000)
    #expect(call(api, "/v1/status", token: ShareToken.make()).status == 401)
    #expect(call(api, "/v1/status", token: "short").status == 401)
    // Revoked: refused within a second.
    #expect(try store.revokeShare(id: "rome0001", at: 1_800_000_000))
    clock.now.withLock { $0 += 2 }
    #expect(call(api, "/v1/status", token: filterToken).status == 401)
    // Expired: refused at once.
    #expect(call(api, "/v1/status", token: tripToken).status == 200)
    clock.now.withLock { $0 = 1_900_000_000 }
    #expect(call(api, "/v1/status", token: tripToken).status == 401)
  }
}
