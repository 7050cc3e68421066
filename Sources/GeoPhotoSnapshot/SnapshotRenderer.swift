internal import CGeoPhotoCairo
public import Foundation
public import GeoPhotoBasemap
public import GeoPhotoCore

/// What a snapshot shows.
public struct SnapshotContent: Sendable {
  /// A route drawn as a line.
  public var route: [Coordinate] = []
  /// More lines drawn as the route is (tracks, each segment on its own).
  public var lines: [[Coordinate]] = []
  /// Photo pins, with titles for labels.
  public var pins: [(coordinate: Coordinate, title: String)] = []
  /// The area to show; when `nil`, the box around the route, lines and pins.
  public var bounds: BoundingBox?

  public init() {}
}

/// How a snapshot is drawn.
public struct SnapshotStyle: Sendable {
  /// The sides an image may have, in points.
  public static let sizes = 16...8192
  /// The scales an image may be drawn at (2 for HiDPI screens).
  public static let scales = 1...4

  /// Size in points; the image has `width · scale` × `height · scale` pixels.
  public var width = 400
  public var height = 400
  public var scale = 1
  /// Region span as a multiple of the content's bounds (MapKit-style padding).
  public var padding = 1.5
  public var labels = false
  /// geophoto's own map (the Natural Earth basemap, with the street map where an archive has
  /// data), drawn at the snapshot's zoom (offline).
  public var basemap: (any MapDrawing)?
  /// Raster tiles from a tile server, instead; with neither, a plain background with a
  /// graticule.
  public var tiles: TileSource?
  /// The credit drawn in the corner; nil for the credits of what the map drew ("geophoto"
  /// with no map).
  public var attribution: String?

  public init() {}
}

/// A failure to render, in one line.
public struct SnapshotError: Error, Equatable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Renders map snapshots with cairo: the fitted region in Web Mercator, an optional raster
/// basemap (or a graticule), the route as a 5-pixel line with round joins, flag pins for
/// photos, a scale bar and the attribution.
public struct SnapshotRenderer: Sendable {
  public var style: SnapshotStyle

  public init(style: SnapshotStyle) { self.style = style }

  public enum Format: String, Sendable { case png, svg }

  /// The projection and the pixel at the image's top-left corner, for `content`.
  public func frame(for content: SnapshotContent) throws(SnapshotError) -> (
    projection: WebMercator, origin: (x: Double, y: Double)
  ) {
    guard SnapshotStyle.sizes.contains(style.width), SnapshotStyle.sizes.contains(style.height) else {
      throw SnapshotError(
        "the image must be \(SnapshotStyle.sizes.lowerBound) to \(SnapshotStyle.sizes.upperBound) points a side")
    }
    guard SnapshotStyle.scales.contains(style.scale) else {
      throw SnapshotError("the scale must be \(SnapshotStyle.scales.lowerBound) to \(SnapshotStyle.scales.upperBound)")
    }
    guard style.padding.isFinite, style.padding >= 1, style.padding <= 10 else {
      throw SnapshotError("the padding must be 1 to 10")
    }
    if let b = content.bounds {
      guard [b.west, b.east].allSatisfy({ $0.isFinite && abs($0) <= 540 }),
        [b.south, b.north].allSatisfy({ $0.isFinite && abs($0) <= 90 })
      else { throw SnapshotError("the area's bounds are outside the world") }
    }
    let points = content.route + content.lines.joined() + content.pins.map(\.coordinate)
    guard let box = content.bounds ?? RouteGeometry.bounds(points) else {
      throw SnapshotError("nothing to show: no route, photos or area")
    }
    var zoom = WebMercator.fitZoom(
      box, width: Double(style.width), height: Double(style.height), padding: style.padding)
    // A HiDPI image shows the same area: the zoom is the same, every unit is scaled.
    zoom = max(0, min(19, zoom))
    let projection = WebMercator(zoom: zoom)
    let center = projection.center(of: box)
    return (projection, (center.x - Double(style.width) / 2, center.y - Double(style.height) / 2))
  }

  /// Where a coordinate lands in the image, in points (multiply by `scale` for pixels).
  public func position(of c: Coordinate, projection: WebMercator, origin: (x: Double, y: Double)) -> (
    x: Double, y: Double
  ) {
    var p = projection.point(c)
    // Across the antimeridian, points west of the view's left edge belong one world east.
    if p.x < origin.x - projection.worldSize / 2 { p.x += projection.worldSize }
    return (p.x - origin.x, p.y - origin.y)
  }

  /// Renders to `url` (`.png` or `.svg`).
  public func render(_ content: SnapshotContent, format: Format, to url: URL) throws(SnapshotError) {
    let (projection, origin) = try frame(for: content)
    let w = Double(style.width)
    let h = Double(style.height)
    let s = Double(max(1, style.scale))
    let surface: OpaquePointer?
    switch format {
    case .png:
      surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w * s), Int32(h * s))
    case .svg:
      surface = cairo_svg_surface_create(url.path, w * s, h * s)
      if let surface { cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX) }
    }
    guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
      throw SnapshotError("cannot create the \(format.rawValue) surface for \(url.path)")
    }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { throw SnapshotError("cannot create a cairo context") }
    defer { cairo_destroy(cr) }
    cairo_scale(cr, s, s)

    let credits = drawBackground(cr, projection: projection, origin: origin)
    for line in [content.route] + content.lines { drawRoute(cr, line, projection: projection, origin: origin) }
    drawPins(cr, content.pins, projection: projection, origin: origin)
    drawScaleBar(cr, projection: projection, origin: origin)
    drawAttribution(cr, credits: credits)

    if cairo_status(cr) != CAIRO_STATUS_SUCCESS {
      throw SnapshotError("drawing failed: \(String(cString: cairo_status_to_string(cairo_status(cr))))")
    }
    switch format {
    case .png:
      cairo_surface_flush(surface)
      let status = cairo_surface_write_to_png(surface, url.path)
      guard status == CAIRO_STATUS_SUCCESS else {
        throw SnapshotError("cannot write \(url.path): \(String(cString: cairo_status_to_string(status)))")
      }
    case .svg:
      cairo_surface_finish(surface)
      let status = cairo_surface_status(surface)
      guard status == CAIRO_STATUS_SUCCESS else {
        throw SnapshotError("cannot write \(url.path): \(String(cString: cairo_status_to_string(status)))")
      }
    }
  }

  // MARK: - Layers

  static let background = (0.89, 0.92, 0.94)
  /// The route colour (a clear blue), public so tests can look for it.
  public static let routeColor = (0.09, 0.42, 0.86)
  public static let pinColor = (0.84, 0.2, 0.42)

  /// The map under everything; the credits of what it drew.
  private func drawBackground(_ cr: OpaquePointer, projection: WebMercator, origin: (x: Double, y: Double))
    -> [String]
  {
    cairo_set_source_rgb(cr, Self.background.0, Self.background.1, Self.background.2)
    cairo_paint(cr)
    if let tiles = style.tiles {
      tiles.draw(
        cr, projection: projection, origin: origin, width: style.width, height: style.height, scale: style.scale)
      return []
    }
    if let basemap = style.basemap {
      return basemap.drawMap(
        in: cr, zoom: projection.zoom, origin: origin, width: Double(style.width), height: Double(style.height),
        style: .light)
    }
    // A graticule: meridians and parallels at a step that gives a few lines per image.
    let span = Double(style.width) * projection.metresPerPixel(atLatitude: 0) / 111_320
    let steps: [Double] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30]
    let step = steps.first { span / $0 <= 6 } ?? 30
    let topLeft = projection.coordinate(x: origin.x, y: origin.y)
    let bottomRight = projection.coordinate(x: origin.x + Double(style.width), y: origin.y + Double(style.height))
    cairo_set_source_rgba(cr, 0.55, 0.62, 0.68, 0.6)
    cairo_set_line_width(cr, 0.5)
    var lon = (topLeft.longitude / step).rounded(.down) * step
    while lon <= bottomRight.longitude {
      let x = projection.point(Coordinate(latitude: 0, longitude: lon)).x - origin.x
      cairo_move_to(cr, x, 0)
      cairo_line_to(cr, x, Double(style.height))
      lon += step
    }
    var lat = (bottomRight.latitude / step).rounded(.down) * step
    while lat <= topLeft.latitude {
      let y = projection.point(Coordinate(latitude: lat, longitude: 0)).y - origin.y
      cairo_move_to(cr, 0, y)
      cairo_line_to(cr, Double(style.width), y)
      lat += step
    }
    cairo_stroke(cr)
    return []
  }

  private func drawRoute(
    _ cr: OpaquePointer, _ route: [Coordinate], projection: WebMercator, origin: (x: Double, y: Double)
  ) {
    guard route.count > 1 else { return }
    cairo_set_source_rgb(cr, Self.routeColor.0, Self.routeColor.1, Self.routeColor.2)
    cairo_set_line_width(cr, 5)
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    var previous: (x: Double, y: Double)?
    for c in route {
      var p = position(of: c, projection: projection, origin: origin)
      // Keep consecutive points on the same side of the antimeridian.
      if let q = previous {
        if p.x - q.x > projection.worldSize / 2 { p.x -= projection.worldSize }
        if q.x - p.x > projection.worldSize / 2 { p.x += projection.worldSize }
      }
      if previous == nil { cairo_move_to(cr, p.x, p.y) } else { cairo_line_to(cr, p.x, p.y) }
      previous = p
    }
    cairo_stroke(cr)
  }

  /// A flag: a pole standing on the photo's position, a pennant at its top.
  private func drawPins(
    _ cr: OpaquePointer, _ pins: [(coordinate: Coordinate, title: String)], projection: WebMercator,
    origin: (x: Double, y: Double)
  ) {
    for pin in pins {
      let p = position(of: pin.coordinate, projection: projection, origin: origin)
      cairo_set_source_rgb(cr, 0.15, 0.15, 0.15)
      cairo_set_line_width(cr, 1.5)
      cairo_move_to(cr, p.x, p.y)
      cairo_line_to(cr, p.x, p.y - 18)
      cairo_stroke(cr)
      cairo_set_source_rgb(cr, Self.pinColor.0, Self.pinColor.1, Self.pinColor.2)
      cairo_move_to(cr, p.x, p.y - 18)
      cairo_line_to(cr, p.x + 11, p.y - 14)
      cairo_line_to(cr, p.x, p.y - 10)
      cairo_close_path(cr)
      cairo_fill(cr)
      cairo_arc(cr, p.x, p.y, 2, 0, 2 * .pi)
      cairo_fill(cr)
      if style.labels && !pin.title.isEmpty {
        text(cr, String(pin.title.prefix(40)), x: p.x + 13, y: p.y - 11, size: 10, halo: true)
      }
    }
  }

  private func drawScaleBar(_ cr: OpaquePointer, projection: WebMercator, origin: (x: Double, y: Double)) {
    let centre = projection.coordinate(x: origin.x + Double(style.width) / 2, y: origin.y + Double(style.height) / 2)
    let perPixel = projection.metresPerPixel(atLatitude: centre.latitude)
    // The longest 1-2-5 length that fits in a quarter of the width.
    let maximum = perPixel * Double(style.width) / 4
    var length = 1.0
    for exponent in 0..<8 {
      for factor in [1.0, 2.0, 5.0] {
        let candidate = factor * pow(10, Double(exponent))
        if candidate <= maximum { length = candidate }
      }
    }
    let pixels = length / perPixel
    let x = 10.0
    let y = Double(style.height) - 12
    cairo_set_source_rgba(cr, 1, 1, 1, 0.7)
    cairo_rectangle(cr, x - 4, y - 14, pixels + 8, 20)
    cairo_fill(cr)
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
    cairo_set_line_width(cr, 2)
    cairo_move_to(cr, x, y - 4)
    cairo_line_to(cr, x, y)
    cairo_line_to(cr, x + pixels, y)
    cairo_line_to(cr, x + pixels, y - 4)
    cairo_stroke(cr)
    text(cr, DistanceFormat.human(length), x: x + 2, y: y - 5, size: 9, halo: false)
  }

  private func drawAttribution(_ cr: OpaquePointer, credits: [String]) {
    let label =
      style.tiles?.attribution ?? style.attribution ?? (credits.isEmpty ? "geophoto" : credits.joined(separator: " · "))
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cr, 9)
    var extents = cairo_text_extents_t()
    cairo_text_extents(cr, label, &extents)
    let x = Double(style.width) - extents.x_advance - 6
    let y = Double(style.height) - 5
    cairo_set_source_rgba(cr, 1, 1, 1, 0.75)
    cairo_rectangle(cr, x - 3, y - 10, extents.x_advance + 6, 14)
    cairo_fill(cr)
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
    cairo_move_to(cr, x, y)
    cairo_show_text(cr, label)
  }

  private func text(_ cr: OpaquePointer, _ label: String, x: Double, y: Double, size: Double, halo: Bool) {
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cr, size)
    if halo {
      cairo_move_to(cr, x, y)
      cairo_text_path(cr, label)
      cairo_set_source_rgba(cr, 1, 1, 1, 0.85)
      cairo_set_line_width(cr, 3)
      cairo_stroke(cr)
    }
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
    cairo_move_to(cr, x, y)
    cairo_show_text(cr, label)
  }
}

/// Reads back a PNG, for checks of what was drawn: the colour of a pixel.
public struct PNGImage {
  public let width: Int
  public let height: Int
  private let pixels: [UInt32]

  public init(contentsOf url: URL) throws(SnapshotError) {
    guard let surface = cairo_image_surface_create_from_png(url.path) else {
      throw SnapshotError("cannot read \(url.path)")
    }
    defer { cairo_surface_destroy(surface) }
    let status = cairo_surface_status(surface)
    guard status == CAIRO_STATUS_SUCCESS else {
      throw SnapshotError("\(url.path) is not a readable PNG: \(String(cString: cairo_status_to_string(status)))")
    }
    cairo_surface_flush(surface)
    width = Int(cairo_image_surface_get_width(surface))
    height = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard let data = cairo_image_surface_get_data(surface) else { throw SnapshotError("\(url.path) has no pixels") }
    var pixels = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        pixels[y * width + x] = (data + y * stride + 4 * x).withMemoryRebound(to: UInt32.self, capacity: 1) {
          $0.pointee
        }
      }
    }
    self.pixels = pixels
  }

  /// Red, green, blue in 0…255 (ARGB32 is native-endian and premultiplied; opaque here).
  public func rgb(x: Int, y: Int) -> (r: Int, g: Int, b: Int)? {
    guard x >= 0, y >= 0, x < width, y < height else { return nil }
    let p = pixels[y * width + x]
    return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
  }
}
