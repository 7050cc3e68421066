public import GeoPhotoCore

/// One position a track, a timeline or a photo gives at one instant: seconds since 1970 in UTC
/// (fractions kept), the position, and its altitude in metres when the source has one.
public struct Fix: Equatable, Sendable {
  public var time: Double
  public var coordinate: Coordinate
  public var altitude: Double?

  public init(time: Double, coordinate: Coordinate, altitude: Double? = nil) {
    self.time = time
    self.coordinate = coordinate
    self.altitude = altitude
  }
}

/// A stay at one place from `start` to `end` (seconds since 1970, UTC), as location histories
/// record them: an instant inside it is at that place, however long the stay.
public struct Visit: Equatable, Sendable {
  public var start: Double
  public var end: Double
  public var coordinate: Coordinate

  public init(start: Double, end: Double, coordinate: Coordinate) {
    self.start = start
    self.end = end
    self.coordinate = coordinate
  }
}

/// What one track file holds: its fixes, its visits (location histories only), and notes for
/// the reader of the run's report ("12 sentences with bad checksums skipped").
public struct TrackContents: Sendable {
  public var fixes: [Fix]
  public var visits: [Visit]
  public var notes: [String]

  public init(fixes: [Fix] = [], visits: [Visit] = [], notes: [String] = []) {
    self.fixes = fixes
    self.visits = visits
    self.notes = notes
  }
}
