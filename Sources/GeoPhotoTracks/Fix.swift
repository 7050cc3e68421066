public import GeoPhotoCore

/// One position a track, a timeline or a photo gives at one instant: seconds since 1970 in UTC
/// (fractions kept), the position, its altitude in metres when the source has one, and which
/// source it came from (an index the caller gives meaning to; 0 when unsaid).
///
/// 32 bytes: the altitude is kept as a `Float` (a millimetre's precision at any height a
/// track reaches), so a history of millions of fixes stays small.
public struct Fix: Equatable, Sendable {
  public var time: Double
  public var coordinate: Coordinate
  /// The altitude, NaN for none.
  private var storedAltitude: Float
  public var source: UInt32

  public init(time: Double, coordinate: Coordinate, altitude: Double? = nil, source: UInt32 = 0) {
    self.time = time
    self.coordinate = coordinate
    self.storedAltitude = altitude.map { Float($0) } ?? .nan
    self.source = source
  }

  public var altitude: Double? {
    get { storedAltitude.isNaN ? nil : Double(storedAltitude) }
    set { storedAltitude = newValue.map { Float($0) } ?? .nan }
  }

  public static func == (a: Fix, b: Fix) -> Bool {
    a.time == b.time && a.coordinate == b.coordinate && a.altitude == b.altitude && a.source == b.source
  }
}

/// A stay at one place from `start` to `end` (seconds since 1970, UTC), as location histories
/// record them: an instant inside it is at that place, however long the stay.
public struct Visit: Equatable, Sendable {
  public var start: Double
  public var end: Double
  public var coordinate: Coordinate
  public var source: UInt32

  public init(start: Double, end: Double, coordinate: Coordinate, source: UInt32 = 0) {
    self.start = start
    self.end = end
    self.coordinate = coordinate
    self.source = source
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
