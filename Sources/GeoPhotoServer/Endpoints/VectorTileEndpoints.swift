import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD
import GeoPhotoVectorTiles

/// `/tiles/vector/{z}/{x}/{y}.mvt` and `/tiles/vector.json`: the street map's archives' vector
/// tiles as they are stored (gzip, sent as such to clients that take it), and a TileJSON that
/// points MapLibre-based apps at them. The first archive that has a tile answers it.
enum VectorTileEndpoints {
  static let zoom = EndpointParameter.path(
    "z", .identifier("zoom", 0...Int64(TileAddress.maximumZoom)), "Zoom, 0 up to the archives' deepest")
  static let column = EndpointParameter.path(
    "x", .identifier("tile column", 0...(Int64(1) << TileAddress.maximumZoom) - 1), "Column, 0…2^z − 1, west to east")
  static let row = EndpointParameter.path("y", .fileName, "Row, 0…2^z − 1, north to south, then .mvt")

  static let tileRoute = Endpoint(
    path: "/tiles/vector/{z}/{x}/{y}", operationID: "vectorTile",
    summary:
      "A vector tile (Mapbox Vector Tile) of the street map's archives, as stored; 204 where they have none, "
      + "404 when the server has no archive",
    access: .open,
    parameters: [zoom, column, row],
    responses: [
      APIResponse(status: 200, description: "MVT", content: [("application/vnd.mapbox-vector-tile", .binary)]),
      APIResponse(status: 204, description: "no archive has data there", content: []),
    ],
    cached: false, respond: tile)

  static let tileJSONRoute = Endpoint(
    path: "/tiles/vector.json", operationID: "vectorTileJSON",
    summary: "TileJSON 3.0 for the vector tiles: their URL, zooms, bounds, layers and attribution",
    access: .open, parameters: [],
    responses: [APIResponse(status: 200, description: "TileJSON", content: [("application/json", tileJSONSchema)])],
    cached: false, respond: tileJSON)

  /// TileJSON 3.0, as far as geophoto writes it.
  static let tileJSONSchema = JSONSchema.object(
    properties: [
      ("tilejson", .string), ("tiles", .array(.string)), ("scheme", .string), ("minzoom", .integer),
      ("maxzoom", .integer), ("name", .string), ("attribution", .string),
      (
        "vector_layers",
        .array(
          .object(
            properties: [
              ("id", .string), ("fields", .object(properties: [])), ("minzoom", .integer), ("maxzoom", .integer),
            ], required: ["id", "fields"]))
      ),
      ("bounds", .array(.number)), ("center", .array(.number)),
    ], required: ["tilejson", "tiles", "vector_layers", "minzoom", "maxzoom"])

  static func tile(_ c: EndpointContext) throws -> ServerResponse {
    let archives = c.configuration.vectorTiles
    guard !archives.isEmpty else { throw APIError.notFound("this server has no vector-tile archive") }
    let name = c.parameters.word(row) ?? ""
    guard name.hasSuffix(".mvt") || name.hasSuffix(".pbf"), let y = Int(name.dropLast(4)),
      name.dropLast(4).allSatisfy({ $0.isASCII && $0.isNumber }),
      let z = c.parameters.identifier(zoom), let x = c.parameters.identifier(column)
    else { throw APIError.badRequest("a vector tile is /tiles/vector/{z}/{x}/{y}.mvt with whole numbers") }
    guard let address = TileAddress(zoom: Int(z), x: Int(x), y: y) else {
      throw APIError.notFound("no tile \(z)/\(x)/\(y): x and y are 0…2^z − 1")
    }
    let deepest = archives.map(\.info.maxZoom).max() ?? 0
    guard address.zoom <= deepest else {
      throw APIError.notFound("no tile \(address): the archives go to zoom \(deepest) (clients draw deeper from it)")
    }
    let gzip = (c.request.headers["accept-encoding"] ?? "").contains("gzip")
    for archive in archives {
      let stored: [UInt8]?
      do {
        stored = try archive.storedTile(address)
      } catch {
        throw APIError(500, "internal", "the tile cannot be read", detail: "\(archive.info.path): \(error)")
      }
      guard let stored else { continue }
      let tag =
        "\"v\(String(Checksum.of(archive.info.path) & 0xFFFF_FFFF, radix: 16))-\(archive.info.fileSize)-\(address.zoom)-\(address.x)-\(address.y)-\(gzip ? "g" : "i")\""
      var headers = [
        ("Content-Type", "application/vnd.mapbox-vector-tile"), ("ETag", tag),
        ("Cache-Control", "public, max-age=86400"), ("Vary", "Accept-Encoding"),
      ]
      if c.notModified(tag) != nil { return ServerResponse(status: 304, headers: Array(headers.dropFirst())) }
      guard Gzip.isCompressed(stored) else { return ServerResponse(status: 200, headers: headers, body: stored) }
      if gzip && stored.starts(with: [0x1F, 0x8B]) {
        headers.append(("Content-Encoding", "gzip"))
        return ServerResponse(status: 200, headers: headers, body: stored)
      }
      do {
        return ServerResponse(status: 200, headers: headers, body: try archive.tile(address) ?? [])
      } catch {
        throw APIError(500, "internal", "the tile cannot be read", detail: "\(archive.info.path): \(error)")
      }
    }
    return ServerResponse(status: 204, headers: [("Cache-Control", "public, max-age=86400")])
  }

  static func tileJSON(_ c: EndpointContext) throws -> ServerResponse {
    let archives = c.configuration.vectorTiles
    guard !archives.isEmpty else { throw APIError.notFound("this server has no vector-tile archive") }
    let infos = archives.map(\.info)
    let host = c.request.headers["host"] ?? "127.0.0.1"
    var document: [String: Any] = [
      "tilejson": "3.0.0",
      "tiles": ["http://\(host)/tiles/vector/{z}/{x}/{y}.mvt"],
      "scheme": "xyz",
      "minzoom": infos.map(\.minZoom).min() ?? 0,
      "maxzoom": infos.map(\.maxZoom).max() ?? 0,
      "name": infos.map(\.name).joined(separator: ", "),
      "attribution": infos.map { HTMLText.escaped($0.attributionText) }.joined(separator: " · "),
    ]
    var layers: [String: [String: Any]] = [:]
    for info in infos {
      for layer in info.vectorLayers where layers[layer.id] == nil {
        var entry: [String: Any] = ["id": layer.id, "fields": layer.fields]
        if let z = layer.minZoom { entry["minzoom"] = z }
        if let z = layer.maxZoom { entry["maxzoom"] = z }
        layers[layer.id] = entry
      }
    }
    document["vector_layers"] = layers.keys.sorted().compactMap { layers[$0] }
    let boxes = infos.compactMap(\.bounds)
    if boxes.count == infos.count, let first = boxes.first, !boxes.contains(where: \.crossesAntimeridian) {
      let b = boxes.dropFirst().reduce(first) {
        BoundingBox(
          west: min($0.west, $1.west), south: min($0.south, $1.south), east: max($0.east, $1.east),
          north: max($0.north, $1.north))
      }
      document["bounds"] = [b.west, b.south, b.east, b.north]
      document["center"] = [(b.west + b.east) / 2, (b.south + b.north) / 2, infos[0].maxZoom]
    }
    let body = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    return ServerResponse(
      status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "public, max-age=300")],
      body: [UInt8](body))
  }
}
