/// The basemap's colours: a light style and a dark one (for systems in dark mode), chosen by
/// name in tile URLs (`?style=dark`).
public enum BasemapStyle: String, CaseIterable, Sendable {
  case light, dark

  struct Colour {
    var r, g, b: Double
    init(_ hex: UInt32) {
      r = Double(hex >> 16 & 0xFF) / 255
      g = Double(hex >> 8 & 0xFF) / 255
      b = Double(hex & 0xFF) / 255
    }
  }

  var sea: Colour { self == .light ? Colour(0xAAD0E2) : Colour(0x17212B) }
  var land: Colour { self == .light ? Colour(0xF2EFE9) : Colour(0x2B2D31) }
  var glacier: Colour { self == .light ? Colour(0xFDFEFF) : Colour(0x3A3F46) }
  var urban: Colour { self == .light ? Colour(0xE4DDD3) : Colour(0x3A3836) }
  var water: Colour { sea }
  var river: Colour { self == .light ? Colour(0x8FBCD6) : Colour(0x2C4357) }
  var coast: Colour { self == .light ? Colour(0x86AFC6) : Colour(0x33495C) }
  var border: Colour { self == .light ? Colour(0xA48CB0) : Colour(0x6C5F78) }
  var text: Colour { self == .light ? Colour(0x2F2F2F) : Colour(0xDADCE0) }
  var countryText: Colour { self == .light ? Colour(0x6B5B73) : Colour(0xB4A8BE) }
  var halo: Colour { self == .light ? Colour(0xFFFFFF) : Colour(0x15181C) }

  func colour(of layer: BasemapLayer) -> Colour {
    switch layer {
    case .land: land
    case .glaciers: glacier
    case .urban: urban
    case .lakes: water
    case .rivers: river
    case .coastline: coast
    case .borders: border
    }
  }

  /// Line widths in pixels at a zoom.
  func lineWidth(of layer: BasemapLayer, zoom: Int) -> Double {
    switch layer {
    case .rivers: zoom < 6 ? 0.6 : zoom < 8 ? 0.9 : 1.3
    case .coastline: zoom < 6 ? 0.7 : 1.0
    case .borders: zoom < 3 ? 0.6 : zoom < 6 ? 0.9 : 1.3
    // Areas are filled, not stroked.
    case .land, .glaciers, .urban, .lakes: 0
    }
  }
}
