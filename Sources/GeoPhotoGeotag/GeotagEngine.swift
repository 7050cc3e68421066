public import Foundation
public import GeoPhotoCore
public import GeoPhotoStore
public import GeoPhotoTracks

/// Places photos without a recorded location on a timeline of positions (tracks, location
/// histories): each photo's instant (its capture time with its offset, or read in the
/// camera's zone, corrected for the camera clock's error) is located on the timeline as
/// exiftool's geotagging locates it, and the positions are written as estimates with their
/// source, their places named, in one transaction; the spatial index is brought up to date once.
public struct GeotagEngine {
  public let store: any PhotoStore
  public let namer: (any PlaceNamer)?

  public init(store: any PhotoStore, namer: (any PlaceNamer)? = nil) {
    self.store = store
    self.namer = namer
  }

  /// Where the positions come from: the timeline, and what each of its source numbers is.
  public struct Positions: Sendable {
    public var timeline: Timeline
    /// By source number: what `EstimateSource` a placement from it carries (its kind and name).
    public var sources: [UInt32: (kind: EstimateSource.Kind, name: String)]

    public init(timeline: Timeline, sources: [UInt32: (kind: EstimateSource.Kind, name: String)]) {
      self.timeline = timeline
      self.sources = sources
    }

    /// The tracks a library read, each its own source, and the photos' fixes beside them.
    /// The tracks' fixes are moved, not copied: a history of millions is held once.
    public init(tracks: consuming TrackLibrary.Result, photos: PhotoFixes = PhotoFixes()) {
      var tracks = tracks
      var sources: [UInt32: (kind: EstimateSource.Kind, name: String)] = [:]
      var fixes: [Fix] = []
      var visits: [Visit] = []
      for i in tracks.tracks.indices {
        let number = UInt32(clamping: i + 1)
        sources[number] = (.track, tracks.tracks[i].name)
        var part: [Fix] = []
        swap(&part, &tracks.tracks[i].contents.fixes)
        for j in part.indices { part[j].source = number }
        if fixes.isEmpty { swap(&fixes, &part) } else { fixes.append(contentsOf: part) }
        visits += tracks.tracks[i].contents.visits.map {
          var visit = $0
          visit.source = number
          return visit
        }
      }
      let base = UInt32(clamping: tracks.tracks.count + 1)
      for (i, photo) in photos.fixes.enumerated() {
        let number = base &+ UInt32(clamping: i)
        sources[number] = (.photos, photo.name)
        fixes.append(Fix(time: photo.fix.time, coordinate: photo.fix.coordinate, altitude: nil, source: number))
      }
      self.init(timeline: Timeline(fixes, visits: visits), sources: sources)
    }
  }

  /// The located photos of the index as a track: each photo whose file recorded a position
  /// and whose capture time is an instant, under a folder or everywhere. Estimated positions
  /// never count: an estimate never feeds another.
  public struct PhotoFixes: Sendable {
    public var fixes: [(name: String, fix: Fix)] = []

    public init() {}

    public init(store: any PhotoStore, under root: String?) throws {
      for photo in try store.localPhotos(under: root, .recorded) {
        guard let c = photo.coordinate, let instant = photo.takenAt?.instant else { continue }
        let name = photo.path.map { String($0.split(separator: "/").last ?? "") } ?? photo.title
        fixes.append((name, Fix(time: Double(instant), coordinate: c)))
      }
    }
  }

  /// Which photos a run considers.
  public enum Scope: Sendable, Equatable {
    /// Every local photo.
    case all
    /// The photos under a folder.
    case under(String)
    /// These files (canonical paths), each found in the index.
    case files([String])
  }

  /// How the photos' times are read.
  public struct Clock: Sendable {
    /// The camera's zone, for capture times without an offset.
    public var zone: CameraZone?
    public var correction: ClockCorrection
    /// The zone of a position (the gazetteer's), for `CameraZone.auto`.
    public var zoneAt: (@Sendable (Coordinate) -> TimeZone?)?

    public init(
      zone: CameraZone? = nil, correction: ClockCorrection = .none,
      zoneAt: (@Sendable (Coordinate) -> TimeZone?)? = nil
    ) {
      self.zone = zone
      self.correction = correction
      self.zoneAt = zoneAt
    }
  }

  /// What happened to a photo, as the summary counts it.
  public enum Outcome: CaseIterable, Hashable, Sendable {
    case placed, alreadyLocated, noTime, noZone, beforeTrack, afterTrack, inGap, inconsistentZone
  }

  /// A photo placed (or that would be, in a dry run).
  public struct Placed: Sendable, Equatable {
    public var photo: Photo
    public var coordinate: Coordinate
    public var altitude: Double?
    public var source: EstimateSource
    /// The instant located (seconds since 1970, UTC): the fix's time a sidecar records.
    public var instant: Double
  }

  /// What a run found: the photos it placed, and how many of each outcome.
  public struct Report: Sendable {
    public var considered = 0
    /// Files named that the index does not hold.
    public var missing: [String] = []
    public var placed: [Placed] = []
    public var counts: [Outcome: Int] = [:]
  }

  /// Two placements of one photo (from the two instants an ambiguous local time can mean)
  /// further apart than this disagree: the photo's zone is in doubt.
  public static let agreement = 100.0

  /// The photos of `scope` of one kind (those to place unless said), how many of it are
  /// already located, and the files of it the index does not hold.
  public func candidates(_ scope: Scope, including kind: LocalPhotoKind = .toGeotag) throws -> (
    photos: [Photo], located: Int, missing: [String]
  ) {
    switch scope {
    case .all:
      return (try store.localPhotos(under: nil, kind), try store.recordedLocationCount(under: nil), [])
    case .under(let root):
      return (try store.localPhotos(under: root, kind), try store.recordedLocationCount(under: root), [])
    case .files(let paths):
      var byPath: [String: Photo] = [:]
      for folder in Set(paths.map { String($0[..<($0.lastIndex(of: "/") ?? $0.startIndex)]) }) {
        for photo in try store.localPhotos(under: folder.isEmpty ? "/" : folder, .all) {
          if let path = photo.path { byPath[path] = photo }
        }
      }
      let found = paths.compactMap { byPath[$0] }
      let located = found.filter { $0.coordinate != nil && !$0.locationEstimated }
      let wanted = found.filter {
        switch kind {
        case .toGeotag: $0.coordinate == nil || $0.locationEstimated
        case .recorded: $0.coordinate != nil && !$0.locationEstimated
        case .estimated: $0.locationEstimated
        case .unplaced: $0.coordinate == nil
        case .all: true
        }
      }
      return (wanted, located.count, paths.filter { byPath[$0] == nil })
    }
  }

  /// Locates the photos of `scope` without a recorded location on `positions`; writes
  /// nothing when `dryRun`.
  public func geotag(
    _ scope: Scope, positions: Positions, clock: Clock, rules: GapRules, dryRun: Bool
  ) throws -> Report {
    var report = Report()
    let (photos, located, missing) = try candidates(scope)
    report.considered = photos.count
    report.missing = missing
    if located > 0 { report.counts[.alreadyLocated] = located }
    for photo in photos {
      switch Self.place(photo, on: positions, clock: clock, rules: rules) {
      case .success(let placed):
        report.placed.append(placed)
        report.counts[.placed, default: 0] += 1
      case .failure(let outcome):
        report.counts[outcome.outcome, default: 0] += 1
      }
    }
    try write(report.placed, dryRun: dryRun)
    return report
  }

  /// Places the photos of `scope` at `coordinate` by hand (recorded positions stay).
  public func place(_ scope: Scope, at coordinate: Coordinate, dryRun: Bool) throws -> Report {
    var report = Report()
    let (photos, located, missing) = try candidates(scope)
    report.considered = photos.count
    report.missing = missing
    if located > 0 { report.counts[.alreadyLocated] = located }
    report.placed = photos.map {
      Placed(
        photo: $0, coordinate: coordinate, altitude: nil, source: .byHand,
        instant: ($0.takenAt?.instant).map(Double.init) ?? 0)
    }
    if !report.placed.isEmpty { report.counts[.placed] = report.placed.count }
    try write(report.placed, dryRun: dryRun)
    return report
  }

  /// Removes the estimated positions (from tracks, photos or hands) of the photos of `scope`;
  /// returns the photos whose estimates were (or would be) removed.
  public func clear(_ scope: Scope, dryRun: Bool) throws -> [Photo] {
    let estimated: [Photo]
    switch scope {
    case .all: estimated = try store.localPhotos(under: nil, .estimated)
    case .under(let root): estimated = try store.localPhotos(under: root, .estimated)
    case .files: estimated = try candidates(scope, including: .estimated).photos
    }
    guard !dryRun, !estimated.isEmpty else { return estimated }
    let now = IndexTime.now()
    try store.write { _ = try store.clearEstimatedLocations(ids: estimated.map(\.id), now: now) }
    try store.refreshDerivedIndexes()
    return estimated
  }

  /// Writes the placements as estimates, names their places, and brings the spatial index up
  /// to date; nothing when `dryRun`.
  func write(_ placed: [Placed], dryRun: Bool) throws {
    guard !dryRun, !placed.isEmpty else { return }
    let now = IndexTime.now()
    try store.write {
      for placed in placed {
        try store.setEstimatedLocation(
          id: placed.photo.id, placed.coordinate, altitude: placed.altitude, source: placed.source, now: now)
      }
      if let namer { _ = try store.assignPlaces(with: namer) }
    }
    try store.refreshDerivedIndexes()
  }

  /// Why a photo was not placed.
  public struct Unplaced: Error, Equatable {
    public var outcome: Outcome
  }

  /// The photo's instants: its recorded instant, or its local time read in the camera's zone
  /// (two where that zone's clocks changed), each corrected for the camera clock.
  public static func instants(of photo: Photo, clock: Clock) -> Result<[Double], Unplaced> {
    guard let taken = photo.takenAt else { return .failure(Unplaced(outcome: .noTime)) }
    let cameraInstants: [Int]
    if let instant = recordedInstant(of: photo) {
      cameraInstants = [instant]
    } else if let zone = clock.zone, zone != .auto {
      cameraInstants = zone.instants(ofLocal: taken.localSecondsSinceEpoch)
    } else {
      return .failure(Unplaced(outcome: .noZone))
    }
    return .success(cameraInstants.map { Double($0) + clock.correction.offset(at: Double($0)) })
  }

  /// The instant the photo's file recorded (its time with an offset), nil for a local time.
  /// An offset taken from the place of an earlier estimate is no evidence of the zone.
  static func recordedInstant(of photo: Photo) -> Int? {
    let offsetFromEstimate = photo.locationEstimated && (photo.offsetSource == .place || photo.offsetSource == .sea)
    return offsetFromEstimate ? nil : photo.takenAt?.instant
  }

  /// Where `photo` falls on `positions`, or why it is not placed.
  public static func place(_ photo: Photo, on positions: Positions, clock: Clock, rules: GapRules) -> Result<
    Placed, Unplaced
  > {
    if clock.zone == .auto, let taken = photo.takenAt, recordedInstant(of: photo) == nil, let zoneAt = clock.zoneAt {
      return placeInTracksZone(
        photo, local: taken.localSecondsSinceEpoch, on: positions, clock: clock, zoneAt: zoneAt, rules: rules)
    }
    let instants: [Double]
    switch Self.instants(of: photo, clock: clock) {
    case .success(let found): instants = found
    case .failure(let unplaced): return .failure(unplaced)
    }
    var placed: [Placed] = []
    var missed: Outcome = .inGap
    for instant in instants {
      switch place(at: instant, photo: photo, on: positions, rules: rules) {
      case .success(let found): placed.append(found)
      case .failure(let unplaced): missed = unplaced.outcome
      }
    }
    guard let first = placed.first else { return .failure(Unplaced(outcome: missed)) }
    if placed.contains(where: { GreatCircle.distance(first.coordinate, $0.coordinate) > agreement }) {
      return .failure(Unplaced(outcome: .inconsistentZone))
    }
    return .success(first)
  }

  /// `--tz auto`: the instants the local time `local` can be in the zones the track passes
  /// through near it; one is kept where the position there is in the zone that gave it.
  /// None: where every instant missed the track (before, after, in a gap), or no zone fits
  /// (`noZone`); several far apart, or a placement whose zone does not show that time: the
  /// zone is in doubt (`inconsistentZone`).
  static func placeInTracksZone(
    _ photo: Photo, local: Int, on positions: Positions, clock: Clock, zoneAt: (Coordinate) -> TimeZone?,
    rules: GapRules
  ) -> Result<Placed, Unplaced> {
    // The zones of the track within 15 hours of the local time (read as UTC), sampled at
    // least ten minutes apart.
    var zones: [String: TimeZone] = [:]
    var lastSample = -Double.infinity
    let window = Double(local - 54_000)...Double(local + 54_000)
    for fix in positions.timeline.fixes(in: window) where fix.time - lastSample >= 600 {
      lastSample = fix.time
      if let zone = zoneAt(fix.coordinate) { zones[zone.identifier] = zone }
    }
    var offsets = Set<Int>()
    for zone in zones.values { offsets.formUnion(CameraZone.offsets(of: zone, atLocal: local)) }
    var placed: [Placed] = []
    var misses = Set<Outcome>()
    for offset in offsets.sorted(by: >) {
      let camera = Double(local - offset)
      let instant = camera + clock.correction.offset(at: camera)
      switch place(at: instant, photo: photo, on: positions, rules: rules) {
      case .success(let found):
        // Consistent when the zone where the track is then shows this local time.
        if let zone = zoneAt(found.coordinate), CameraZone.offsets(of: zone, atLocal: local).contains(offset) {
          placed.append(found)
        } else {
          misses.insert(.inconsistentZone)
        }
      case .failure(let unplaced):
        misses.insert(unplaced.outcome)
      }
    }
    // Nothing placed: why, when every instant says the same; else no zone fits.
    guard let first = placed.first else {
      return .failure(Unplaced(outcome: misses.count == 1 ? (misses.first ?? .noZone) : .noZone))
    }
    if placed.contains(where: { GreatCircle.distance(first.coordinate, $0.coordinate) > agreement }) {
      return .failure(Unplaced(outcome: .inconsistentZone))
    }
    return .success(first)
  }

  /// The photo at one instant of the timeline.
  static func place(at instant: Double, photo: Photo, on positions: Positions, rules: GapRules) -> Result<
    Placed, Unplaced
  > {
    switch positions.timeline.locate(at: instant, rules: rules) {
    case .placed(let c, let altitude, let method)?:
      let origin = positions.sources[positions.timeline.source(at: instant) ?? 0] ?? (.track, "")
      return .success(
        Placed(
          photo: photo, coordinate: c, altitude: altitude,
          source: EstimateSource(kind: origin.kind, name: origin.name, method: Self.method(method)), instant: instant))
    case .beforeTrack?: return .failure(Unplaced(outcome: .beforeTrack))
    case .afterTrack?: return .failure(Unplaced(outcome: .afterTrack))
    case .inGap?, nil: return .failure(Unplaced(outcome: .inGap))
    }
  }

  static func method(_ method: Placement.Method) -> EstimateSource.Method {
    switch method {
    case .exact: .exact
    case .interpolated(let seconds): .interpolated(seconds: seconds)
    case .endFix(let seconds): .endFix(seconds: seconds)
    case .visit: .visit
    }
  }
}
