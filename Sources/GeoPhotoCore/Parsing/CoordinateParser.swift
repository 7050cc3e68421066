/// Reads user-typed coordinates and distances; every failure says what was wrong.
public enum InputParser {
  /// A problem with user input, worded for the command line.
  public struct Failure: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  /// Parses `LAT,LON` (`35.68,139.76`, `35.68, 139.76`, `-33.86,151.21`).
  ///
  /// Only plain decimal numbers are accepted: no `nan`, `inf`, hex or exponent forms that a
  /// generic number parser would let through.
  public static func coordinate(_ text: String) throws(Failure) -> Coordinate {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      throw Failure("'\(text)' is not a coordinate; expected LAT,LON such as 35.68,139.76")
    }
    guard let lat = decimal(parts[0]), let lon = decimal(parts[1]) else {
      throw Failure("'\(text)' is not a coordinate; expected LAT,LON such as 35.68,139.76")
    }
    guard abs(lat) <= 90 else {
      throw Failure("latitude \(parts[0].trimmingSpaces) is out of range (-90...90)")
    }
    guard abs(lon) <= 180 else {
      throw Failure("longitude \(parts[1].trimmingSpaces) is out of range (-180...180)")
    }
    guard let c = Coordinate(validatingLatitude: lat, longitude: lon) else {
      throw Failure("'\(text)' is not a valid coordinate")
    }
    return c
  }

  /// Parses a box, `west,south,east,north` in degrees, for every command and endpoint that
  /// takes one. West greater than east crosses the antimeridian; longitudes past ±180 (to
  /// ±540, as a map panned across the antimeridian gives them) are brought back; latitudes
  /// are within ±90 with south ≤ north. The box comes back `normalized`.
  public static func boundingBox(_ text: String) throws(Failure) -> BoundingBox {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { decimal($0) }
    guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3] else {
      throw Failure("'\(text)' is not a box; expected west,south,east,north in degrees such as 139.6,35.6,139.9,35.8")
    }
    guard abs(west) <= 540, abs(east) <= 540 else {
      throw Failure("the box's longitudes must be within ±540 (±180, or a map's wrapped longitudes)")
    }
    guard abs(south) <= 90, abs(north) <= 90, south <= north else {
      throw Failure("the box's latitudes must be within ±90 with south ≤ north")
    }
    return BoundingBox(west: west, south: south, east: east, north: north).normalized
  }

  /// Parses a distance in metres: `500`, `500m`, `2km`, `2.5 km`, `1mi`.
  public static func distance(_ text: String) throws(Failure) -> Double {
    let t = text.trimmingSpaces.lowercased()
    let units: [(String, Double)] = [("km", 1000), ("mi", 1609.344), ("m", 1)]
    let (number, scale) = splitUnit(t, units)
    guard let value = decimal(number), value > 0 else {
      throw Failure("'\(text)' is not a distance; expected a positive number of metres or 2km, 500m, 1mi")
    }
    let metres = value * scale
    guard metres <= GreatCircle.maximumDistance else {
      throw Failure("distance '\(text)' is longer than half the Earth's circumference")
    }
    return metres
  }

  /// Parses a duration in seconds: `90`, `90s`, `30m`, `12h`, `1d`, `2w`.
  public static func duration(_ text: String) throws(Failure) -> Double {
    let t = text.trimmingSpaces.lowercased()
    let units: [(String, Double)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400), ("w", 604_800)]
    let (number, scale) = splitUnit(t, units)
    guard let value = decimal(number), value >= 0, value * scale <= 3.2e9 else {
      throw Failure("'\(text)' is not a duration; expected seconds or 30s, 10m, 12h, 1d, 2w")
    }
    return value * scale
  }

  /// Parses a size in bytes: `1048576`, `500KiB`, `20MiB`, `1GiB` (also KB, MB, GB as powers of 1000).
  public static func byteCount(_ text: String) throws(Failure) -> Int {
    let t = text.trimmingSpaces.lowercased()
    let units: [(String, Double)] = [
      ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("kb", 1000), ("mb", 1e6), ("gb", 1e9), ("b", 1),
    ]
    let (number, scale) = splitUnit(t, units)
    guard let value = decimal(number), value >= 1, value * scale <= 1e12 else {
      throw Failure("'\(text)' is not a size; expected bytes or 500KiB, 20MiB")
    }
    return Int(value * scale)
  }

  /// Splits `text` into its number and the factor of its unit suffix (the first in `units`
  /// that matches; longer suffixes must come first). No suffix means a factor of 1.
  static func splitUnit(_ text: String, _ units: [(String, Double)]) -> (Substring, Double) {
    for (suffix, factor) in units where text.hasSuffix(suffix) {
      return (text.dropLast(suffix.count), factor)
    }
    return (Substring(text), 1)
  }

  /// A plain decimal number (`-12.5`): no `nan`, `inf`, hex or exponents.
  public static func number(_ text: String) -> Double? { decimal(Substring(text)) }

  /// A plain decimal number: optional sign, digits, optional fraction; surrounding spaces ok.
  static func decimal(_ text: Substring) -> Double? {
    let t = text.trimmingSpaces
    var sawDigit = false
    var sawDot = false
    // Byte by byte: every query parameter of every request passes here.
    for (i, byte) in t.utf8.enumerated() {
      switch byte {
      case UInt8(ascii: "+") where i == 0, UInt8(ascii: "-") where i == 0: continue
      case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
      case UInt8(ascii: ".") where !sawDot: sawDot = true
      default: return nil
      }
    }
    guard sawDigit, let v = Double(t), v.isFinite else { return nil }
    return v
  }
}
