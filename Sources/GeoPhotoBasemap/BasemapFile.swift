import GeoPhotoCore

/// The basemap file: a `SectionedFile` (magic `GPBASEMP`, version 2). Positions are Web Mercator in
/// world units (0…1 from west to east and from north to south) as `Float` pairs.
///
/// - Shapes: for each band and layer (`grids`, in band-major order), a grid of cells; each
///   cell's parts are consecutive (`cellStarts` points into the parts). A part is a ring of an
///   area or a piece of a line, cut to its cell (lines to the cell grown by `lineMargin`), with
///   its points (`partStarts` into `points`) and its box (`partBoxes`: west, north, east, south).
/// - Labels: each label's anchor, name (offset into `strings`), kind and text width; for each
///   zoom 0…`BasemapBand.detailZoom` (`zoomStarts`), the labels placed at it, sorted by the
///   tile of their anchor (`entryTiles`: y · 2^zoom + x), with the side of the anchor they are
///   written on (`entryLabels`: label index · 2 + side).
enum BasemapFile {
  static let layout = Layout(SectionedFile.Kind(magic: "GPBASEMP", version: 2, name: "basemap"))
  typealias Layout = NamedSections<Section>

  enum Section: Int, CaseIterable {
    case grids, cellStarts, partStarts, partBoxes, points
    case labelPoints, labelNames, labelKinds, labelWidths, zoomStarts, entryTiles, entryLabels
    case strings
  }

  /// How far past its cell a line is kept, in pixels at the band's lowest zoom: lines near a
  /// cell's edge are drawn whole in the tiles on both sides.
  static let lineMarginPixels = 3.0
}
