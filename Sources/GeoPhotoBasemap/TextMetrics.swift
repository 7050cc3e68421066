internal import CGeoPhotoCairo

/// Label type with cairo: the face and size of a kind, and the width of a name in it.
enum TextMetrics {
  static let family = "DejaVu Sans"

  static func select(_ kind: LabelKind, in cr: OpaquePointer, scale: Double = 1) {
    cairo_select_font_face(
      cr, family, CAIRO_FONT_SLANT_NORMAL, kind.isBold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cr, kind.fontSize * scale)
  }

  /// The advance of `text` in pixels at scale 1.
  static func width(of text: String, kind: LabelKind) -> Double {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return 0 }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { return 0 }
    defer { cairo_destroy(cr) }
    select(kind, in: cr)
    var extents = cairo_text_extents_t()
    cairo_text_extents(cr, text, &extents)
    return extents.x_advance
  }
}
