/// A point as ISO 6709 writes it in video metadata: `+48.8584+002.2945+035.500/`,
/// `-33.8568-070.6693/` (altitude optional), also in the DDMM and DDMMSS forms
/// (`+4851.50+00217.67/`, `+485130+0021740/`) and with a trailing `CRS…` part.
public struct ISO6709Point: Equatable, Sendable {
  public var coordinate: Coordinate
  /// Metres; negative below the reference surface.
  public var altitude: Double?

  public init(coordinate: Coordinate, altitude: Double?) {
    self.coordinate = coordinate
    self.altitude = altitude
  }

  /// The point in `text`, or `nil` when it is not ISO 6709 or out of range.
  public init?(_ text: String) {
    var numbers: [Substring] = []
    var rest = Substring(text.trimmingSpaces)
    while numbers.count < 3, let sign = rest.first, sign == "+" || sign == "-" {
      let body = rest.dropFirst().prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
      guard !body.isEmpty else { return nil }
      numbers.append(rest.prefix(body.count + 1))
      rest = rest.dropFirst(body.count + 1)
    }
    guard numbers.count >= 2, rest.isEmpty || rest.first == "/" || rest.hasPrefix("CRS") else { return nil }
    guard let lat = Self.angle(numbers[0], degreeDigits: 2), let lon = Self.angle(numbers[1], degreeDigits: 3),
      let c = Coordinate(validatingLatitude: lat, longitude: lon)
    else { return nil }
    coordinate = c
    altitude = numbers.count > 2 ? Double(numbers[2]) : nil
  }

  /// `±DD.D`, `±DDMM.M` or `±DDMMSS.S` (three degree digits for longitude) in degrees.
  static func angle(_ text: Substring, degreeDigits: Int) -> Double? {
    let negative = text.first == "-"
    let body = text.dropFirst()
    let integer = body.prefix { $0 != "." }
    let fraction = body.dropFirst(integer.count)
    guard fraction.isEmpty || (fraction.count > 1 && !fraction.dropFirst().contains(".")) else { return nil }
    let value: Double
    switch integer.count - degreeDigits {
    case 0:
      guard let v = Double(body) else { return nil }
      value = v
    case 2:
      guard let d = Double(integer.prefix(degreeDigits)), let m = Double(body.dropFirst(degreeDigits)), m < 60 else {
        return nil
      }
      value = d + m / 60
    case 4:
      guard let d = Double(integer.prefix(degreeDigits)),
        let m = Double(integer.dropFirst(degreeDigits).prefix(2)), m < 60,
        let s = Double(body.dropFirst(degreeDigits + 2)), s < 60
      else { return nil }
      value = d + m / 60 + s / 3600
    default:
      return nil
    }
    return negative ? -value : value
  }
}
