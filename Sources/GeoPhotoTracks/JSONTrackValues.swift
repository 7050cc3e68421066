import GeoPhotoCore

#if canImport(Glibc)
  import Glibc
#endif

/// Member names a JSON reader knows, found from a key's bytes without making a `String` of it:
/// only the names of the key's length are compared.
struct JSONKeyTable<Key: Sendable>: Sendable {
  private var byLength: [[(name: [UInt8], key: Key)]]

  init(_ names: [(String, Key)]) {
    let longest = names.map(\.0.utf8.count).max() ?? 0
    byLength = Array(repeating: [], count: longest + 1)
    for (name, key) in names { byLength[name.utf8.count].append((Array(name.utf8), key)) }
  }

  func callAsFunction(_ text: UnsafeBufferPointer<UInt8>) -> Key? {
    guard text.count < byLength.count, let start = text.baseAddress else { return nil }
    for candidate in byLength[text.count] {
      let same = candidate.name.withUnsafeBufferPointer { name in
        name.baseAddress.map { memcmp($0, start, text.count) == 0 } ?? false
      }
      if same { return candidate.key }
    }
    return nil
  }
}

/// Values as location histories and GeoJSON write them, read from the bytes of a JSON string
/// or number (Google's on-device exports write numbers as strings, so both are accepted).
enum JSONValue {
  /// An integer of at most 18 digits, with an optional minus sign; nil for anything else.
  static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
    var digits = text[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.count <= 18 else { return nil }
    var value: Int64 = 0
    for byte in digits {
      guard byte >= 0x30, byte <= 0x39 else { return nil }
      value = value * 10 + Int64(byte - 0x30)
    }
    return negative ? -value : value
  }

  /// A finite number (an integer is read exactly when it has at most 18 digits).
  static func number(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    if let value = integer(text) { return Double(value) }
    return DecimalNumber.finite(text)
  }

  /// Degrees × 10⁷ (`latitudeE7`) as degrees.
  static func degreesE7(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    if let value = integer(text) { return Double(value) / 1e7 }
    return number(text).map { $0 / 1e7 }
  }

  /// An ISO 8601 instant, read by `TrackTime`.
  static func time(_ text: UnsafeBufferPointer<UInt8>) -> TrackTime? { TrackTime(utf8: text) }

  /// The earliest and latest instants geophoto takes from a track: the years 1800 to 2200, as
  /// `TrackTime` reads them.
  static let instants: ClosedRange<Double> = -5_364_662_400...7_289_654_399.999

  /// Milliseconds since 1970 (`timestampMs`, a string of digits) as seconds.
  static func milliseconds(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    guard let value = integer(text) else { return nil }
    let seconds = Double(value) / 1_000
    return instants.contains(seconds) ? seconds : nil
  }

  /// A position written as text: `"38.7110200°, -9.1425100°"` (Android) or
  /// `"geo:38.711020,-9.142510"` (iOS); latitude first.
  static func position(_ text: UnsafeBufferPointer<UInt8>) -> (latitude: Double, longitude: Double)? {
    guard text.count <= 128 else { return nil }
    var body = Substring(String(decoding: text, as: UTF8.self))
    if body.hasPrefix("geo:") { body = body.dropFirst(4).prefix { $0 != ";" } }
    let parts = body.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let latitude = degrees(parts[0]), let longitude = degrees(parts[1]) else { return nil }
    return (latitude, longitude)
  }

  private static func degrees(_ text: Substring) -> Double? {
    var body = text.drop { $0 == " " }
    while body.last == " " { body = body.dropLast() }
    if body.last == "°" { body = body.dropLast() }
    guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { return nil }
    return Double(body).flatMap { $0.isFinite ? $0 : nil }
  }
}

/// The fixes and visits a reader finds, kept as a retention filter says, and the counts its
/// notes report.
///
/// With a filter, a fix is kept when the filter keeps its instant, and so are the fixes just
/// before and after a kept one in the file (the ones a timeline needs to see a gap or an end);
/// a visit is kept when the filter keeps its span.
struct TrackCollector {
  var keeping: ((ClosedRange<Double>) -> Bool)?
  var fixes: [Fix] = []
  var visits: [Visit] = []
  /// Usable fixes and visits found, kept or not.
  var fixesFound = 0
  var visitsFound = 0
  /// Entries with a position or time that could not be used.
  var skipped = 0
  /// Fixes whose accuracy radius was over `maximumAccuracy`.
  var inaccurate = 0
  /// Times with no zone, read as UTC.
  var unzoned = 0
  private var held: Fix?
  private var keepNext = false

  /// Fixes less accurate than this radius (metres) are dropped.
  static let maximumAccuracy = 200.0

  init(keeping: ((ClosedRange<Double>) -> Bool)?) { self.keeping = keeping }

  /// A position and time from the file: kept when both are usable.
  mutating func fix(
    latitude: Double?, longitude: Double?, time: Double?, accuracy: Double? = nil, altitude: Double? = nil
  ) {
    guard let latitude, let longitude, let time, JSONValue.instants.contains(time),
      let coordinate = Coordinate(validatingLatitude: latitude, longitude: longitude),
      coordinate.isPlausiblePhotoLocation
    else {
      skipped += 1
      return
    }
    if let accuracy, !(accuracy <= Self.maximumAccuracy) {
      inaccurate += 1
      return
    }
    add(Fix(time: time, coordinate: coordinate, altitude: altitude.flatMap { $0.isFinite ? $0 : nil }))
  }

  mutating func add(_ fix: Fix) {
    fixesFound += 1
    guard let keeping else { return fixes.append(fix) }
    if keeping(fix.time...fix.time) {
      if let before = held { fixes.append(before) }
      held = nil
      fixes.append(fix)
      keepNext = true
    } else if keepNext {
      fixes.append(fix)
      keepNext = false
    } else {
      held = fix
    }
  }

  /// A stay at a place over `start…end`: kept when all of it is usable.
  mutating func visit(latitude: Double?, longitude: Double?, start: Double?, end: Double?) {
    guard let latitude, let longitude, let start, let end, JSONValue.instants.contains(start),
      JSONValue.instants.contains(end), start <= end,
      let coordinate = Coordinate(validatingLatitude: latitude, longitude: longitude),
      coordinate.isPlausiblePhotoLocation
    else {
      skipped += 1
      return
    }
    visitsFound += 1
    if keeping?(start...end) ?? true { visits.append(Visit(start: start, end: end, coordinate: coordinate)) }
  }

  /// The notes for the report, naming what was skipped as `entry` (one) or `entries`.
  func notes(entry: String, entries: String) -> [String] {
    var notes: [String] = []
    if skipped > 0 {
      notes.append("\(skipped) \(skipped == 1 ? entry : entries) without a usable position and time skipped")
    }
    if inaccurate > 0 {
      notes.append(
        "\(inaccurate) \(inaccurate == 1 ? "position" : "positions") less accurate than \(Int(Self.maximumAccuracy)) m dropped"
      )
    }
    if unzoned > 0 { notes.append("\(unzoned) \(unzoned == 1 ? "time" : "times") without a zone read as UTC") }
    if keeping != nil {
      notes.append(
        "kept \(fixes.count) of \(fixesFound) fixes"
          + (visitsFound > 0 ? " and \(visits.count) of \(visitsFound) visits" : "")
          + " (the others far from the times asked for)")
    }
    return notes
  }
}

/// A reader's state over one JSON file: the stream's events in, contents out.
protocol JSONTrackParser {
  var name: String { get }
  /// Set when the parser stopped the stream, with the reason.
  var failure: TrackReadError? { get }
  mutating func handle(_ event: JSONEvent, _ text: UnsafeBufferPointer<UInt8>, _ depth: Int) -> Bool
  func contents() throws(TrackReadError) -> TrackContents
}

/// Runs `parser` over the events `feed` streams to the handler it is given. The parser lives
/// behind a pointer for the reading, so its state changes at each event without exclusivity
/// checks (there is one caller, the stream, and it never reenters).
func readJSONTrack<Parser: JSONTrackParser>(
  _ parser: Parser, _ feed: (@escaping JSONStream.Handler) throws(JSONStreamError) -> Void
) throws(TrackReadError) -> TrackContents {
  let state = UnsafeMutablePointer<Parser>.allocate(capacity: 1)
  state.initialize(to: parser)
  defer {
    state.deinitialize(count: 1)
    state.deallocate()
  }
  do {
    try feed { state.pointee.handle($0, $1, $2) }
  } catch {
    throw state.pointee.failure ?? TrackReadError(state.pointee.name, byte: error.offset, error.message)
  }
  return try state.pointee.contents()
}
