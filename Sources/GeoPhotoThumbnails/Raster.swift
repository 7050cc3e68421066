/// An 8-bit RGB image, row by row: what decoders give and the JPEG encoder takes.
public struct Raster: Sendable, Equatable {
  public let width: Int
  public let height: Int
  /// `3 * width * height` bytes, red, green, blue.
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width > 0 && height > 0 && pixels.count == 3 * width * height, "three bytes per pixel")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A raster of one colour.
  public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) {
    var pixels = [UInt8](repeating: 0, count: 3 * width * height)
    for i in stride(from: 0, to: pixels.count, by: 3) {
      pixels[i] = red
      pixels[i + 1] = green
      pixels[i + 2] = blue
    }
    self.init(width: width, height: height, pixels: pixels)
  }

  /// The size that fits `longestSide` with this raster's proportions (never larger than it is).
  public func fitted(longestSide: Int) -> (width: Int, height: Int) {
    guard max(width, height) > longestSide else { return (width, height) }
    if width >= height {
      return (longestSide, max(1, (height * longestSide + width / 2) / width))
    }
    return (max(1, (width * longestSide + height / 2) / height), longestSide)
  }

  /// Shrunk to `width × height` by averaging the source pixels each target pixel covers (a box
  /// filter, with the edge pixels weighed by how much of them it covers): no aliasing, and
  /// exact for whole-number ratios. Each target pixel is written where EXIF orientation
  /// `orientation` puts it, so the result is upright without a second pass.
  public func shrunk(toWidth newWidth: Int, height newHeight: Int, orientation: Int = 1) -> Raster {
    precondition(newWidth >= 1 && newHeight >= 1 && newWidth <= width && newHeight <= height, "a shrink")
    if newWidth == width && newHeight == height { return uprighted(orientation: orientation) }
    let placement = Placement(orientation: orientation, width: newWidth, height: newHeight)
    let columns = Spans(source: width, target: newWidth)
    let rows = Spans(source: height, target: newHeight)
    // Each source row is filtered across once, into `across` (a value times 2^8); a target
    // row adds up the rows it covers, each weighed (a value times 2^16). Adjacent target rows
    // share at most their edge row, which is kept. 32-bit sums: the compiler runs four at once.
    var across = [Int32](repeating: 0, count: 3 * newWidth)
    var line = [Int32](repeating: 0, count: 3 * newWidth)
    let rowLength = 3 * width
    // Every byte is written, so nothing is cleared first.
    let out = [UInt8](unsafeUninitializedCapacity: 3 * newWidth * newHeight) { dst, initialized in
      pixels.withUnsafeBufferPointer { src in
        line.withUnsafeMutableBufferPointer { line in
          across.withUnsafeMutableBufferPointer { across in
            var filteredRow = -1
            for ty in 0..<newHeight {
              line.update(repeating: 0)
              for k in rows.taps(ty) {
                let sy = rows.first[ty] + k - rows.offset[ty]
                if sy != filteredRow {
                  columns.filter(src, at: sy * rowLength, into: across)
                  filteredRow = sy
                }
                let wy = rows.weights[k]
                for i in 0..<line.count { line[i] &+= across[i] &* wy }
              }
              guard let base = dst.baseAddress else { return }
              if placement.isIdentity {
                // A plain loop over trivial bytes, which the compiler vectorizes.
                let row = base + ty * line.count
                for i in 0..<line.count { row[i] = UInt8(truncatingIfNeeded: (line[i] &+ Spans.half) &>> 16) }
              } else {
                var d = placement.origin &+ ty &* placement.stepY
                var i = 0
                while i < line.count {
                  base[3 &* d] = UInt8(truncatingIfNeeded: (line[i] &+ Spans.half) &>> 16)
                  base[3 &* d &+ 1] = UInt8(truncatingIfNeeded: (line[i &+ 1] &+ Spans.half) &>> 16)
                  base[3 &* d &+ 2] = UInt8(truncatingIfNeeded: (line[i &+ 2] &+ Spans.half) &>> 16)
                  d &+= placement.stepX
                  i &+= 3
                }
              }
            }
          }
        }
      }
      initialized = 3 * newWidth * newHeight
    }
    return Raster(width: placement.width, height: placement.height, pixels: out)
  }

  /// Along one axis, the source span each target pixel covers: its first source pixel, and the
  /// weights of the pixels it touches (laid end to end, from `offset`), each the share of the
  /// target pixel that pixel covers in 1/256ths; each target's weights add up to exactly 256,
  /// so a weighted sum over both axes is the average times 2^16, and never above 255 × 2^16.
  struct Spans {
    static let one: Int32 = 1 << 8
    static let half: Int32 = 1 << 15
    var first: [Int] = []
    var offset: [Int] = []
    var weights: [Int32] = []
    /// `three`, worked out once.
    var threeTaps: (offsets: [Int], weights: [Int32])?

    init(source: Int, target: Int) {
      for t in 0..<target {
        // The span in 1/256ths of a source pixel.
        let start = t * source * 256 / target
        let end = (t + 1) * source * 256 / target
        let (firstPixel, lastPixel) = (start >> 8, (end - 1) >> 8)
        first.append(firstPixel)
        offset.append(weights.count)
        // Each weight is the rounded share covered so far less what was given: no weight is off
        // by a whole 1/256th, and they add up to exactly 256.
        var given: Int32 = 0
        for s in firstPixel...lastPixel {
          let coveredSoFar = min(end, (s + 1) << 8) - start
          let share = Int32((coveredSoFar * Int(Self.one) + (end - start) / 2) / (end - start))
          weights.append(share - given)
          given = share
        }
      }
      offset.append(weights.count)
      threeTaps = three
    }

    /// The indices in `weights` of target pixel `t`'s source pixels.
    func taps(_ t: Int) -> Range<Int> { offset[t]..<offset[t + 1] }

    /// When no target pixel covers more than three source pixels (a shrink by less than two,
    /// as from a decoder's nearest scale): three byte offsets and weights per target pixel, the
    /// missing ones the first pixel again at weight 0, for a loop without inner loops.
    var three: (offsets: [Int], weights: [Int32])? {
      guard (0..<first.count).allSatisfy({ taps($0).count <= 3 }) else { return nil }
      var offsets: [Int] = []
      var spread: [Int32] = []
      for t in 0..<first.count {
        let taps = taps(t)
        for j in 0..<3 {
          offsets.append(3 * (first[t] + (j < taps.count ? j : 0)))
          spread.append(j < taps.count ? weights[taps.lowerBound + j] : 0)
        }
      }
      return (offsets, spread)
    }

    /// One source row, whose bytes start at `row`, filtered along this axis into `out` (three
    /// sums per target pixel).
    func filter(_ src: UnsafeBufferPointer<UInt8>, at row: Int, into out: UnsafeMutableBufferPointer<Int32>) {
      if let (offsets, spread) = threeTaps {
        offsets.withUnsafeBufferPointer { offsets in
          spread.withUnsafeBufferPointer { w in
            // Offsets and sums advance by three; index arithmetic wraps (every index is inside
            // the row by construction).
            var i = 0
            while i < offsets.count {
              let (a, b, c) = (row &+ offsets[i], row &+ offsets[i &+ 1], row &+ offsets[i &+ 2])
              let (wa, wb, wc) = (w[i], w[i &+ 1], w[i &+ 2])
              out[i] = Int32(src[a]) &* wa &+ Int32(src[b]) &* wb &+ Int32(src[c]) &* wc
              out[i &+ 1] = Int32(src[a &+ 1]) &* wa &+ Int32(src[b &+ 1]) &* wb &+ Int32(src[c &+ 1]) &* wc
              out[i &+ 2] = Int32(src[a &+ 2]) &* wa &+ Int32(src[b &+ 2]) &* wb &+ Int32(src[c &+ 2]) &* wc
              i &+= 3
            }
          }
        }
        return
      }
      for t in 0..<first.count {
        var (r, g, b): (Int32, Int32, Int32) = (0, 0, 0)
        var p = row + 3 * first[t]
        for wi in taps(t) {
          let w = weights[wi]
          r &+= Int32(src[p]) &* w
          g &+= Int32(src[p + 1]) &* w
          b &+= Int32(src[p + 2]) &* w
          p += 3
        }
        out[3 * t] = r
        out[3 * t + 1] = g
        out[3 * t + 2] = b
      }
    }
  }

  /// Turned upright as EXIF orientation `orientation` (1–8) says the camera held it: 6 is a
  /// quarter turn clockwise, 8 anticlockwise, 3 a half turn, 2, 4, 5 and 7 their mirrors.
  public func uprighted(orientation: Int) -> Raster {
    let placement = Placement(orientation: orientation, width: width, height: height)
    guard !placement.isIdentity else { return self }
    let out = [UInt8](unsafeUninitializedCapacity: pixels.count) { dst, initialized in
      pixels.withUnsafeBufferPointer { src in
        guard let base = dst.baseAddress else { return }
        var s = 0
        for y in 0..<height {
          var d = placement.origin &+ y &* placement.stepY
          for _ in 0..<width {
            base[3 &* d] = src[s]
            base[3 &* d &+ 1] = src[s &+ 1]
            base[3 &* d &+ 2] = src[s &+ 2]
            d &+= placement.stepX
            s &+= 3
          }
        }
      }
      initialized = pixels.count
    }
    return Raster(width: placement.width, height: placement.height, pixels: out)
  }

  /// Where each pixel of a `width × height` raster lands when orientation `orientation` is
  /// applied: pixel (x, y) goes to index `origin + x · stepX + y · stepY` (in pixels) of the
  /// upright raster, `width × height` here too once turned. From the orientation's definition:
  /// row 0 and column 0 of the stored image are at the named sides.
  struct Placement {
    let origin: Int
    let stepX: Int
    let stepY: Int
    let width: Int
    let height: Int
    let isIdentity: Bool

    init(orientation: Int, width w: Int, height h: Int) {
      let known = (1...8).contains(orientation) ? orientation : 1
      (width, height) = known >= 5 ? (h, w) : (w, h)
      isIdentity = known == 1
      // The upright position of stored pixel (x, y).
      func upright(_ x: Int, _ y: Int) -> Int {
        let (ux, uy): (Int, Int)
        switch known {
        case 2: (ux, uy) = (w - 1 - x, y)
        case 3: (ux, uy) = (w - 1 - x, h - 1 - y)
        case 4: (ux, uy) = (x, h - 1 - y)
        case 5: (ux, uy) = (y, x)
        case 6: (ux, uy) = (h - 1 - y, x)
        case 7: (ux, uy) = (h - 1 - y, w - 1 - x)
        case 8: (ux, uy) = (y, w - 1 - x)
        default: (ux, uy) = (x, y)
        }
        return uy * (known >= 5 ? h : w) + ux
      }
      origin = upright(0, 0)
      (stepX, stepY) = (upright(1, 0) - origin, upright(0, 1) - origin)
    }
  }
}
