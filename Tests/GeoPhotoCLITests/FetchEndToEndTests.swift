import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

/// The fixture responses of the remote-provider tests, played by a loopback server.
enum RemoteFixture {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("GeoPhotoRemoteTests/Fixtures")

  static func response(_ name: String) -> FixtureResponse {
    FixtureResponse(body: (try? [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))) ?? [])
  }

  /// Flickr at `/services/rest/` (JSON pages, or the error fixture for the key "bad-key-0000")
  /// and Commons at `/w/api.php`.
  static func server() throws -> FixtureHTTPServer {
    try FixtureHTTPServer { request in
      if request.path == "/w/api.php" {
        return response(request.query["list"] == "geosearch" ? "commons-geosearch.json" : "commons-imageinfo.json")
      }
      if request.query["api_key"] == "bad-key-0000" { return response("flickr-error-100.json") }
      let page = request.query["page"] ?? "1"
      return response(page == "2" ? "flickr-page2.jsonp" : "flickr-page\(page).json")
    }
  }
}

@Suite(.serialized) struct FetchEndToEndTests {
  let key = "0123456789abcdef0123"

  func env(_ w: ExampleWorkspace, _ server: FixtureHTTPServer, key: String? = nil) -> [String: String] {
    var env = w.env
    env["GEOPHOTO_FLICKR_ENDPOINT"] = server.baseURL + "/services/rest/"
    env["GEOPHOTO_COMMONS_ENDPOINT"] = server.baseURL + "/w/api.php"
    env["GEOPHOTO_FLICKR_RATE"] = "1000000"
    env["GEOPHOTO_HTTP_BACKOFF"] = "0.01"
    if let key { env["GEOPHOTO_FLICKR_API_KEY"] = key }
    return env
  }

  @Test(arguments: StoreKind.available)
  func fetchThenNearAnswersWithRemotePhotosInOrder(kind: StoreKind) throws {
    let server = try RemoteFixture.server()
    let w = try ExampleWorkspace(kind, withPhotos: false)
    let environment = env(w, server, key: key)
    let fetch = try Binary.run(
      ["fetch", "35.68,139.76", "--radius", "3km", "--source", "flickr"], environment: environment)
    #expect(fetch.status == 0, "stderr: \(fetch.stderr)")
    #expect(fetch.stdout == "flickr: 4 photos (4 new, 0 updated)\n")
    #expect(!fetch.stdout.contains(key) && !fetch.stderr.contains(key))

    let near = try Binary.run(["near", "35.68,139.76", "--format", "json"], environment: environment)
    let annotations = try #require(try json(near.stdout)["annotations"] as? [[String: Any]])
    // Expected order from the fixture coordinates, by an independent haversine.
    let fixture: [(String, Double, Double)] = [
      ("53001", 35.6812, 139.7671), ("53002", 35.6852, 139.7528), ("53005", 35.6717, 139.765),
      ("53007", 35.6586, 139.7454),
    ]
    let center = Coordinate(latitude: 35.68, longitude: 139.76)
    let expected = fixture.sorted {
      haversine(center, Coordinate(latitude: $0.1, longitude: $0.2))
        < haversine(center, Coordinate(latitude: $1.1, longitude: $1.2))
    }
    #expect(
      annotations.compactMap { ($0["url"] as? String)?.split(separator: "/").last.map(String.init) }
        == expected.map(\.0))
    let station = try #require(annotations.first { ($0["title"] as? String) == "Tokyo Station at night" })
    #expect(station["source"] as? String == "flickr")
    #expect(
      station["subtitle"] as? String
        == "Aki Tanaka · \(try #require(try expectedPlace(Coordinate(latitude: 35.6812, longitude: 139.7671)))) · 2023-11-02"
    )
    #expect(station["url"] as? String == "https://www.flickr.com/photos/12345678@N00/53001/")
    #expect(station["thumbnailURL"] as? String == "https://live.staticflickr.com/65535/53001_abc1_q.jpg")
    #expect(station["path"] == nil)
    for (a, e) in zip(annotations, expected) {
      let d = try #require(a["distance"] as? Double)
      #expect(abs(d - haversine(center, Coordinate(latitude: e.1, longitude: e.2))) < 0.06)
    }

    // A second fetch updates instead of duplicating.
    let again = try Binary.run(["fetch", "35.68,139.76", "--radius", "3km", "-s", "flickr"], environment: environment)
    #expect(again.stdout == "flickr: 4 photos (0 new, 4 updated)\n")
  }

  @Test func nearFetchMixesSourcesAndCachesTheArea() throws {
    let server = try RemoteFixture.server()
    let w = try ExampleWorkspace()
    let environment = env(w, server)
    _ = try Binary.run(["sync", w.photos.path], environment: environment)
    let first = try Binary.run(["near", "35.68,139.76", "--fetch", "-n", "50", "-f", "csv"], environment: environment)
    #expect(first.status == 0)
    #expect(first.stderr.contains("note: Flickr skipped: no API key"))
    let rows = first.stdout.split(separator: "\r\n").dropFirst()
    #expect(rows.filter { $0.contains(",commons,") }.count == 3)
    #expect(rows.filter { $0.contains(",local,") }.count == 12)
    let requests = server.requests.count
    #expect(requests == 2)  // geosearch + one imageinfo batch
    // The photos it fetched are named in the same answer, as 'fetch' names them.
    let fetched = try json(
      try Binary.run(["near", "35.68,139.76", "-s", "commons", "-f", "json"], environment: environment).stdout)
    let commons = try #require(fetched["annotations"] as? [[String: Any]])
    #expect(commons.count == 3)
    for photo in commons {
      let place = try #require(photo["place"] as? [String: Any], "a photo fetched by near --fetch has no place")
      let c = try #require(photo["coordinate"] as? [String: Double])
      let expected = try #require(
        try expectedPlace(Coordinate(latitude: c["latitude"] ?? 0, longitude: c["longitude"] ?? 0)))
      #expect(expected.hasPrefix(try #require(place["name"] as? String)))
    }

    let second = try Binary.run(["near", "35.68,139.76", "--fetch", "--source", "commons"], environment: environment)
    #expect(second.status == 0)
    #expect(server.requests.count == requests)  // fresh within --max-age: no request
    #expect(second.stdout.split(separator: "\n").count == 4)  // header + the three Commons photos
    #expect(second.stdout.contains("Example User · 2019-05-03") == false)  // the table shows titles
    #expect(second.stdout.contains("Tokyo Station Marunouchi 2019"))

    let local = try Binary.run(["near", "35.68,139.76", "--source", "local", "-f", "csv"], environment: environment)
    #expect(local.stdout.split(separator: "\r\n").dropFirst().allSatisfy { $0.contains(",local,") })
    let stale = try Binary.run(
      ["near", "35.68,139.76", "--fetch", "-s", "commons", "--max-age", "0s"], environment: environment)
    #expect(stale.status == 0)
    #expect(server.requests.count == requests + 2)
  }

  @Test func keyProblemsAreClearAndTheKeyIsNeverPrinted() throws {
    let server = try RemoteFixture.server()
    let w = try ExampleWorkspace(withPhotos: false)
    let missing = try Binary.run(["fetch", "35.68,139.76", "--source", "flickr"], environment: env(w, server))
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("Error: Flickr needs an API key"))
    #expect(missing.stderr.contains("GEOPHOTO_FLICKR_API_KEY"))

    let bad = try Binary.run(
      ["fetch", "35.68,139.76", "--source", "flickr", "--verbose"], environment: env(w, server, key: "bad-key-0000"))
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("Error: Flickr: the API key was rejected (error 100"))
    #expect(
      bad.stderr.contains(
        "GET http://127.0.0.1:\(server.port)/services/rest/?method=flickr.photos.search&api_key=REDACTED"))
    #expect(!bad.stderr.contains("bad-key-0000") && !bad.stdout.contains("bad-key-0000"))
    #expect(server.requests.count == 1)  // error 100 is not retried

    let local = try Binary.run(["fetch", "35.68,139.76", "--source", "local"], environment: env(w, server))
    #expect(local.status == 64)
    let far = try Binary.run(["fetch", "35.68,139.76", "-s", "commons", "-r", "20km"], environment: env(w, server))
    #expect(far.status == 1 && far.stderr.contains("at most 10 km"))
  }
}
