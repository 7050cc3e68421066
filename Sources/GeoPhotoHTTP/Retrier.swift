public import Foundation
import Synchronization

/// Whether an error is worth another attempt, and how long the other side asked us to wait.
public protocol RetryableError: Error {
  var isRetryable: Bool { get }
  var retryAfter: Double? { get }
}

extension HTTPError: RetryableError {}

/// Exponential backoff with jitter: attempt *n* waits `base · 2ⁿ`, scaled by a random factor
/// in 0.5…1.5 and capped; a server's `Retry-After` is honoured when it asks for longer.
public struct RetryPolicy: Sendable {
  /// Attempts in all, the first included.
  public var attempts = 5
  public var baseDelay = 0.5
  public var maximumDelay = 30.0
  /// A `Retry-After` longer than this ends the retries instead of waiting.
  public var maximumRetryAfter = 120.0
  /// How waiting is done; tests replace it to run without delays.
  public var sleep: @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
  /// Hears about every retry: the number (from 1) of the attempt about to start, the wait, and
  /// what failed.
  public var onRetry: @Sendable (Int, Double, any Error) -> Void = { _, _, _ in }

  public init() {}

  public static let none: RetryPolicy = {
    var p = RetryPolicy()
    p.attempts = 1
    return p
  }()

  /// The wait before attempt `attempt + 1` (0-based `attempt` just failed).
  public func delay(after attempt: Int, retryAfter: Double?) -> Double {
    let exponential = min(maximumDelay, baseDelay * pow(2, Double(attempt)))
    let jittered = exponential * Double.random(in: 0.5...1.5)
    return max(jittered, retryAfter ?? 0)
  }

  /// Runs `body` until it succeeds, fails with an error that is not retryable, or runs out of
  /// attempts.
  public func run<T>(_ body: () throws -> T) throws -> T {
    var attempt = 0
    while true {
      do {
        return try body()
      } catch let error as any RetryableError where error.isRetryable && attempt + 1 < attempts {
        if let after = error.retryAfter, after > maximumRetryAfter { throw error }
        let wait = delay(after: attempt, retryAfter: error.retryAfter)
        onRetry(attempt + 2, wait, error)
        sleep(wait)
        attempt += 1
      }
    }
  }

  /// Parses `Retry-After`: delay seconds, or an HTTP date (RFC 9110 §10.2.3).
  public static func parseRetryAfter(_ value: String?, now: Date = Date()) -> Double? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let seconds = Double(value), seconds >= 0, seconds.isFinite { return seconds }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: value) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }
}

/// A token bucket shared by every request to one provider: at most `rate` requests per second
/// on average, with bursts of up to `burst`.
public final class RateLimiter: Sendable {
  private struct State {
    var tokens: Double
    var last: UInt64
  }
  private let state: Mutex<State>
  public let rate: Double
  public let burst: Double
  /// Nanoseconds on a monotonic clock, and how waiting is done; tests replace both.
  private let clock: @Sendable () -> UInt64
  private let sleep: @Sendable (Double) -> Void

  /// - Parameters:
  ///   - perHour: sustained requests per hour (Flickr allows 3,600 per key).
  ///   - burst: requests that may go at once after a pause.
  public init(
    perHour: Double, burst: Double = 1,
    clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
    sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
  ) {
    rate = max(perHour, 1) / 3600
    self.burst = max(1, burst)
    self.clock = clock
    self.sleep = sleep
    state = Mutex(State(tokens: max(1, burst), last: clock()))
  }

  /// Waits until a request may go.
  public func acquire() {
    while true {
      let wait: Double = state.withLock { s in
        let now = max(clock(), s.last)
        s.tokens = min(burst, s.tokens + Double(now - s.last) / 1e9 * rate)
        s.last = now
        if s.tokens >= 1 {
          s.tokens -= 1
          return 0
        }
        return (1 - s.tokens) / rate
      }
      if wait <= 0 { return }
      sleep(wait)
    }
  }
}
