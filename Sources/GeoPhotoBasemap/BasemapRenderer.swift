internal import CGeoPhotoCairo
import Foundation

/// A map drawn into a cairo context for an area of a zoom's world (a snapshot's background):
/// the Natural Earth basemap, or it with the street map over it; what it answers are the
/// credits of what it drew.
public protocol MapDrawing: Sendable {
  func drawMap(
    in context: OpaquePointer, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double,
    style: BasemapStyle
  ) -> [String]
}

extension BasemapRenderer: MapDrawing {
  public func drawMap(
    in context: OpaquePointer, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double,
    style: BasemapStyle
  ) -> [String] {
    draw(in: context, zoom: zoom, origin: origin, width: width, height: height, style: style)
    return [Basemap.attribution]
  }
}

/// Draws the basemap with cairo: into a snapshot's context at its own zoom and offset (across
/// the antimeridian as well), or as a 256-pixel Web Mercator tile (`@2x`: 512 pixels).
public struct BasemapRenderer: Sendable {
  public let basemap: Basemap

  public init(basemap: Basemap) { self.basemap = basemap }

  /// The highest zoom a tile is drawn at.
  public static let maximumZoom = 19

  /// Draws the area of `width` × `height` pixels whose top-left corner is pixel `origin` of
  /// the world at `zoom` (x may lie outside one world: the map repeats east and west) into
  /// `context`, a cairo context.
  public func draw(
    in context: OpaquePointer, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double,
    style: BasemapStyle, labels: Bool = true
  ) {
    // Nothing to draw for an area that is not one (a caller's arithmetic gone to ∞ or NaN).
    guard (0...Self.maximumZoom).contains(zoom), origin.x.isFinite, origin.y.isFinite, width.isFinite,
      height.isFinite, width > 0, height > 0
    else { return }
    let cr = context
    let worldSize = 256 * pow(2, Double(zoom))
    let band = BasemapBand.index(forZoom: zoom)
    cairo_save(cr)
    defer { cairo_restore(cr) }
    set(cr, style.sea)
    cairo_rectangle(cr, 0, 0, width, height)
    cairo_fill(cr)
    // The copies of the world the area shows (one, or two across the antimeridian).
    let copies = Int((origin.x / worldSize).rounded(.down))...Int(((origin.x + width) / worldSize).rounded(.down))
    for layer in BasemapLayer.allCases where zoom >= layer.minimumZoom {
      let lineWidth = style.lineWidth(of: layer, zoom: zoom)
      // Every part of the layer in one path: cells and world copies side by side meet without
      // a seam (cairo covers a shared edge once).
      for copy in copies {
        let shift = Double(copy) * worldSize
        let margin = lineWidth + 1
        let box = Basemap.Box(
          west: (origin.x - shift - margin) / worldSize, north: (origin.y - margin) / worldSize,
          east: (origin.x - shift + width + margin) / worldSize, south: (origin.y + height + margin) / worldSize)
        let dx = shift - origin.x
        let dy = -origin.y
        basemap.forEachPart(band: band, layer: layer, in: box) { points in
          guard points.count >= 4 else { return }  // a part of fewer than two points draws nothing
          var i = 0
          cairo_move_to(cr, Double(points[0]) * worldSize + dx, Double(points[1]) * worldSize + dy)
          i = 2
          while i + 1 < points.count {
            cairo_line_to(cr, Double(points[i]) * worldSize + dx, Double(points[i + 1]) * worldSize + dy)
            i += 2
          }
          if layer.isArea { cairo_close_path(cr) }
        }
      }
      set(cr, style.colour(of: layer))
      if layer.isArea {
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_fill(cr)
      } else {
        // Lines are a pixel or so wide: bevelled joins look the same as round ones there, and
        // cost far less to stroke.
        cairo_set_line_width(cr, lineWidth)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
        cairo_stroke(cr)
      }
    }
    if labels { drawLabels(cr, zoom: zoom, origin: origin, width: width, height: height, style: style, copies: copies) }
  }

  private func drawLabels(
    _ cr: OpaquePointer, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double,
    style: BasemapStyle, copies: ClosedRange<Int>
  ) {
    // Above the detail zoom, the detail zoom's labels, spread further apart.
    let labelZoom = min(zoom, BasemapBand.detailZoom)
    let worldSize = 256 * pow(2, Double(zoom))
    let tiles = Double(1 << labelZoom)
    var names: [(Basemap.PlacedLabel, Double, Double)] = []
    for copy in copies {
      let shift = Double(copy) * worldSize
      // The tiles at the label zoom under the area, and one round them: a label's anchor may
      // lie in a neighbouring tile while its name reaches in.
      func tile(_ v: Double) -> Int { Int((v / worldSize * tiles).rounded(.down)) }
      let xs = (tile(origin.x - shift) - 1)...(tile(origin.x - shift + width) + 1)
      let ys = (tile(origin.y) - 1)...(tile(origin.y + height) + 1)
      basemap.forEachLabel(zoom: labelZoom, xs: xs, ys: ys) { label in
        names.append((label, label.x * worldSize + shift - origin.x, label.y * worldSize - origin.y))
      }
    }
    guard !names.isEmpty else { return }
    // Where each name is written, those that reach into the area.
    var shown: [(label: Basemap.PlacedLabel, x: Double, y: Double, textX: Double, textY: Double, text: [CChar])] = []
    for (label, x, y) in names {
      let size = label.kind.fontSize
      let textX = label.kind.hasDot ? (label.onLeft ? x - 5 - label.width : x + 5) : x - label.width / 2
      guard textX + label.width > -4, textX < width + 4, y > -size * 2, y < height + size * 2 else { continue }
      shown.append((label, x, y, textX, y + size * 0.36, label.name.map { CChar(bitPattern: $0) } + [0]))
    }
    // The halos under every name as one path, stroked once; the dots as one path, filled once;
    // then the names.
    for name in shown {
      TextMetrics.select(name.label.kind, in: cr)
      cairo_move_to(cr, name.textX, name.textY)
      name.text.withUnsafeBufferPointer { cairo_text_path(cr, $0.baseAddress) }
    }
    set(cr, style.halo)
    cairo_set_line_width(cr, 2.5)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_stroke(cr)
    for name in shown where name.label.kind.hasDot {
      cairo_new_sub_path(cr)
      cairo_arc(cr, name.x, name.y, name.label.kind == .village ? 1.6 : 2.2, 0, 2 * .pi)
    }
    set(cr, style.text)
    cairo_fill(cr)
    for name in shown {
      TextMetrics.select(name.label.kind, in: cr)
      set(cr, name.label.kind == .country ? style.countryText : style.text)
      cairo_move_to(cr, name.textX, name.textY)
      name.text.withUnsafeBufferPointer { cairo_show_text(cr, $0.baseAddress) }
    }
  }

  private func set(_ cr: OpaquePointer, _ c: BasemapStyle.Colour) { cairo_set_source_rgb(cr, c.r, c.g, c.b) }

  /// Tile `x`, `y` of `zoom` as PNG bytes, 256 × 256 pixels (`scale` 2: 512 × 512, for HiDPI
  /// screens).
  public func tile(zoom: Int, x: Int, y: Int, scale: Int, style: BasemapStyle) throws(TileError) -> [UInt8] {
    guard (0...Self.maximumZoom).contains(zoom) else {
      throw .outOfRange("zoom \(zoom) is not in 0…\(Self.maximumZoom)")
    }
    let n = 1 << zoom
    guard (0..<n).contains(x), (0..<n).contains(y) else {
      throw .outOfRange("tile \(zoom)/\(x)/\(y) does not exist: x and y are 0…\(n - 1) at zoom \(zoom)")
    }
    return try area(
      zoom: zoom, x: Double(x) * 256, y: Double(y) * 256, width: 256, height: 256, scale: scale, style: style)
  }

  /// A PNG of `width` × `height` pixels (times `scale`) whose top-left corner is pixel `x`, `y`
  /// of the world at `zoom`.
  public func area(
    zoom: Int, x: Double, y: Double, width: Int, height: Int, scale: Int = 1, style: BasemapStyle = .light
  ) throws(TileError) -> [UInt8] {
    try Self.image(width: width, height: height, scale: scale) { cr in
      draw(in: cr, zoom: zoom, origin: (x, y), width: Double(width), height: Double(height), style: style)
    }
  }

  /// A PNG of `width` × `height` pixels (times `scale`) that `draw` paints, given a cairo
  /// context scaled so that it draws in pixels at scale 1.
  public static func image(width: Int, height: Int, scale: Int, _ draw: (OpaquePointer) -> Void) throws(TileError)
    -> [UInt8]
  {
    let s = Double(scale)
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width * scale), Int32(height * scale))
    else {
      throw .drawing("cannot create a surface")
    }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { throw .drawing("cannot create a cairo context") }
    defer { cairo_destroy(cr) }
    cairo_scale(cr, s, s)
    draw(cr)
    guard cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
      throw .drawing(String(cString: cairo_status_to_string(cairo_status(cr))))
    }
    cairo_surface_flush(surface)
    // Cairo's RGB24 is a native-endian 32-bit word a pixel, 0x00RRGGBB; PNG wants R, G, B.
    guard let data = cairo_image_surface_get_data(surface) else { throw .drawing("the surface has no pixels") }
    let (w, h) = (width * scale, height * scale)
    let stride = Int(cairo_image_surface_get_stride(surface))
    var rgb = [UInt8](repeating: 0, count: 3 * w * h)
    rgb.withUnsafeMutableBufferPointer { out in
      for row in 0..<h {
        let line = UnsafeRawPointer(data + row * stride)
        var o = 3 * w * row
        for x in 0..<w {
          let p = line.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
          out[o] = UInt8(truncatingIfNeeded: p >> 16)
          out[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
          out[o + 2] = UInt8(truncatingIfNeeded: p)
          o += 3
        }
      }
    }
    do {
      return try PNGEncoder.encode(rgb: rgb, width: w, height: h)
    } catch {
      throw .drawing("PNG: \(error.message)")
    }
  }
}

/// Why a tile cannot be had.
public enum TileError: Error, Equatable, CustomStringConvertible {
  /// The zoom or tile does not exist (the HTTP API answers 404).
  case outOfRange(String)
  case drawing(String)

  public var description: String {
    switch self {
    case .outOfRange(let why): why
    case .drawing(let why): "cannot draw the tile: \(why)"
    }
  }
}
