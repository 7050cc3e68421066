/// What a label names, which sets its type: countries, then populated places by size.
public enum LabelKind: UInt8, Sendable, CaseIterable {
  case country, metropolis, city, town, village

  /// The place's kind by its population.
  static func place(population: Int) -> LabelKind {
    population >= 5_000_000 ? .metropolis : population >= 1_000_000 ? .city : population >= 100_000 ? .town : .village
  }

  /// The type size in pixels at scale 1.
  var fontSize: Double {
    switch self {
    case .country: 11
    case .metropolis: 12
    case .city: 11
    case .town: 10
    case .village: 9
    }
  }

  var isBold: Bool { self == .country }

  /// Places have a dot at their position and the name beside it; countries are centred.
  var hasDot: Bool { self != .country }

  /// The least population a place needs to be labelled at a zoom (nil: none at that zoom);
  /// which of them get a label is decided by space, the most populous first.
  static func minimumPopulation(atZoom zoom: Int) -> Int? {
    switch zoom {
    case ..<2: nil
    case 2: 8_000_000
    case 3: 3_000_000
    case 4: 1_000_000
    case 5: 500_000
    case 6: 200_000
    case 7: 80_000
    case 8: 30_000
    case 9: 10_000
    default: 3_000
    }
  }
}
