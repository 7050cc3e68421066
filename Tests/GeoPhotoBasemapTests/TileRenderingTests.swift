import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoSnapshot
import Testing

@Suite("Basemap tiles", .enabled(if: shippedBasemap != nil, "the basemap is not built (make basemap)"))
struct TileRenderingTests {
  let renderer = BasemapRenderer(basemap: shippedBasemap!)

  /// The tile and pixel a coordinate falls in at a zoom.
  func locate(_ c: Coordinate, zoom: Int) -> (x: Int, y: Int, px: Int, py: Int) {
    let p = WebMercator(zoom: zoom).point(c)
    return (Int(p.x) / 256, Int(p.y) / 256, Int(p.x) % 256, Int(p.y) % 256)
  }

  @Test("Tokyo Bay is water and the Kanto plain land, from the world down to zoom 10", arguments: [6, 7, 8, 9, 10])
  func tokyoBay(zoom: Int) throws {
    for (c, expected) in [
      (Coordinate(latitude: 35.33, longitude: 139.79), Surface.water),  // Tokyo Bay
      (Coordinate(latitude: 36.05, longitude: 139.55), .land),  // the Kanto plain
      (Coordinate(latitude: 34.0, longitude: 141.5), .water),  // the Pacific
    ] {
      let at = locate(c, zoom: zoom)
      let image = try pixels(try renderer.tile(zoom: zoom, x: at.x, y: at.y, scale: 1, style: .light))
      // What most of the pixels round it show (a place's name or dot may cover a few).
      let around = (-4...4).flatMap { dy in (-4...4).compactMap { dx in image.rgb(x: at.px + dx, y: at.py + dy) } }
      let surfaces = around.compactMap(Surface.init)
      let water = surfaces.filter { $0 == .water }.count
      #expect(surfaces.count >= 30, "\(c) at zoom \(zoom) is mostly labels")
      #expect((water * 2 > surfaces.count ? Surface.water : .land) == expected, "\(c) at zoom \(zoom)")
    }
  }

  /// Random points of a few land-and-sea tiles at each zoom, each pixel against Natural Earth's
  /// own polygons read from the GeoJSON (land and not lake); pixels near a shore (where the
  /// simplification may move it by a pixel) or under a label or line are not counted.
  @Test("land is drawn where Natural Earth has land", .enabled(if: hasSources, "../shared/data/basemap is missing"))
  func landWhereNaturalEarthHasLand() throws {
    let land = try SourcePolygons("ne50_land")
    let lakes = try SourcePolygons("ne50_lakes")
    var rng = SeededGenerator(seed: 16)
    var checked = 0
    var wrong: [String] = []
    for (zoom, centre) in [
      (4, Coordinate(latitude: 55.7, longitude: 12.5)), (6, Coordinate(latitude: 43.3, longitude: 5.4)),
      (8, Coordinate(latitude: 35.4, longitude: 139.6)), (9, Coordinate(latitude: 60.2, longitude: 24.9)),
      (10, Coordinate(latitude: -33.9, longitude: 151.2)), (3, Coordinate(latitude: -17, longitude: 178)),
    ] {
      let at = locate(centre, zoom: zoom)
      let image = try pixels(try renderer.tile(zoom: zoom, x: at.x, y: at.y, scale: 1, style: .light))
      let projection = WebMercator(zoom: zoom)
      for _ in 0..<300 {
        let (px, py) = (Int.random(in: 2..<254, using: &rng), Int.random(in: 2..<254, using: &rng))
        func truth(_ dx: Int, _ dy: Int) -> Surface {
          let c = projection.coordinate(x: Double(at.x * 256 + px + dx) + 0.5, y: Double(at.y * 256 + py + dy) + 0.5)
          return land.contains(c) && !lakes.contains(c) ? .land : .water
        }
        let expected = truth(0, 0)
        // Three pixels round it agree: not at a shore (which simplification may move by half a
        // pixel, and where specks smaller than a pixel are left out).
        guard
          [(-3, 0), (3, 0), (0, -3), (0, 3), (-3, -3), (3, 3), (-3, 3), (3, -3)].allSatisfy({
            truth($0.0, $0.1) == expected
          }),
          let drawn = Surface(image.rgb(x: px, y: py)!)
        else { continue }
        checked += 1
        if drawn != expected { wrong.append("z\(zoom) \(at.x)/\(at.y) pixel \(px),\(py): \(drawn) not \(expected)") }
      }
    }
    #expect(checked > 800)
    // Natural Earth's 1:110m land (zooms 0–2) is not checked here; at 1:50m, all but a few.
    #expect(Double(wrong.count) <= Double(checked) * 0.01, "\(wrong.count) of \(checked): \(wrong.prefix(20))")
  }

  @Test("tiles side by side are one picture: labels and shapes continue across tile edges", arguments: [3, 6, 9])
  func tilesJoin(zoom: Int) throws {
    let at = locate(Coordinate(latitude: 48.85, longitude: 2.35), zoom: zoom)
    // One 512 × 512 drawing over four tiles, beside the four tiles.
    let whole = try pixels(
      try renderer.area(zoom: zoom, x: Double(at.x * 256), y: Double(at.y * 256), width: 512, height: 512))
    var differing = 0
    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
      let tile = try pixels(try renderer.tile(zoom: zoom, x: at.x + dx, y: at.y + dy, scale: 1, style: .light))
      for y in 0..<256 {
        for x in 0..<256 {
          let a = tile.rgb(x: x, y: y)!
          let b = whole.rgb(x: dx * 256 + x, y: dy * 256 + y)!
          if abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b) > 12 { differing += 1 }
        }
      }
    }
    #expect(Double(differing) < 512 * 512 * 0.002, "\(differing) pixels differ at zoom \(zoom)")
  }

  @Test("Fiji and the Chukotka coast have no seam at ±180°", arguments: [3, 5, 7])
  func antimeridian(zoom: Int) throws {
    var landRows = 0
    for c in [Coordinate(latitude: -16.8, longitude: 179.99), Coordinate(latitude: 67.0, longitude: 179.99)] {
      let at = locate(c, zoom: zoom)
      let n = 1 << zoom
      #expect(at.x == n - 1)
      // One drawing across the line: the east tile, then the west one, as a map shows them.
      let across = try pixels(
        try renderer.area(zoom: zoom, x: Double(n * 256 - 128), y: Double(at.y * 256), width: 256, height: 256))
      // Rows inland on both sides (land four pixels either side, on this row and the two above
      // and below): the line's own pixels are land too, with no lighter seam. A shore that
      // slips between the test points may spoil a row or two, a seam spoils them all.
      var seams: [Int] = []
      for y in 2..<254 {
        let inland = (y - 2...y + 2).allSatisfy { row in
          [124, 131].allSatisfy { Surface(across.rgb(x: $0, y: row)!) == .land }
        }
        guard inland else { continue }
        landRows += 1
        if !(125...130).allSatisfy({ Surface(across.rgb(x: $0, y: y)!) == .land }) { seams.append(y) }
      }
      #expect(seams.count <= 2, "a seam at zoom \(zoom) near \(c), rows \(seams)")
      // The tiles each side of the line agree at their shared edge.
      let east = try pixels(try renderer.tile(zoom: zoom, x: n - 1, y: at.y, scale: 1, style: .light))
      let west = try pixels(try renderer.tile(zoom: zoom, x: 0, y: at.y, scale: 1, style: .light))
      var agree = 0
      var both = 0
      for y in 0..<256 {
        guard let e = Surface(east.rgb(x: 255, y: y)!), let w = Surface(west.rgb(x: 0, y: y)!) else { continue }
        both += 1
        if e == w { agree += 1 }
      }
      #expect(both > 100 && agree >= both - 3, "\(agree) of \(both) rows agree at zoom \(zoom)")
    }
    #expect(landRows > 10, "no land across ±180° at zoom \(zoom)")
  }

  @Test("a tile is 256 pixels, 512 at @2x, in either style")
  func sizesAndStyles() throws {
    let light = try renderer.tile(zoom: 2, x: 3, y: 1, scale: 1, style: .light)
    let dark = try renderer.tile(zoom: 2, x: 3, y: 1, scale: 1, style: .dark)
    let retina = try pixels(try renderer.tile(zoom: 2, x: 3, y: 1, scale: 2, style: .light))
    #expect(try pixels(light).width == 256 && retina.width == 512 && retina.height == 512)
    #expect(light != dark)
    // The dark style's sea is dark.
    let sea = try pixels(dark).rgb(x: 250, y: 250)!
    #expect(sea.r + sea.g + sea.b < 200)
  }

  @Test("tiles outside the world are refused with what is wrong")
  func outOfRange() {
    #expect(throws: TileError.self) { try renderer.tile(zoom: 20, x: 0, y: 0, scale: 1, style: .light) }
    #expect(throws: TileError.self) { try renderer.tile(zoom: 3, x: 8, y: 0, scale: 1, style: .light) }
    #expect(throws: TileError.self) { try renderer.tile(zoom: 3, x: 0, y: -1, scale: 1, style: .light) }
    let error = #expect(throws: TileError.self) { try renderer.tile(zoom: 2, x: 4, y: 0, scale: 1, style: .light) }
    #expect(error?.description == "tile 2/4/0 does not exist: x and y are 0…3 at zoom 2")
  }

  @Test("deeper than zoom 10, zoom 10's shapes and labels are drawn larger")
  func deepZooms() throws {
    let at = locate(Coordinate(latitude: 35.33, longitude: 139.79), zoom: 15)
    let image = try pixels(try renderer.tile(zoom: 15, x: at.x, y: at.y, scale: 1, style: .light))
    #expect(Surface(image.rgb(x: at.px, y: at.py)!) == .water)
    _ = try renderer.tile(zoom: 19, x: (1 << 19) - 1, y: (1 << 19) - 1, scale: 2, style: .dark)
  }
}
