import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoVectorTiles

/// The readers on real archives (tilemaker's MBTiles, pmtiles-convert's PMTiles of the same
/// tiles), checked against Python's sqlite3 and `pmtiles` reading the same files.
@Suite(.enabled(if: OSMArchives.areBuilt, "needs the OpenStreetMap archives (Scripts/osm-test-archives.sh)"))
struct TileArchiveTests {
  func address(_ key: String) throws -> TileAddress {
    let p = key.split(separator: "/").compactMap { Int($0) }
    return try #require(TileAddress(zoom: p[0], x: p[1], y: p[2]))
  }

  @Test func everyMBTilesTileIsTheOnePythonReads() throws {
    let archive = try MBTilesArchive(path: OSMArchives.mbtiles)
    let expected = try OSMArchives.tilesReadByPython(OSMArchives.mbtiles)
    #expect(expected.count == 19)
    for (key, hex) in expected {
      #expect(try archive.storedTile(try address(key))?.hex == hex, "\(key)")
    }
    // Where Python finds none, neither does geophoto.
    #expect(try archive.storedTile(try #require(TileAddress(zoom: 14, x: 0, y: 0))) == nil)
    #expect(try archive.storedTile(try #require(TileAddress(zoom: 15, x: 18_654, y: 9_484))) == nil)
  }

  @Test func everyPMTilesTileIsTheOnePythonReads() throws {
    let archive = try PMTilesArchive(path: OSMArchives.pmtiles)
    let expected = try OSMArchives.tilesReadByPython(OSMArchives.pmtiles)
    #expect(expected.count == 19)
    for (key, hex) in expected {
      #expect(try archive.storedTile(try address(key))?.hex == hex, "\(key)")
    }
    #expect(try archive.storedTile(try #require(TileAddress(zoom: 14, x: 0, y: 0))) == nil)
  }

  @Test func bothDescribeTheSameArchive() throws {
    let mb = try MBTilesArchive(path: OSMArchives.mbtiles).info
    let pm = try PMTilesArchive(path: OSMArchives.pmtiles).info
    for info in [mb, pm] {
      #expect(info.format == .vector)
      #expect(info.minZoom == 0 && info.maxZoom == 14)
      #expect(info.schema == .openMapTiles)
      #expect(info.name == "Tilemaker to OpenMapTiles schema")
      #expect(info.attribution == nil)
      #expect(info.attributionText == "© OpenStreetMap contributors")
      let bounds = try #require(info.bounds)
      // The extract's bounding box, as the script gave it to tilemaker.
      #expect(abs(bounds.west - 24.935176) < 1e-6 && abs(bounds.north - 60.179113) < 1e-6)
      #expect(Set(info.vectorLayers.map(\.id)).isSuperset(of: ["transportation", "building", "place", "water"]))
    }
    #expect(mb.kind == .mbtiles && pm.kind == .pmtiles)
    #expect(pm.tileCount == 19)
  }

  /// tilemaker writes bounds of 0,0,0,0 when its input has no bounding box (and
  /// pmtiles-convert copies them): unknown, so the tiles at the deepest zoom give them.
  @Test func zeroBoundsAreWorkedOutFromTheTiles() throws {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("zero-\(UUID().uuidString).mbtiles")
    defer { try? FileManager.default.removeItem(at: copy) }
    try FileManager.default.copyItem(atPath: OSMArchives.mbtiles, toPath: copy.path)
    _ = try OSMArchives.python(
      "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        + "c.execute(\"UPDATE metadata SET value = '0.000000,0.000000,0.000000,0.000000' WHERE name = 'bounds'\"); c.commit()",
      [copy.path])
    let info = try MBTilesArchive(path: copy.path).info
    #expect(info.boundsFromTiles)
    let bounds = try #require(info.bounds)
    // Zoom 14's tiles 9326–9327 × 4741–4742, edge to edge.
    #expect(abs(bounds.west - (9326.0 / 16384 * 360 - 180)) < 1e-9)
    #expect(abs(bounds.east - (9328.0 / 16384 * 360 - 180)) < 1e-9)
    func latitude(_ y: Double) -> Double { atan(sinh(.pi * (1 - 2 * y / 16384))) * 180 / .pi }
    #expect(abs(bounds.north - latitude(4741)) < 1e-9 && abs(bounds.south - latitude(4743)) < 1e-9)
  }

  /// The densest tile, decoded from both archives, against a small decoder of Python's own.
  @Test func theDensestTileDecodesAsPythonDecodesIt() throws {
    let tile = try #require(TileAddress(zoom: 14, x: 9327, y: 4742))
    let program = """
      import gzip, sqlite3, sys
      def varint(b, i):
          v = s = 0
          while True:
              c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
              if c < 0x80: return v, i
      def fields(b, i, end):
          while i < end:
              key, i = varint(b, i)
              t = key & 7
              if t == 0: v, i = varint(b, i); yield key >> 3, v
              elif t == 2:
                  n, i = varint(b, i); yield key >> 3, (i, i + n); i += n
              elif t == 1: i += 8
              elif t == 5: i += 4
      row = sqlite3.connect(sys.argv[1]).execute(
          "SELECT tile_data FROM tiles WHERE zoom_level=14 AND tile_column=9327 AND tile_row=11641").fetchone()
      b = gzip.decompress(row[0])
      for n, (s, e) in fields(b, 0, len(b)):
          if n != 3: continue
          name, count, vertices = None, 0, 0
          for m, v in fields(b, s, e):
              if m == 1: name = b[v[0]:v[1]].decode()
              if m == 2:
                  count += 1
                  for k, g in fields(b, v[0], v[1]):
                      if k == 4:
                          i = g[0]
                          while i < g[1]:
                              c, i = varint(b, i)
                              if c & 7 in (1, 2):
                                  for _ in range(2 * (c >> 3)): _, i = varint(b, i)
                                  vertices += c >> 3
          print(name, count, vertices)
      """
    var expected: [String: (Int, Int)] = [:]
    for line in try OSMArchives.python(program, [OSMArchives.mbtiles]).split(separator: "\n") {
      let p = line.split(separator: " ")
      if p.count == 3, let n = Int(p[1]), let v = Int(p[2]) { expected[String(p[0])] = (n, v) }
    }
    #expect(
      Set(expected.keys).isSuperset(of: [
        "place", "boundary", "poi", "housenumber", "transportation", "transportation_name", "building", "water",
        "landuse", "landcover",
      ]))
    for archive in [
      try MBTilesArchive(path: OSMArchives.mbtiles) as any TileArchive, try PMTilesArchive(path: OSMArchives.pmtiles),
    ] {
      let decoded = try #require(try archive.vectorTile(tile))
      #expect(decoded.dropped == 0)
      #expect(Set(decoded.layers.map(\.name)) == Set(expected.keys))
      for layer in decoded.layers {
        let (count, vertices) = try #require(expected[layer.name])
        #expect(layer.features.count == count, "\(layer.name)")
        // Every vertex the commands carry, less repeated ones (tilemaker writes none) and the
        // rings of zero area geophoto drops.
        let drawn = layer.features.compactMap { TileGeometry($0, in: decoded) }
        #expect(drawn.count == count, "\(layer.name): features without a drawable geometry")
        let points = drawn.reduce(0) { $0 + $1.parts.reduce(0) { $0 + $1.count } }
        #expect(points <= vertices && points >= vertices * 99 / 100, "\(layer.name): \(points) of \(vertices)")
      }
    }
  }
}
