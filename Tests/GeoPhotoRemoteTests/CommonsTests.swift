import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoRemote

@Suite struct CommonsTests {
  func server() throws -> FixtureHTTPServer {
    try FixtureHTTPServer { request in
      request.query["list"] == "geosearch"
        ? Fixture.response("commons-geosearch.json") : Fixture.response("commons-imageinfo.json")
    }
  }

  @Test func geosearchThenImageInfo() throws {
    let s = try server()
    let commons = CommonsProvider(endpoint: s.baseURL + "/w/api.php", context: try context())
    let photos = try commons.search(center: tokyo, radius: 2_000, limit: 100)
    #expect(photos.map(\.sourceID) == ["9001", "9002", "9004"])  // the .ogg is not a photo
    let station = photos[0]
    #expect(station.source == .commons)
    #expect(station.title == "Tokyo Station Marunouchi 2019")  // ObjectName
    #expect(station.attribution == "Example User")  // HTML stripped
    #expect(station.description == "The Marunouchi side of Tokyo Station, restored in 2012.")
    #expect(station.keywords == ["Tokyo Station", "Marunouchi"])
    #expect(photos[1].description == nil && photos[1].keywords.isEmpty)
    #expect(station.takenAt?.iso8601 == "2019-05-03T10:12:00")
    #expect(station.url == "https://commons.wikimedia.org/wiki/File:Tokyo_Station_Marunouchi_2019.jpg")
    #expect(station.thumbnailURL?.hasSuffix("320px-Tokyo_Station_Marunouchi_2019.jpg") == true)
    #expect(station.license == "CC BY-SA 4.0")
    #expect(photos[1].title == "Imperial Palace moat.jpg")  // file title without "File:"
    #expect(photos[1].attribution == "Jane & John Doe")
    #expect(photos[1].takenAt == nil)  // "1 April 2018" is not a date geophoto reads

    let geo = s.requests[0].query
    #expect(geo["gsnamespace"] == "6" && geo["gsradius"] == "2000" && geo["gscoord"] == "35.680000|139.760000")
    #expect(geo["gslimit"] == "100")
    let info = s.requests[1].query
    #expect(info["pageids"] == "9001|9002|9003|9004")
    #expect(info["iiurlwidth"] == "320" && info["prop"] == "imageinfo")
  }

  @Test func radiusLimits() throws {
    let s = try server()
    let commons = CommonsProvider(endpoint: s.baseURL + "/", context: try context())
    _ = try commons.search(center: tokyo, radius: 3, limit: 10)
    #expect(s.requests[0].query["gsradius"] == "10")
    #expect(throws: RemoteError.self) { try commons.search(center: tokyo, radius: 12_000, limit: 10) }
  }

  @Test func imageInfoGoesFiftyAtATime() throws {
    let hits = (1...120).map { i in
      "{\"pageid\": \(i), \"ns\": 6, \"title\": \"File:P\(i).jpg\", \"lat\": 35.68, \"lon\": 139.76, \"dist\": 1}"
    }
    let s = try FixtureHTTPServer { request in
      if request.query["list"] == "geosearch" {
        return .text("{\"query\": {\"geosearch\": [\(hits.joined(separator: ","))]}}")
      }
      let ids = (request.query["pageids"] ?? "").split(separator: "|")
      let pages = ids.map { "{\"pageid\": \($0), \"imageinfo\": [{\"mime\": \"image/jpeg\", \"extmetadata\": {}}]}" }
      return .text("{\"query\": {\"pages\": [\(pages.joined(separator: ","))]}}")
    }
    let commons = CommonsProvider(endpoint: s.baseURL + "/", context: try context())
    let photos = try commons.search(center: tokyo, radius: 500, limit: 500)
    #expect(photos.count == 120)
    #expect(s.requests.count == 4)
    #expect(s.requests.dropFirst().map { ($0.query["pageids"] ?? "").split(separator: "|").count } == [50, 50, 20])
  }

  @Test func apiErrorsAreClear() throws {
    let s = try FixtureHTTPServer { _ in Fixture.response("commons-error.json") }
    let commons = CommonsProvider(endpoint: s.baseURL + "/", context: try context())
    do {
      _ = try commons.search(center: tokyo, radius: 500, limit: 10)
      Issue.record("no error")
    } catch {
      #expect(error.description == "Wikimedia Commons: invalid-coord: Invalid coordinate provided")
      #expect(s.requests.count == 1)
    }
  }

  @Test func htmlStripping() {
    #expect(HTMLText.plain("<a href=\"x\">Ann</a> &amp; <b>Bo</b>&#33; &#x263A;") == "Ann & Bo ! ☺")
    #expect(HTMLText.plain("a &unknown; b & c") == "a &unknown; b & c")
  }
}
