import GeoPhotoCore

/// GeoJSON tracks, as converters of GPX, TCX and KML write them (togeojson's conventions; RFC
/// 7946 itself has no time):
///
/// - a `LineString` whose `properties.coordinateProperties.times` (togeojson 4.4 on) or
///   `properties.coordTimes` (before) holds one instant per coordinate, and a
///   `MultiLineString` with one such array per line;
/// - a `Point` with `properties.time` or `properties.timestamp`.
///
/// An instant is ISO 8601 text, or a number of seconds since 1970 (of milliseconds when over
/// 10¹¹). Coordinates are `[longitude, latitude, altitude?]`. The file may be a
/// FeatureCollection, one Feature or a bare geometry. A feature whose times and coordinates
/// differ in number is skipped (and counted in the notes); one of over 5,000,000 coordinates is
/// refused (a feature is held whole until its end); a file with no timed position is an error.
public enum GeoJSONTrackReader {
  /// The most coordinates one feature may have.
  public static let maximumCoordinates = 5_000_000

  /// Whether the first bytes of a file (4 KiB is plenty) look like GeoJSON: a map whose first
  /// members include `type` with a GeoJSON type or `features`.
  public static func sniff(head: [UInt8]) -> Bool {
    var found = false
    var typeKey = false
    try? JSONStream.read(head) { event, text, depth in
      switch event {
      case .startMap where depth == 1: return true
      case .key where depth == 1:
        let key = GeoJSONParser.keys(text)
        if key == .features || key == .coordinates || key == .geometry { found = true }
        typeKey = key == .type
      case .string where depth == 1 && typeKey:
        found = GeoJSONParser.types.contains(String(decoding: text, as: UTF8.self))
        typeKey = false
      case _ where depth == 0: return false
      default: typeKey = false
      }
      return !found
    }
    return found
  }

  public static func read(path: String, name: String, keeping: ((ClosedRange<Double>) -> Bool)? = nil)
    throws(TrackReadError) -> TrackContents
  {
    try readJSONTrack(GeoJSONParser(name: name, keeping: keeping)) { (handler) throws(JSONStreamError) in
      try JSONStream.read(path: path, handler)
    }
  }

  /// Reads a GeoJSON track from its bytes, fed to the parser in chunks of `chunkSize`.
  public static func read(
    _ bytes: [UInt8], name: String, keeping: ((ClosedRange<Double>) -> Bool)? = nil, chunkSize: Int = 256 << 10
  ) throws(TrackReadError) -> TrackContents {
    try read(bytes, name: name, keeping: keeping, chunkSize: chunkSize, maximumCoordinates: maximumCoordinates)
  }

  static func read(
    _ bytes: [UInt8], name: String, keeping: ((ClosedRange<Double>) -> Bool)?, chunkSize: Int, maximumCoordinates: Int
  ) throws(TrackReadError) -> TrackContents {
    let parser = GeoJSONParser(name: name, keeping: keeping, maximumCoordinates: maximumCoordinates)
    return try readJSONTrack(parser) { (handler) throws(JSONStreamError) in
      try JSONStream.read(bytes, chunkSize: chunkSize, handler)
    }
  }
}

enum GeoJSONKey: UInt8, CaseIterable, Sendable {
  case other, element
  case type, features, geometry, properties, coordinates, coordinateProperties, times, coordTimes, time, timestamp
}

/// One reading of a GeoJSON file: the feature being gathered (its coordinates and times, held
/// until its end, when they are paired). The handler's helpers are all `mutating`: calling a
/// non-mutating one from it copies the whole parser at each event.
struct GeoJSONParser: JSONTrackParser {
  static let keys = JSONKeyTable(GeoJSONKey.allCases.filter { $0 != .other && $0 != .element }.map { ("\($0)", $0) })
  static let types: Set<String> = [
    "FeatureCollection", "Feature", "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon",
    "MultiPolygon", "GeometryCollection",
  ]

  /// Values gathered from one tree of arrays (`coordinates`, or a times array): the values,
  /// the depth of the arrays that hold them (the leaves), and where each run of them ends.
  struct Nest<Value> {
    /// The depth of the tree's outer array; nil when the feature has none.
    var root: Int?
    var values: [Value] = []
    var leafDepth: Int?
    /// Leaves at different depths.
    var mixed = false
    /// `values.count` at the end of each run: each array one level above the leaves
    /// (coordinates: a line of positions), or each leaf (times: a line of instants).
    var ends: [Int] = []

    /// How many values each run holds.
    var runs: [Int] { zip(ends, [0] + ends).map { $0 - $1 } }

    mutating func leaf(at depth: Int) {
      if let leafDepth, leafDepth != depth { mixed = true }
      leafDepth = depth
    }
  }

  let name: String
  var collector: TrackCollector
  var failure: TrackReadError?
  /// Something of GeoJSON was seen (a GeoJSON type or coordinates).
  var isGeoJSON = false
  var untimed = 0
  var mismatched = 0

  private var path = [GeoJSONKey](repeating: .other, count: JSONStream.maximumDepth + 2)
  private var holdsValues = [Bool](repeating: false, count: JSONStream.maximumDepth + 2)
  /// The depth of the feature being gathered (the root for a bare geometry or a Feature).
  private var feature: Int?
  private var geometryType = ""
  private var ownType = ""
  /// The numbers of the position being read.
  private var position: [Double] = []
  private var positions = Nest<(longitude: Double, latitude: Double, altitude: Double?)>()
  private var times = Nest<Double>()
  private var oldTimes = Nest<Double>()
  /// Which times array is being read (`times` or `coordTimes`).
  private var timesKey: GeoJSONKey?
  private var inCoordinates = false
  private var pointTime: Double?

  let maximumCoordinates: Int

  init(
    name: String, keeping: ((ClosedRange<Double>) -> Bool)?,
    maximumCoordinates: Int = GeoJSONTrackReader.maximumCoordinates
  ) {
    self.name = name
    self.maximumCoordinates = maximumCoordinates
    collector = TrackCollector(keeping: keeping)
  }

  func contents() throws(TrackReadError) -> TrackContents {
    guard isGeoJSON else { throw TrackReadError(name, "not GeoJSON (no features and no geometry)") }
    guard collector.fixesFound > 0 else {
      var message =
        "no times: a GeoJSON track needs properties.coordinateProperties.times (or coordTimes) beside its "
        + "coordinates, or a time on each Point"
      if mismatched > 0 {
        message +=
          "; \(Self.features(mismatched)) \(mismatched == 1 ? "has" : "have") times and coordinates differing in number"
      }
      if collector.skipped > 0 { message += "; \(collector.skipped) positions or times are unusable" }
      throw TrackReadError(name, message)
    }
    var notes = collector.notes(entry: "coordinate", entries: "coordinates")
    if mismatched > 0 {
      notes.append("\(Self.features(mismatched)) whose times and coordinates differ in number skipped")
    }
    if untimed > 0 { notes.append("\(Self.features(untimed)) without times skipped") }
    return TrackContents(fixes: collector.fixes, notes: notes)
  }

  static func features(_ count: Int) -> String { count == 1 ? "1 feature" : "\(count) features" }

  /// The stream's handler.
  mutating func handle(_ event: JSONEvent, _ text: UnsafeBufferPointer<UInt8>, _ depth: Int) -> Bool {
    switch event {
    case .key:
      path[depth] = Self.keys(text) ?? .other
    case .startMap:
      path[depth] = .other
      if depth == 1 || (depth == 3 && path[1] == .features && path[2] == .element) { begin(depth) }
    case .startArray:
      path[depth] = .element
      holdsValues[depth] = false
      guard let f = feature else { break }
      if inCoordinates || timesKey != nil { break }
      if isCoordinates(depth, f) {
        inCoordinates = true
        positions = Nest(root: depth)
      } else if let key = timesArray(depth, f) {
        timesKey = key
        if key == .times { times = Nest(root: depth) } else { oldTimes = Nest(root: depth) }
      }
    case .endArray:
      return endArray(depth)
    case .endMap:
      if depth == feature { end() }
    case .string, .number:
      value(text, depth, isString: event == .string)
    case .bool, .null:
      break
    }
    return failure == nil
  }

  private mutating func begin(_ depth: Int) {
    feature = depth
    geometryType = ""
    ownType = ""
    positions = Nest()
    times = Nest()
    oldTimes = Nest()
    pointTime = nil
  }

  /// `geometry.coordinates` of a feature, or `coordinates` of a bare geometry.
  private mutating func isCoordinates(_ depth: Int, _ f: Int) -> Bool {
    (depth == f + 2 && path[f] == .geometry && path[f + 1] == .coordinates)
      || (depth == f + 1 && f == 1 && path[f] == .coordinates)
  }

  /// `properties.coordinateProperties.times` or `properties.coordTimes`.
  private mutating func timesArray(_ depth: Int, _ f: Int) -> GeoJSONKey? {
    guard path[f] == .properties else { return nil }
    if depth == f + 3 && path[f + 1] == .coordinateProperties && path[f + 2] == .times { return .times }
    if depth == f + 2 && path[f + 1] == .coordTimes { return .coordTimes }
    return nil
  }

  private mutating func value(_ text: UnsafeBufferPointer<UInt8>, _ depth: Int, isString: Bool) {
    guard let f = feature else { return }
    if inCoordinates {
      holdsValues[depth] = true
      // Longitude, latitude and altitude; a further number (a measure) is not used.
      if position.count < 3 { position.append(isString ? .nan : JSONValue.number(text) ?? .nan) }
    } else if let key = timesKey {
      holdsValues[depth] = true
      let instant = time(text, isString: isString)
      if key == .times { times.values.append(instant) } else { oldTimes.values.append(instant) }
      if max(times.values.count, oldTimes.values.count) > maximumCoordinates { tooLong() }
    } else if depth == f, path[f] == .type, isString {
      ownType = String(decoding: text, as: UTF8.self)
      if Self.types.contains(ownType) { isGeoJSON = true }
    } else if depth == f + 1, path[f] == .geometry, path[f + 1] == .type, isString {
      geometryType = String(decoding: text, as: UTF8.self)
      isGeoJSON = true
    } else if depth == f + 1, path[f] == .properties, path[f + 1] == .time || path[f + 1] == .timestamp {
      if pointTime == nil || path[f + 1] == .time { pointTime = time(text, isString: isString) }
    }
  }

  private mutating func tooLong() {
    failure = TrackReadError(name, "a feature of over \(maximumCoordinates) coordinates; split the track")
  }

  /// ISO 8601 text, or seconds since 1970 (milliseconds when over 10¹¹).
  private mutating func time(_ text: UnsafeBufferPointer<UInt8>, isString: Bool) -> Double {
    if isString {
      guard let time = JSONValue.time(text) else { return .nan }
      if !time.zoned { collector.unzoned += 1 }
      return time.seconds
    }
    guard let number = JSONValue.number(text) else { return .nan }
    return abs(number) > 1e11 ? number / 1_000 : number
  }

  private mutating func endArray(_ depth: Int) -> Bool {
    if inCoordinates {
      if holdsValues[depth] {
        positions.leaf(at: depth)
        let p = position.count >= 2 ? position : [.nan, .nan]
        positions.values.append((p[0], p[1], p.count > 2 ? p[2] : nil))
        position.removeAll(keepingCapacity: true)
        if positions.values.count > maximumCoordinates { tooLong() }
      } else if let leaf = positions.leafDepth, depth == leaf - 1 {
        positions.ends.append(positions.values.count)
      }
      if depth == positions.root { inCoordinates = false }
    } else if let key = timesKey {
      if holdsValues[depth] {
        if key == .times {
          times.leaf(at: depth)
          times.ends.append(times.values.count)
        } else {
          oldTimes.leaf(at: depth)
          oldTimes.ends.append(oldTimes.values.count)
        }
      }
      if depth == (key == .times ? times.root : oldTimes.root) { timesKey = nil }
    }
    return failure == nil
  }

  /// Pairs the feature's coordinates with its times.
  private mutating func end() {
    defer { feature = nil }
    guard let root = positions.root, let leaf = positions.leafDepth, !positions.mixed else { return }
    isGeoJSON = true
    let type = geometryType.isEmpty ? ownType : geometryType
    switch (type, leaf - root) {
    case ("Point", 0):
      guard let time = pointTime else {
        untimed += 1
        return
      }
      if let p = positions.values.first { add(p, time) }
    case ("LineString", 1), ("MultiLineString", 2):
      // coordinateProperties.times when the feature has both.
      let given = times.root != nil ? times : oldTimes
      guard given.root != nil else {
        untimed += 1
        return
      }
      // As many times as coordinates: in one array, or in one array per line.
      guard !given.mixed, given.values.count == positions.values.count,
        given.runs.count <= 1 || given.runs == positions.runs
      else {
        mismatched += 1
        return
      }
      for (p, time) in zip(positions.values, given.values) { add(p, time) }
    default:
      untimed += 1
    }
  }

  private mutating func add(_ p: (longitude: Double, latitude: Double, altitude: Double?), _ time: Double) {
    collector.fix(latitude: p.latitude, longitude: p.longitude, time: time.isNaN ? nil : time, altitude: p.altitude)
  }
}
