import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import Synchronization
import Testing

@testable import GeoPhotoRemote

let tokyo = Coordinate(latitude: 35.68, longitude: 139.76)

@Suite struct FlickrTests {
  @Test(arguments: [FlickrProvider.Format.json, .xml])
  func pagesAreReadDeduplicatedAndFiltered(format: FlickrProvider.Format) throws {
    let server = try flickrServer(format: format)
    let flickr = FlickrProvider(
      apiKey: testKey, endpoint: server.baseURL + "/services/rest/", format: format, context: try context())
    let photos = try flickr.search(center: tokyo, radius: 3_000, limit: .max)
    #expect(photos.map(\.sourceID) == expectedFlickrIDs)
    #expect(server.requests.count == 3)  // pages reported: 3

    let station = photos[0]
    #expect(station.source == .flickr)
    #expect(station.title == "Tokyo Station at night")
    #expect(station.coordinate == Coordinate(latitude: 35.6812, longitude: 139.7671))
    #expect(station.attribution == "Aki Tanaka")
    #expect(station.takenAt?.iso8601 == "2023-11-02T19:30:00")
    #expect(station.url == "https://www.flickr.com/photos/12345678@N00/53001/")
    #expect(station.thumbnailURL == "https://live.staticflickr.com/65535/53001_abc1_q.jpg")
    #expect(station.license == "4")
    #expect(station.description == "Marunouchi side, lit up")  // HTML stripped
    #expect(station.keywords == ["tokyo", "station", "night"])
    #expect(photos[1].description == nil && photos[1].keywords.isEmpty)
    // An empty title, coordinates sent as strings, no url_* extras: a built thumbnail.
    #expect(photos[1].title == "Untitled")
    #expect(photos[1].coordinate == Coordinate(latitude: 35.6852, longitude: 139.7528))
    #expect(photos[1].thumbnailURL == "https://live.staticflickr.com/65535/53002_def2_q.jpg")
    #expect(photos[2].title == "Ginza & lights")
    #expect(photos[2].thumbnailURL == "https://live.staticflickr.com/65535/53005_mno5_t.jpg")
    #expect(photos[3].thumbnailURL == "https://live.staticflickr.com/7372/53007_pqr7.jpg")
  }

  @Test func requestsCarryTheParametersFlickrNeeds() throws {
    let server = try flickrServer(format: .json)
    let flickr = FlickrProvider(apiKey: testKey, endpoint: server.baseURL + "/services/rest/", context: try context())
    _ = try flickr.search(center: tokyo, radius: 2_500, limit: .max)
    let q = try #require(server.requests.first).query
    #expect(q["method"] == "flickr.photos.search")
    #expect(q["api_key"] == testKey)
    #expect(q["lat"] == "35.680000" && q["lon"] == "139.760000")
    #expect(q["radius"] == "2.500" && q["radius_units"] == "km")
    #expect(q["has_geo"] == "1")
    #expect(q["min_upload_date"] != nil)  // without it Flickr returns only the last 12 hours
    #expect(q["per_page"] == "250")
    #expect(q["format"] == "json" && q["nojsoncallback"] == "1")
    let extras = Set((q["extras"] ?? "").split(separator: ",").map(String.init))
    #expect(
      extras.isSuperset(of: ["geo", "date_taken", "owner_name", "tags", "description", "license", "url_q", "url_t"]))
    #expect(server.requests.map { $0.query["page"] } == ["1", "2", "3"])
    #expect(server.requests[0].headers["user-agent"]?.hasPrefix("geophoto") == true)
  }

  @Test func stopsAtTheResultCap() throws {
    // A query Flickr says has 40 pages: geophoto asks for 16 pages of 250 (4,000) and stops.
    let server = try FixtureHTTPServer { request in
      let page = Int(request.query["page"] ?? "1") ?? 1
      let photos = (0..<250).map { i in
        "{\"id\":\"\(page * 1000 + i)\",\"owner\":\"o@N0\",\"secret\":\"s\",\"server\":\"1\",\"title\":\"p\",\"latitude\":35.6,\"longitude\":139.7,\"accuracy\":16}"
      }
      return .text(
        "{\"photos\":{\"page\":\(page),\"pages\":40,\"perpage\":250,\"total\":\"10000\",\"photo\":[\(photos.joined(separator: ","))]},\"stat\":\"ok\"}"
      )
    }
    let flickr = FlickrProvider(apiKey: testKey, endpoint: server.baseURL + "/", context: try context())
    let photos = try flickr.search(center: tokyo, radius: 1_000, limit: .max)
    #expect(photos.count == 4_000)
    #expect(server.requests.count == 16)
    #expect(Set(photos.map(\.sourceID)).count == 4_000)
  }

  @Test func maxStopsEarly() throws {
    let server = try flickrServer(format: .json)
    let flickr = FlickrProvider(apiKey: testKey, endpoint: server.baseURL + "/", context: try context())
    let photos = try flickr.search(center: tokyo, radius: 1_000, limit: 2)
    #expect(photos.map(\.sourceID) == ["53001", "53002"])
    #expect(server.requests.count == 1)
  }

  @Test func radiusOverFlickrsLimitIsAClearError() throws {
    let flickr = FlickrProvider(apiKey: testKey, endpoint: "http://127.0.0.1:9/", context: try context())
    #expect(throws: RemoteError.self) { try flickr.search(center: tokyo, radius: 40_000, limit: 10) }
  }

  @Test(arguments: ["flickr-error-100.json", "flickr-error-100.xml"])
  func invalidKeyIsNotRetriedAndSaysWhatToDo(fixture: String) throws {
    let server = try FixtureHTTPServer { _ in Fixture.response(fixture) }
    let log = LogLines()
    let flickr = FlickrProvider(apiKey: testKey, endpoint: server.baseURL + "/", context: try context(log: log))
    do {
      _ = try flickr.search(center: tokyo, radius: 1_000, limit: 10)
      Issue.record("no error")
    } catch {
      #expect(server.requests.count == 1)
      #expect(error.description.contains("error 100"))
      #expect(error.description.contains("GEOPHOTO_FLICKR_API_KEY"))
      #expect(!error.description.contains(testKey))
      #expect(log.all.allSatisfy { !$0.contains(testKey) })
      #expect(log.all.contains { $0.contains("api_key=REDACTED") })
    }
  }

  @Test(arguments: ["flickr-error-105.json", "flickr-error-201.json", "flickr-error-0.xml", "flickr-html-error.html"])
  func unavailableServiceIsRetried(fixture: String) throws {
    let count = Mutex(0)
    let server = try FixtureHTTPServer { request in
      let n = count.withLock { c -> Int in
        c += 1
        return c
      }
      return n == 1 ? Fixture.response(fixture) : Fixture.response("flickr-page3.json")
    }
    let flickr = FlickrProvider(apiKey: testKey, endpoint: server.baseURL + "/", context: try context())
    let photos = try flickr.search(center: tokyo, radius: 1_000, limit: 10)
    #expect(photos.map(\.sourceID) == ["53007"])
    #expect(server.requests.count == 4)  // the failure, its retry, then pages 2 and 3
  }

  @Test func otherErrorCodesAreReportedWithoutRetrying() throws {
    let server = try FixtureHTTPServer { _ in Fixture.response("flickr-error-3.xml") }
    let flickr = FlickrProvider(apiKey: testKey, endpoint: server.baseURL + "/", context: try context())
    #expect(throws: RemoteError.self) { try flickr.search(center: tokyo, radius: 1_000, limit: 10) }
    #expect(server.requests.count == 1)
  }

  /// Refused before the XML parser sees it: for its document type definition, not for
  /// anything found while expanding its entities.
  @Test func entityBombIsRefusedWithoutExpansion() throws {
    let error = #expect(throws: FlickrBodyError.self) {
      try FlickrResponseParser.parse(Fixture.bytes("flickr-entity-bomb.xml"))
    }
    #expect(error?.description == "XML with a document type definition (refused)")
    #expect(error?.retryable == false)
  }

  @Test func malformedBodiesAreErrors() {
    #expect(throws: FlickrBodyError.self) { try FlickrResponseParser.parse(Fixture.bytes("flickr-malformed.xml")) }
    #expect(throws: FlickrBodyError.self) { try FlickrResponseParser.parse(Array("{\"photos\": [".utf8)) }
    #expect(throws: FlickrBodyError.self) { try FlickrResponseParser.parse(Array("jsonFlickrApi(".utf8)) }
    #expect(throws: FlickrBodyError.self) { try FlickrResponseParser.parse([]) }
  }

  @Test func leniencyForTypeFlips() throws {
    let body = """
      {"photos":{"page":"1","pages":1,"perpage":"250","total":1,"photo":[{"id":7,"owner":"o","secret":"s",
      "server":65535,"title":12345,"latitude":"-33.85","longitude":151.2,"accuracy":"16","ispublic":true,
      "description":"bare","place_id":""}]},"stat":"ok"}
      """
    guard case .page(let page) = try FlickrResponseParser.parse(Array(body.utf8)) else {
      Issue.record("not a page")
      return
    }
    let p = try #require(page.photos.first)
    #expect(p.id == "7" && p.server == "65535" && p.title == "12345")
    #expect(p.latitude == -33.85 && p.longitude == 151.2 && p.accuracy == 16)
    #expect(p.description == "bare")
  }

  /// Titles and owner names are plain text: kept exactly, angle brackets and all, in both
  /// formats (XML's entities are decoded by the parser, JSON has none).
  @Test func titlesAndOwnerNamesAreKeptExactly() throws {
    let json = """
      {"photos":{"page":1,"pages":1,"photo":[{"id":"9","owner":"o@N00","secret":"s","server":"1",
      "title":"Night <shinkansen> & co","ownername":"Ann <the> Example","latitude":35.6,"longitude":139.7,
      "accuracy":16}]},"stat":"ok"}
      """
    let xml = """
      <?xml version="1.0" encoding="utf-8" ?><rsp stat="ok"><photos page="1" pages="1"><photo id="9" owner="o@N00"
      secret="s" server="1" title="Night &lt;shinkansen&gt; &amp; co" ownername="Ann &lt;the&gt; Example"
      latitude="35.6" longitude="139.7" accuracy="16"/></photos></rsp>
      """
    for body in [json, xml] {
      guard case .page(let page) = try FlickrResponseParser.parse(Array(body.utf8)), let p = page.photos.first else {
        Issue.record("not a page")
        continue
      }
      let photo = try #require(FlickrProvider.photo(from: p))
      #expect(photo.title == "Night <shinkansen> & co")
      #expect(photo.attribution == "Ann <the> Example")
    }
  }
}
