public import GeoPhotoCore
public import GeoPhotoStore

/// Places photos without a recorded location on a GPS track: each photo's capture time is
/// located on the track, and the positions are written as estimates, with their places, in
/// one transaction; the spatial index is brought up to date once.
public struct GeotagEngine {
  public let store: any PhotoStore
  public let namer: (any PlaceNamer)?

  public init(store: any PhotoStore, namer: (any PlaceNamer)? = nil) {
    self.store = store
    self.namer = namer
  }

  /// What a run found: the photos it placed (or would place), and why the others were not.
  public struct Report: Sendable {
    public var considered = 0
    public var placed: [(photo: Photo, coordinate: Coordinate)] = []
    /// How many photos were left unplaced, by reason.
    public var skipped: [SkipReason: Int] = [:]
  }

  /// Why a photo was left where it was.
  public enum SkipReason: CaseIterable, Sendable, CustomStringConvertible {
    case noTime, noZone, beforeTrack, afterTrack, gapTooLong

    public var description: String {
      switch self {
      case .noTime: "no capture time"
      case .noZone: "no time zone (use --tz)"
      case .beforeTrack: "taken before the track starts"
      case .afterTrack: "taken after the track ends"
      case .gapTooLong: "in a gap longer than --max-gap"
      }
    }
  }

  /// Locates the photos without a recorded location under `root` (everywhere when nil) on
  /// the track; writes nothing when `dryRun`.
  public func geotag(under root: String?, with correlator: TrackCorrelator, dryRun: Bool) throws -> Report {
    var report = Report()
    let photos = try store.photosToGeotag(under: root)
    report.considered = photos.count
    for photo in photos {
      switch correlator.locate(photo.takenAt) {
      case .located(let c, _): report.placed.append((photo, c))
      case .noTime: report.skipped[.noTime, default: 0] += 1
      case .noZone: report.skipped[.noZone, default: 0] += 1
      case .beforeTrack: report.skipped[.beforeTrack, default: 0] += 1
      case .afterTrack: report.skipped[.afterTrack, default: 0] += 1
      case .gapTooLong: report.skipped[.gapTooLong, default: 0] += 1
      }
    }
    guard !dryRun, !report.placed.isEmpty else { return report }
    let now = IndexTime.now()
    try store.write {
      for (photo, c) in report.placed { try store.setEstimatedLocation(id: photo.id, c, now: now) }
      if let namer { _ = try store.assignPlaces(with: namer) }
    }
    try store.refreshDerivedIndexes()
    return report
  }
}
