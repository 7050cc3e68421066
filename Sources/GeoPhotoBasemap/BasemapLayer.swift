/// The basemap's layers, in the order they are drawn, with how each is drawn and from which
/// zoom: the one table the builder, the file and the renderer read.
public enum BasemapLayer: Int, CaseIterable, Sendable {
  case land, glaciers, urban, lakes, rivers, coastline, borders

  /// Filled areas (even-odd: rings are not oriented) or stroked lines.
  public var isArea: Bool {
    switch self {
    case .land, .glaciers, .urban, .lakes: true
    case .rivers, .coastline, .borders: false
    }
  }

  /// The lowest zoom the layer is drawn at.
  public var minimumZoom: Int {
    switch self {
    case .land, .glaciers, .lakes, .borders: 0
    case .coastline: 3
    case .rivers: 4
    case .urban: 6
    }
  }

  /// The Natural Earth source file of a band (`ne110_land`), or nil where the layer is not
  /// drawn in it.
  func source(in band: BasemapBand) -> String? {
    let coarse = band.maximumZoom < 3
    switch self {
    case .land: return coarse ? "ne110_land" : "ne50_land"
    case .borders: return coarse ? "ne110_borders" : "ne50_borders"
    case .glaciers: return "ne50_glaciated_areas"
    case .lakes: return "ne50_lakes"
    case .coastline: return band.maximumZoom < minimumZoom ? nil : "ne50_coastline"
    case .rivers: return band.maximumZoom < minimumZoom ? nil : "ne50_rivers"
    case .urban: return band.maximumZoom < minimumZoom ? nil : "ne50_urban_areas"
    }
  }
}

/// A range of zooms drawn from the same shapes: simplified for its highest zoom and cut into a
/// grid of cells (at `gridZoom`, one cell per tile of that zoom) so a tile reads only the
/// shapes of the cells it covers.
public struct BasemapBand: Sendable, Equatable {
  public let minimumZoom: Int
  public let maximumZoom: Int
  public let gridZoom: Int

  /// The bands, lowest zooms first; zooms above the last are drawn from the last.
  public static let all = [
    BasemapBand(minimumZoom: 0, maximumZoom: 1, gridZoom: 0),
    BasemapBand(minimumZoom: 2, maximumZoom: 2, gridZoom: 1),
    BasemapBand(minimumZoom: 3, maximumZoom: 4, gridZoom: 2),
    BasemapBand(minimumZoom: 5, maximumZoom: 6, gridZoom: 3),
    BasemapBand(minimumZoom: 7, maximumZoom: 8, gridZoom: 4),
    BasemapBand(minimumZoom: 9, maximumZoom: 10, gridZoom: 6),
  ]

  /// The highest zoom with its own shapes and labels; above it, these are drawn larger.
  public static let detailZoom = 10

  static func index(forZoom zoom: Int) -> Int {
    all.firstIndex { zoom <= $0.maximumZoom } ?? all.count - 1
  }

  /// Cells per side of the grid.
  var gridSize: Int { 1 << gridZoom }
}
