public import Foundation
import GeoPhotoCore

/// An instant as the index keeps it: whole seconds since the epoch, UTC. Every time a store
/// writes or compares — when a photo was first seen and last updated, when a folder was last
/// synced, when an area was fetched — is one of these; a photo row keeps it as ISO 8601 text
/// (`first_seen`, `updated`, `last_synced`), a fetched area as seconds (`fetched_at`), each
/// written from here.
public struct IndexTime: Hashable, Comparable, Sendable {
  public var seconds: Int

  public init(seconds: Int) { self.seconds = seconds }

  /// `date`, to the second below.
  public init(_ date: Date) { seconds = Int(date.timeIntervalSince1970.rounded(.down)) }

  public static func now() -> IndexTime { IndexTime(Date()) }

  /// The instant a text column holds (`2024-02-29T23:59:59Z`, or with an offset); nil for text
  /// that is no instant.
  public init?(iso8601 text: String) {
    guard let instant = CaptureDate(iso8601: text)?.instant else { return nil }
    seconds = instant
  }

  /// As text columns keep it: `2024-02-29T23:59:59Z`.
  public var iso8601: String { CaptureDate(secondsSinceEpoch: seconds, utcOffsetMinutes: 0).iso8601 }

  /// This instant less `interval` seconds (a fetch's maximum age), saturating at the ends.
  public func minus(_ interval: TimeInterval) -> IndexTime {
    guard interval.isFinite, let whole = Int(exactly: interval.rounded(.up)) else {
      return IndexTime(seconds: interval > 0 ? .min : seconds)
    }
    let (earlier, overflow) = seconds.subtractingReportingOverflow(whole)
    return IndexTime(seconds: overflow ? (whole > 0 ? .min : .max) : earlier)
  }

  public static func < (a: IndexTime, b: IndexTime) -> Bool { a.seconds < b.seconds }
}
