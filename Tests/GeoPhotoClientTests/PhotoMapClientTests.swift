import Foundation
import GeoPhotoClient
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoPlaces
import GeoPhotoServer
import GeoPhotoStore
import GeoPhotoVectorTiles
import Synchronization
import Testing

/// A real index of the example photos and one Flickr photo, served by geophoto's HTTP server
/// on an ephemeral loopback port, asked through the client.
final class ServedIndex: Sendable {
  let directory: URL
  let server: HTTPServer
  let holder: LoadedIndexHolder
  let log = StatusLog()
  var base: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

  static let remoteThumbnail = "https://live.staticflickr.com/65535/5_abc_q.jpg"

  /// The client asking this server (without a token).
  var client: PhotoMapClient { PhotoMapClient(baseURL: base) }

  /// - Parameter more: writes more photos into the index, beside the example photos.
  init(token: String? = nil, more: (any PhotoStore) throws -> Void = { _ in }) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-client-\(UUID().uuidString)")
    let photos = directory.appendingPathComponent("photos")
    try ExamplePhotos.write(to: photos)
    let store = try makeScratchStore(.sqlite, in: directory)
    try store.write {
      for spec in ExamplePhotos.all {
        let path = photos.appendingPathComponent(spec.fileName).path
        let photo = Photo(
          id: 0, source: .local, sourceID: path, coordinate: spec.coordinate, takenAt: spec.takenAt,
          title: spec.title ?? spec.fileName)
        try store.upsert(PhotoRecord(photo: photo), now: IndexTime.now())
      }
      let remote = Photo(
        id: 0, source: .flickr, sourceID: "5", coordinate: Coordinate(latitude: 35.6586, longitude: 139.7454),
        title: "Tower from Shiba Park", url: "https://www.flickr.com/photos/o/5/", thumbnailURL: Self.remoteThumbnail,
        attribution: "Aki")
      try store.upsert(PhotoRecord(photo: remote), now: IndexTime.now())
      try more(store)
    }
    holder = LoadedIndexHolder(open: reopener(for: store))
    try holder.refresh()
    var configuration = APIConfiguration()
    configuration.token = token
    configuration.places = Gazetteer.shippedURL.map { url in PlaceDirectory { try Gazetteer(contentsOf: url) } }
    // A street map's archive of one tile, for its vector tiles and TileJSON.
    configuration.vectorTiles = HostileFiles.tileArchives.filter { $0.name == "one-tile.pmtiles" }.compactMap {
      try? PMTilesArchive(MappedBytes(Data($0.bytes)), path: "street.pmtiles")
    }
    let log = self.log
    // The access log's status: `GET /v1/near?… 200 1234 56µs`.
    configuration.accessLog = { line in
      let fields = line.split(separator: " ")
      if fields.count >= 5, let status = Int(fields[fields.count - 3]) { log.statuses.withLock { $0.append(status) } }
    }
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 2
    server = try HTTPServer(options: options, responder: APIRouter(holder: holder, configuration: configuration))
  }

  deinit {
    server.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  var located: [ExamplePhotos.Spec] { ExamplePhotos.all.filter { $0.coordinate != nil } }
}

/// The statuses of the answers the server gave, in order.
final class StatusLog: Sendable {
  let statuses = Mutex<[Int]>([])
  var all: [Int] { statuses.withLock { $0 } }
}

/// Great-circle metres by the haversine formula: the test's own, not the server's.
func haversine(_ a: MapCoordinate, _ lat: Double, _ lon: Double) -> Double {
  let r = 6_371_008.8
  let (p1, p2) = (a.latitude * .pi / 180, lat * .pi / 180)
  let dp = p2 - p1
  let dl = (lon - a.longitude) * .pi / 180
  let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
  return 2 * r * asin(min(1, h.squareRoot()))
}

@Suite(.serialized) struct PhotoMapClientTests {
  @Test func nearAnswersInGreatCircleOrder() async throws {
    let served = try ServedIndex()
    let client = PhotoMapClient(baseURL: served.base)
    let pins = try await client.near(latitude: 35.6812, longitude: 139.7671, limit: 5)
    #expect(pins.count == 5)
    // The test's own ranking of every located photo (the remote one included).
    var expected = served.located.map { spec in
      (
        title: spec.title ?? spec.fileName,
        d: haversine(
          MapCoordinate(latitude: spec.coordinate!.latitude, longitude: spec.coordinate!.longitude), 35.6812, 139.7671)
      )
    }
    expected.append(
      (
        "Tower from Shiba Park",
        haversine(MapCoordinate(latitude: 35.6586, longitude: 139.7454), 35.6812, 139.7671)
      ))
    expected.sort { $0.d < $1.d }
    #expect(pins.map(\.title) == expected.prefix(5).map(\.title))
    for (pin, want) in zip(pins, expected) { #expect(abs((pin.distance ?? -1) - want.d) < 1) }
    #expect(pins.allSatisfy { !$0.subtitle.isEmpty })
    // Filters and a radius go as the API's parameters.
    let within = try await client.near(latitude: 35.6812, longitude: 139.7671, limit: 50, radius: 1_000)
    #expect(within.map(\.title) == expected.filter { $0.d <= 1_000 }.map(\.title))
    let remote = try await client.near(
      latitude: 35.6812, longitude: 139.7671, filter: PhotoFilter(sources: ["flickr"]))
    #expect(remote.map(\.title) == ["Tower from Shiba Park"])
    #expect(remote.first?.url == URL(string: "https://www.flickr.com/photos/o/5/"))
  }

  @Test func aViewportsClustersHoldEveryPhotoAndTheirLeavesListThem() async throws {
    let served = try ServedIndex()
    let client = PhotoMapClient(baseURL: served.base)
    let world = try await client.annotations(west: -180, south: -85, east: 180, north: 85, zoom: 2)
    let counted = world.photos.count + world.clusters.map(\.count).reduce(0, +)
    #expect(counted == served.located.count + 1)
    #expect(!world.clusters.isEmpty)
    let cluster = try #require(world.clusters.max { $0.count < $1.count })
    var leaves: [MapAnnotation] = []
    while leaves.count < cluster.count {
      let page = try await client.leaves(ofCluster: cluster.id, limit: 3, offset: leaves.count)
      #expect(!page.isEmpty)
      leaves += page
    }
    #expect(Set(leaves.map(\.id)).count == cluster.count)
    // At a city zoom the photos stand apart, each at its own position.
    let city = try await client.annotations(west: 139.70, south: 35.64, east: 139.82, north: 35.73, zoom: 18)
    #expect(city.clusters.isEmpty)
    #expect(city.photos.count == served.located.count + 1)
    let station = try #require(city.photos.first { $0.title == "Tokyo Station, Marunouchi side" })
    #expect(station.coordinate == MapCoordinate(latitude: 35.68124, longitude: 139.76712))
  }

  @Test func detailsThumbnailsAndPlaces() async throws {
    let served = try ServedIndex()
    let client = PhotoMapClient(baseURL: served.base)
    let pin = try #require(try await client.near(latitude: 35.7148, longitude: 139.7967, limit: 1).first)
    let details = try await client.photo(id: pin.id)
    #expect(details.title == "Senso-ji, Asakusa")
    #expect(details.coordinate == MapCoordinate(latitude: 35.71480, longitude: 139.79670))
    #expect(details.takenAt == ExamplePhotos.all.first { $0.fileName == "12-sensoji.jpg" }?.takenAt.iso8601)
    // A local photo's thumbnail is its embedded JPEG; a remote one's is at its provider.
    guard case .image(let jpeg, let type) = try await client.thumbnail(ofPhoto: pin.id) else {
      Issue.record("a local photo's thumbnail is an image")
      return
    }
    #expect(type == "image/jpeg")
    #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
    let remote = try #require(
      try await client.near(latitude: 35.6586, longitude: 139.7454, filter: PhotoFilter(sources: ["flickr"])).first)
    #expect(try await client.thumbnail(ofPhoto: remote.id) == .elsewhere(URL(string: ServedIndex.remoteThumbnail)!))
    if Gazetteer.shippedURL != nil {
      let kyoto = try await client.places(named: "kyoto, jp", limit: 3)
      #expect(kyoto.places.first?.label == "Kyoto, Kyoto, JP")
      #expect(kyoto.places.first?.timeZone == "Asia/Tokyo")
      let misspelt = try await client.places(named: "Kyotto")
      #expect(misspelt.places.isEmpty && misspelt.suggestions.contains("Kyoto"))
    }
  }

  @Test func theAPIsErrorsArriveTyped() async throws {
    let served = try ServedIndex()
    let client = PhotoMapClient(baseURL: served.base)
    do {
      _ = try await client.near(latitude: 91, longitude: 0)
      Issue.record("latitude 91 is refused")
    } catch PhotoMapError.api(let status, let code, let message) {
      #expect(status == 400 && code == "invalid_request")
      #expect(message.contains("'lat'"))
    }
    do {
      _ = try await client.photo(id: 9_999)
      Issue.record("an unknown photo is not found")
    } catch PhotoMapError.api(let status, _, _) {
      #expect(status == 404)
    }
    await #expect(throws: PhotoMapError.self) { try await client.leaves(ofCluster: 123_456_789) }
    // Nothing listens there: the transport's own error.
    let nowhere = PhotoMapClient(baseURL: URL(string: "http://127.0.0.1:9")!)
    await #expect(throws: (any Error).self) { try await nowhere.photo(id: 1) }
  }

  @Test func theTokenGoesWithEveryRequest() async throws {
    let served = try ServedIndex(token: "s3cret-token")
    do {
      _ = try await PhotoMapClient(baseURL: served.base).near(latitude: 35.68, longitude: 139.76)
      Issue.record("without the token the server refuses")
    } catch PhotoMapError.api(let status, _, _) {
      #expect(status == 401)
    }
    let wrong = PhotoMapClient(baseURL: served.base, token: "guess")
    await #expect(throws: PhotoMapError.self) { try await wrong.near(latitude: 35.68, longitude: 139.76) }
    let client = PhotoMapClient(baseURL: served.base, token: "s3cret-token")
    #expect(try await client.near(latitude: 35.68, longitude: 139.76, limit: 3).count == 3)
  }

  @Test func aRepeatedRequestIsRevalidated() async throws {
    let served = try ServedIndex()
    let client = PhotoMapClient(baseURL: served.base)
    let first = try await client.near(latitude: 35.68, longitude: 139.76, limit: 4)
    let again = try await client.near(latitude: 35.68, longitude: 139.76, limit: 4)
    #expect(again == first)
    let details = try await client.photo(id: first[0].id)
    #expect(try await client.photo(id: first[0].id) == details)
    // The server answered the repeats 304, with no body.
    #expect(served.log.all == [200, 304, 200, 304])
    // A client that keeps nothing asks afresh.
    let forgetful = PhotoMapClient(baseURL: served.base, keptAnswers: 0)
    _ = try await forgetful.near(latitude: 35.68, longitude: 139.76, limit: 4)
    _ = try await forgetful.near(latitude: 35.68, longitude: 139.76, limit: 4)
    #expect(served.log.all.suffix(2) == [200, 200])
  }
}
