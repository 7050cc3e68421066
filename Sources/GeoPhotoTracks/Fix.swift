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
