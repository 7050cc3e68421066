/// A period named the way people write dates: a year `2024`, a month `2024-05`, a day
/// `2024-05-03`, or a date-time `2024-05-03T14:30` / `2024-05-03T14:30:15`, with or without an
/// offset (`Z`, `+09:00`). It covers everything it names: `2024-05` is all of May.
///
/// Without an offset the period is wall-clock time, compared with each photo's own local time
/// (a photo taken at 23:30 on 3 May in Tokyo is on 3 May, whatever the zone of the machine
/// asking). With an offset the period is a span of instants.
public struct TimeBound: Hashable, Sendable, CustomStringConvertible {
  /// The period's start and end (exclusive), in wall-clock seconds since 1970 (as if UTC).
  public var start: Int64
  public var end: Int64
  /// Minutes east of UTC when the text named an offset: the period is then instants.
  public var offsetMinutes: Int?
  /// The text it was read from.
  public var description: String

  /// Reads `text`; a failure says what form was expected.
  public init(_ text: String) throws(InputParser.Failure) {
    let t = text.trimmingSpaces
    let expected =
      "'\(text)' is not a date; expected a year (2024), a month (2024-05), a day (2024-05-03) or a date-time "
      + "(2024-05-03T14:30, 2024-05-03T14:30:00+09:00)"
    var body = Substring(t)
    var offset: Int?
    if body.hasSuffix("Z") || body.hasSuffix("z") {
      offset = 0
      body = body.dropLast()
    } else if body.count > 10, let sign = body.lastIndex(where: { $0 == "+" || $0 == "-" }),
      body.distance(from: body.startIndex, to: sign) >= 13
    {
      guard let o = CaptureDate.parseOffset(String(body[sign...])) else { throw InputParser.Failure(expected) }
      offset = o
      body = body[..<sign]
    }
    let dateAndTime = body.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
    let dateParts = dateAndTime[0].split(separator: "-", omittingEmptySubsequences: false)
    let timeParts = dateAndTime.count > 1 ? dateAndTime[1].split(separator: ":", omittingEmptySubsequences: false) : []
    guard (1...3).contains(dateParts.count),
      dateAndTime.count == 1 || (dateParts.count == 3 && (2...3).contains(timeParts.count)),
      offset == nil || !timeParts.isEmpty,
      dateParts[0].count == 4, dateParts.dropFirst().allSatisfy({ $0.count == 2 }),
      timeParts.allSatisfy({ $0.count == 2 })
    else { throw InputParser.Failure(expected) }
    let fields = dateParts + timeParts
    guard fields.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else {
      throw InputParser.Failure(expected)
    }
    let n = fields.compactMap { Int($0) }
    let year = n[0]
    let month = n.count > 1 ? n[1] : 1
    let day = n.count > 2 ? n[2] : 1
    let hour = n.count > 3 ? n[3] : 0
    let minute = n.count > 4 ? n[4] : 0
    let second = n.count > 5 ? n[5] : 0
    let first = CaptureDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard first.isValid, second < 60 else { throw InputParser.Failure("'\(text)' is not a real date or time") }
    let startSeconds = Int64(first.localSecondsSinceEpoch)
    let length: Int64
    switch n.count {
    case 1: length = Int64(CaptureDate(year: year + 1, month: 1, day: 1).localSecondsSinceEpoch) - startSeconds
    case 2:
      let next =
        month == 12 ? CaptureDate(year: year + 1, month: 1, day: 1) : CaptureDate(year: year, month: month + 1, day: 1)
      length = Int64(next.localSecondsSinceEpoch) - startSeconds
    case 3: length = 86_400
    case 5: length = 60
    default: length = 1
    }
    start = startSeconds
    end = startSeconds + length
    offsetMinutes = offset
    description = t
  }

  /// A whole calendar day in local time (`--on`).
  public static func day(_ text: String) throws(InputParser.Failure) -> TimeBound {
    let bound = try TimeBound(text)
    guard bound.end - bound.start == 86_400, bound.offsetMinutes == nil else {
      throw InputParser.Failure("'\(text)' is not a day; expected YYYY-MM-DD such as 2024-05-03")
    }
    return bound
  }
}

/// Which capture times a query takes: on or after `since`'s period starts, and before
/// `until`'s period ends (both ends inclusive of what they name). Photos without a capture
/// time never match.
public struct TimeRange: Hashable, Sendable {
  public var since: TimeBound?
  public var until: TimeBound?

  public init(since: TimeBound? = nil, until: TimeBound? = nil) {
    self.since = since
    self.until = until
  }

  /// One calendar day, in each photo's local time.
  public init(on day: TimeBound) { self.init(since: day, until: day) }

  /// Why `since`, `until` and `on` cannot go together.
  public enum Conflict: Error, Equatable, Sendable {
    /// `on` names a whole day: it takes neither `since` nor `until`.
    case dayWithBounds
    /// `since` starts after `until` ends: no photo can match.
    case sinceAfterUntil(TimeBound, TimeBound)
  }

  /// The range a query's `since`, `until` and `on` name together; nil when none is given.
  public static func named(since: TimeBound?, until: TimeBound?, on day: TimeBound?) throws(Conflict) -> TimeRange? {
    if let day {
      guard since == nil, until == nil else { throw .dayWithBounds }
      return TimeRange(on: day)
    }
    guard since != nil || until != nil else { return nil }
    let range = TimeRange(since: since, until: until)
    if range.isEmpty, let since, let until { throw .sinceAfterUntil(since, until) }
    return range
  }

  /// Whether a photo taken at `instant` (UTC seconds; nil for a floating time) and `local`
  /// (its wall-clock seconds; nil when it has no capture time) is inside. A bound with an
  /// offset compares instants, and a floating time as the wall-clock time it is.
  @inlinable
  public func matches(instant: Int64?, local: Int64?) -> Bool {
    guard let local else { return false }
    if let since {
      if let offset = since.offsetMinutes, let instant {
        if instant < since.start - Int64(offset) * 60 { return false }
      } else if local < since.start {
        return false
      }
    }
    if let until {
      if let offset = until.offsetMinutes, let instant {
        if instant >= until.end - Int64(offset) * 60 { return false }
      } else if local >= until.end {
        return false
      }
    }
    return true
  }

  /// `matches` for a photo's capture time.
  @inlinable
  public func matches(_ takenAt: CaptureDate?) -> Bool {
    guard let takenAt else { return false }
    return matches(instant: takenAt.instant.map(Int64.init), local: Int64(takenAt.localSecondsSinceEpoch))
  }

  /// Whether the range contains no time at all (`since` after `until`).
  public var isEmpty: Bool {
    guard let since, let until else { return false }
    let from = since.start - Int64(since.offsetMinutes ?? 0) * 60
    let to = until.end - Int64(until.offsetMinutes ?? 0) * 60
    return from >= to && since.offsetMinutes != nil && until.offsetMinutes != nil
      || since.offsetMinutes == nil && until.offsetMinutes == nil && since.start >= until.end
  }
}
