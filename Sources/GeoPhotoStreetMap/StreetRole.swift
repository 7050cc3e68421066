/// What a feature of a street-map archive is, whatever the schema calls it: the one vocabulary
/// the palette (`StreetPalette`) and the draw order know. Each schema's table (`SchemaTable`)
/// maps its layers and classes to these.
enum StreetRole: Hashable, Sendable {
  // Areas, in draw order.
  case land, farmland, wood, grass, scrub, sand, wetland, ice, rock
  case residential, commercial, industrial, education, hospital, cemetery, military, pitch, parking
  case park
  case water
  case aerodrome, runway
  case building
  // Lines.
  case waterway(WaterwayClass)
  case road(RoadClass, structure: RoadStructure)
  /// A railway; `transit` for trams, subways and light rail (drawn thinner).
  case rail(transit: Bool, structure: RoadStructure)
  case ferry
  case boundary(level: Int, maritime: Bool)

  enum WaterwayClass: Int, Comparable, Sendable {
    case ditch, stream, canal, river
    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  /// Road classes, least important first (drawn first, so the important ones cross on top).
  enum RoadClass: Int, Comparable, CaseIterable, Sendable {
    case path, track, service, minor, tertiary, secondary, primary, trunk, motorway
    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  enum RoadStructure: Int, Comparable, Sendable {
    case tunnel, ground, bridge
    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  /// Areas in the order they are filled; lines come after all of them.
  static let areaOrder: [StreetRole] = [
    .land, .farmland, .wood, .grass, .scrub, .sand, .wetland, .ice, .rock, .residential, .commercial, .industrial,
    .education, .hospital, .cemetery, .military, .pitch, .parking, .park, .water, .aerodrome, .runway,
  ]

  var isArea: Bool { Self.areaOrder.contains(self) || self == .building }
}

/// What a label names, which orders which label wins a place (`priority`).
enum LabelRole: Int, Comparable, Sendable {
  case country, state, city, town, village, suburb, neighbourhood, water, majorRoad, minorRoad, waterway

  static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

  /// The font size in pixels (at scale 1).
  var fontSize: Double {
    switch self {
    case .country: 13
    case .state: 12
    case .city: 14
    case .town: 13
    case .village: 12
    case .suburb, .neighbourhood: 11
    case .water: 11
    case .majorRoad, .minorRoad: 10
    case .waterway: 10
    }
  }

  var isBold: Bool { self == .city || self == .country }
  var isItalic: Bool { self == .water || self == .waterway || self == .suburb || self == .neighbourhood }
  var followsLine: Bool { self == .majorRoad || self == .minorRoad || self == .waterway }
}
