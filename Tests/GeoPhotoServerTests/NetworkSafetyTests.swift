import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoPlaces
import Synchronization
import Testing

@testable import GeoPhotoServer

/// A server that puts people's locations on a network, tried as a hostile client would: every
/// route through every form a request target can take, with and without the token, numbers at
/// their extremes, foreign hosts and origins, and what answers and the log may say.
@Suite struct NetworkSafetyTests {
  static let token = "s3cret-token-for-tests"

  /// A concrete target for every route (path parameters filled in, required parameters from
  /// their examples).
  static func target(for route: Endpoint) -> String {
    var path = route.path
    let values = ["{id}": "1", "{z}": "1", "{x}": "0", "{y}": "0.png", "{name}": "geophoto.js", "{file}": "leaflet.js"]
    for (pattern, value) in values { path = path.replacingOccurrences(of: pattern, with: value) }
    let query = route.parameters.filter { $0.location == .query && $0.required }
      .map { "\($0.name)=\(($0.example ?? "1").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "1")" }
    return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
  }

  /// The status line's code of a raw answer.
  static func status(_ answer: String) -> Int? {
    guard answer.hasPrefix("HTTP/1.1 ") else { return nil }
    return Int(answer.dropFirst(9).prefix(3))
  }

  static func send(_ target: String, port: Int, token: String? = nil, host: String = "127.0.0.1") -> String {
    var request = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
    if let token { request += "Authorization: Bearer \(token)\r\n" }
    return LoopbackClient.exchange(request + "\r\n", port: port)
  }

  /// The forms a target takes that must be refused (400), whatever the route and the token.
  static func malformed(_ target: String) -> [String] {
    let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
    let rest = String(target.dropFirst(path.count))
    var forms = ["x" + target, "/" + target, "/." + target, path + "/.." + path + rest]
    let segments = path.split(separator: "/")
    if segments.count >= 2 {
      forms.append("/" + segments[0] + "%2F" + segments.dropFirst().joined(separator: "/") + rest)
      forms.append("/" + segments[0] + "/%2e%2e/" + segments.joined(separator: "/") + rest)
    }
    return forms
  }

  @Test func everyRouteThroughEveryTargetFormWithAndWithoutTheToken() throws {
    let live = try LiveServer { $0.token = Self.token }
    let port = live.server.port
    for route in EndpointTable.all {
      let target = Self.target(for: route)
      let absolute = "http://127.0.0.1:\(port)" + target
      for form in [target, absolute] {
        let without = Self.status(Self.send(form, port: port))
        let with = Self.status(Self.send(form, port: port, token: Self.token))
        if route.access == .token {
          #expect(without == 401, "\(form) without the token: \(String(describing: without))")
        } else {
          #expect(without != 401 && without != nil, "\(form) is open: \(String(describing: without))")
        }
        #expect(
          with != 401 && with != 400 && with != nil && with! < 500,
          "\(form) with the token: \(String(describing: with))")
      }
      // The same route named through a form that could mean two things, or is no path.
      for form in Self.malformed(target) {
        for token in [nil, Self.token] {
          let status = Self.status(Self.send(form, port: port, token: token))
          #expect(status == 400, "\(form) (token: \(token != nil)): \(String(describing: status))")
        }
      }
      // A host the server is not for, in the target or the Host header.
      #expect(Self.status(Self.send("http://evil.example" + target, port: port, token: Self.token)) == 421)
      #expect(Self.status(Self.send(target, port: port, token: Self.token, host: "evil.example:8080")) == 421)
    }
    // The request of the report: no leading slash, and no answer without the token.
    let photo = Self.send("x/v1/photos/1", port: port)
    #expect(Self.status(photo) == 400 && !photo.contains("Tokyo"))
    #expect(Self.status(Self.send("*", port: port)) == 400)
  }

  /// Extreme numbers in every place a number is read are 400 with a message, never a crash
  /// or a 500 (the server answers after each).
  @Test(arguments: [
    "/v1/clusters/-9223372036854775807/leaves", "/v1/clusters/9223372036854775807/leaves",
    "/v1/clusters/-1/leaves", "/v1/clusters/17179869185/leaves", "/v1/clusters/1e3/leaves",
    "/v1/photos/0", "/v1/photos/-1", "/v1/photos/99999999999999999999", "/v1/photos/+1",
    "/v1/photos/1/thumbnail?size=-1",
    "/v1/near?lat=35&lon=139&limit=0", "/v1/near?lat=35&lon=139&limit=9223372036854775808",
    "/v1/near?lat=nan&lon=139", "/v1/near?lat=1e400&lon=139", "/v1/near?lat=35&lon=inf",
    "/v1/near?lat=35&lon=139&radius=1e300km", "/v1/near?lat=35&lon=139&since=99999",
    "/v1/near?lat=35&lon=139&since=2024-13", "/v1/near?lat=35&lon=139&until=2024-02-30T25:00",
    "/v1/annotations?bbox=-1e309,0,1,1&zoom=3", "/v1/annotations?bbox=0,0,1,1&zoom=NaN",
    "/v1/annotations?bbox=0,0,1,1&zoom=-1", "/v1/annotations?bbox=0,0,1,1&zoom=1e10",
    "/v1/clusters/1/leaves?offset=-1", "/v1/clusters/1/leaves?offset=2147483648", "/v1/clusters/1/leaves?limit=1001",
    "/tiles/99/0/0.png", "/tiles/3/9223372036854775807/0.png", "/tiles/3/0/-1.png",
    "/?photo=-5", "/v1/places?q=Kyoto&limit=51",
  ])
  func extremeNumbersAreRefused(target: String) {
    let r = get(router(), target)
    #expect(r.status == 400, "\(target): \(r.status) \(String(decoding: r.body, as: UTF8.self))")
    #expect((r.json["error"] as? [String: Any])?["message"] is String)
  }

  @Test func theReportedCrashIsA400AndTheServerLives() throws {
    let live = try LiveServer()
    let port = live.server.port
    for _ in 0..<3 {
      #expect(Self.status(Self.send("/v1/clusters/-9223372036854775807/leaves", port: port)) == 400)
    }
    #expect(Self.status(Self.send("/healthz", port: port)) == 200)
  }

  @Test func foreignHostsGet421AndTheServersOwnNamesAreAnswered() {
    let api = router { $0.hostnames = ["photos.example.org", "192.168.1.20"] }
    for host in [
      "localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:9", "[::1]", "[::1]:8080", "photos.example.org",
      "photos.example.org:443", "192.168.1.20:8080",
    ] {
      #expect(get(api, "/healthz", headers: ["host": host]).status == 200, "\(host)")
    }
    for host in ["evil.example", "localhost.evil.example", "127.0.0.2", "[::2]", "::1", "photos.example.org:x", ""] {
      let r = get(api, "/healthz", headers: ["host": host])
      #expect(r.status == 421 && r.json["error"] != nil, "\(host): \(r.status)")
    }
    // Absolute form: the target's host is the one asked for.
    #expect(api.respond(to: ServerRequest(method: "GET", target: "http://evil.example/healthz")).status == 421)
    #expect(api.respond(to: ServerRequest(method: "GET", target: "http://localhost:8080/healthz")).status == 200)
  }

  /// With a token, answers may be kept only by the client (never by a shared cache), and say
  /// they depend on it; `/v1/near` also says it depends on `Accept`.
  @Test func cachingWithATokenIsPrivate() throws {
    let auth = ["authorization": "Bearer \(Self.token)"]
    let locked = router { $0.token = Self.token }
    for target in ["/v1/near?lat=35.68&lon=139.76", "/v1/annotations?bbox=139,35,140,36&zoom=10", "/v1/photos/1"] {
      let r = get(locked, target, headers: auth)
      #expect(r.status == 200, "\(target)")
      #expect(r.header("Cache-Control")?.hasPrefix("private") == true, "\(target)")
      #expect(r.header("Vary")?.contains("Authorization") == true, "\(target)")
      let tag = try #require(r.header("ETag"))
      let revalidated = get(locked, target, headers: auth.merging(["if-none-match": tag]) { a, _ in a })
      #expect(revalidated.status == 304 && revalidated.header("Cache-Control")?.hasPrefix("private") == true)
    }
    let near = get(locked, "/v1/near?lat=35.68&lon=139.76", headers: auth)
    #expect(near.header("Vary") == "Authorization, Accept")
    let remote = get(locked, "/v1/photos/5/thumbnail", headers: auth)
    #expect(remote.status == 302 && remote.header("Cache-Control")?.hasPrefix("private") == true)
    // Without a token: shared caches may keep answers.
    let open = get(router(), "/v1/near?lat=35.68&lon=139.76")
    #expect(open.header("Cache-Control") == "public, max-age=60" && open.header("Vary") == "Accept")
    #expect(get(router(), "/v1/photos/1").header("Vary") == nil)
  }

  /// The same generation and query under other privacy zones or another feature cap is
  /// another answer, with another ETag.
  @Test func etagsChangeWithWhatChangesAnswers() throws {
    let target = "/v1/annotations?bbox=139,35,140,36&zoom=10"
    let plain = try #require(get(router(), target).header("ETag"))
    let zone = PrivacyZone(center: Coordinate(latitude: 35.7148, longitude: 139.7967), radius: 200)
    let zoned = try #require(get(router(zones: [zone]), target).header("ETag"))
    let capped = try #require(get(router { $0.maximumFeatures = 3 }, target).header("ETag"))
    #expect(Set([plain, zoned, capped]).count == 3)
    #expect(get(router(zones: [zone]), target, headers: ["if-none-match": plain]).status == 200)
  }

  /// With a token, nothing about the photos is seen without it: not on the page, not from
  /// liveness, not in errors.
  @Test func nothingAboutThePhotosWithoutTheToken() throws {
    let locked = router { $0.token = Self.token }
    let page = String(decoding: get(locked, "/").body, as: UTF8.self)
    for photo in samplePhotos() {
      let c = try #require(photo.coordinate)
      #expect(!page.contains(String(format: "%.3f", c.latitude)), "the page shows \(photo.title)")
      #expect(!page.contains(photo.title))
    }
    #expect(!page.contains("bounds"))
    #expect(get(locked, "/healthz").json as NSDictionary == ["status": "ok"] as NSDictionary)
    #expect(get(locked, "/v1/status").status == 401)
    let status = get(locked, "/v1/status", headers: ["authorization": "Bearer \(Self.token)"]).json
    let bounds = try #require(status["bounds"] as? [String: Double])
    let west = try #require(samplePhotos().compactMap(\.coordinate).map(\.longitude).min())
    #expect(abs((bounds["west"] ?? 0) - west) < 1e-9)
    #expect(status["photos"] as? Int == samplePhotos().count)
  }

  /// What went wrong inside (a file that cannot be read, and where) goes to the log, never to
  /// the client.
  @Test func errorBodiesNameNoPath() {
    let logged = Mutex<[String]>([])
    let api = router {
      $0.places = PlaceDirectory {
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: "/srv/secret/places-cities500.gaz"])
      }
      $0.warnings = { line in logged.withLock { $0.append(line) } }
    }
    let r = get(api, "/v1/places?q=Kyoto")
    #expect(r.status == 503)
    #expect(!String(decoding: r.body, as: UTF8.self).contains("/srv/secret"))
    #expect(logged.withLock { $0 }.contains { $0.contains("/srv/secret") })
  }

  /// A request cannot forge a log line: control characters in its target are escaped.
  @Test func theLogCannotBeForged() throws {
    let request = ServerRequest(method: "GET", target: "/v1/near?lat=1%0D%0AGET%20/forged%20200&lon=%1B[31m")
    let line = AccessLog.line(request, ServerResponse(status: 400), microseconds: 1)
    #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{1B}"))
    let decoded = ServerRequest(method: "GET", path: "/a\r\nGET /forged 200\u{1B}", query: [("x", "\n")])
    let escaped = AccessLog.line(decoded, ServerResponse(status: 404), microseconds: 1)
    #expect(escaped == "GET /a\\r\\nGET /forged 200\\x1B?x=\\n 404 0 1µs")
    // Over the wire, too: one line per request, whatever it holds.
    let live = try LiveServer()
    _ = Self.send("/v1/near?lat=1&lon=1&x=%0D%0Aforged", port: live.server.port)
    let lines = live.log.lines.withLock { $0 }
    #expect(lines.count == 1 && !lines[0].contains("\n"), "\(lines)")
  }

  /// A viewport holds no more than its feature cap however many photos it has: the answer says
  /// how many there were, and the walk kept only the cap.
  @Test func aWholeWorldViewportAtStreetZoomKeepsOnlyItsCap() throws {
    let capped = router { $0.maximumFeatures = 5 }
    let r = get(capped, "/v1/annotations?bbox=-180,-85,180,85&zoom=20")
    #expect((r.json["features"] as? [Any])?.count == 5)
    #expect(r.json["truncated"] as? Bool == true)
    let located = samplePhotos().filter { $0.coordinate != nil }.count
    #expect(r.json["total"] as? Int == located)
    let snapshot = LoadedIndex(generation: 1, photos: samplePhotos())
    let (kept, total) = try snapshot.clusters(for: PhotoFilter()).items(
      in: BoundingBox(west: -180, south: -85, east: 180, north: 85), zoom: 20, limit: 5)
    #expect(kept.count == 5 && total == located)
  }
}

/// Builds for filters are shared and bounded: one per filter at a time (the others asking
/// wait for it and get its result), and no more than the slots at once (503 past that).
@Suite struct FilterBuildTests {
  @Test func oneBuildPerFilterAndNoMoreThanTheSlots() throws {
    let slots = BuildSlots(limit: 1)
    let builds = FilterBuilds<Int>(slots: slots, budget: 1_000)
    let kyoto = PhotoFilter(camera: "kyoto")
    let osaka = PhotoFilter(camera: "osaka")
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let calls = Mutex(0)
    let group = DispatchGroup()
    let results = Mutex<[Int]>([])
    // The first request builds and holds its slot until released.
    DispatchQueue.global().async(group: group) {
      let value = try? builds.value(for: kyoto) {
        calls.withLock { $0 += 1 }
        started.signal()
        release.wait()
        return (42, 10)
      }
      results.withLock { $0.append(value ?? -1) }
    }
    started.wait()
    // A second filter finds no slot: busy at once.
    #expect(throws: BuildsBusy.self) { try builds.value(for: osaka) { (7, 1) } }
    #expect(builds.cached(kyoto) == nil)
    // Others asking for the building filter wait for it, and build nothing.
    for _ in 0..<4 {
      DispatchQueue.global().async(group: group) {
        let value = try? builds.value(for: kyoto) {
          calls.withLock { $0 += 1 }
          return (-1, 10)
        }
        results.withLock { $0.append(value ?? -1) }
      }
    }
    // Released only once all four wait for the build in progress.
    while builds.waiters < 4 { Thread.sleep(forTimeInterval: 0.001) }
    release.signal()
    group.wait()
    #expect(calls.withLock { $0 } == 1)
    #expect(results.withLock { $0 } == [42, 42, 42, 42, 42])
    #expect(slots.inUse == 0)
    #expect(builds.cached(kyoto) == 42)
    // The slot is free again.
    #expect(try builds.value(for: osaka) { (7, 1) } == 7)
  }

  @Test func keptBuildsAreBoundedByTheBytesTheyHold() throws {
    let builds = FilterBuilds<Int>(slots: BuildSlots(limit: 2), budget: 100)
    let filters = (0..<5).map { PhotoFilter(camera: "camera \($0)") }
    for (i, filter) in filters.enumerated() { _ = try builds.value(for: filter) { (i, 40) } }
    // 40 bytes each, 100 at most: the two most recent are kept.
    #expect(filters.map { builds.cached($0) } == [nil, nil, nil, 3, 4])
  }

  /// A request whose filter has nothing built yet is answered off the transport's threads;
  /// once built, on them.
  @Test func requestsThatMayWaitForABuildAreAnsweredBySlowWorkers() {
    let api = router()
    let filtered = ServerRequest(method: "GET", target: "/v1/annotations?bbox=139,35,140,36&zoom=10&camera=canon")
    #expect(api.answersSlowly(filtered))
    #expect(!api.answersSlowly(ServerRequest(method: "GET", target: "/v1/annotations?bbox=139,35,140,36&zoom=10")))
    #expect(!api.answersSlowly(ServerRequest(method: "GET", target: "/healthz")))
    #expect(api.respond(to: filtered).status == 200)
    #expect(!api.answersSlowly(filtered))
    #expect(api.answersSlowly(ServerRequest(method: "GET", target: "/v1/near?lat=35&lon=139&camera=canon")))
    #expect(api.answersSlowly(ServerRequest(method: "GET", target: "/v1/photos/1/thumbnail")))
  }

  /// Past its slots the answer is 503 with Retry-After, and the server goes on answering.
  @Test func busyIsA503WithRetryAfter() {
    let error = ErrorAnswers(log: nil)
    let r = try? error.handle(ServerRequest(method: "GET", target: "/v1/near")) { _ in throw BuildsBusy(limit: 2) }
    #expect(r?.status == 503 && r?.header("Retry-After") == "1")
  }
}
