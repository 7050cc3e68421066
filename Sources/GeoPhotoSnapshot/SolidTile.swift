internal import CGeoPhotoCairo
public import Foundation

/// A one-colour 256 × 256 PNG tile, for fixture tile servers in tests and demos.
public enum SolidTile {
  public static func write(_ url: URL, r: Double, g: Double, b: Double) throws {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 256, 256) else {
      throw SnapshotError("cannot create a tile surface")
    }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { throw SnapshotError("cannot create a cairo context") }
    cairo_set_source_rgb(cr, r, g, b)
    cairo_paint(cr)
    cairo_destroy(cr)
    let status = cairo_surface_write_to_png(surface, url.path)
    guard status == CAIRO_STATUS_SUCCESS else { throw SnapshotError("cannot write \(url.path)") }
  }
}
