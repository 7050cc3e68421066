/// A WGS84 position in decimal degrees, latitude first (the order of EXIF and most client APIs).
///
/// `Coordinate` is a plain value; validity is checked where values enter the program
/// (`Coordinate(validatingLatitude:longitude:)`, `CoordinateParser`), so the rest of the
/// code can rely on finite, in-range numbers.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
  public var latitude: Double
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Returns `nil` unless both values are finite and in range (|lat| ≤ 90, |lon| ≤ 180).
  /// Longitude 180 is normalised to −180 so the antimeridian has one spelling.
  public init?(validatingLatitude latitude: Double, longitude: Double) {
    guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
      return nil
    }
    self.latitude = latitude
    self.longitude = longitude == 180 ? -180 : longitude
  }

  /// A position a photo can be placed at: in range and not exactly (0, 0), the value broken
  /// GPS units and editors write when they have no fix.
  public var isPlausiblePhotoLocation: Bool {
    latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
      && !(latitude == 0 && longitude == 0)
  }

  public var description: String { "\(latitude),\(longitude)" }
}
