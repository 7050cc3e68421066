public import Foundation

/// Google location history files, in each shape Google has exported one, written from given
/// numbers (positions in degrees × 10⁷, instants in milliseconds since 1970), so tests know
/// what a reader must find without reading the file themselves. Written as Google writes them,
/// with the members a reader must not take (nested activity timestamps, untimed waypoints,
/// child visits, Wi-Fi scans, frequent places) beside the ones it must. A `Records.json` is
/// written as it goes, so a benchmark's gigabyte never sits in memory.
public enum GoogleHistoryFixture {
  /// A position at an instant: a record, a raw signal or a path point.
  public struct Point: Equatable, Sendable {
    public var milliseconds: Int64
    public var latitudeE7: Int
    public var longitudeE7: Int
    /// The accuracy radius in metres, when the file gives one.
    public var accuracy: Int?

    public init(milliseconds: Int64, latitudeE7: Int, longitudeE7: Int, accuracy: Int? = nil) {
      self.milliseconds = milliseconds
      self.latitudeE7 = latitudeE7
      self.longitudeE7 = longitudeE7
      self.accuracy = accuracy
    }
  }

  /// A stay at one place.
  public struct Stay: Equatable, Sendable {
    public var startMilliseconds: Int64
    public var endMilliseconds: Int64
    public var latitudeE7: Int
    public var longitudeE7: Int

    public init(startMilliseconds: Int64, endMilliseconds: Int64, latitudeE7: Int, longitudeE7: Int) {
      self.startMilliseconds = startMilliseconds
      self.endMilliseconds = endMilliseconds
      self.latitudeE7 = latitudeE7
      self.longitudeE7 = longitudeE7
    }
  }

  /// A journey from `start` to `end` (their instants are the activity's), through `path`.
  public struct Move: Equatable, Sendable {
    public var start: Point
    public var end: Point
    public var path: [Point]

    public init(start: Point, end: Point, path: [Point] = []) {
      self.start = start
      self.end = end
      self.path = path
    }
  }

  /// How a `Records.json` is written.
  public struct RecordsStyle: Sendable {
    /// One member per line, indented, as Google writes it; else all on one line.
    public var pretty = true
    public var byteOrderMark = false
    /// The older `timestampMs` (a string of milliseconds) instead of `timestamp`.
    public var milliseconds = false
    /// `timestamp` before the coordinates in each record.
    public var timeFirst = false
    /// Each record carries `activity[]` whose own `timestamp` (2.1 s earlier) comes before the
    /// record's, as in Google's files.
    public var nestedActivity = true

    public init(
      pretty: Bool = true, byteOrderMark: Bool = false, milliseconds: Bool = false, timeFirst: Bool = false,
      nestedActivity: Bool = true
    ) {
      self.pretty = pretty
      self.byteOrderMark = byteOrderMark
      self.milliseconds = milliseconds
      self.timeFirst = timeFirst
      self.nestedActivity = nestedActivity
    }
  }

  // MARK: A: Records.json

  /// `{"locations":[…]}`, one record per point.
  public static func records(_ points: [Point], style: RecordsStyle = RecordsStyle()) -> [UInt8] {
    var out = TextOut()
    try? writeRecords(points, style: style, into: &out)
    return out.bytes
  }

  /// Writes `{"locations":[…]}` to `url` as the points come (any sequence: a lazy one for a
  /// file of gigabytes). Returns the bytes written.
  @discardableResult
  public static func writeRecords(_ points: some Sequence<Point>, style: RecordsStyle = RecordsStyle(), to url: URL)
    throws -> Int
  {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var out = TextOut(file: handle)
    try writeRecords(points, style: style, into: &out)
    try out.flush()
    return out.written
  }

  private static func writeRecords(_ points: some Sequence<Point>, style: RecordsStyle, into out: inout TextOut)
    throws
  {
    if style.byteOrderMark { out.bytes += [0xEF, 0xBB, 0xBF] }
    let p = style.pretty
    out.add(p ? "{\n  \"locations\": [" : "{\"locations\":[")
    var first = true
    for point in points {
      if !first { out.add(p ? ", " : ",") }
      first = false
      var members: [(String, String)] = []
      let time =
        style.milliseconds
        ? ("timestampMs", quoted(String(point.milliseconds))) : ("timestamp", quoted(iso(point.milliseconds)))
      if style.timeFirst { members.append(time) }
      members += [("latitudeE7", String(point.latitudeE7)), ("longitudeE7", String(point.longitudeE7))]
      if let accuracy = point.accuracy { members.append(("accuracy", String(accuracy))) }
      members.append(("altitude", "104"))
      members.append(("verticalAccuracy", "3"))
      if style.nestedActivity {
        let nested = iso(point.milliseconds - 2_100)
        members.append(
          (
            "activity",
            p
              ? "[{\n      \"activity\": [{\n        \"type\": \"WALKING\",\n        \"confidence\": 80\n      }],\n"
                + "      \"timestamp\": \"\(nested)\"\n    }]"
              : "[{\"activity\":[{\"type\":\"WALKING\",\"confidence\":80}],\"timestamp\":\"\(nested)\"}]"
          ))
      }
      members += [("source", quoted("GPS")), ("deviceTag", "-184467")]
      if !style.timeFirst { members.append(time) }
      members.append(("platformType", quoted("ANDROID")))
      out.add(p ? "{\n" : "{")
      for (i, (key, value)) in members.enumerated() {
        out.add(p ? "    \"\(key)\": \(value)" : "\"\(key)\":\(value)")
        out.add(i + 1 < members.count ? (p ? ",\n" : ",") : (p ? "\n  }" : "}"))
      }
      try out.flushIfFull()
    }
    out.add(p ? "]\n}\n" : "]}")
  }

  // MARK: B: Semantic Location History

  /// `{"timelineObjects":[…]}`: a `placeVisit` per stay (its place given, by turns, as its
  /// `location`, as `centerLatE7`/`centerLngE7` with an empty location, and as the first of
  /// `otherCandidateLocations` with an empty location), an `activitySegment` per move (path
  /// points as `simplifiedRawPath`, plus untimed `waypointPath` decoys), in time order.
  public static func semantic(stays: [Stay], moves: [Move], milliseconds: Bool = false) -> [UInt8] {
    var objects: [(Int64, String)] = []
    func duration(_ start: Int64, _ end: Int64) -> String {
      milliseconds
        ? "\"duration\": {\n      \"startTimestampMs\": \"\(start)\",\n      \"endTimestampMs\": \"\(end)\"\n    }"
        : "\"duration\": {\n      \"startTimestamp\": \"\(iso(start))\",\n      \"endTimestamp\": \"\(iso(end))\"\n    }"
    }
    func time(_ ms: Int64) -> String {
      milliseconds ? "\"timestampMs\": \"\(ms)\"" : "\"timestamp\": \"\(iso(ms))\""
    }
    for (i, stay) in stays.enumerated() {
      let lat = stay.latitudeE7
      let lon = stay.longitudeE7
      let decoy = "{\"latitudeE7\": \(lat + 4_000), \"longitudeE7\": \(lon - 4_000), \"placeId\": \"ChIJdecoy\"}"
      let location: String
      var extra = ""
      switch i % 3 {
      case 0:
        location =
          "{\n      \"latitudeE7\": \(lat),\n      \"longitudeE7\": \(lon),\n      \"placeId\": \"ChIJplace\(i)\",\n"
          + "      \"address\": \"Rua \(i)\",\n      \"sourceInfo\": {\"deviceTag\": 1978796627}\n    }"
        // A centre apart from the place: the place wins.
        extra = ",\n    \"centerLatE7\": \(lat + 150),\n    \"centerLngE7\": \(lon + 150)"
      case 1:
        location = "{}"
        extra = ",\n    \"otherCandidateLocations\": [\(placeCandidate(lat, lon)), \(decoy)]"
      default:
        location = "{}"
        extra =
          ",\n    \"centerLatE7\": \(lat),\n    \"centerLngE7\": \(lon),\n    \"otherCandidateLocations\": [\(decoy)]"
      }
      let child =
        "{\"location\": \(decoy), \"duration\": {\"startTimestamp\": \"\(iso(stay.startMilliseconds + 60_000))\", "
        + "\"endTimestamp\": \"\(iso(stay.startMilliseconds + 120_000))\"}}"
      objects.append(
        (
          stay.startMilliseconds,
          "{\n  \"placeVisit\": {\n    \"location\": \(location),\n    \(duration(stay.startMilliseconds, stay.endMilliseconds)),\n"
            + "    \"placeConfidence\": \"HIGH_CONFIDENCE\",\n    \"visitConfidence\": 95\(extra),\n"
            + "    \"childVisits\": [\(child)],\n    \"editConfirmationStatus\": \"NOT_CONFIRMED\"\n  }\n}"
        ))
    }
    for move in moves {
      let points = move.path.map { point in
        "{\"latE7\": \(point.latitudeE7), \"lngE7\": \(point.longitudeE7), "
          + (point.accuracy.map { "\"accuracyMeters\": \($0), " } ?? "") + "\(time(point.milliseconds))}"
      }
      let waypoints = [move.start, move.end].map {
        "{\"latE7\": \($0.latitudeE7 + 777), \"lngE7\": \($0.longitudeE7 - 777)}"
      }
      objects.append(
        (
          move.start.milliseconds,
          "{\n  \"activitySegment\": {\n    \"startLocation\": \(e7Place(move.start)),\n"
            + "    \"endLocation\": \(e7Place(move.end)),\n    \(duration(move.start.milliseconds, move.end.milliseconds)),\n"
            + "    \"distance\": 812,\n    \"activityType\": \"WALKING\",\n    \"confidence\": \"HIGH\",\n"
            + "    \"activities\": [{\"activityType\": \"WALKING\", \"probability\": 91.5}],\n"
            + "    \"waypointPath\": {\"waypoints\": [\(waypoints.joined(separator: ", "))], \"source\": \"INFERRED\"},\n"
            + "    \"simplifiedRawPath\": {\"points\": [\(points.joined(separator: ",\n      "))]}\n  }\n}"
        ))
    }
    let body = objects.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ", ")
    return Array("{\n  \"timelineObjects\": [\(body)]\n}\n".utf8)
  }

  private static func placeCandidate(_ lat: Int, _ lon: Int) -> String {
    "{\"latitudeE7\": \(lat), \"longitudeE7\": \(lon), \"placeId\": \"ChIJcandidate\", \"locationConfidence\": 41.2}"
  }

  private static func e7Place(_ point: Point) -> String {
    "{\"latitudeE7\": \(point.latitudeE7), \"longitudeE7\": \(point.longitudeE7), \"sourceInfo\": {\"deviceTag\": 1}}"
  }

  // MARK: C: Android on-device export

  /// `{"semanticSegments":[…],"rawSignals":[…],"userLocationProfile":{…}}`: a visit segment
  /// per stay, an activity segment per move plus a `timelinePath` segment of its path, the
  /// signals as `rawSignals` positions (among Wi-Fi scans and activity records), and the stays'
  /// places again as `frequentPlaces`. Instants carry the local offset `offsetMinutes`.
  public static func androidTimeline(stays: [Stay], moves: [Move], signals: [Point], offsetMinutes: Int = 60)
    -> [UInt8]
  {
    func local(_ ms: Int64) -> String { iso(ms, offsetMinutes: offsetMinutes) }
    func latLng(_ lat: Int, _ lon: Int) -> String { "\(degrees(lat))°, \(degrees(lon))°" }
    let zone =
      "\"startTimeTimezoneUtcOffsetMinutes\": \(offsetMinutes), \"endTimeTimezoneUtcOffsetMinutes\": \(offsetMinutes)"
    var segments: [(Int64, String)] = []
    for stay in stays {
      segments.append(
        (
          stay.startMilliseconds,
          "{\"startTime\": \"\(local(stay.startMilliseconds))\", \"endTime\": \"\(local(stay.endMilliseconds))\", \(zone),\n"
            + "   \"visit\": {\"hierarchyLevel\": 0, \"probability\": 0.81, \"topCandidate\": {\"placeId\": \"ChIJexample\", "
            + "\"semanticType\": \"UNKNOWN\", \"probability\": 0.63, "
            + "\"placeLocation\": {\"latLng\": \"\(latLng(stay.latitudeE7, stay.longitudeE7))\"}}}}"
        ))
    }
    for move in moves {
      segments.append(
        (
          move.start.milliseconds,
          "{\"startTime\": \"\(local(move.start.milliseconds))\", \"endTime\": \"\(local(move.end.milliseconds))\", \(zone),\n"
            + "   \"activity\": {\"start\": {\"latLng\": \"\(latLng(move.start.latitudeE7, move.start.longitudeE7))\"}, "
            + "\"end\": {\"latLng\": \"\(latLng(move.end.latitudeE7, move.end.longitudeE7))\"}, "
            + "\"distanceMeters\": 812.0, \"topCandidate\": {\"type\": \"WALKING\", \"probability\": 0.9}}}"
        ))
      guard !move.path.isEmpty else { continue }
      let points = move.path.map {
        "{\"point\": \"\(latLng($0.latitudeE7, $0.longitudeE7))\", \"time\": \"\(local($0.milliseconds))\"}"
      }
      segments.append(
        (
          move.start.milliseconds,
          "{\"startTime\": \"\(local(move.start.milliseconds))\", \"endTime\": \"\(local(move.end.milliseconds))\",\n"
            + "   \"timelinePath\": [\(points.joined(separator: ",\n     "))]}"
        ))
    }
    var raw: [String] = []
    for signal in signals {
      raw.append(
        "{\"position\": {\"LatLng\": \"\(latLng(signal.latitudeE7, signal.longitudeE7))\", "
          + (signal.accuracy.map { "\"accuracyMeters\": \($0), " } ?? "")
          + "\"altitudeMeters\": 58.2, \"source\": \"GPS\", \"timestamp\": \"\(local(signal.milliseconds))\", "
          + "\"speedMetersPerSecond\": 1.2}}")
      raw.append(
        "{\"wifiScan\": {\"deliveryTime\": \"\(local(signal.milliseconds + 1_000))\", "
          + "\"devicesRecords\": [{\"mac\": 123456789, \"rawRssi\": -70}]}}")
      raw.append(
        "{\"activityRecord\": {\"probableActivities\": [{\"type\": \"WALKING\", \"confidence\": 0.9}], "
          + "\"timestamp\": \"\(local(signal.milliseconds + 2_000))\"}}")
    }
    let places = stays.map {
      "{\"placeId\": \"ChIJexample\", \"placeLocation\": \"\(latLng($0.latitudeE7 + 99, $0.longitudeE7))\", \"label\": \"HOME\"}"
    }
    let text =
      "{\"semanticSegments\": [\n  \(segments.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ",\n  "))],\n"
      + " \"rawSignals\": [\n  \(raw.joined(separator: ",\n  "))],\n"
      + " \"userLocationProfile\": {\"frequentPlaces\": [\(places.joined(separator: ", "))], "
      + "\"persona\": {\"travelModeAffinities\": [{\"mode\": \"WALKING\", \"affinity\": 0.5}]}}}\n"
    return Array(text.utf8)
  }

  // MARK: D: iOS on-device export

  /// A bare array of segments, every number a string: a visit per stay, an activity per move
  /// and a `timelinePath` of its path, each point at `durationMinutesOffsetFromStartTime`
  /// whole minutes after the move's start (so path points must lie on whole minutes from it;
  /// two in one minute repeat the offset). Every other move's path segment names its points
  /// before its `startTime`. A `timelineMemory` trip (no position) is added.
  public static func iosTimeline(stays: [Stay], moves: [Move], offsetMinutes: Int = 60) -> [UInt8] {
    func local(_ ms: Int64) -> String { iso(ms, offsetMinutes: offsetMinutes) }
    func geo(_ lat: Int, _ lon: Int) -> String {
      // Six decimals, as the iOS export writes them, when that is exact.
      let six = lat % 10 == 0 && lon % 10 == 0
      return "geo:\(degrees(lat, decimals: six ? 6 : 7)),\(degrees(lon, decimals: six ? 6 : 7))"
    }
    var segments: [(Int64, String)] = []
    for stay in stays {
      segments.append(
        (
          stay.startMilliseconds,
          "{\"startTime\": \"\(local(stay.startMilliseconds))\", \"endTime\": \"\(local(stay.endMilliseconds))\", "
            + "\"visit\": {\"hierarchyLevel\": \"0\", \"probability\": \"0.81\", \"topCandidate\": {\"probability\": \"0.63\", "
            + "\"semanticType\": \"Unknown\", \"placeID\": \"ChIJexample\", "
            + "\"placeLocation\": \"\(geo(stay.latitudeE7, stay.longitudeE7))\"}}}"
        ))
    }
    for (i, move) in moves.enumerated() {
      segments.append(
        (
          move.start.milliseconds,
          "{\"startTime\": \"\(local(move.start.milliseconds))\", \"endTime\": \"\(local(move.end.milliseconds))\", "
            + "\"activity\": {\"start\": \"\(geo(move.start.latitudeE7, move.start.longitudeE7))\", "
            + "\"end\": \"\(geo(move.end.latitudeE7, move.end.longitudeE7))\", \"distanceMeters\": \"812.0\", "
            + "\"probability\": \"0.9\", \"topCandidate\": {\"type\": \"walking\", \"probability\": \"0.9\"}}}"
        ))
      guard !move.path.isEmpty else { continue }
      let points = move.path.map { point -> String in
        let offset = point.milliseconds - move.start.milliseconds
        precondition(offset % 60_000 == 0, "iOS path points lie on whole minutes after the move's start")
        return "{\"point\": \"\(geo(point.latitudeE7, point.longitudeE7))\", "
          + "\"durationMinutesOffsetFromStartTime\": \"\(offset / 60_000)\"}"
      }
      let path = "\"timelinePath\": [\(points.joined(separator: ", "))]"
      let times = "\"startTime\": \"\(iso(move.start.milliseconds))\", \"endTime\": \"\(iso(move.end.milliseconds))\""
      segments.append((move.start.milliseconds, i % 2 == 0 ? "{\(times), \(path)}" : "{\(path), \(times)}"))
    }
    if let first = segments.map(\.0).min() {
      segments.append(
        (
          first,
          "{\"startTime\": \"\(local(first))\", \"endTime\": \"\(local(first + 86_400_000))\", "
            + "\"timelineMemory\": {\"destinations\": [{\"identifier\": \"ChIJexample\"}], \"distanceFromOriginKms\": \"1594\"}}"
        ))
    }
    return Array("[\(segments.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ",\n "))]\n".utf8)
  }

  // MARK: E: Timeline Edits

  /// `{"timelineEdits":[…]}` with one edit.
  public static func timelineEdits() -> [UInt8] {
    Array(
      ("{\"timelineEdits\": [{\"deviceId\": \"1\", \"placeAggregates\": {\"placeAggregateInfo\": [{\"score\": 2.5, "
        + "\"point\": {\"latE7\": 387110200, \"lngE7\": -91425100}, \"placeId\": \"ChIJexample\"}]}, "
        + "\"timestamp\": \"2024-05-02T08:41:00.120Z\"}]}\n").utf8)
  }

  // MARK: Generated walks

  /// A deterministic walk of `count` points from `start` (milliseconds), one every
  /// `stepMilliseconds`, wandering around Lisbon; every 50th point is less accurate than
  /// 200 m. Lazy, and the same on every pass: a benchmark's millions of records are made as
  /// they are written.
  public struct Walk: Sequence, Sendable {
    public var count: Int
    public var start: Int64
    public var stepMilliseconds: Int64
    public var seed: UInt64

    public init(count: Int, start: Int64, stepMilliseconds: Int64 = 10_000, seed: UInt64 = 34) {
      self.count = count
      self.start = start
      self.stepMilliseconds = stepMilliseconds
      self.seed = seed
    }

    public func makeIterator() -> Iterator { Iterator(walk: self, random: SeededGenerator(seed: seed)) }

    public struct Iterator: IteratorProtocol {
      let walk: Walk
      var random: SeededGenerator
      var index = 0
      var latitudeE7 = 387_110_200
      var longitudeE7 = -91_425_100

      public mutating func next() -> Point? {
        guard index < walk.count else { return nil }
        defer { index += 1 }
        latitudeE7 += Int(random.next() % 2_001) - 1_000
        longitudeE7 += Int(random.next() % 2_001) - 1_000
        let accuracy = index % 50 == 49 ? 1_500 : 3 + Int(random.next() % 60)
        return Point(
          milliseconds: walk.start + Int64(index) * walk.stepMilliseconds, latitudeE7: latitudeE7,
          longitudeE7: longitudeE7, accuracy: accuracy)
      }
    }
  }

  // MARK: Text

  /// Degrees × 10⁷ as decimal text with `decimals` places (7 is exact).
  public static func degrees(_ e7: Int, decimals: Int = 7) -> String {
    let magnitude = e7.magnitude
    let whole = magnitude / 10_000_000
    var fraction = String(magnitude % 10_000_000)
    fraction = String(repeating: "0", count: 7 - fraction.count) + fraction
    return (e7 < 0 ? "-" : "") + "\(whole)." + fraction.prefix(decimals)
  }

  /// An instant as `2024-05-02T08:41:00.120Z`, or in local time with its offset
  /// (`2024-05-02T09:41:00.120+01:00`).
  public static func iso(_ milliseconds: Int64, offsetMinutes: Int? = nil) -> String {
    let local = milliseconds + Int64(offsetMinutes ?? 0) * 60_000
    let (days, ms) = (local.floorDivided(by: 86_400_000), local.floorModulo(86_400_000))
    // Days since 1970 to the civil date (Howard Hinnant's algorithm).
    let z = days + 719_468
    let era = z.floorDivided(by: 146_097)
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let millis = ms % 1_000
    let seconds = ms / 1_000
    let text =
      "\(year)-\(two(month))-\(two(day))T\(two(seconds / 3_600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))."
      + (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)"
    guard let offsetMinutes else { return text + "Z" }
    let size = Int64(offsetMinutes.magnitude)
    return text + (offsetMinutes < 0 ? "-" : "+") + two(size / 60) + ":" + two(size % 60)
  }

  private static func quoted(_ text: String) -> String { "\"\(text)\"" }
}

extension Int64 {
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let q = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
  }

  fileprivate func floorModulo(_ divisor: Int64) -> Int64 { self - floorDivided(by: divisor) * divisor }
}

/// Text written into memory, or through to a file a megabyte at a time.
private struct TextOut {
  var bytes: [UInt8] = []
  var file: FileHandle?
  var written = 0

  init(file: FileHandle? = nil) {
    self.file = file
    bytes.reserveCapacity(1 << 20)
  }

  mutating func add(_ text: String) { bytes.append(contentsOf: text.utf8) }

  mutating func flushIfFull() throws {
    if file != nil && bytes.count >= 1 << 20 { try flush() }
  }

  mutating func flush() throws {
    guard let file else { return }
    try file.write(contentsOf: bytes)
    written += bytes.count
    bytes.removeAll(keepingCapacity: true)
  }
}
