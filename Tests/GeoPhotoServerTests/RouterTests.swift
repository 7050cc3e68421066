import Foundation
import GeoPhotoCore
import GeoPhotoHTTPD
import Testing

@testable import GeoPhotoServer

@Suite struct RouterTests {
  let api = router()

  @Test func nearAnswersLikeTheCommandLineWithoutPaths() throws {
    let r = get(api, "/v1/near?lat=35.68&lon=139.76&limit=3")
    #expect(r.status == 200)
    #expect(r.header("Content-Type") == "application/json")
    let query = try #require(r.json["query"] as? [String: Any])
    #expect(query["limit"] as? Int == 3 && query["latitude"] as? Double == 35.68)
    let annotations = try #require(r.json["annotations"] as? [[String: Any]])
    // Brute force over the sample photos.
    let center = Coordinate(latitude: 35.68, longitude: 139.76)
    let expected = samplePhotos().sorted {
      let a = GreatCircle.distance(center, $0.coordinate!)
      let b = GreatCircle.distance(center, $1.coordinate!)
      return a < b || (a == b && $0.id < $1.id)
    }.prefix(3)
    #expect(annotations.compactMap { $0["id"] as? Int64 ?? ($0["id"] as? Int).map(Int64.init) } == expected.map(\.id))
    #expect(annotations.allSatisfy { $0["path"] == nil })
    #expect(annotations.first?["subtitle"] as? String == "2024-05-03 · 658 m")
  }

  @Test func nearFiltersAndFormats() throws {
    let flickr = get(api, "/v1/near?lat=35.68&lon=139.76&source=flickr")
    let annotations = try #require(flickr.json["annotations"] as? [[String: Any]])
    #expect(annotations.count == 1)
    #expect(annotations[0]["url"] as? String == "https://www.flickr.com/photos/o/5/")
    #expect(annotations[0]["thumbnailURL"] as? String == "https://live.staticflickr.com/1/5_s_q.jpg")
    #expect(annotations[0]["subtitle"] as? String == "Aki · 2024-05-03")
    let radius = get(api, "/v1/near?lat=35.68&lon=139.76&radius=1km&limit=100")
    #expect((radius.json["annotations"] as? [Any])?.count == 3)  // Ginza is 1.03 km away
    let geo = get(api, "/v1/near?lat=35.68&lon=139.76&format=geojson")
    #expect(geo.header("Content-Type") == "application/geo+json")
    let features = expectGeoJSON(geo.json)
    #expect((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [139.76712, 35.68124])
    let accept = get(api, "/v1/near?lat=35.68&lon=139.76", headers: ["accept": "application/geo+json"])
    #expect(accept.header("Content-Type") == "application/geo+json")
  }

  @Test(arguments: [
    ("/v1/near?lon=1", 400), ("/v1/near?lat=abc&lon=1", 400), ("/v1/near?lat=91&lon=1", 400),
    ("/v1/near?lat=1&lon=181", 400), ("/v1/near?lat=nan&lon=1", 400), ("/v1/near?lat=1&lon=1&limit=0", 400),
    ("/v1/near?lat=1&lon=1&limit=5000", 400), ("/v1/near?lat=1&lon=1&radius=far", 400),
    ("/v1/near?lat=1&lon=1&source=myspace", 400), ("/v1/near?lat=1&lon=1&format=xml", 400),
    ("/v1/near?lat=1&lon=1&colour=red", 400), ("/v1/near?lat=1&lat=2&lon=1", 400),
    ("/v1/annotations?zoom=3", 400), ("/v1/annotations?bbox=1,2,3&zoom=3", 400),
    ("/v1/annotations?bbox=1,50,3,40&zoom=3", 400), ("/v1/annotations?bbox=1,2,3,4", 400),
    ("/v1/annotations?bbox=1,2,3,4&zoom=31", 400), ("/v1/annotations?bbox=1,2,3,4&zoom=x", 400),
    ("/v1/annotations?bbox=a,b,c,d&zoom=3", 400), ("/v1/annotations?bbox=1,-95,3,4&zoom=3", 400),
    ("/v1/clusters/abc/leaves", 400), ("/v1/clusters/99999999/leaves", 404),
    ("/v1/clusters/1/leaves", 404), ("/v1/photos/abc", 400), ("/v1/photos/424242", 404),
    ("/v1/photos/1?x=1", 400), ("/v1/nowhere", 404), ("/etc/passwd", 404), ("/assets/../../etc/passwd", 404),
    ("/assets/leaflet/leaflet.js", 404),
  ])
  func badInputIsNeverA500(target: String, status: Int) {
    let r = get(api, target)
    #expect(r.status == status, "\(target)")
    let error = r.json["error"] as? [String: Any]
    #expect(error?["code"] is String && error?["message"] is String, "\(target)")
    #expect(r.header("Content-Type") == "application/json")
  }

  @Test func methodsLengthsAndBodies() {
    let post = get(api, "/v1/near?lat=1&lon=1", method: "POST")
    #expect(post.status == 405 && post.header("Allow") == "GET, HEAD, OPTIONS")
    #expect(get(api, "/v1/near?lat=1&lon=1", method: "DELETE").status == 405)
    let long = get(api, "/v1/near?lat=1&lon=1&" + String(repeating: "x", count: 9_000))
    #expect(long.status == 414)
    // No route takes a body: one is refused before it is read (here from its headers alone).
    let body = ServerRequest(method: "GET", target: "/v1/near?lat=1&lon=1", declaredBody: .length(12))
    guard case .answer(let refused) = api.admit(body) else {
      Issue.record("a body was admitted")
      return
    }
    #expect(refused.status == 400 && refused.json["error"] != nil)
    #expect(api.respond(to: body).status == 400)
    guard case .proceed = api.admit(ServerRequest(method: "GET", target: "/v1/near?lat=1&lon=1")) else {
      Issue.record("a request without a body was not admitted")
      return
    }
    #expect(get(api, "/v1/near?lat=1&lon=1", method: "HEAD").status == 200)
  }

  @Test func etagsAndRevalidation() throws {
    let a = get(api, "/v1/near?lat=35.68&lon=139.76&limit=3")
    let tag = try #require(a.header("ETag"))
    #expect(tag.hasPrefix("\"g7-"))
    #expect(a.header("Cache-Control") == "public, max-age=60")
    // The same query written differently has the same tag; another query another tag.
    #expect(get(api, "/v1/near?limit=3&lon=139.760000&lat=35.68").header("ETag") == tag)
    #expect(get(api, "/v1/near?lat=35.68&lon=139.76&limit=4").header("ETag") != tag)
    let revalidated = get(api, "/v1/near?lat=35.68&lon=139.76&limit=3", headers: ["if-none-match": tag])
    #expect(revalidated.status == 304 && revalidated.body.isEmpty && revalidated.header("ETag") == tag)
    let listed = get(api, "/v1/near?lat=35.68&lon=139.76&limit=3", headers: ["if-none-match": "\"x\", \(tag)"])
    #expect(listed.status == 304)
    // A new index generation changes every tag.
    let newer = router(generation: 8)
    let changed = get(newer, "/v1/near?lat=35.68&lon=139.76&limit=3", headers: ["if-none-match": tag])
    #expect(changed.status == 200 && changed.header("ETag") != tag)
  }

  /// Other sites' pages may read answers only when the server says so: by default no answer
  /// carries Access-Control-Allow-Origin; configured origins get theirs echoed, and `*` any.
  @Test func corsIsOffUnlessConfigured() {
    let origin = ["origin": "https://evil.example"]
    for target in ["/v1/near?lat=1&lon=1", "/v1/near?lat=100&lon=1", "/healthz", "/nope"] {
      #expect(get(api, target, headers: origin).header("Access-Control-Allow-Origin") == nil, "\(target)")
    }
    let preflight = get(api, "/v1/near", method: "OPTIONS")
    #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Origin") == nil)
    let open = router { $0.allowedOrigins = ["*"] }
    for target in ["/v1/near?lat=1&lon=1", "/v1/near?lat=100&lon=1", "/healthz", "/nope"] {
      #expect(get(open, target).header("Access-Control-Allow-Origin") == "*")
    }
    let allowed = open.respond(to: ServerRequest(method: "OPTIONS", target: "/v1/near"))
    #expect(allowed.status == 204 && allowed.header("Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS")
    #expect(allowed.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
    let listed = router { $0.allowedOrigins = ["https://maps.example.org", "http://localhost:3000"] }
    let mine = get(listed, "/healthz", headers: ["origin": "https://maps.example.org"])
    #expect(mine.header("Access-Control-Allow-Origin") == "https://maps.example.org" && mine.header("Vary") == "Origin")
    let theirs = get(listed, "/healthz", headers: origin)
    #expect(theirs.header("Access-Control-Allow-Origin") == nil && theirs.header("Vary") == "Origin")
  }

  @Test func tokenProtectsTheAPI() {
    let locked = router { $0.token = "s3cret-token" }
    let none = get(locked, "/v1/near?lat=1&lon=1")
    #expect(none.status == 401 && none.header("WWW-Authenticate") == "Bearer")
    #expect(get(locked, "/v1/near?lat=1&lon=1", headers: ["authorization": "Bearer wrong-token!"]).status == 401)
    #expect(get(locked, "/v1/near?lat=1&lon=1", headers: ["authorization": "Bearer s3cret-token"]).status == 200)
    #expect(get(locked, "/healthz").status == 200)
    #expect(get(locked, "/v1/near", method: "OPTIONS").status == 204)
    #expect(BearerToken.constantTimeEquals(Array("abc".utf8), Array("abc".utf8)))
    #expect(!BearerToken.constantTimeEquals(Array("abc".utf8), Array("abcd".utf8)))
  }

  @Test func privacyZonesHideEverywhere() throws {
    let zone = PrivacyZone(center: Coordinate(latitude: 35.7148, longitude: 139.7967), radius: 200)
    let hidden = router(zones: [zone])
    let near = get(hidden, "/v1/near?lat=35.7148&lon=139.7967&limit=100")
    let titles = (near.json["annotations"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    #expect(!titles.contains("Senso-ji burst") && titles.count == samplePhotos().count - 25)
    #expect(get(hidden, "/v1/photos/6").status == 404)
    let features = expectGeoJSON(get(hidden, "/v1/annotations?bbox=139.79,35.71,139.80,35.72&zoom=17").json)
    #expect(features.isEmpty)
    #expect(get(hidden, "/v1/status").json["photos"] as? Int == samplePhotos().count - 25)
  }

  @Test func healthAndDetails() throws {
    let health = get(api, "/healthz")
    #expect(health.json as NSDictionary == ["status": "ok"] as NSDictionary)
    let status = get(api, "/v1/status")
    #expect(status.json["status"] as? String == "ok" && status.json["generation"] as? Int == 7)
    #expect(status.json["photos"] as? Int == samplePhotos().count)
    let photo = get(api, "/v1/photos/1")
    #expect(photo.json["title"] as? String == "Tokyo Station")
    #expect(photo.json["path"] == nil)
    #expect(photo.json["thumbnailURL"] as? String == "/v1/photos/1/thumbnail")
    let remote = get(api, "/v1/photos/5/thumbnail")
    #expect(remote.status == 302 && remote.header("Location") == "https://live.staticflickr.com/1/5_s_q.jpg")
    #expect(get(api, "/v1/photos/1/thumbnail").status == 404)  // no such file: no thumbnail
  }

  /// Positions from degree-minute-second conversions carry binary noise; every answer, the
  /// photo details included, writes them to 1e-7 degrees.
  @Test func everyAnswerRoundsCoordinatesAlike() throws {
    let noisy = Photo(
      id: 1, source: .local, sourceID: "/p/1.jpg",
      coordinate: Coordinate(latitude: 35.681239999999995, longitude: -139.76712000000001), title: "noisy")
    #expect("\(noisy.coordinate?.latitude ?? 0)" == "35.681239999999995")  // the noise is there
    let holder = LoadedIndexHolder(initial: LoadedIndex(generation: 1, photos: [noisy])) { nil }
    let api = APIRouter(holder: holder)
    for target in [
      "/v1/photos/1", "/v1/near?lat=35.68&lon=-139.76", "/v1/near?lat=35.68&lon=-139.76&format=geojson",
      "/v1/annotations?bbox=-140,35,-139,36&zoom=17",
    ] {
      let body = String(decoding: get(api, target).body, as: UTF8.self)
      #expect(body.contains("35.68124") && body.contains("-139.76712"), "\(target)")
      #expect(!body.contains("35.6812399") && !body.contains("139.7671200"), "\(target): \(body)")
    }
    let detail = get(api, "/v1/photos/1").json
    #expect((detail["coordinate"] as? [String: Double]) == ["latitude": 35.68124, "longitude": -139.76712])
  }

  @Test func accessLogLinesCarryNoSecrets() {
    let line = AccessLog.line(
      ServerRequest(method: "GET", path: "/v1/near", query: [("lat", "1"), ("token", "hunter22")]),
      ServerResponse(status: 200, body: [1, 2, 3]), microseconds: 42)
    #expect(line == "GET /v1/near?lat=1&token=REDACTED 200 3 42µs")
  }
}

/// The web map's page asks no other origin for its code.
@Suite struct WebMapPageTests {
  /// Every `src` and `href` of the page.
  func references(_ html: String) -> [String] {
    html.split(separator: "\"").enumerated().compactMap { i, part in
      i > 0
        && (html.split(separator: "\"")[i - 1].hasSuffix("src=")
          || html.split(separator: "\"")[i - 1].hasSuffix("href="))
        ? String(part) : nil
    }
  }

  @Test func withoutLeafletThePageSaysWhatToInstall() {
    let page = get(router { $0.map.basemap = .none }, "/")
    #expect(page.status == 200)
    let html = String(decoding: page.body, as: UTF8.self)
    #expect(html.contains("data-missing=\"leaflet\""))
    #expect(html.contains("apt-get install libjs-leaflet"))
    #expect(!html.contains("<script"))
    #expect(references(html).allSatisfy { $0.hasPrefix("/") }, "\(references(html))")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js")))
  func withDebiansLeafletEveryScriptAndStyleIsTheServers() {
    let page = get(
      router {
        $0.map.leafletDirectory = "/usr/share/javascript/leaflet"
        $0.map.basemap = .none
      }, "/")
    let html = String(decoding: page.body, as: UTF8.self)
    let refs = references(html)
    #expect(refs.contains("/assets/leaflet/leaflet.js") && refs.contains("/assets/geophoto.js"))
    #expect(refs.allSatisfy { $0.hasPrefix("/") }, "\(refs)")
    #expect(html.contains("id=\"gp-panel\"") && html.contains("id=\"gp-place\""))
  }

  /// The page's script asks the API by the paths the page gives it, which are the published
  /// routes' paths; the script names none itself.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js")))
  func theScriptTakesTheAPIsPathsFromThePage() throws {
    let api = router {
      $0.map.leafletDirectory = "/usr/share/javascript/leaflet"
      $0.map.basemap = .none
    }
    let html = String(decoding: get(api, "/").body, as: UTF8.self)
    let start = try #require(html.range(of: "<script id=\"gp-config\" type=\"application/json\">"))
    let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let config = try #require(
      try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
    let endpoints = try #require(config["endpoints"] as? [String: String])
    #expect(
      endpoints == [
        "status": "/v1/status", "places": "/v1/places", "near": "/v1/near", "annotations": "/v1/annotations",
        "photo": "/v1/photos/{id}", "thumbnail": "/v1/photos/{id}/thumbnail", "visited": "/v1/places/visited",
        "trips": "/v1/trips", "trip": "/v1/trips/{id}", "unplaced": "/v1/unplaced",
        "location": "/v1/photos/{id}/location",
      ])
    let script = String(decoding: get(api, "/assets/geophoto.js").body, as: UTF8.self)
    #expect(script.contains("config.endpoints[name]"))
    #expect(!script.contains("'/v1/") && !script.contains("\"/v1/"), "the script names an API path itself")
    for name in endpoints.keys where name != "location" {
      #expect(script.contains("endpoint('\(name)'"), "the script never asks '\(name)'")
    }
    #expect(script.contains("config.endpoints.location"), "the script never places a photo")
  }

  @Test func aLeafletURLSetOnPurposeIsUsed() {
    let page = get(router { $0.map.leafletFallbackURL = "https://maps.example.org/leaflet" }, "/")
    #expect(String(decoding: page.body, as: UTF8.self).contains("https://maps.example.org/leaflet/leaflet.js"))
  }
}
