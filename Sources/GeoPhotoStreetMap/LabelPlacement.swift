internal import CGeoPhotoCairo
import Foundation
import GeoPhotoVectorTiles

/// A label where it is drawn: its anchor in world pixels at the zoom drawn (scale 1), its angle
/// (lines' names follow them, upright), and its width.
struct PlacedLabel: Sendable {
  var role: LabelRole
  var text: String
  var x: Double
  var y: Double
  var angle: Double
  var width: Double
}

/// Labels placed without seams: the labels of one source tile are decided from the candidates of
/// it and its eight neighbours, in one fixed order (role, rank, name, position), greedily, each
/// kept where it overlaps no label placed before; of those, the tile keeps the ones anchored in
/// its own square. Every output tile that shows a label draws it from the same decision, so
/// adjacent tiles agree and no name is cut at a tile edge.
enum LabelPlacement {
  /// Padding around a label's box, pixels.
  static let padding = 3.0
  /// Distance between two labels of the same road or river, pixels.
  static let repeatDistance = 250.0

  /// The labels tile `own` keeps at `zoom`, from `tiles` (it and its neighbours, prepared).
  static func place(own: TileAddress, tiles: [PreparedTile], zoom: Int) -> [PlacedLabel] {
    guard let measuring = TextMeasure() else { return [] }
    struct Candidate {
      var label: PlacedLabel
      var rank: Double
      var boxes: [(Double, Double, Double, Double)]
    }
    var candidates: [Candidate] = []
    for tile in tiles {
      let k = 256 * pow(2, Double(zoom - tile.address.zoom))
      let ox = Double(tile.column) * k
      let oy = Double(tile.address.y) * k
      for c in tile.labels {
        let width = measuring.width(c.text, c.role)
        let height = c.role.fontSize * 1.2
        if c.line.isEmpty {
          let x = ox + c.x * k
          let y = oy + c.y * k
          let label = PlacedLabel(role: c.role, text: c.text, x: x, y: y, angle: 0, width: width)
          candidates.append(
            Candidate(
              label: label, rank: c.rank,
              boxes: [
                (x - width / 2 - padding, y - height / 2 - padding, x + width / 2 + padding, y + height / 2 + padding)
              ]))
        } else {
          var points: [(Double, Double)] = []
          var i = 0
          while i + 1 < c.line.count {
            points.append((ox + c.line[i] * k, oy + c.line[i + 1] * k))
            i += 2
          }
          for (x, y, angle) in anchors(along: points, length: width + 2 * padding) {
            let label = PlacedLabel(role: c.role, text: c.text, x: x, y: y, angle: angle, width: width)
            // A chain of squares along the line, as tall as the text.
            let n = max(1, Int((width / height).rounded(.up)))
            var boxes: [(Double, Double, Double, Double)] = []
            for j in 0..<n {
              let t = (Double(j) + 0.5) / Double(n) * width - width / 2
              let cx = x + cos(angle) * t
              let cy = y + sin(angle) * t
              boxes.append((cx - height / 2, cy - height / 2, cx + height / 2, cy + height / 2))
            }
            candidates.append(Candidate(label: label, rank: c.rank, boxes: boxes))
          }
        }
      }
    }
    // One order for every tile that sees these candidates.
    candidates.sort { a, b in
      if a.label.role != b.label.role { return a.label.role < b.label.role }
      if a.rank != b.rank { return a.rank < b.rank }
      if a.label.text != b.label.text { return a.label.text < b.label.text }
      let (ay, by) = (a.label.y.rounded(), b.label.y.rounded())
      if ay != by { return ay < by }
      return a.label.x.rounded() < b.label.x.rounded()
    }
    let k = 256 * pow(2, Double(zoom - own.zoom))
    let ownX = (Double(own.x) * k)..<(Double(own.x + 1) * k)
    let ownY = (Double(own.y) * k)..<(Double(own.y + 1) * k)
    var grid = CollisionGrid()
    var placedByName: [String: [(Double, Double)]] = [:]
    var kept: [PlacedLabel] = []
    for candidate in candidates {
      let label = candidate.label
      if label.role.followsLine,
        placedByName[label.text]?.contains(where: { hypot($0.0 - label.x, $0.1 - label.y) < repeatDistance }) == true
      {
        continue
      }
      guard !grid.overlaps(candidate.boxes) else { continue }
      grid.insert(candidate.boxes)
      placedByName[label.text, default: []].append((label.x, label.y))
      if ownX.contains(label.x) && ownY.contains(label.y) { kept.append(label) }
    }
    return kept
  }

  /// Where a name of `length` pixels fits on the line `points` (world pixels): the middles of
  /// its nearly straight stretches long enough to hold it, every `repeatDistance` along long
  /// ones, with the stretch's angle turned upright.
  static func anchors(along points: [(Double, Double)], length: Double) -> [(Double, Double, Double)] {
    guard points.count >= 2 else { return [] }
    var found: [(Double, Double, Double)] = []
    var start = 0
    while start < points.count - 1 {
      // The stretch from `start` while each segment keeps within 20° of its first.
      let heading = atan2(points[start + 1].1 - points[start].1, points[start + 1].0 - points[start].0)
      var end = start + 1
      while end + 1 < points.count {
        let next = atan2(points[end + 1].1 - points[end].1, points[end + 1].0 - points[end].0)
        var turn = abs(next - heading)
        if turn > .pi { turn = 2 * .pi - turn }
        guard turn <= .pi / 9 else { break }
        end += 1
      }
      let (x0, y0) = points[start]
      let (x1, y1) = points[end]
      let stretch = hypot(x1 - x0, y1 - y0)
      if stretch >= length {
        var angle = atan2(y1 - y0, x1 - x0)
        if cos(angle) < 0 { angle += .pi }
        if angle > .pi { angle -= 2 * .pi }
        // At most 16 along one stretch: a line no tile could show whole gets a few, not millions.
        let count = max(1, min(16, Int(min(stretch / repeatDistance, 16))))
        for j in 0..<count {
          let t = (Double(j) + 0.5) / Double(count)
          found.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, angle))
        }
      }
      start = end
    }
    return found
  }
}

/// Boxes in a grid of 64-pixel cells, to find overlaps quickly.
struct CollisionGrid {
  private var cells: [Int64: [Int]] = [:]
  private var boxes: [(Double, Double, Double, Double)] = []
  static let cell = 64.0

  private func keys(_ b: (Double, Double, Double, Double)) -> [Int64] {
    let x0 = Int64((b.0 / Self.cell).rounded(.down))
    let x1 = Int64((b.2 / Self.cell).rounded(.down))
    let y0 = Int64((b.1 / Self.cell).rounded(.down))
    let y1 = Int64((b.3 / Self.cell).rounded(.down))
    guard x0 <= x1, y0 <= y1, x1 - x0 < 1_000, y1 - y0 < 1_000 else { return [] }
    var keys: [Int64] = []
    for x in x0...x1 { for y in y0...y1 { keys.append(x &* 73_856_093 ^ y &* 19_349_663) } }
    return keys
  }

  func overlaps(_ candidate: [(Double, Double, Double, Double)]) -> Bool {
    for b in candidate {
      for key in keys(b) {
        for i in cells[key] ?? [] {
          let o = boxes[i]
          if b.0 < o.2 && o.0 < b.2 && b.1 < o.3 && o.1 < b.3 { return true }
        }
      }
    }
    return false
  }

  mutating func insert(_ candidate: [(Double, Double, Double, Double)]) {
    for b in candidate {
      let index = boxes.count
      boxes.append(b)
      for key in keys(b) { cells[key, default: []].append(index) }
    }
  }
}

/// Label type with cairo's toy text (DejaVu Sans): a face per label role, and widths.
final class TextMeasure {
  private let surface: OpaquePointer
  private let cr: OpaquePointer

  init?() {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return nil }
    guard let cr = cairo_create(surface) else {
      cairo_surface_destroy(surface)
      return nil
    }
    self.surface = surface
    self.cr = cr
  }

  deinit {
    cairo_destroy(cr)
    cairo_surface_destroy(surface)
  }

  static func select(_ role: LabelRole, in cr: OpaquePointer, scale: Double = 1) {
    cairo_select_font_face(
      cr, "DejaVu Sans", role.isItalic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
      role.isBold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cr, role.fontSize * scale)
  }

  func width(_ text: String, _ role: LabelRole) -> Double {
    Self.select(role, in: cr)
    var extents = cairo_text_extents_t()
    cairo_text_extents(cr, text, &extents)
    return extents.x_advance
  }
}
