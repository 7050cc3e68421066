internal import CGeoPhotoCairo
import Foundation

/// Draws prepared source tiles into a cairo context in the street map's order: areas (land
/// cover and use, parks, water), waterways, tunnels, buildings, roads (every casing, then every
/// fill, least important class first, so junctions merge), railways, bridges (casings and fills
/// over everything on the ground), borders. Parts outside the area are skipped by their boxes.
struct Painter {
  let cr: OpaquePointer
  let zoom: Int
  let origin: (x: Double, y: Double)
  let width: Double
  let height: Double
  let palette: StreetPalette

  /// Where a role's lines go in the order, and whether they are a road network's (cased).
  private static func group(_ role: StreetRole) -> Int {
    switch role {
    case .waterway: 0
    case .road(_, .tunnel), .rail(_, .tunnel): 1
    case .road(_, .ground): 3
    case .rail(_, .ground), .ferry: 4
    case .road(_, .bridge), .rail(_, .bridge): 5
    case .boundary: 6
    default: 2
    }
  }

  private static func rank(_ role: StreetRole) -> Int {
    switch role {
    case .waterway(let kind): kind.rawValue
    case .road(let kind, _): kind.rawValue
    case .rail: 20
    case .ferry: 21
    case .boundary(let level, _): -level
    default: 0
    }
  }

  func draw(_ tiles: [PreparedTile]) {
    let z = Double(zoom)
    for role in StreetRole.areaOrder {
      guard addParts(of: role, in: tiles, areas: true, margin: 0), let colour = palette.fill(role) else {
        cairo_new_path(cr)
        continue
      }
      set(colour)
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
      cairo_fill(cr)
    }
    var lineRoles = Set<StreetRole>()
    for tile in tiles { lineRoles.formUnion(tile.lines.keys) }
    let ordered = lineRoles.filter { z >= StreetPalette.minimumZoom($0) }.sorted {
      (Self.group($0), Self.rank($0)) < (Self.group($1), Self.rank($1))
    }
    var i = 0
    while i < ordered.count {
      let group = Self.group(ordered[i])
      var j = i
      while j < ordered.count && Self.group(ordered[j]) == group { j += 1 }
      let roles = Array(ordered[i..<j])
      if group == 3 && zoom >= 15 { drawBuildings(tiles) }
      // Casings first, then fills.
      for role in roles {
        guard let widths = StreetPalette.width(role, zoom: z), widths.total > widths.fill,
          let casing = palette.line(role).casing
        else { continue }
        stroke(role, in: tiles, width: widths.total, colour: casing, dashed: Self.group(role) == 1)
      }
      for role in roles {
        guard let widths = StreetPalette.width(role, zoom: z) else { continue }
        stroke(role, in: tiles, width: widths.fill, colour: palette.line(role).fill, dashed: false)
        if case .rail(false, _) = role, zoom >= 14 {
          stroke(role, in: tiles, width: widths.fill * 0.5, colour: palette.land, dashed: true)
        }
        if case .boundary(let level, _) = role, level > 2 { continue }
      }
      i = j
    }
    if !ordered.contains(where: { Self.group($0) == 3 }) && zoom >= 15 { drawBuildings(tiles) }
  }

  private func drawBuildings(_ tiles: [PreparedTile]) {
    guard addParts(of: .building, in: tiles, areas: true, margin: 0), let colour = palette.fill(.building) else {
      cairo_new_path(cr)
      return
    }
    set(colour)
    if zoom >= 16 {
      cairo_fill_preserve(cr)
      set(palette.buildingOutline)
      cairo_set_line_width(cr, 0.6)
      cairo_stroke(cr)
    } else {
      cairo_fill(cr)
    }
  }

  private func stroke(
    _ role: StreetRole, in tiles: [PreparedTile], width: Double, colour: StreetPalette.Colour, dashed: Bool
  ) {
    guard width > 0, addParts(of: role, in: tiles, areas: false, margin: width) else {
      cairo_new_path(cr)
      return
    }
    set(colour)
    cairo_set_line_width(cr, width)
    if case .road = role {
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
      cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    } else {
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
      cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
    }
    if dashed {
      let dashes = [max(2, width * 1.5), max(2, width * 1.5)]
      cairo_set_dash(cr, dashes, 2, 0)
    }
    cairo_stroke(cr)
    if dashed { cairo_set_dash(cr, nil, 0, 0) }
  }

  /// Adds the visible parts of `role` to the current path; whether any was.
  private func addParts(of role: StreetRole, in tiles: [PreparedTile], areas: Bool, margin: Double) -> Bool {
    var any = false
    for tile in tiles {
      guard let paths = areas ? tile.areas[role] : tile.lines[role] else { continue }
      let k = 256 * pow(2, Double(zoom - tile.address.zoom))
      let ox = Double(tile.column) * k - origin.x
      let oy = Double(tile.address.y) * k - origin.y
      let m = margin + 1
      for (i, box) in paths.boxes.enumerated() {
        guard ox + box.maxX * k >= -m, ox + box.minX * k <= width + m, oy + box.maxY * k >= -m,
          oy + box.minY * k <= height + m
        else { continue }
        let range = paths.part(i)
        var p = range.lowerBound
        cairo_move_to(cr, ox + paths.points[p] * k, oy + paths.points[p + 1] * k)
        p += 2
        while p + 1 < range.upperBound {
          cairo_line_to(cr, ox + paths.points[p] * k, oy + paths.points[p + 1] * k)
          p += 2
        }
        if areas { cairo_close_path(cr) }
        any = true
      }
    }
    return any
  }

  private func set(_ c: StreetPalette.Colour) { cairo_set_source_rgb(cr, c.r, c.g, c.b) }
}

/// Draws placed labels: a halo of the background's colour around each name (the name drawn
/// eight times a pixel off, then once on top), upright and along its road where it follows one.
struct LabelPainter {
  let cr: OpaquePointer
  let origin: (x: Double, y: Double)
  let palette: StreetPalette

  func draw(_ labels: [PlacedLabel], width: Double, height: Double) {
    cairo_save(cr)
    defer { cairo_restore(cr) }
    for label in labels {
      let x = label.x - origin.x
      let y = label.y - origin.y
      guard x > -label.width - 20, x < width + label.width + 20, y > -40, y < height + 40 else { continue }
      TextMeasure.select(label.role, in: cr)
      let baseline = label.role.fontSize * 0.36
      let text = palette.colour(for: label.role)
      cairo_save(cr)
      cairo_translate(cr, x, y)
      if label.angle != 0 { cairo_rotate(cr, label.angle) }
      cairo_set_source_rgb(cr, palette.halo.r, palette.halo.g, palette.halo.b)
      for (dx, dy) in [(-1.0, -1.0), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
        cairo_move_to(cr, -label.width / 2 + dx, baseline + dy)
        cairo_show_text(cr, label.text)
      }
      cairo_set_source_rgb(cr, text.r, text.g, text.b)
      cairo_move_to(cr, -label.width / 2, baseline)
      cairo_show_text(cr, label.text)
      cairo_restore(cr)
    }
  }
}

extension StreetPalette {
  func colour(for role: LabelRole) -> Colour {
    switch role {
    case .water, .waterway: waterText
    case .majorRoad, .minorRoad: roadText
    default: text
    }
  }
}
