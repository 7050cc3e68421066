/// A tile of the Web Mercator pyramid in XYZ order (y grows southward), checked: zoom 0 … 31,
/// x and y within 0 ..< 2^zoom. PMTiles numbers tiles along a Hilbert curve per zoom
/// (`hilbertID`); MBTiles stores rows bottom-up (`tmsRow`).
public struct TileAddress: Hashable, Sendable, CustomStringConvertible {
  public let zoom: Int
  public let x: Int
  public let y: Int

  public static let maximumZoom = 31

  public init?(zoom: Int, x: Int, y: Int) {
    guard zoom >= 0, zoom <= Self.maximumZoom else { return nil }
    let n = 1 << zoom
    guard x >= 0, x < n, y >= 0, y < n else { return nil }
    self.zoom = zoom
    self.x = x
    self.y = y
  }

  public var description: String { "\(zoom)/\(x)/\(y)" }

  /// MBTiles' row: counted from the south.
  public var tmsRow: Int { (1 << zoom) - 1 - y }

  /// The tile `levels` zooms up that holds this one, and where in it this one lies (0 ..< 2^levels).
  public func ancestor(_ levels: Int) -> (tile: TileAddress, column: Int, row: Int)? {
    guard levels >= 0, levels <= zoom,
      let parent = TileAddress(zoom: zoom - levels, x: x >> levels, y: y >> levels)
    else { return nil }
    return (parent, x - (parent.x << levels), y - (parent.y << levels))
  }

  /// The tiles of zooms below `zoom`: where zoom's Hilbert ids start, (4^zoom − 1) / 3.
  static func firstID(ofZoom zoom: Int) -> UInt64 {
    zoom > maximumZoom ? UInt64.max : ((UInt64(1) << (2 * UInt64(zoom))) - 1) / 3
  }

  /// The PMTiles tile id: the tiles of all lower zooms, then the distance along the zoom's
  /// Hilbert curve.
  public var hilbertID: UInt64 {
    let n = 1 << zoom
    var x = self.x
    var y = self.y
    var distance: UInt64 = 0
    var s = n >> 1
    while s > 0 {
      let rx = x & s != 0 ? 1 : 0
      let ry = y & s != 0 ? 1 : 0
      distance += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
      if ry == 0 {
        if rx == 1 {
          x = n - 1 - x
          y = n - 1 - y
        }
        swap(&x, &y)
      }
      s >>= 1
    }
    return Self.firstID(ofZoom: zoom) + distance
  }

  /// The tile whose PMTiles id is `id`; nil beyond zoom 31.
  public init?(hilbertID id: UInt64) {
    // (4^32 − 1) / 3: the first id past zoom 31.
    guard id < 0x5555_5555_5555_5555 else { return nil }
    var zoom = 0
    while zoom <= Self.maximumZoom && Self.firstID(ofZoom: zoom + 1) <= id { zoom += 1 }
    guard zoom <= Self.maximumZoom else { return nil }
    let n = 1 << zoom
    var t = id - Self.firstID(ofZoom: zoom)
    var x = 0
    var y = 0
    var s = 1
    while s < n {
      let rx = Int((t / 2) & 1)
      let ry = Int((t ^ UInt64(rx)) & 1)
      if ry == 0 {
        if rx == 1 {
          x = s - 1 - x
          y = s - 1 - y
        }
        swap(&x, &y)
      }
      x += s * rx
      y += s * ry
      t /= 4
      s <<= 1
    }
    self.init(zoom: zoom, x: x, y: y)
  }
}
