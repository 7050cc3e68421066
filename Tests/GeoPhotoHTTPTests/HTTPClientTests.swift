import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Synchronization
import Testing

@testable import GeoPhotoHTTP

func client(timeout: Double = 5, limit: Int = 1 << 20, secrets: [String] = []) throws -> HTTPClient {
  var options = HTTPClientOptions(userAgent: "geophoto-tests/1 (+https://example.invalid)")
  options.timeout = timeout
  options.connectTimeout = 2
  options.maximumResponseBytes = limit
  options.redactor = Redactor(secrets: secrets)
  return try HTTPClient(options: options)
}

@Suite struct HTTPClientTests {
  @Test func getsBodiesHeadersAndReusesTheConnection() throws {
    let server = try FixtureHTTPServer { request in
      .text("{\"path\": \"\(request.path)\"}")
    }
    let c = try client()
    for i in 0..<3 {
      let r = try c.get(server.baseURL + "/item/\(i)?q=1")
      #expect(r.status == 200)
      #expect(r.text == "{\"path\": \"/item/\(i)\"}")
      #expect(r.headers["content-type"] == "application/json")
    }
    #expect(server.connectionCount == 1)
    let seen = server.requests
    #expect(seen.count == 3)
    #expect(seen[0].headers["user-agent"] == "geophoto-tests/1 (+https://example.invalid)")
    #expect(seen[0].headers["accept-encoding"]?.contains("gzip") == true)
  }

  @Test func errorStatusesAreReturnedNotThrown() throws {
    let server = try FixtureHTTPServer { _ in .text("missing", status: 404, contentType: "text/plain") }
    let r = try client().get(server.baseURL + "/nope")
    #expect(r.status == 404 && r.text == "missing")
  }

  @Test func slowAnswersTimeOut() throws {
    let server = try FixtureHTTPServer { _ in
      var r = FixtureResponse.text("late")
      r.delay = 2
      return r
    }
    do {
      _ = try client(timeout: 0.3).get(server.baseURL + "/slow")
      Issue.record("no timeout")
    } catch let error as HTTPError {
      #expect(error.kind == .timeout)
      #expect(error.isRetryable)
    }
  }

  @Test func truncatedBodiesAreDetected() throws {
    let server = try FixtureHTTPServer { _ in
      var r = FixtureResponse.text(String(repeating: "x", count: 1000))
      r.truncateAfter = 100
      return r
    }
    do {
      _ = try client().get(server.baseURL + "/cut")
      Issue.record("a cut body was accepted")
    } catch let error as HTTPError {
      #expect(error.kind == .truncated)
    }
  }

  @Test(arguments: [true, false])
  func bodiesOverTheCapAreRefused(sendsLength: Bool) throws {
    let server = try FixtureHTTPServer { _ in
      var r = FixtureResponse(body: [UInt8](repeating: 65, count: 300_000))
      r.sendsLength = sendsLength
      return r
    }
    do {
      _ = try client(limit: 100_000).get(server.baseURL + "/big")
      Issue.record("an oversized body was accepted")
    } catch let error as HTTPError {
      #expect(error.kind == .tooLarge(limit: 100_000))
      #expect(!error.isRetryable)
    }
  }

  @Test func secretsNeverAppearInErrors() throws {
    let key = "s3cr3t-key-123"
    do {
      // A port nothing listens on: connection refused.
      _ = try client(secrets: [key]).get("http://127.0.0.1:9/services/rest/?method=x&api_key=\(key)")
      Issue.record("connected to port 9")
    } catch let error as HTTPError {
      #expect(!error.message.contains(key))
      #expect(error.message.contains("api_key=REDACTED"))
      #expect(error.isRetryable)
    }
  }

  @Test func onlyHTTPAndHTTPSAreFollowed() throws {
    #expect(throws: HTTPError.self) { try client().get("file:///etc/passwd") }
  }
}

@Suite struct RetryTests {
  @Test func retriesServerErrorsThenSucceeds() throws {
    let count = Mutex(0)
    let server = try FixtureHTTPServer { _ in
      let n = count.withLock { c -> Int in
        c += 1
        return c
      }
      return n < 3 ? .text("oops", status: 503, contentType: "text/html") : .text("ok")
    }
    let c = try client()
    let waits = Mutex<[Double]>([])
    var policy = RetryPolicy()
    policy.baseDelay = 0.01
    policy.sleep = { wait in waits.withLock { $0.append(wait) } }
    let body = try policy.run { () throws -> String in
      let r = try c.get(server.baseURL + "/")
      if r.status != 200 { throw HTTPError(.status(r.status), "status \(r.status)") }
      return r.text
    }
    #expect(body == "ok")
    let w = waits.withLock { $0 }
    #expect(w.count == 2)
    #expect(w[1] >= w[0] * 2 * 0.5 / 1.5)  // exponential, with jitter
  }

  @Test func honoursRetryAfterAndGivesUpOnClientErrors() throws {
    var policy = RetryPolicy()
    policy.baseDelay = 0.01
    let waits = Mutex<[Double]>([])
    policy.sleep = { wait in waits.withLock { $0.append(wait) } }
    var attempts = 0
    #expect(throws: HTTPError.self) {
      try policy.run { () throws -> Int in
        attempts += 1
        throw HTTPError(.status(429), "slow down", retryAfter: 2)
      }
    }
    #expect(attempts == 5)
    #expect(waits.withLock { $0 }.allSatisfy { $0 >= 2 })
    attempts = 0
    #expect(throws: HTTPError.self) {
      try policy.run { () throws -> Int in
        attempts += 1
        throw HTTPError(.status(403), "forbidden")
      }
    }
    #expect(attempts == 1)
    // A server asking for more than the cap is not waited for.
    attempts = 0
    policy.sleep = { _ in Issue.record("slept") }
    #expect(throws: HTTPError.self) {
      try policy.run { () throws -> Int in
        attempts += 1
        throw HTTPError(.status(503), "later", retryAfter: 3600)
      }
    }
    #expect(attempts == 1)
  }

  @Test func parsesRetryAfter() {
    #expect(RetryPolicy.parseRetryAfter("120") == 120)
    let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
    #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
    #expect(RetryPolicy.parseRetryAfter("soon") == nil)
    #expect(RetryPolicy.parseRetryAfter(nil) == nil)
  }

  /// A clock that moves only when the limiter waits: the waits are the limiter's whole story.
  final class ManualClock: Sendable {
    let nanoseconds = Mutex<UInt64>(1_000_000_000)
    let waits = Mutex<[Double]>([])
    var now: UInt64 { nanoseconds.withLock { $0 } }
    func advance(_ seconds: Double) { nanoseconds.withLock { $0 += UInt64(seconds * 1e9) } }
    func sleep(_ seconds: Double) {
      waits.withLock { $0.append(seconds) }
      advance(seconds)
    }
  }

  @Test func rateLimiterSpacesRequests() {
    let clock = ManualClock()
    // One request every 0.1 s, bursts of one.
    let limiter = RateLimiter(perHour: 36_000, burst: 1, clock: { clock.now }, sleep: clock.sleep)
    for _ in 0..<4 { limiter.acquire() }
    let waits = clock.waits.withLock { $0 }
    #expect(waits.count == 3 && waits.allSatisfy { abs($0 - 0.1) < 1e-9 }, "\(waits)")
    // After a pause as long as three requests, a burst of three goes at once.
    let bursty = RateLimiter(perHour: 36_000, burst: 3, clock: { clock.now }, sleep: clock.sleep)
    for _ in 0..<3 { bursty.acquire() }
    clock.advance(0.3)
    clock.waits.withLock { $0 = [] }
    for _ in 0..<3 { bursty.acquire() }
    #expect(clock.waits.withLock { $0 }.isEmpty)
    bursty.acquire()
    #expect(clock.waits.withLock { $0 }.count == 1)
  }
}
