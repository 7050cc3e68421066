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
  /// exact for whole-number ratios.
  public func shrunk(toWidth newWidth: Int, height newHeight: Int) -> Raster {
    precondition(newWidth >= 1 && newHeight >= 1 && newWidth <= width && newHeight <= height, "a shrink")
    if newWidth == width && newHeight == height { return self }
    // Per target column and row: the source span it covers, in 1/256ths of a pixel.
    func spans(_ source: Int, _ target: Int) -> [(first: Int, last: Int, weights: [Int])] {
      (0..<target).map { t in
        let start = t * source * 256 / target
        let end = (t + 1) * source * 256 / target
        let first = start >> 8
        let last = (end - 1) >> 8
        let weights = (first...last).map { s in min(end, (s + 1) << 8) - max(start, s << 8) }
        return (first, last, weights)
      }
    }
    let columns = spans(width, newWidth)
    let rows = spans(height, newHeight)
    var out = [UInt8](repeating: 0, count: 3 * newWidth * newHeight)
    var line = [Int](repeating: 0, count: 3 * newWidth)
    pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        for (ty, row) in rows.enumerated() {
          for i in line.indices { line[i] = 0 }
          var rowWeight = 0
          for (k, sy) in (row.first...row.last).enumerated() {
            let wy = row.weights[k]
            rowWeight += wy
            let base = sy * width * 3
            for (tx, column) in columns.enumerated() {
              var r = 0
              var g = 0
              var b = 0
              for (j, sx) in (column.first...column.last).enumerated() {
                let w = column.weights[j]
                let p = base + sx * 3
                r += Int(src[p]) * w
                g += Int(src[p + 1]) * w
                b += Int(src[p + 2]) * w
              }
              line[3 * tx] += r * wy
              line[3 * tx + 1] += g * wy
              line[3 * tx + 2] += b * wy
            }
          }
          for (tx, column) in columns.enumerated() {
            let total = column.weights.reduce(0, +) * rowWeight
            for c in 0..<3 {
              dst[(ty * newWidth + tx) * 3 + c] = UInt8((line[3 * tx + c] + total / 2) / total)
            }
          }
        }
      }
    }
    return Raster(width: newWidth, height: newHeight, pixels: out)
  }

  /// Turned upright as EXIF orientation `orientation` (1–8) says the camera held it: 6 is a
  /// quarter turn clockwise, 8 anticlockwise, 3 a half turn, 2, 4, 5 and 7 their mirrors.
  public func uprighted(orientation: Int) -> Raster {
    guard (2...8).contains(orientation) else { return self }
    let swaps = orientation >= 5
    let (w, h) = swaps ? (height, width) : (width, height)
    var out = [UInt8](repeating: 0, count: pixels.count)
    for y in 0..<h {
      for x in 0..<w {
        // The source pixel that lands at (x, y).
        let (sx, sy): (Int, Int)
        switch orientation {
        case 2: (sx, sy) = (width - 1 - x, y)
        case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
        case 4: (sx, sy) = (x, height - 1 - y)
        case 5: (sx, sy) = (y, x)
        case 6: (sx, sy) = (y, height - 1 - x)
        case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
        default: (sx, sy) = (width - 1 - y, x)  // 8
        }
        let s = (sy * width + sx) * 3
        let d = (y * w + x) * 3
        out[d] = pixels[s]
        out[d + 1] = pixels[s + 1]
        out[d + 2] = pixels[s + 2]
      }
    }
    return Raster(width: w, height: h, pixels: out)
  }
}
