public import GeoPhotoCore

/// A trip's name from its places, by photo count: its cities when they are few and in one
/// country (`Kyoto, JP`, `Tokyo & Kyoto, JP`, `Tokyo, Kyoto & Osaka, JP`), the country when it
/// visits more than three of its cities (`Japan`), its countries when more than one
/// (`Japan & South Korea`, `France, Italy & Spain`, `France, Italy & 3 more countries`).
public enum TripName {
  /// The most cities or countries named before the rest are summed up.
  static let named = 3

  /// `cities` and `countries` by photo count, most first (cities of the only country when
  /// there is one; `countries` as names, `codes` as their codes in the same order).
  public static func name(cities: [String], countries: [String], codes: [String], start: LocalDay) -> String {
    switch countries.count {
    case 0: return "Trip of \(start.text)"
    case 1:
      guard (1...named).contains(cities.count) else { return countries[0] }
      return list(cities) + (codes[0].isEmpty ? "" : ", \(codes[0])")
    case 2...named: return list(countries)
    default:
      return "\(countries.prefix(named - 1).joined(separator: ", ")) & \(countries.count - named + 1) more countries"
    }
  }

  /// `A`, `A & B`, `A, B & C`.
  static func list(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " & " + names[names.count - 1]
  }
}
