import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import GeoPhotoStore
import Synchronization
import Testing

@testable import GeoPhotoRemote

/// Faults from the server side, each ending in a correct retry or a clear error, with nothing
/// half-written in the index and the key never printed.
@Suite struct FaultTests {
  /// Serves `fault` on the first request of page `failingPage` (every time when `always`),
  /// and the fixture pages otherwise.
  func server(failingPage: String = "2", always: Bool = false, _ fault: @escaping @Sendable () -> FixtureResponse)
    throws -> FixtureHTTPServer
  {
    let failures = Mutex(0)
    return try FixtureHTTPServer { request in
      let page = request.query["page"] ?? "1"
      if page == failingPage {
        let n = failures.withLock { c -> Int in
          c += 1
          return c
        }
        if always || n == 1 { return fault() }
      }
      return Fixture.response(page == "2" ? "flickr-page2.jsonp" : "flickr-page\(page).json")
    }
  }

  func fetch(
    _ server: FixtureHTTPServer, timeout: Double = 5, limit: Int = 1 << 20, log: LogLines? = nil,
    kind: StoreKind = .sqlite, sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
  ) throws -> (TemporaryIndex, Result<FetchReport, any Error>) {
    let index = try TemporaryIndex(kind)
    let flickr = FlickrProvider(
      apiKey: testKey, endpoint: server.baseURL + "/",
      context: try context(timeout: timeout, limit: limit, log: log, sleep: sleep))
    let result = Result {
      try FetchEngine(store: index.store).fetch(
        flickr, center: tokyo, radius: 1_000, limit: .max, now: IndexTime(seconds: 1))
    }
    return (index, result)
  }

  @Test func tooManyRequestsHonoursRetryAfter() throws {
    let s = try server {
      var r = Fixture.response("flickr-html-error.html", status: 429)
      r.headers.append(("Retry-After", "1"))
      return r
    }
    let waits = Mutex<[Double]>([])
    let (index, result) = try fetch(s) { wait in waits.withLock { $0.append(wait) } }
    #expect(try result.get().photos == 4)
    // One retry, after the second the server asked for (not the policy's 10 ms backoff).
    #expect(waits.withLock { $0 } == [1])
    #expect(try index.store.counts().photos == 4)
  }

  @Test(arguments: StoreKind.available)
  func serverErrorThenSuccess(kind: StoreKind) throws {
    let s = try server { .text("<html><body>Internal error</body></html>", status: 500, contentType: "text/html") }
    let (index, result) = try fetch(s, kind: kind)
    #expect(try result.get().added == 4)
    #expect(s.requests.count == 4)
    #expect(try index.store.counts().photos == 4)
  }

  func expectFailureLeavesNothing(_ index: TemporaryIndex, _ result: Result<FetchReport, any Error>, _ words: String)
    throws
  {
    guard case .failure(let error) = result else {
      Issue.record("the fetch succeeded")
      return
    }
    let text = "\(error)"
    #expect(text.contains(words), "message was: \(text)")
    #expect(text.contains("after 1 page had arrived; nothing was stored"))
    #expect(!text.contains(testKey))
    #expect(try index.store.counts().photos == 0)
    #expect(try index.store.generation() == 1)
  }

  @Test func slowerThanTheTimeout() throws {
    let s = try server(always: true) {
      var r = Fixture.response("flickr-page2.jsonp")
      r.delay = 1
      return r
    }
    let (index, result) = try fetch(s, timeout: 0.3)
    try expectFailureLeavesNothing(index, result, "timed out")
  }

  @Test(arguments: StoreKind.available)
  func truncatedBody(kind: StoreKind) throws {
    let s = try server(always: true) {
      var r = Fixture.response("flickr-page2.jsonp")
      r.truncateAfter = 50
      return r
    }
    let (index, result) = try fetch(s, kind: kind)
    try expectFailureLeavesNothing(index, result, "cut short")
  }

  @Test func malformedXML() throws {
    let s = try server(always: true) { Fixture.response("flickr-malformed.xml") }
    let (index, result) = try fetch(s)
    try expectFailureLeavesNothing(index, result, "malformed XML")
  }

  @Test func entityBomb() throws {
    let s = try server(always: true) { Fixture.response("flickr-entity-bomb.xml") }
    let (index, result) = try fetch(s)
    try expectFailureLeavesNothing(index, result, "document type definition")
    #expect(s.requests.count == 2)  // refused, not retried
  }

  @Test func htmlErrorPage() throws {
    let s = try server(always: true) { Fixture.response("flickr-html-error.html") }
    let log = LogLines()
    let (index, result) = try fetch(s, log: log)
    try expectFailureLeavesNothing(index, result, "HTML page")
    #expect(log.all.contains { $0.hasPrefix("retrying (attempt 2 of 3)") })
    #expect(log.all.allSatisfy { !$0.contains(testKey) })
  }

  @Test func bodyOverTheSizeCap() throws {
    let s = try server(always: true) { FixtureResponse(body: [UInt8](repeating: 0x20, count: 200_000)) }
    let (index, result) = try fetch(s, limit: 100_000)
    try expectFailureLeavesNothing(index, result, "larger than")
    #expect(s.requests.count == 2)  // not retried
  }

  @Test(arguments: StoreKind.available)
  func refetchUpdatesInsteadOfDuplicating(kind: StoreKind) throws {
    let s = try server { Fixture.response("flickr-page2.jsonp") }
    let index = try TemporaryIndex(kind)
    let flickr = FlickrProvider(apiKey: testKey, endpoint: s.baseURL + "/", context: try context())
    let engine = FetchEngine(store: index.store)
    let first = try engine.fetch(flickr, center: tokyo, radius: 1_000, limit: .max, now: IndexTime(seconds: 1_000))
    #expect((first.added, first.updated) == (4, 0))
    let second = try engine.fetch(flickr, center: tokyo, radius: 1_000, limit: .max, now: IndexTime(seconds: 2_000))
    #expect((second.added, second.updated) == (0, 4))
    #expect(try index.store.counts().photos == 4)
    // Within the maximum age, inside the searched circle: no request at all.
    let before = s.requests.count
    let fresh = try engine.fetch(
      flickr, center: Coordinate(latitude: 35.6805, longitude: 139.7600), radius: 500, limit: .max, maxAge: 3_600,
      now: IndexTime(seconds: 2_500))
    #expect(fresh.wasFresh && s.requests.count == before)
    // Too old, or a circle reaching outside: asked again.
    let stale = try engine.fetch(
      flickr, center: tokyo, radius: 1_000, limit: .max, maxAge: 100, now: IndexTime(seconds: 9_000))
    #expect(!stale.wasFresh)
    let wider = try engine.fetch(
      flickr, center: tokyo, radius: 1_500, limit: .max, maxAge: 86_400, now: IndexTime(seconds: 9_100))
    #expect(!wider.wasFresh)
  }
}
