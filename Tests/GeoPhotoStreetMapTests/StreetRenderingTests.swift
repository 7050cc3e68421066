import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoSnapshot
import GeoPhotoStreetMap
import GeoPhotoVectorTiles
import Testing

/// The street map drawn from real OpenStreetMap archives of central Helsinki, checked on its
/// pixels against what OpenStreetMap itself says is where (read with pyosmium from the extract
/// tilemaker was given, not through the archives).
@Suite(.enabled(if: Helsinki.areBuilt, "needs the OpenStreetMap archives (Scripts/osm-test-archives.sh)"))
struct StreetRenderingTests {
  /// The light style's colours the checks look for.
  static let primaryRoad = 0xFCD6A4
  static let secondaryRoad = 0xF7FABF
  static let building = 0xD9D0C9
  static let park = 0xC8E6B0
  static let naturalEarthLand = 0xF2EFE9

  /// The pixel of a position in the tile of `zoom` that holds it, drawn by `renderer`.
  func pixel(_ renderer: MapTileRenderer, latitude: Double, longitude: Double, zoom: Int, style: BasemapStyle = .light)
    throws -> (image: PNGImage, x: Int, y: Int)
  {
    let p = Helsinki.worldPixel(latitude: latitude, longitude: longitude, zoom: zoom)
    let (tx, ty) = (Int(p.x / 256), Int(p.y / 256))
    let image = try pixels(try renderer.tile(zoom: zoom, x: tx, y: ty, scale: 1, style: style))
    return (image, Int(p.x) - tx * 256, Int(p.y) - ty * 256)
  }

  /// Whether any pixel within `radius` of (x, y) has the colour.
  func found(_ hex: Int, in image: PNGImage, x: Int, y: Int, radius: Int = 2) -> Bool {
    for dy in -radius...radius {
      for dx in -radius...radius where near(image.rgb(x: x + dx, y: y + dy), hex) { return true }
    }
    return false
  }

  @Test func majorRoadsAreDrawnWhereOpenStreetMapHasThem() throws {
    let renderer = try Helsinki.renderer()
    let bounds = try #require(renderer.streets?.archives.first?.info.bounds)
    let points = try Helsinki.osmPoints(
      tag: "highway", values: ["primary", "secondary"], mode: "segments", minimum: 40
    )
    .filter { bounds.contains(Coordinate(latitude: $0.latitude, longitude: $0.longitude)) }
    #expect(points.count >= 20)
    var hits = 0
    for p in points {
      let (image, x, y) = try pixel(renderer, latitude: p.latitude, longitude: p.longitude, zoom: 16)
      let colour = p.value == "primary" ? Self.primaryRoad : Self.secondaryRoad
      if found(colour, in: image, x: x, y: y, radius: 4) { hits += 1 }
    }
    // Names and tram lines drawn over a road hide some of its pixels (tilemaker's feature order,
    // and so which names win, varies from build to build); a road drawn elsewhere or not at all
    // would be found nowhere.
    #expect(hits * 100 >= points.count * 75, "\(hits) of \(points.count)")
  }

  @Test func buildingsAreDrawnAtZoom16() throws {
    let renderer = try Helsinki.renderer()
    let points = try Helsinki.osmPoints(
      tag: "building", values: ["yes", "apartments", "commercial", "office"], mode: "inside", minimum: 8)
    #expect(points.count >= 20)
    var hits = 0
    for p in points {
      let (image, x, y) = try pixel(renderer, latitude: p.latitude, longitude: p.longitude, zoom: 16)
      if found(Self.building, in: image, x: x, y: y, radius: 1) { hits += 1 }
    }
    #expect(hits * 10 >= points.count * 8, "\(hits) of \(points.count)")
    // Not at zoom 14: buildings start at 15.
    let first = points[0]
    let (image, x, y) = try pixel(renderer, latitude: first.latitude, longitude: first.longitude, zoom: 14)
    #expect(!found(Self.building, in: image, x: x, y: y, radius: 0))
  }

  @Test func parksHaveTheParkColour() throws {
    let renderer = try Helsinki.renderer()
    let points = try Helsinki.osmPoints(tag: "leisure", values: ["park"], mode: "inside", minimum: 25)
    #expect(!points.isEmpty)
    var hits = 0
    for p in points {
      let (image, x, y) = try pixel(renderer, latitude: p.latitude, longitude: p.longitude, zoom: 16)
      if found(Self.park, in: image, x: x, y: y, radius: 3) { hits += 1 }
    }
    #expect(hits * 10 >= points.count * 8, "\(hits) of \(points.count)")
  }

  /// Nine tiles drawn one by one and put together are the block drawn at once: every label
  /// whole, none cut where tiles meet, at the archive's zoom and above it.
  @Test(arguments: [14, 16, 18])
  func labelsAreWholeAcrossTileEdges(zoom: Int) throws {
    let renderer = try Helsinki.renderer()
    let centre = Helsinki.worldPixel(latitude: 60.1699, longitude: 24.9410, zoom: zoom)
    let (x0, y0) = (Int(centre.x / 256) - 1, Int(centre.y / 256) - 1)
    let block = try pixels(
      try renderer.area(
        zoom: zoom, x: Double(x0 * 256), y: Double(y0 * 256), width: 768, height: 768, scale: 1, style: .light))
    var differing = 0
    var text = 0
    for ty in 0..<3 {
      for tx in 0..<3 {
        let tile = try pixels(try renderer.tile(zoom: zoom, x: x0 + tx, y: y0 + ty, scale: 1, style: .light))
        for y in 0..<256 {
          for x in 0..<256 {
            let a = tile.rgb(x: x, y: y)
            let b = block.rgb(x: tx * 256 + x, y: ty * 256 + y)
            if let a, let b, abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b) > 60 { differing += 1 }
            // The text's colour (labels are dark on a light halo).
            if let a, a.r < 90 && a.g < 90 && a.b < 90 { text += 1 }
          }
        }
      }
    }
    // Labels are there (fewer at zoom 18, where a block is 500 m across), and the tiles agree
    // with the block (antialiasing aside).
    #expect(text > (zoom == 18 ? 50 : 200), "text pixels: \(text)")
    #expect(differing * 1_000 <= 768 * 768, "\(differing) pixels differ")
  }

  @Test func theMBTilesAndThePMTilesDrawTheSame() throws {
    let pm = try Helsinki.renderer(Helsinki.pmtiles)
    let mb = try Helsinki.renderer(Helsinki.mbtiles)
    for (z, x, y) in [(14, 9327, 4742), (16, 37309, 18969), (18, 149235, 75875)] {
      for style in BasemapStyle.allCases {
        #expect(
          try pm.tile(zoom: z, x: x, y: y, scale: 1, style: style)
            == mb.tile(zoom: z, x: x, y: y, scale: 1, style: style),
          "\(z)/\(x)/\(y) \(style)")
      }
    }
  }

  @Test func theDarkStyleIsDark() throws {
    let renderer = try Helsinki.renderer()
    func brightness(_ style: BasemapStyle) throws -> Double {
      let image = try pixels(try renderer.tile(zoom: 16, x: 37309, y: 18969, scale: 1, style: style))
      var sum = 0
      for y in 0..<256 { for x in 0..<256 { if let c = image.rgb(x: x, y: y) { sum += c.r + c.g + c.b } } }
      return Double(sum) / Double(256 * 256 * 3)
    }
    #expect(try brightness(.light) > 200)
    #expect(try brightness(.dark) < 80)
  }

  /// Zoom 18 is drawn from the archive's zoom-14 tiles, scaled: roads as wide as zoom 18 wants.
  @Test func tilesAboveTheArchivesZoomAreScaledFromItsDeepest() throws {
    let renderer = try Helsinki.renderer()
    let points = try Helsinki.osmPoints(tag: "highway", values: ["primary"], mode: "segments", minimum: 60)
    let p = try #require(points.first)
    let (image, x, y) = try pixel(renderer, latitude: p.latitude, longitude: p.longitude, zoom: 18)
    #expect(found(Self.primaryRoad, in: image, x: x, y: y, radius: 3))
    // Roads are many pixels wide at zoom 18: the road's colour covers a good share of the tile.
    var road = 0
    for yy in 0..<256 { for xx in 0..<256 where near(image.rgb(x: xx, y: yy), Self.primaryRoad) { road += 1 } }
    #expect(road > 1_000, "\(road) road pixels")
    #expect(try renderer.tile(zoom: 19, x: 149235 * 2, y: 75875 * 2, scale: 2, style: .light).count > 1_000)
  }

  /// Outside the archive's bounds the Natural Earth basemap is drawn, exactly as without it.
  @Test func naturalEarthIsDrawnOutsideTheArchive() throws {
    let with = try Helsinki.renderer()
    let without = MapTileRenderer(basemap: with.basemap, streets: nil)
    // East of the extract, and a zoom below its tiles' (tilemaker's begin at 0, so far away).
    for (z, x, y) in [(14, 9335, 4742), (10, 600, 296)] {
      #expect(
        try with.tile(zoom: z, x: x, y: y, scale: 1, style: .light)
          == without.tile(zoom: z, x: x, y: y, scale: 1, style: .light))
    }
    // The seam runs along the archive's east edge: beyond it Natural Earth as it is, within it
    // the street map.
    let bounds = try #require(with.streets?.archives.first?.info.bounds)
    let edge = Helsinki.worldPixel(latitude: 60.17, longitude: bounds.east, zoom: 16)
    let (tx, ty) = (Int(edge.x / 256), Int(edge.y / 256))
    let image = try pixels(try with.tile(zoom: 16, x: tx, y: ty, scale: 1, style: .light))
    let plain = try pixels(try without.tile(zoom: 16, x: tx, y: ty, scale: 1, style: .light))
    let column = Int(edge.x) - tx * 256
    #expect(column > 20 && column < 236, "the edge at column \(column)")
    var (beyond, beyondSame, within, withinSame) = (0, 0, 0, 0)
    for y in 0..<256 {
      for x in 0..<256 where abs(x - column) > 1 {
        let same = image.rgb(x: x, y: y).map { a in plain.rgb(x: x, y: y).map { $0 == a } ?? false } ?? false
        if x > column {
          beyond += 1
          beyondSame += same ? 1 : 0
        } else {
          within += 1
          withinSame += same ? 1 : 0
        }
      }
    }
    // Names anchored inside may reach across the edge; nothing else does.
    #expect(beyondSame * 100 >= beyond * 95, "\(beyondSame) of \(beyond) unchanged beyond the edge")
    #expect(withinSame * 2 <= within, "\(withinSame) of \(within) unchanged within")
  }

  @Test func theArchiveIsCreditedWhereItIsDrawn() throws {
    let renderer = try Helsinki.renderer()
    let streets = try #require(renderer.streets)
    let inside = Helsinki.worldPixel(latitude: 60.17, longitude: 24.944, zoom: 15)
    #expect(
      streets.attribution(zoom: 15, origin: (inside.x - 128, inside.y - 128), width: 256, height: 256)
        == "© OpenStreetMap contributors")
    #expect(streets.attribution(zoom: 15, origin: (0, 0), width: 256, height: 256) == nil)
    #expect(
      renderer.credits(zoom: 15, origin: (inside.x - 128, inside.y - 128), width: 256, height: 256)
        == [Basemap.attribution, "© OpenStreetMap contributors"])
    #expect(renderer.credits(zoom: 15, origin: (0, 0), width: 256, height: 256) == [Basemap.attribution])
  }
}
