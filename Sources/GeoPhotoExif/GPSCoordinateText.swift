/// XMP's GPSCoordinate text, `DDD,MM.mmmmmmmmK`: whole degrees, minutes with eight decimals
/// (as exiftool writes them, `%d,%.8f`), and a hemisphere letter that carries the sign (`N`/`S`
/// for a latitude, `E`/`W` for a longitude), e.g. `43,38.51238000N`, `9,8.55060000W`.
///
/// Made with integer arithmetic on hundred-millionths of a minute, so minutes that round up to
/// 60 carry into the degrees (`11,0.00000000N`, never `10,60.00000000N`). One unit is 1e-8′
/// ≈ 1.7e-10°: the text is within 1e-7° of the value.
public enum GPSCoordinateText {
  public enum Axis: Sendable {
    case latitude, longitude

    var limit: Double { self == .latitude ? 90 : 180 }
  }

  /// Units of 1e-8 minute in one degree.
  static let unitsPerDegree: Int64 = 6_000_000_000
  static let unitsPerMinute: Int64 = 100_000_000

  /// The text of `degrees` (signed decimal degrees) on `axis`; nil when it is not finite or out
  /// of range (|latitude| > 90, |longitude| > 180).
  public static func text(_ degrees: Double, axis: Axis) -> String? {
    guard degrees.isFinite, abs(degrees) <= axis.limit else { return nil }
    // |degrees| ≤ 180 gives at most 1.08e12 units: exact in a Double's integers and an Int64.
    let units = Int64((abs(degrees) * Double(unitsPerDegree)).rounded())
    let whole = units / unitsPerDegree
    let rest = units % unitsPerDegree
    let minutes = rest / unitsPerMinute
    let fraction = String(rest % unitsPerMinute)
    let padded = String(repeating: "0", count: max(0, 8 - fraction.count)) + fraction
    // A value that rounds to zero is written in the positive hemisphere.
    let negative = degrees < 0 && units > 0
    let letter =
      switch axis {
      case .latitude: negative ? "S" : "N"
      case .longitude: negative ? "W" : "E"
      }
    return "\(whole),\(minutes).\(padded)\(letter)"
  }
}
