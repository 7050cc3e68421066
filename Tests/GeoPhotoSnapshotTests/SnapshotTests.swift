import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

@testable import GeoPhotoSnapshot

#if canImport(FoundationXML)
  import FoundationXML
#endif

final class Scratch {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-snapshot-\(UUID().uuidString)")
  init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
  deinit { try? FileManager.default.removeItem(at: url) }
  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

let grid = [
  Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.52, longitude: 13.403),
  Coordinate(latitude: 52.52, longitude: 13.406), Coordinate(latitude: 52.522, longitude: 13.406),
  Coordinate(latitude: 52.524, longitude: 13.406),
]

func isRouteBlue(_ c: (r: Int, g: Int, b: Int)?) -> Bool {
  guard let c else { return false }
  return c.b > 180 && c.r < 80 && c.g > 70 && c.g < 150
}

@Suite struct ProjectionTests {
  @Test func knownTileAndFitZoom() {
    // (52.52, 13.4) at zoom 16 is in tile (35207, 21492), about (101.3, 222.6) into it.
    let p = WebMercator(zoom: 16).point(Coordinate(latitude: 52.52, longitude: 13.4))
    #expect(Int(p.x / 256) == 35_207 && Int(p.y / 256) == 21_492)
    #expect(abs(p.x.truncatingRemainder(dividingBy: 256) - 101.3) < 0.1)
    #expect(abs(p.y.truncatingRemainder(dividingBy: 256) - 222.6) < 0.1)
    let box = BoundingBox(west: 13.4, south: 52.52, east: 13.406, north: 52.524)
    #expect(WebMercator.fitZoom(box, width: 400, height: 300) == 15)
    #expect(WebMercator.fitZoom(box, width: 640, height: 480) == 16)
    #expect(WebMercator.fitZoom(BoundingBox(west: 1, south: 2, east: 1, north: 2), width: 400, height: 400) == 15)
    #expect(abs(WebMercator(zoom: 16).metresPerPixel(atLatitude: 52.52) - 1.45) < 0.01)
  }
}

@Suite struct SnapshotTests {
  @Test(arguments: [1, 2])
  func routeAndPinsLandWhereTheProjectionPutsThem(scale: Int) throws {
    let scratch = try Scratch()
    var style = SnapshotStyle()
    style.width = 400
    style.height = 300
    style.scale = scale
    let renderer = SnapshotRenderer(style: style)
    var content = SnapshotContent()
    content.route = grid
    let photo = Coordinate(latitude: 52.5235, longitude: 13.4005)
    content.pins = [(photo, "Corner")]
    let out = scratch.file("route.png")
    try renderer.render(content, format: .png, to: out)
    let image = try PNGImage(contentsOf: out)
    #expect(image.width == 400 * scale && image.height == 300 * scale)
    let (projection, origin) = try renderer.frame(for: content)
    #expect(projection.zoom == 15)
    // Every route point, and the middle of every segment, is drawn in the route colour.
    var samples = grid
    for (a, b) in zip(grid, grid.dropFirst()) {
      samples.append(Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2))
    }
    for c in samples {
      let p = renderer.position(of: c, projection: projection, origin: origin)
      #expect(isRouteBlue(image.rgb(x: Int(p.x * Double(scale)), y: Int(p.y * Double(scale)))), "\(c)")
    }
    // Far from the route: background.
    #expect(!isRouteBlue(image.rgb(x: 5 * scale, y: 5 * scale)))
    // The flag's pennant sits just above and right of the photo's position.
    let pin = renderer.position(of: photo, projection: projection, origin: origin)
    let flag = image.rgb(x: Int((pin.x + 4) * Double(scale)), y: Int((pin.y - 14) * Double(scale)))
    #expect(
      flag.map { $0.r > 180 && $0.g < 90 && $0.b > 80 && $0.b < 140 } == true, "flag colour \(String(describing: flag))"
    )
  }

  @Test func svgIsWellFormed() throws {
    let scratch = try Scratch()
    var content = SnapshotContent()
    content.route = grid
    content.pins = [(grid[2], "A <b>title</b> & more")]
    var style = SnapshotStyle()
    style.labels = true
    let out = scratch.file("route.svg")
    try SnapshotRenderer(style: style).render(content, format: .svg, to: out)
    let parser = XMLParser(data: try Data(contentsOf: out))
    #expect(parser.parse())
    let text = try String(contentsOf: out, encoding: .utf8)
    #expect(text.contains("<svg") && text.contains("width=\"400px\""))
  }

  @Test func acrossTheAntimeridian() throws {
    let scratch = try Scratch()
    var content = SnapshotContent()
    content.route = [Coordinate(latitude: -17, longitude: 179.8), Coordinate(latitude: -17.1, longitude: -179.8)]
    let renderer = SnapshotRenderer(style: SnapshotStyle())
    let out = scratch.file("fiji.png")
    try renderer.render(content, format: .png, to: out)
    let image = try PNGImage(contentsOf: out)
    // The line is short and in the middle, not drawn the long way round the world.
    let (projection, origin) = try renderer.frame(for: content)
    let a = renderer.position(of: content.route[0], projection: projection, origin: origin)
    let b = renderer.position(of: content.route[1], projection: projection, origin: origin)
    #expect(abs(a.x - b.x) < 400)
    #expect(isRouteBlue(image.rgb(x: Int((a.x + b.x) / 2), y: Int((a.y + b.y) / 2))))
  }

  @Test func nothingToDrawIsAnError() {
    #expect(throws: SnapshotError.self) {
      try SnapshotRenderer(style: SnapshotStyle()).render(
        SnapshotContent(), format: .png, to: URL(fileURLWithPath: "/tmp/x.png"))
    }
  }

  @Test func tilesAreFetchedOnceWithOurUserAgentAndCached() throws {
    let scratch = try Scratch()
    // A green 256×256 PNG tile, made with cairo.
    let green = scratch.file("green.png")
    try makeSolidPNG(green, r: 0.1, g: 0.7, b: 0.2)
    let tileBytes = [UInt8](try Data(contentsOf: green))
    let server = try FixtureHTTPServer { request in
      FixtureResponse(status: 200, headers: [("Content-Type", "image/png")], body: tileBytes)
    }
    let client = try HTTPClient(options: HTTPClientOptions(userAgent: "geophoto/test (+https://example.invalid)"))
    let tiles = TileSource(
      template: server.baseURL + "/{z}/{x}/{y}.png", attribution: "© Test Tiles", client: client,
      cacheDirectory: scratch.file("cache"))
    var style = SnapshotStyle()
    style.tiles = tiles
    var content = SnapshotContent()
    content.route = grid
    let out = scratch.file("tiles.png")
    try SnapshotRenderer(style: style).render(content, format: .png, to: out)
    let image = try PNGImage(contentsOf: out)
    let corner = try #require(image.rgb(x: 3, y: 3))
    #expect(corner.g > 150 && corner.r < 60)  // the tile, not the plain background
    let requests = server.requests
    #expect(!requests.isEmpty && tiles.failedTiles == 0)
    #expect(requests.allSatisfy { $0.headers["user-agent"] == "geophoto/test (+https://example.invalid)" })
    #expect(requests.allSatisfy { $0.path.hasPrefix("/15/") })
    // A second snapshot of the same place comes from the cache.
    try SnapshotRenderer(style: style).render(content, format: .png, to: out)
    #expect(server.requests.count == requests.count)
  }
}

/// Writes a PNG of one colour with cairo (through the renderer's own surface code).
func makeSolidPNG(_ url: URL, r: Double, g: Double, b: Double) throws {
  try SolidTile.write(url, r: r, g: g, b: b)
}
