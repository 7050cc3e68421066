import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoSnapshot
import GeoPhotoStreetMap
import GeoPhotoVectorTiles
import Testing

/// Archives made here, tile by tile: Protomaps' schema (no archive of it is at hand), and
/// damaged tiles, which draw nothing over Natural Earth (and never crash).
@Suite(.enabled(if: Basemap.shippedURL != nil, "needs the shipped basemap"))
struct SchemaRenderingTests {
  /// Tile 14/9327/4742 of a Protomaps-schema archive: land (`earth`) on its western half and
  /// sea east of it, a primary road across it, a park, a building and a city's name.
  static let tile = TileAddress(zoom: 14, x: 9327, y: 4742)

  static func protomapsArchive() throws -> any TileArchive {
    var builder = VectorTileBuilder()
    builder.add(
      .polygon([[(0, 0), (2048, 0), (2048, 4096), (0, 4096)]]), to: "earth", tags: ["kind": .string("earth")])
    builder.add(
      .line([(-50, 1000), (4146, 1000)]), to: "roads",
      tags: ["kind": .string("major_road"), "kind_detail": .string("primary"), "name": .string("Long Road")])
    builder.add(
      .polygon([[(200, 2500), (1000, 2500), (1000, 3500), (200, 3500)]]), to: "landuse", tags: ["kind": .string("park")]
    )
    builder.add(
      .polygon([[(1200, 2600), (1600, 2600), (1600, 3000), (1200, 3000)]]), to: "buildings",
      tags: ["kind": .string("building")])
    builder.add(
      .point(x: 1000, y: 1800), to: "places",
      tags: [
        "kind": .string("locality"), "kind_detail": .string("city"), "name": .string("Testville"),
        "population_rank": .number(12),
      ])
    let metadata = """
      {"name": "Protomaps Basemap", "attribution": "<a href=\\"https://openstreetmap.org/copyright\\">&copy; OpenStreetMap</a>",
       "vector_layers": [{"id": "earth", "fields": {}}, {"id": "water", "fields": {}}, {"id": "roads", "fields": {}},
       {"id": "places", "fields": {}}, {"id": "landuse", "fields": {}}, {"id": "buildings", "fields": {}}]}
      """
    let bytes = HostileFiles.pmtiles(
      tiles: [(try #require(tile).hilbertID, builder.bytes)], metadata: Array(metadata.utf8), zooms: 14...14)
    return try PMTilesArchive(MappedBytes(Data(bytes)), path: "protomaps.pmtiles")
  }

  func renderer(_ archive: any TileArchive) throws -> MapTileRenderer {
    let basemap = try Basemap.shippedURL.map { BasemapRenderer(basemap: try Basemap(contentsOf: $0)) }
    return MapTileRenderer(basemap: basemap, streets: StreetMap(archives: [archive]))
  }

  @Test func protomapsArchivesAreDrawnByTheirOwnTable() throws {
    let archive = try Self.protomapsArchive()
    #expect(archive.info.schema == .protomaps)
    #expect(archive.info.attributionText == "© OpenStreetMap")
    // No bounds in the header: the tiles at its deepest zoom are its bounds.
    #expect(archive.info.boundsFromTiles)
    let address = try #require(Self.tile)
    let image = try pixels(try renderer(archive).tile(zoom: 14, x: address.x, y: address.y, scale: 1, style: .light))
    // `earth` is land, the rest of the tile water (Protomaps paints water first).
    #expect(near(image.rgb(x: 60, y: 150), 0xF2EFE9))
    #expect(near(image.rgb(x: 200, y: 150), 0xAAD3DF))
    // The road (y = 1000 of 4096: pixel 62.5), the park, and no building below zoom 15.
    #expect(near(image.rgb(x: 100, y: 62), 0xFCD6A4) || near(image.rgb(x: 100, y: 63), 0xFCD6A4))
    #expect(near(image.rgb(x: 30, y: 190), 0xC8E6B0))
    #expect(!near(image.rgb(x: 87, y: 175), 0xD9D0C9))
    // A zoom-16 tile of it, scaled from zoom 14: the building is there.
    let deeper = try pixels(
      try renderer(archive).tile(zoom: 16, x: address.x * 4 + 1, y: address.y * 4 + 2, scale: 1, style: .light))
    // (1400, 2800) of 4096 is pixel (350, 700) of zoom 16's 1024-pixel block: (94, 188) in its tile.
    #expect(near(deeper.rgb(x: 94, y: 188), 0xD9D0C9))
  }

  @Test func damagedTilesLeaveNaturalEarthAsItIs() throws {
    let address = try #require(Self.tile)
    // Inside the archive's bounds Natural Earth's names give way to the archive's, which has
    // nothing to draw here: Natural Earth's shapes alone.
    let basemap = try #require(try renderer(try Self.protomapsArchive()).basemap)
    let expected = try BasemapRenderer.image(width: 256, height: 256, scale: 1) { cr in
      basemap.draw(
        in: cr, zoom: 14, origin: (Double(address.x * 256), Double(address.y * 256)), width: 256, height: 256,
        style: .light, labels: false)
    }
    // Not a tile, a cut gzip stream, and a geometry whose count runs past its integers.
    let hostile = try #require(HostileFiles.tileArchives.first { $0.name == "mvt-geometry-count.mvt" })
    for bytes in [Array("not a tile at all".utf8), [0x1F, 0x8B, 0x08, 0x00, 0x00], hostile.bytes] {
      let file = HostileFiles.pmtiles(tiles: [(address.hilbertID, bytes)], zooms: 14...14)
      let archive = try PMTilesArchive(MappedBytes(Data(file)), path: "damaged.pmtiles")
      let drawn = try renderer(archive).tile(zoom: 14, x: address.x, y: address.y, scale: 1, style: .light)
      #expect(drawn == expected)
    }
  }

  /// A raster archive's tiles are drawn as they are: its zoom-14 tile, and scaled at 15.
  @Test func rasterArchivesAreDrawnAsTheyAre() throws {
    let address = try #require(Self.tile)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("solid-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: file) }
    try SolidTile.write(file, r: 0.2, g: 0.6, b: 0.4)
    let png = [UInt8](try Data(contentsOf: file))
    let archive = try PMTilesArchive(
      MappedBytes(Data(HostileFiles.pmtiles(tiles: [(address.hilbertID, png)], zooms: 14...14, type: 2))),
      path: "raster.pmtiles")
    #expect(archive.info.format == .png)
    let map = try renderer(archive)
    for (z, x, y) in [(14, address.x, address.y), (15, address.x * 2 + 1, address.y * 2)] {
      let image = try pixels(try map.tile(zoom: z, x: x, y: y, scale: 1, style: .light))
      #expect(near(image.rgb(x: 128, y: 128), 0x339966, tolerance: 2), "\(z)")
    }
    // A tile that is not an image leaves the basemap.
    let broken = try PMTilesArchive(
      MappedBytes(
        Data(HostileFiles.pmtiles(tiles: [(address.hilbertID, Array("no image".utf8))], zooms: 14...14, type: 2))),
      path: "broken.pmtiles")
    let image = try pixels(try renderer(broken).tile(zoom: 14, x: address.x, y: address.y, scale: 1, style: .light))
    #expect(!near(image.rgb(x: 128, y: 128), 0x339966, tolerance: 2))
  }

  /// Features whose values would trap or run away if taken as they are: a border level of NaN,
  /// infinity or Int64's least value, and a named road millions of pixels long.
  @Test(arguments: ["openmaptiles", "protomaps"])
  func hostileValuesAreDrawnOrLeftOutNeverCrash(schema: String) throws {
    let address = try #require(Self.tile)
    var builder = VectorTileBuilder()
    for level in [Double.nan, .infinity, -.infinity, -9.3e18, 1e30] {
      builder.add(.line([(0, 10), (4096, 10)]), to: "boundary", tags: ["admin_level": .number(level)])
    }
    builder.add(
      .line([(0, 20), (4096, 30)]), to: "boundaries",
      tags: ["kind": .string("country"), "kind_detail": .string("-9223372036854775808")])
    builder.add(
      .line([(0, 2000), (1 << 19, 2000)]), to: schema == "protomaps" ? "roads" : "transportation_name",
      tags: ["kind": .string("major_road"), "class": .string("primary"), "name": .string("The Long Road")])
    builder.add(.line([(0, 2000), (1 << 19, 2000)]), to: "transportation", tags: ["class": .string("primary")])
    builder.add(
      .point(x: 100, y: 100), to: "place",
      tags: ["class": .string("city"), "rank": .number(.nan), "name": .string("N")])
    let layers =
      schema == "protomaps"
      ? #"{"vector_layers": [{"id": "earth"}, {"id": "roads"}, {"id": "places"}, {"id": "water"}]}"#
      : #"{"vector_layers": [{"id": "transportation"}, {"id": "place"}, {"id": "water"}]}"#
    let file = HostileFiles.pmtiles(
      tiles: [(address.hilbertID, builder.bytes)], metadata: Array(layers.utf8), zooms: 14...14)
    let map = try renderer(try PMTilesArchive(MappedBytes(Data(file)), path: "hostile.pmtiles"))
    for (z, x, y) in [(14, address.x, address.y), (17, address.x * 8, address.y * 8 + 3)] {
      #expect(try map.tile(zoom: z, x: x, y: y, scale: 1, style: .light).count > 1_000)
    }
    #expect(TileAddress(hilbertID: 0x5555_5555_5555_5555) == nil)
    #expect(TileAddress(hilbertID: 0x5555_5555_5555_5554)?.zoom == 31)
  }
}
