/// Places labels for the whole world at one zoom, so every tile draws the same label at the
/// same spot and no label breaks at a tile's edge: the most important first (countries by
/// their rank, then places by population), each where it overlaps nothing placed before —
/// right of its dot, else left of it — and inside the world's width.
struct LabelPlacement {
  struct Candidate {
    var position: SIMD2<Double>
    var kind: LabelKind
    var width: Double
  }

  /// Space kept clear round every label, in pixels.
  static let padding = 2.0

  let worldSize: Double
  private var boxes: [SIMD4<Double>] = []
  private var cells: [Int: [Int]] = [:]
  private let cellSize = 64.0

  init(zoom: Int) { worldSize = 256 * Double(1 << zoom) }

  /// The side the candidate is placed on (false right or centred, true left), or nil when it
  /// does not fit.
  mutating func place(_ c: Candidate) -> Bool? {
    let x = c.position.x * worldSize
    let y = c.position.y * worldSize
    let height = c.kind.fontSize * 1.25
    let p = Self.padding
    if !c.kind.hasDot {
      let box = SIMD4(x - c.width / 2 - p, y - height / 2 - p, x + c.width / 2 + p, y + height / 2 + p)
      guard fits(box) else { return nil }
      add(box)
      return false
    }
    let dot = SIMD4(x - 3 - p, y - 3 - p, x + 3 + p, y + 3 + p)
    guard fits(dot) else { return nil }
    let right = SIMD4(x + 4, y - height / 2 - p, x + 5 + c.width + p, y + height / 2 + p)
    let left = SIMD4(x - 5 - c.width - p, y - height / 2 - p, x - 4, y + height / 2 + p)
    for (box, onLeft) in [(right, false), (left, true)] where fits(box) {
      add(dot)
      add(box)
      return onLeft
    }
    return nil
  }

  private func fits(_ box: SIMD4<Double>) -> Bool {
    guard box.x >= 0, box.z <= worldSize else { return false }
    for key in keys(box) {
      for other in cells[key] ?? [] {
        let o = boxes[other]
        if box.x < o.z && box.z > o.x && box.y < o.w && box.w > o.y { return false }
      }
    }
    return true
  }

  private mutating func add(_ box: SIMD4<Double>) {
    boxes.append(box)
    for key in keys(box) { cells[key, default: []].append(boxes.count - 1) }
  }

  private func keys(_ box: SIMD4<Double>) -> [Int] {
    let x0 = Int((box.x / cellSize).rounded(.down))
    let x1 = Int((box.z / cellSize).rounded(.down))
    let y0 = Int((box.y / cellSize).rounded(.down))
    let y1 = Int((box.w / cellSize).rounded(.down))
    var keys: [Int] = []
    for cy in y0...y1 { for cx in x0...x1 { keys.append(cy &* 1_000_003 &+ cx) } }
    return keys
  }
}
