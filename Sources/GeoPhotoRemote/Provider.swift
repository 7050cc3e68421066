import Foundation
public import GeoPhotoCore
public import GeoPhotoHTTP

/// A source of public photos around a point.
public protocol PhotoProvider: Sendable {
  var source: PhotoSource { get }
  /// The largest search radius in metres the provider supports.
  var maximumRadius: Double { get }
  /// Photos around `center` within `radius` metres, at most `limit` of them, nearest first
  /// where the provider sorts by distance. Everything or an error: never a partial list.
  func search(center: Coordinate, radius: Double, limit: Int) throws(RemoteError) -> [Photo]
}

/// A provider failure, worded for the user, with secrets removed.
public struct RemoteError: Error, CustomStringConvertible, RetryableError, Sendable {
  public var provider: PhotoSource
  public var message: String
  public var isRetryable: Bool
  public var retryAfter: Double?
  /// Result pages received before the failure.
  public var pagesReceived = 0

  public init(_ provider: PhotoSource, _ message: String, retryable: Bool = false, retryAfter: Double? = nil) {
    self.provider = provider
    self.message = message
    self.isRetryable = retryable
    self.retryAfter = retryAfter
  }

  public var description: String {
    let name = provider == .flickr ? "Flickr" : (provider == .commons ? "Wikimedia Commons" : provider.rawValue)
    var text = "\(name): \(message)"
    if pagesReceived > 0 {
      text += " (after \(pagesReceived) page\(pagesReceived == 1 ? "" : "s") had arrived; nothing was stored)"
    }
    return text
  }
}

/// What every provider shares: the HTTP client, the retry policy, a rate limiter and a log
/// for `--verbose`.
public struct ProviderContext: Sendable {
  public var client: HTTPClient
  public var retry: RetryPolicy
  public var limiter: RateLimiter?
  /// Receives one line per request and per retry; URLs in it are already redacted.
  public var log: @Sendable (String) -> Void

  public init(
    client: HTTPClient, retry: RetryPolicy = RetryPolicy(), limiter: RateLimiter? = nil,
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.client = client
    self.retry = retry
    self.limiter = limiter
    self.log = log
  }

  /// One GET through the rate limiter, logged; HTTP errors and 429/5xx become `HTTPError`s.
  func get(_ url: String, provider: PhotoSource) throws(RemoteError) -> HTTPResponse {
    limiter?.acquire()
    let shown = client.options.redactor.redact(url)
    let started = DispatchTime.now().uptimeNanoseconds
    do {
      let response = try client.get(url)
      let milliseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
      log("GET \(shown) → \(response.status), \(response.body.count) bytes, \(milliseconds) ms")
      guard (200..<300).contains(response.status) else {
        let retryAfter = RetryPolicy.parseRetryAfter(response.headers["retry-after"])
        let retryable = response.status == 429 || (500...599).contains(response.status)
        throw RemoteError(
          provider, "HTTP \(response.status) from \(shown)", retryable: retryable, retryAfter: retryAfter)
      }
      return response
    } catch let error as HTTPError {
      log("GET \(shown) failed: \(error.message)")
      throw RemoteError(provider, error.message, retryable: error.isRetryable, retryAfter: error.retryAfter)
    } catch let error as RemoteError {
      throw error
    } catch {
      throw RemoteError(provider, "\(error)")
    }
  }

  /// Runs one request (and its parsing) under the retry policy.
  func withRetries<T>(_ provider: PhotoSource, _ body: () throws(RemoteError) -> T) throws(RemoteError) -> T {
    var policy = retry
    let log = self.log
    let previous = policy.onRetry
    let attempts = policy.attempts
    policy.onRetry = { attempt, wait, error in
      log("retrying (attempt \(attempt) of \(attempts)) in \(String(format: "%.1f", wait)) s: \(error)")
      previous(attempt, wait, error)
    }
    do {
      return try policy.run { () throws -> T in try body() }
    } catch let error as RemoteError {
      throw error
    } catch {
      throw RemoteError(provider, "\(error)")
    }
  }
}

/// What a response body is, judged by its first bytes rather than its Content-Type.
enum BodyKind: Equatable {
  case json
  /// JSON inside `jsonFlickrApi( … )`.
  case jsonp
  case xml
  case html
  case empty
  case other

  init(_ body: [UInt8]) {
    let start = body.firstIndex {
      !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF)
    }
    guard let start else {
      self = .empty
      return
    }
    let head = String(decoding: body[start..<min(body.count, start + 64)], as: UTF8.self).lowercased()
    if head.hasPrefix("{") || head.hasPrefix("[") {
      self = .json
    } else if head.hasPrefix("jsonflickrapi(") {
      self = .jsonp
    } else if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head")
      || head.hasPrefix("<body")
    {
      self = .html
    } else if head.hasPrefix("<") {
      self = .xml
    } else {
      self = .other
    }
  }
}
