import GeoPhotoBasemap

/// The street map's colours and widths, light and dark: one table, read by the renderer for
/// every schema. Colours are 0xRRGGBB; widths are pixels on a 256-pixel tile, by zoom, between
/// stops (linear in between, held beyond).
struct StreetPalette: Sendable {
  struct Colour: Equatable, Sendable {
    var r, g, b: Double
    init(_ hex: UInt32) {
      r = Double(hex >> 16 & 0xFF) / 255
      g = Double(hex >> 8 & 0xFF) / 255
      b = Double(hex & 0xFF) / 255
    }
  }

  let style: BasemapStyle
  var isDark: Bool { style == .dark }

  private func pick(_ light: UInt32, _ dark: UInt32) -> Colour { Colour(isDark ? dark : light) }

  var land: Colour { pick(0xF2EFE9, 0x2B2D31) }
  var text: Colour { pick(0x333333, 0xDADCE0) }
  var halo: Colour { pick(0xFFFFFF, 0x15181C) }
  var waterText: Colour { pick(0x4A6F8A, 0x8FB3CF) }
  var roadText: Colour { pick(0x444444, 0xC8CACE) }

  /// An area's fill.
  func fill(_ role: StreetRole) -> Colour? {
    switch role {
    case .land: land
    case .farmland: pick(0xEEF0D5, 0x2F3329)
    case .wood: pick(0xADD19E, 0x26382A)
    case .grass, .park: pick(0xC8E6B0, 0x2A3B2D)
    case .scrub: pick(0xC8D7AB, 0x2D3A2E)
    case .sand: pick(0xF5E9C6, 0x3A3629)
    case .wetland: pick(0xD6E8D5, 0x2A3634)
    case .ice: pick(0xFDFEFF, 0x3A3F46)
    case .rock: pick(0xE0DCD6, 0x34343A)
    case .residential: pick(0xE8E4DE, 0x303236)
    case .commercial: pick(0xF2DAD9, 0x3A3034)
    case .industrial: pick(0xEBDBE8, 0x35303A)
    case .education, .hospital: pick(0xF0E8D0, 0x36342C)
    case .cemetery: pick(0xAACBAF, 0x2B3A30)
    case .military: pick(0xF2D8D2, 0x3A2F2F)
    case .pitch: pick(0xAAE0CB, 0x28403A)
    case .parking: pick(0xEEEEEE, 0x35373B)
    case .water: pick(0xAAD3DF, 0x17212B)
    case .aerodrome: pick(0xE9E7E2, 0x323338)
    case .runway: pick(0xBBBBCC, 0x4A4C55)
    case .building: pick(0xD9D0C9, 0x3D3E44)
    default: nil
    }
  }

  var buildingOutline: Colour { pick(0xC4B6AB, 0x4A4B52) }

  /// A line's colour, and its casing's when it has one.
  func line(_ role: StreetRole) -> (fill: Colour, casing: Colour?) {
    let none: Colour? = nil
    switch role {
    case .waterway: return (pick(0xAAD3DF, 0x23384A), none)
    case .road(let kind, let structure):
      let fill: Colour =
        switch kind {
        case .motorway: pick(0xE892A2, 0x8A5A62)
        case .trunk: pick(0xF9B29C, 0x8A6A5A)
        case .primary: pick(0xFCD6A4, 0x8A7658)
        case .secondary: pick(0xF7FABF, 0x6E6E58)
        case .tertiary, .minor, .service: pick(0xFFFFFF, 0x55575C)
        case .track: pick(0xC8B487, 0x6A5F48)
        case .path: pick(0xFA8072, 0x9A6A62)
        }
      let casing: Colour? =
        switch kind {
        case .path, .track: none
        case .motorway: pick(0xDC2A67, 0x3A2A2E)
        case .trunk: pick(0xC84E2F, 0x3A2E2A)
        case .primary: pick(0xA06B00, 0x3A342A)
        case .secondary: pick(0x707D05, 0x33332A)
        default: pick(0xBBBBBB, 0x222327)
        }
      // Tunnels lighter, their casings faded.
      guard structure == .tunnel else { return (fill, casing) }
      return (mix(fill, land, 0.5), casing.map { mix($0, land, 0.6) })
    case .rail(_, let structure):
      return (structure == .tunnel ? pick(0xBBBBBB, 0x555555) : pick(0x707070, 0x8A8A8A), none)
    case .ferry: return (pick(0x6699CC, 0x3A5A7A), none)
    case .boundary(let level, _): return (level <= 2 ? pick(0x8E6C9E, 0x8A7A96) : pick(0xA48CB0, 0x6C5F78), none)
    default: return (text, none)
    }
  }

  private func mix(_ a: Colour, _ b: Colour, _ t: Double) -> Colour {
    var c = a
    c.r = a.r + (b.r - a.r) * t
    c.g = a.g + (b.g - a.g) * t
    c.b = a.b + (b.b - a.b) * t
    return c
  }

  /// Widths by zoom of a line: its fill and its whole width with the casing on both sides.
  static func width(_ role: StreetRole, zoom: Double) -> (fill: Double, total: Double)? {
    switch role {
    case .road(let kind, _):
      // OpenMapTiles' reference widths, read at the 256-pixel zoom.
      let stops: [(Double, Double, Double)] =
        switch kind {
        case .motorway:
          [
            (6, 0.6, 0.9), (8, 1.0, 1.8), (10, 2.6, 3.5), (12, 5.0, 6.0), (14, 8.4, 9.5), (16, 13.3, 14.7),
            (18, 20.4, 22.1),
          ]
        case .trunk, .primary:
          [(7, 0.5, 0.5), (8, 1.0, 1.0), (10, 1.8, 1.8), (12, 2.5, 3.5), (14, 4.0, 5.0), (16, 8.6, 10), (18, 19, 21)]
        case .secondary: [(9, 0.5, 0.5), (10, 1.1, 1.1), (12, 2.9, 3.5), (14, 4.3, 5.0), (16, 8.6, 10), (18, 19, 21)]
        case .tertiary: [(10, 0.7, 0.7), (12, 1.9, 2.5), (14, 3.9, 5.0), (16, 8.8, 10), (18, 19.4, 21)]
        case .minor: [(12, 0.5, 0.5), (13, 1.0, 1.0), (14, 1.9, 3.0), (16, 4.8, 6.0), (18, 11.4, 13)]
        case .service: [(13, 0.5, 0.5), (14, 0.9, 2.0), (16, 2.3, 3.5), (18, 6.9, 8.5)]
        case .track: [(13, 0.5, 0.5), (14, 0.8, 0.8), (16, 1.5, 1.5), (18, 2.5, 2.5)]
        case .path: [(14, 0.6, 0.6), (16, 1.0, 1.0), (18, 1.5, 1.5)]
        }
      return interpolate(stops, zoom)
    case .rail(let transit, _):
      let widths = interpolate([(10, 0.6, 0.6), (14, 1.2, 1.2), (18, 2.5, 2.5)], zoom)
      return transit ? (widths.0 * 0.6, widths.1 * 0.6) : widths
    case .waterway(let kind):
      switch kind {
      case .river: return interpolate([(8, 0.6, 0.6), (12, 1.5, 1.5), (14, 3, 3), (18, 10, 10)], zoom)
      case .canal: return interpolate([(10, 0.5, 0.5), (14, 2, 2), (18, 6, 6)], zoom)
      case .stream, .ditch: return interpolate([(12, 0.4, 0.4), (14, 1, 1), (18, 2.5, 2.5)], zoom)
      }
    case .ferry: return interpolate([(8, 0.6, 0.6), (14, 1.2, 1.2)], zoom)
    case .boundary(let level, _):
      return level <= 2 ? interpolate([(2, 0.6, 0.6), (8, 1.2, 1.2), (14, 2, 2)], zoom) : (0.8, 0.8)
    default: return nil
    }
  }

  /// The first zoom a line is drawn at.
  static func minimumZoom(_ role: StreetRole) -> Double {
    switch role {
    case .road(let kind, _):
      switch kind {
      case .motorway: 5
      case .trunk, .primary: 7
      case .secondary: 9
      case .tertiary: 10
      case .minor: 12
      case .service, .track: 13
      case .path: 14
      }
    case .rail: 10
    case .waterway(let kind): kind == .river ? 8 : kind == .canal ? 10 : 12
    case .building: 15
    default: 0
    }
  }

  private static func interpolate(_ stops: [(Double, Double, Double)], _ zoom: Double) -> (Double, Double) {
    guard let first = stops.first, let last = stops.last else { return (0, 0) }
    if zoom <= first.0 { return (first.1, first.2) }
    if zoom >= last.0 { return (last.1, last.2) }
    for (a, b) in zip(stops, stops.dropFirst()) where zoom <= b.0 {
      let t = (zoom - a.0) / (b.0 - a.0)
      return (a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }
    return (last.1, last.2)
  }
}
