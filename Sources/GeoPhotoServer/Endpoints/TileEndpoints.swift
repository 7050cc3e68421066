import Foundation
import GeoPhotoBasemap
import GeoPhotoHTTPD

/// `/tiles/{z}/{x}/{y}.png`: geophoto's own basemap (Natural Earth, labels from the
/// gazetteer) as Web Mercator tiles, the web map's default and private basemap.
enum TileEndpoints {
  static let zoom = EndpointParameter.path(
    "z", .identifier("zoom", 0...Int64(BasemapRenderer.maximumZoom)),
    "Zoom, 0…19 (above 10, zoom 10's shapes drawn larger)")
  static let column = EndpointParameter.path(
    "x", .identifier("tile column", 0...(Int64(1) << BasemapRenderer.maximumZoom) - 1),
    "Column, 0…2^z − 1, west to east")
  static let row = EndpointParameter.path(
    "y", .fileName, "Row, 0…2^z − 1, north to south, then .png (256 pixels) or @2x.png (512, for HiDPI screens)")
  static let style = EndpointParameter.query(
    "style", .oneOf(BasemapStyle.allCases.map(\.rawValue)), "light (the default) or dark")

  static let route = Endpoint(
    path: "/tiles/{z}/{x}/{y}", operationID: "tile",
    summary: "A basemap tile drawn by geophoto (PNG); 404 outside the world or when the server has no basemap",
    access: .open,
    parameters: [zoom, column, row, style],
    responses: [APIResponse(status: 200, description: "PNG", content: [("image/png", .binary)])],
    cached: false, respond: tile)

  static func tile(_ c: EndpointContext) throws -> ServerResponse {
    guard let tiles = c.configuration.tiles else { throw APIError.notFound("this server draws no tiles") }
    let name = c.parameters.word(row) ?? ""
    let (digits, scale): (Substring, Int) =
      name.hasSuffix("@2x.png") ? (name.dropLast(7), 2) : name.hasSuffix(".png") ? (name.dropLast(4), 1) : ("", 0)
    guard scale > 0, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let y = Int(digits),
      let z = c.parameters.identifier(zoom),
      let x = c.parameters.identifier(column)
    else { throw APIError.badRequest("a tile is /tiles/{z}/{x}/{y}.png or {y}@2x.png with whole numbers") }
    let n = Int64(1) << min(62, max(0, z))
    guard (0...Int64(BasemapRenderer.maximumZoom)).contains(z), (0..<n).contains(x), (0..<n).contains(Int64(y))
    else {
      throw APIError.notFound(
        "no tile \(z)/\(x)/\(y): zooms are 0…\(BasemapRenderer.maximumZoom), and x and y 0…2^z − 1")
    }
    let chosen = c.parameters.word(style).flatMap(BasemapStyle.init(rawValue:)) ?? .light
    do {
      let tag = try tiles.tag(zoom: Int(z), x: Int(x), y: y, scale: scale, style: chosen)
      let caching = [("ETag", tag), ("Cache-Control", "public, max-age=604800")]
      if c.notModified(tag) != nil { return ServerResponse(status: 304, headers: caching) }
      let png = try tiles.tile(zoom: Int(z), x: Int(x), y: y, scale: scale, style: chosen)
      return ServerResponse(status: 200, headers: [("Content-Type", "image/png")] + caching, body: png)
    } catch let error as TileError {
      throw APIError(500, "internal", "the tile cannot be drawn", detail: "tile \(z)/\(x)/\(y): \(error)")
    } catch {
      throw APIError.unavailable("the basemap cannot be read", detail: "the basemap cannot be read: \(error)")
    }
  }
}
