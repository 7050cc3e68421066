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
    public var sources: [UInt16: (kind: EstimateSource.Kind, name: String)]

    public init(timeline: Timeline, sources: [UInt16: (kind: EstimateSource.Kind, name: String)]) {
      self.timeline = timeline
      self.sources = sources
    }
  }

  /// How the photos' times are read.
  public struct Clock: Sendable {
    /// The camera's zone, for capture times without an offset.
    public var zone: CameraZone?
    public var correction: ClockCorrection

    public init(zone: CameraZone? = nil, correction: ClockCorrection = .none) {
      self.zone = zone
      self.correction = correction
    }
  }

  /// What happened to a photo, as the summary counts it.
  public enum Outcome: CaseIterable, Hashable, Sendable {
    case placed, alreadyLocated, noTime, noZone, beforeTrack, afterTrack, inGap, inconsistentZone
  }

  /// A photo placed (or that would be, in a dry run).
  public struct Placed: Sendable {
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
    public var placed: [Placed] = []
    public var counts: [Outcome: Int] = [:]
  }

  /// Two placements of one photo (from the two instants an ambiguous local time can mean)
  /// further apart than this disagree: the photo's zone is in doubt.
  public static let agreement = 100.0

  /// Locates the photos without a recorded location under `root` (everywhere when nil) on
  /// `positions`; writes nothing when `dryRun`.
  public func geotag(
    under root: String?, positions: Positions, clock: Clock, rules: GapRules, dryRun: Bool
  ) throws -> Report {
    var report = Report()
    let photos = try store.localPhotos(under: root, .toGeotag)
    report.considered = photos.count
    let located = try store.recordedLocationCount(under: root)
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
    guard !dryRun, !report.placed.isEmpty else { return report }
    let now = IndexTime.now()
    try store.write {
      for placed in report.placed {
        try store.setEstimatedLocation(
          id: placed.photo.id, placed.coordinate, altitude: placed.altitude, source: placed.source, now: now)
      }
      if let namer { _ = try store.assignPlaces(with: namer) }
    }
    try store.refreshDerivedIndexes()
    return report
  }

  /// Why a photo was not placed.
  public struct Unplaced: Error, Equatable {
    public var outcome: Outcome
  }

  /// The photo's instants: its recorded instant, or its local time read in the camera's zone
  /// (two where that zone's clocks changed), each corrected for the camera clock.
  public static func instants(of photo: Photo, clock: Clock) -> Result<[Double], Unplaced> {
    guard let taken = photo.takenAt else { return .failure(Unplaced(outcome: .noTime)) }
    // An offset taken from the place of an earlier estimate is no evidence of the zone.
    let offsetFromEstimate = photo.locationEstimated && (photo.offsetSource == .place || photo.offsetSource == .sea)
    let cameraInstants: [Int]
    if let instant = taken.instant, !offsetFromEstimate {
      cameraInstants = [instant]
    } else if let zone = clock.zone {
      cameraInstants = zone.instants(ofLocal: taken.localSecondsSinceEpoch)
    } else {
      return .failure(Unplaced(outcome: .noZone))
    }
    return .success(cameraInstants.map { Double($0) + clock.correction.offset(at: Double($0)) })
  }

  /// Where `photo` falls on `positions`, or why it is not placed.
  public static func place(_ photo: Photo, on positions: Positions, clock: Clock, rules: GapRules) -> Result<
    Placed, Unplaced
  > {
    let instants: [Double]
    switch Self.instants(of: photo, clock: clock) {
    case .success(let found): instants = found
    case .failure(let unplaced): return .failure(unplaced)
    }
    var placed: [Placed] = []
    var missed: Outcome = .inGap
    for instant in instants {
      switch positions.timeline.locate(at: instant, rules: rules) {
      case .placed(let c, let altitude, let method)?:
        let number = positions.timeline.source(at: instant) ?? 0
        let origin = positions.sources[number] ?? (.track, "")
        placed.append(
          Placed(
            photo: photo, coordinate: c, altitude: altitude,
            source: EstimateSource(kind: origin.kind, name: origin.name, method: Self.method(method)), instant: instant)
        )
      case .beforeTrack?: missed = .beforeTrack
      case .afterTrack?: missed = .afterTrack
      case .inGap?, nil: missed = .inGap
      }
    }
    guard let first = placed.first else { return .failure(Unplaced(outcome: missed)) }
    if placed.contains(where: { GreatCircle.distance(first.coordinate, $0.coordinate) > agreement }) {
      return .failure(Unplaced(outcome: .inconsistentZone))
    }
    return .success(first)
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
