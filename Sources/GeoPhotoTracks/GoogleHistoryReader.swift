import GeoPhotoCore

/// Google's location history, in each shape Google has exported it, read as it streams by:
/// memory holds one record or segment at a time, never the file (a `Records.json` can be
/// several gigabytes).
///
/// - `Records.json` (Takeout, `{"locations":[…]}`): each record's `latitudeE7`/`longitudeE7`
///   at its `timestamp` (or the older `timestampMs`), taken at the record's own level only (a
///   nested `activity[].timestamp` is another instant). Records whose `accuracy` radius is over
///   200 m are dropped. The altitude is above the ellipsoid, not the sea: not used.
/// - Semantic Location History (Takeout, monthly `{"timelineObjects":[…]}`): a `placeVisit`
///   is a visit at its `location` (or `centerLatE7`/`centerLngE7`, or the first of
///   `otherCandidateLocations` when the location is empty) over its `duration`; an
///   `activitySegment` gives its `startLocation` at the start and its `endLocation` at the end;
///   `simplifiedRawPath.points` are timed fixes (accuracy filtered as records are).
///   `waypointPath` (no times) and `childVisits` are not used.
/// - The Android on-device export (`{"semanticSegments":[…],"rawSignals":[…],…}`): segments'
///   visits (`visit.topCandidate.placeLocation.latLng`) over `startTime`…`endTime`, activities'
///   `start`/`end` at those instants, `timelinePath` points at their `time`; `rawSignals`
///   positions (`LatLng`, accuracy filtered as above). `frequentPlaces` have no time: not used.
/// - The iOS on-device export (a bare array of segments): as Android's, with positions as
///   `geo:` strings and path points at `durationMinutesOffsetFromStartTime` minutes after the
///   segment's start. Numbers may be strings.
/// - Timeline Edits (`{"timelineEdits":[…]}`) are recognised and refused.
///
/// Positions outside ±90°/±180° or exactly at 0°, 0°, and instants outside the years 1800 to
/// 2200, are skipped and counted in the notes, as are times without a zone (read as UTC); a
/// file with no usable position and time is an error. Errors in the JSON name the byte.
public enum GoogleHistoryReader {
  public enum Shape: String, Sendable, CaseIterable {
    case records, semantic, androidTimeline, iosTimeline, timelineEdits
  }

  /// The shape of a Google location history file, from its first bytes (4 KiB is plenty);
  /// nil when they are not one.
  public static func sniff(head: [UInt8]) -> Shape? {
    var shape: Shape?
    var topArray = false
    try? JSONStream.read(head) { event, text, depth in
      switch event {
      case .startArray where depth == 1: topArray = true
      case .key where depth == 1 && !topArray:
        shape = GoogleHistoryParser.topKeys(text).flatMap(GoogleHistoryParser.shape(of:))
      case .key where depth == 2 && topArray:
        if let key = GoogleHistoryParser.keys(text), GoogleHistoryParser.segmentKeys.contains(key) {
          shape = .iosTimeline
        } else {
          return false
        }
      case .startMap, .endMap, .endArray, .key: break
      default: if depth <= 1 { return false }
      }
      return shape == nil
    }
    return shape
  }

  /// Reads the file at `path` (`name` in messages). `keeping`, when given, is asked about each
  /// fix's instant and each visit's span: only what it keeps is returned (with the fixes just
  /// before and after a kept one), so a history of years costs the memory of the hours asked for.
  public static func read(path: String, name: String, keeping: ((ClosedRange<Double>) -> Bool)? = nil)
    throws(TrackReadError) -> TrackContents
  {
    try readJSONTrack(GoogleHistoryParser(name: name, keeping: keeping)) { (handler) throws(JSONStreamError) in
      try JSONStream.read(path: path, handler)
    }
  }

  /// Reads a history from its bytes, fed to the parser in chunks of `chunkSize`.
  public static func read(
    _ bytes: [UInt8], name: String, keeping: ((ClosedRange<Double>) -> Bool)? = nil, chunkSize: Int = 256 << 10
  ) throws(TrackReadError) -> TrackContents {
    try readJSONTrack(GoogleHistoryParser(name: name, keeping: keeping)) { (handler) throws(JSONStreamError) in
      try JSONStream.read(bytes, chunkSize: chunkSize, handler)
    }
  }
}

/// The member names the readers look for. Each case is spelled as the key it stands for.
enum GoogleKey: UInt8, CaseIterable, Sendable {
  /// Any other name, and an array's elements.
  case other, element
  // Top level.
  case locations, timelineObjects, semanticSegments, rawSignals, userLocationProfile, timelineEdits
  // Records, and positions in the semantic history.
  case latitudeE7, longitudeE7, latE7, lngE7, timestamp, timestampMs, accuracy, accuracyMeters
  // The semantic history.
  case placeVisit, activitySegment, location, centerLatE7, centerLngE7, otherCandidateLocations, duration
  case startTimestamp, endTimestamp, startTimestampMs, endTimestampMs, startLocation, endLocation
  case simplifiedRawPath, points
  // On-device exports.
  case startTime, endTime, visit, activity, timelinePath, timelineMemory, topCandidate, placeLocation, latLng
  case start, end, point, time, durationMinutesOffsetFromStartTime, position
  /// `LatLng`, as `rawSignals[].position` spells it.
  case capitalLatLng

  var name: String { self == .capitalLatLng ? "LatLng" : "\(self)" }
}

/// The state of one reading: where the parser is (the key at each depth) and the record or
/// segment being gathered. The handler's helpers are all `mutating`: calling a non-mutating one
/// from it copies the whole parser at each event.
struct GoogleHistoryParser: JSONTrackParser {
  static let keys = JSONKeyTable(
    GoogleKey.allCases.filter { $0 != .other && $0 != .element }.map { ($0.name, $0) })
  static func topKeys(_ text: UnsafeBufferPointer<UInt8>) -> GoogleKey? { keys(text) }

  static func shape(of key: GoogleKey) -> GoogleHistoryReader.Shape? {
    switch key {
    case .locations: .records
    case .timelineObjects: .semantic
    case .semanticSegments, .rawSignals, .userLocationProfile: .androidTimeline
    case .timelineEdits: .timelineEdits
    default: nil
    }
  }

  /// Keys an on-device segment starts with.
  static let segmentKeys: Set<GoogleKey> = [.startTime, .endTime, .visit, .activity, .timelinePath, .timelineMemory]

  /// Path points held for a segment whose start is not known yet, at most.
  static let maximumHeldPoints = 100_000

  /// A position and instant being gathered from one record, point or place.
  struct Sample {
    var latitude: Double?
    var longitude: Double?
    var time: Double?
    var accuracy: Double?
    var minutes: Double?
    /// Something of a position was given (so an unusable one is counted).
    var given = false
  }

  /// A semantic segment or timeline object being gathered.
  struct Segment {
    var start: Double?
    var end: Double?
    var place = Sample()
    var center = Sample()
    var candidate: Sample?
    var from = Sample()
    var to = Sample()
    var isVisit = false
    /// iOS path points read before the segment's start.
    var waiting: [Sample] = []
  }

  let name: String
  var collector: TrackCollector
  var failure: TrackReadError?
  var shape: GoogleHistoryReader.Shape?
  private var path = [GoogleKey](repeating: .other, count: JSONStream.maximumDepth + 2)
  private var sample = Sample()
  private var inner = Sample()
  private var segment = Segment()

  init(name: String, keeping: ((ClosedRange<Double>) -> Bool)?) {
    self.name = name
    collector = TrackCollector(keeping: keeping)
  }

  func contents() throws(TrackReadError) -> TrackContents {
    guard let shape else {
      throw TrackReadError(
        name,
        "not a Google location history (no locations, timelineObjects or semanticSegments at the top, "
          + "nor an array of timeline segments)")
    }
    guard collector.fixesFound + collector.visitsFound > 0 else {
      var why: [String] = []
      if collector.skipped > 0 { why.append("\(collector.skipped) unusable") }
      if collector.inaccurate > 0 { why.append("\(collector.inaccurate) less accurate than 200 m") }
      throw TrackReadError(
        name,
        "no usable position and time in the \(Self.describe(shape))"
          + (why.isEmpty ? "" : " (\(why.joined(separator: ", ")))"))
    }
    var notes = collector.notes(
      entry: shape == .records ? "record" : "entry", entries: shape == .records ? "records" : "entries")
    notes.insert("read as \(Self.describe(shape))", at: 0)
    return TrackContents(fixes: collector.fixes, visits: collector.visits, notes: notes)
  }

  static func describe(_ shape: GoogleHistoryReader.Shape) -> String {
    switch shape {
    case .records: "Google location history records (Records.json)"
    case .semantic: "Google Semantic Location History"
    case .androidTimeline: "Google Timeline export (Android)"
    case .iosTimeline: "Google Timeline export (iOS)"
    case .timelineEdits: "Google Timeline Edits"
    }
  }

  /// The stream's handler.
  mutating func handle(_ event: JSONEvent, _ text: UnsafeBufferPointer<UInt8>, _ depth: Int) -> Bool {
    switch event {
    case .key:
      let key = Self.keys(text) ?? .other
      path[depth] = key
      if depth == 1 { return top(key) }
      // iOS: a bare array of segments.
      if depth == 2 && path[1] == .element && shape == nil && Self.segmentKeys.contains(key) { shape = .iosTimeline }
    case .startMap:
      path[depth] = .other
      opened(depth)
    case .startArray:
      path[depth] = .element
    case .endMap:
      closed(depth)
    case .string, .number:
      if depth >= 2 { value(text, depth, isString: event == .string) }
    case .endArray, .bool, .null:
      break
    }
    return true
  }

  private mutating func top(_ key: GoogleKey) -> Bool {
    guard let found = Self.shape(of: key) else { return true }
    if found == .timelineEdits {
      failure = TrackReadError(
        name,
        "Timeline Edits (timelineEdits) are Google's record of changes made by hand, not a location history "
          + "geophoto reads; use Records.json, the Semantic Location History or a Timeline export")
      return false
    }
    if shape == nil { shape = found }
    return true
  }

  /// Where the parser is, read from the keys at each depth: the kinds of gathering it does.
  private enum Place {
    case record, semantic
    case segment(Int)
    case signal
  }

  private mutating func place(_ depth: Int) -> Place? {
    switch path[1] {
    case .locations where depth >= 3 && path[2] == .element: .record
    case .timelineObjects where depth >= 3 && path[2] == .element: .semantic
    case .semanticSegments where depth >= 3 && path[2] == .element: .segment(3)
    case .element where depth >= 2: .segment(2)
    case .rawSignals where depth >= 4 && path[2] == .element && path[3] == .position: .signal
    default: nil
    }
  }

  private mutating func opened(_ depth: Int) {
    switch place(depth) {
    case .record where depth == 3: sample = Sample()
    case .signal where depth == 4: sample = Sample()
    case .semantic:
      if depth == 3 {
        segment = Segment()
      } else if depth == 4 && path[3] == .placeVisit {
        segment.isVisit = true
      } else if isRawPoint(depth) || (depth == 6 && path[3] == .placeVisit && path[4] == .otherCandidateLocations) {
        inner = Sample()
      }
    case .segment(let s):
      if depth == s {
        segment = Segment()
      } else if depth == s + 2 && path[s] == .timelinePath {
        inner = Sample()
      }
    default: break
    }
  }

  private mutating func closed(_ depth: Int) {
    switch place(depth) {
    case .record where depth == 3:
      collector.fix(
        latitude: sample.latitude, longitude: sample.longitude, time: sample.time, accuracy: sample.accuracy)
    case .signal where depth == 4:
      collector.fix(
        latitude: sample.latitude, longitude: sample.longitude, time: sample.time, accuracy: sample.accuracy)
    case .semantic:
      if depth == 3 {
        finishSemantic()
      } else if isRawPoint(depth) {
        collector.fix(latitude: inner.latitude, longitude: inner.longitude, time: inner.time, accuracy: inner.accuracy)
      } else if depth == 6 && path[3] == .placeVisit && path[4] == .otherCandidateLocations && segment.candidate == nil
      {
        segment.candidate = inner
      }
    case .segment(let s):
      if depth == s {
        finishSegment()
      } else if depth == s + 2 && path[s] == .timelinePath {
        pathPoint(inner)
      }
    default: break
    }
  }

  /// `simplifiedRawPath.points[]` of a place visit or an activity segment.
  private mutating func isRawPoint(_ depth: Int) -> Bool {
    depth == 7 && (path[3] == .placeVisit || path[3] == .activitySegment) && path[4] == .simplifiedRawPath
      && path[5] == .points
  }

  private mutating func value(_ text: UnsafeBufferPointer<UInt8>, _ depth: Int, isString: Bool) {
    let key = path[depth]
    switch place(depth) {
    case .record where depth == 3, .signal where depth == 4:
      Self.read(key, text, into: &sample, unzoned: &collector.unzoned)
    case .semantic:
      semanticValue(key, text, depth)
    case .segment(let s):
      segmentValue(key, text, depth, s, isString: isString)
    default: break
    }
  }

  /// A record's, a raw signal's or a path point's own member.
  private static func read(
    _ key: GoogleKey, _ text: UnsafeBufferPointer<UInt8>, into sample: inout Sample, unzoned: inout Int
  ) {
    switch key {
    case .latitudeE7, .latE7:
      sample.latitude = JSONValue.degreesE7(text) ?? .nan
      sample.given = true
    case .longitudeE7, .lngE7:
      sample.longitude = JSONValue.degreesE7(text) ?? .nan
      sample.given = true
    case .capitalLatLng, .latLng, .point:
      let position = JSONValue.position(text)
      sample.latitude = position?.latitude ?? .nan
      sample.longitude = position?.longitude ?? .nan
      sample.given = true
    case .timestamp, .time:
      sample.time = time(text, unzoned: &unzoned)
    case .timestampMs:
      sample.time = JSONValue.milliseconds(text) ?? .nan
    case .accuracy, .accuracyMeters:
      sample.accuracy = JSONValue.number(text) ?? .infinity
    case .durationMinutesOffsetFromStartTime:
      sample.minutes = JSONValue.number(text) ?? .nan
    default: break
    }
  }

  private mutating func time(_ text: UnsafeBufferPointer<UInt8>) -> Double {
    Self.time(text, unzoned: &collector.unzoned)
  }

  /// An instant, NaN when it is none; one read as UTC for want of a zone is counted.
  private static func time(_ text: UnsafeBufferPointer<UInt8>, unzoned: inout Int) -> Double {
    guard let time = JSONValue.time(text) else { return .nan }
    if !time.zoned { unzoned += 1 }
    return time.seconds
  }

  private mutating func semanticValue(_ key: GoogleKey, _ text: UnsafeBufferPointer<UInt8>, _ depth: Int) {
    guard path[3] == .placeVisit || path[3] == .activitySegment else { return }
    let visit = path[3] == .placeVisit
    switch depth {
    case 4 where visit:
      if key == .centerLatE7 {
        segment.center.latitude = JSONValue.degreesE7(text) ?? .nan
      } else if key == .centerLngE7 {
        segment.center.longitude = JSONValue.degreesE7(text) ?? .nan
      }
    case 5:
      switch path[4] {
      case .duration:
        switch key {
        case .startTimestamp: segment.start = time(text)
        case .endTimestamp: segment.end = time(text)
        case .startTimestampMs: segment.start = JSONValue.milliseconds(text) ?? .nan
        case .endTimestampMs: segment.end = JSONValue.milliseconds(text) ?? .nan
        default: break
        }
      case .location where visit: Self.read(key, text, into: &segment.place, unzoned: &collector.unzoned)
      case .startLocation where !visit: Self.read(key, text, into: &segment.from, unzoned: &collector.unzoned)
      case .endLocation where !visit: Self.read(key, text, into: &segment.to, unzoned: &collector.unzoned)
      default: break
      }
    case 6 where visit && path[4] == .otherCandidateLocations:
      Self.read(key, text, into: &inner, unzoned: &collector.unzoned)
    case 7 where isRawPoint(7):
      Self.read(key, text, into: &inner, unzoned: &collector.unzoned)
    default: break
    }
  }

  private mutating func segmentValue(
    _ key: GoogleKey, _ text: UnsafeBufferPointer<UInt8>, _ depth: Int, _ s: Int, isString: Bool
  ) {
    switch depth - s {
    case 0:
      if key == .startTime {
        segment.start = time(text)
        if !segment.waiting.isEmpty {
          let waiting = segment.waiting
          segment.waiting = []
          for point in waiting { pathPoint(point) }
        }
      } else if key == .endTime {
        segment.end = time(text)
      }
    case 1 where path[s] == .activity && isString:
      // iOS: `"start": "geo:…"`.
      if key == .start { Self.read(.point, text, into: &segment.from, unzoned: &collector.unzoned) }
      if key == .end { Self.read(.point, text, into: &segment.to, unzoned: &collector.unzoned) }
    case 2 where path[s] == .visit && path[s + 1] == .topCandidate && key == .placeLocation && isString:
      // iOS: `"placeLocation": "geo:…"`.
      segment.isVisit = true
      Self.read(.point, text, into: &segment.place, unzoned: &collector.unzoned)
    case 2 where path[s] == .activity && key == .latLng:
      if path[s + 1] == .start { Self.read(.point, text, into: &segment.from, unzoned: &collector.unzoned) }
      if path[s + 1] == .end { Self.read(.point, text, into: &segment.to, unzoned: &collector.unzoned) }
    case 2 where path[s] == .timelinePath:
      Self.read(key, text, into: &inner, unzoned: &collector.unzoned)
    case 3 where path[s] == .visit && path[s + 1] == .topCandidate && path[s + 2] == .placeLocation && key == .latLng:
      segment.isVisit = true
      Self.read(.point, text, into: &segment.place, unzoned: &collector.unzoned)
    default: break
    }
  }

  /// A `timelinePath` point: at its own `time` (Android), or minutes after the segment's start
  /// (iOS), held until the start is read when it comes later in the segment.
  private mutating func pathPoint(_ point: Sample) {
    guard point.given || point.time != nil || point.minutes != nil else { return }
    if point.time == nil, let minutes = point.minutes {
      guard let start = segment.start else {
        if segment.waiting.count < Self.maximumHeldPoints {
          segment.waiting.append(point)
        } else {
          collector.skipped += 1
        }
        return
      }
      collector.fix(latitude: point.latitude, longitude: point.longitude, time: start + minutes * 60)
    } else {
      collector.fix(latitude: point.latitude, longitude: point.longitude, time: point.time)
    }
  }

  private mutating func finishSemantic() {
    if segment.isVisit {
      let place =
        [segment.place, segment.center, segment.candidate ?? Sample()].first {
          $0.latitude != nil && $0.longitude != nil
        } ?? Sample()
      collector.visit(latitude: place.latitude, longitude: place.longitude, start: segment.start, end: segment.end)
    } else {
      finishActivity()
    }
  }

  private mutating func finishSegment() {
    // Path points waiting for a start that never came.
    collector.skipped += segment.waiting.count
    if segment.isVisit {
      collector.visit(
        latitude: segment.place.latitude, longitude: segment.place.longitude, start: segment.start, end: segment.end)
    }
    finishActivity()
  }

  private mutating func finishActivity() {
    if segment.from.given {
      collector.fix(latitude: segment.from.latitude, longitude: segment.from.longitude, time: segment.start)
    }
    if segment.to.given {
      collector.fix(latitude: segment.to.latitude, longitude: segment.to.longitude, time: segment.end)
    }
  }
}
