import Foundation
public import GeoPhotoBasemap
import GeoPhotoCore

/// The map's tiles and areas: the Natural Earth basemap, and over it the street map where an
/// archive has data (clipped to its bounds, so the two meet where the archive ends). Natural
/// Earth's place names are left out where the street map draws its own.
public struct MapTileRenderer: TileDrawing, MapDrawing {
  public let basemap: BasemapRenderer?
  public let streets: StreetMap?

  public init(basemap: BasemapRenderer?, streets: StreetMap?) {
    self.basemap = basemap
    self.streets = streets
  }

  /// The basemap's identity and each archive's (its path, size and modification time): tiles
  /// drawn from other files are other tiles.
  public var identity: String {
    var parts = [basemap?.identity ?? "none"]
    for archive in streets?.archives ?? [] {
      let info = archive.info
      let modified = (try? FileManager.default.attributesOfItem(atPath: info.path))?[.modificationDate] as? Date
      let key = "\(info.path)|\(info.fileSize)|\(modified?.timeIntervalSince1970 ?? 0)"
      parts.append(String(Checksum.of(key) & 0xFFFF_FFFF, radix: 16))
    }
    return parts.joined(separator: "-")
  }

  /// The credits of what the area shows: Natural Earth's, and each archive's drawn there.
  public func credits(zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double) -> [String] {
    let streetCredit = streets?.attribution(zoom: zoom, origin: origin, width: width, height: height)
    return (basemap == nil ? [] : [Basemap.attribution]) + (streetCredit.map { [$0] } ?? [])
  }

  /// Draws the area (as `BasemapRenderer.draw`); the credits of what was drawn.
  @discardableResult
  public func draw(
    in context: OpaquePointer, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double,
    style: BasemapStyle
  ) -> [String] {
    let streetCredit = streets?.attribution(zoom: zoom, origin: origin, width: width, height: height)
    basemap?.draw(
      in: context, zoom: zoom, origin: origin, width: width, height: height, style: style,
      labels: streetCredit == nil)
    streets?.draw(in: context, zoom: zoom, origin: origin, width: width, height: height, style: style)
    return (basemap == nil ? [] : [Basemap.attribution]) + (streetCredit.map { [$0] } ?? [])
  }

  public func drawMap(
    in context: OpaquePointer, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double,
    style: BasemapStyle
  ) -> [String] {
    draw(in: context, zoom: zoom, origin: origin, width: width, height: height, style: style)
  }

  /// Tile `x`, `y` of `zoom` as PNG bytes, 256 × 256 pixels (512 × 512 at `scale` 2).
  public func tile(zoom: Int, x: Int, y: Int, scale: Int, style: BasemapStyle) throws(TileError) -> [UInt8] {
    guard (0...StreetMap.maximumZoom).contains(zoom) else {
      throw .outOfRange("zoom \(zoom) is not in 0…\(StreetMap.maximumZoom)")
    }
    let n = 1 << zoom
    guard (0..<n).contains(x), (0..<n).contains(y) else {
      throw .outOfRange("tile \(zoom)/\(x)/\(y) does not exist: x and y are 0…\(n - 1) at zoom \(zoom)")
    }
    return try area(
      zoom: zoom, x: Double(x) * 256, y: Double(y) * 256, width: 256, height: 256, scale: scale, style: style)
  }

  /// A PNG of the area of `width` × `height` pixels (times `scale`) at pixel `x`, `y` of `zoom`.
  public func area(zoom: Int, x: Double, y: Double, width: Int, height: Int, scale: Int, style: BasemapStyle)
    throws(TileError) -> [UInt8]
  {
    try BasemapRenderer.image(width: width, height: height, scale: scale) { cr in
      draw(in: cr, zoom: zoom, origin: (x, y), width: Double(width), height: Double(height), style: style)
    }
  }
}
