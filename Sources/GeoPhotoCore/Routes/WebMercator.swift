import Foundation

/// Web Mercator in pixels of 256-pixel tiles, the projection of web maps and map snapshots.
public struct WebMercator: Sendable, Equatable {
  /// The latitude where the square world ends.
  public static let maximumLatitude = 85.0511287798
  public var zoom: Int

  public init(zoom: Int) { self.zoom = zoom }

  /// The world's width (and height) in pixels at this zoom.
  public var worldSize: Double { 256 * pow(2, Double(zoom)) }

  /// Pixel position of a coordinate (x east, y south), latitude clamped to the Mercator limit.
  public func point(_ c: Coordinate) -> (x: Double, y: Double) {
    let lat = max(-Self.maximumLatitude, min(Self.maximumLatitude, c.latitude)) * .pi / 180
    let x = (c.longitude + 180) / 360 * worldSize
    let y = (1 - asinh(tan(lat)) / .pi) / 2 * worldSize
    return (x, y)
  }

  public func coordinate(x: Double, y: Double) -> Coordinate {
    let lon = x / worldSize * 360 - 180
    let lat = atan(sinh(.pi * (1 - 2 * y / worldSize))) * 180 / .pi
    return Coordinate(latitude: lat, longitude: lon)
  }

  /// Metres per pixel at a latitude.
  public func metresPerPixel(atLatitude latitude: Double) -> Double {
    156_543.033_928_040_97 * cos(latitude * .pi / 180) / pow(2, Double(zoom))
  }

  /// The largest zoom at which `box`, grown by `padding`, fits `width` × `height` pixels
  /// (0…19; a single point gets 15).
  public static func fitZoom(_ box: BoundingBox, width: Double, height: Double, padding: Double = 1.5) -> Int {
    let unit = WebMercator(zoom: 0)
    let west = unit.point(Coordinate(latitude: 0, longitude: box.west)).x / 256
    var east = unit.point(Coordinate(latitude: 0, longitude: box.east)).x / 256
    if box.crossesAntimeridian { east += 1 }
    let dx = east - west
    let dy =
      (unit.point(Coordinate(latitude: box.south, longitude: 0)).y
        - unit.point(Coordinate(latitude: box.north, longitude: 0)).y) / 256
    guard dx > 0 || dy > 0 else { return 15 }
    let zx = dx > 0 ? log2(width / (256 * padding * dx)) : 19
    let zy = dy > 0 ? log2(height / (256 * padding * dy)) : 19
    // Clamped before it becomes an Int: a size or padding of nothing gives ±∞ or NaN.
    let zoom = min(zx, zy).rounded(.down)
    guard !zoom.isNaN else { return 15 }
    return Int(max(0, min(19, zoom)))
  }

  /// The pixel centre of a box at this zoom: the middle of the projected box (across the
  /// antimeridian, the east edge moves one world to the right).
  public func center(of box: BoundingBox) -> (x: Double, y: Double) {
    let nw = point(Coordinate(latitude: box.north, longitude: box.west))
    var se = point(Coordinate(latitude: box.south, longitude: box.east))
    if box.crossesAntimeridian { se.x += worldSize }
    return ((nw.x + se.x) / 2, (nw.y + se.y) / 2)
  }
}
