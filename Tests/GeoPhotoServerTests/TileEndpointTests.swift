import Foundation
import GeoPhotoBasemap
import GeoPhotoSnapshot
import GeoPhotoVectorTiles
import Testing

@testable import GeoPhotoServer

@Suite(
  "GET /tiles/{z}/{x}/{y}.png",
  .enabled(if: Basemap.shippedURL != nil, "the basemap is not built (make basemap)"))
struct TileEndpointTests {
  let api = router()

  /// Width and height from a PNG's IHDR.
  func size(_ png: [UInt8]) -> (Int, Int)? {
    guard png.count > 24, png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
    func u32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (u32(16), u32(20))
  }

  @Test func aTileIsAPNGWithItsIdentityAndCaching() throws {
    let r = get(api, "/tiles/3/7/4.png")
    #expect(r.status == 200)
    #expect(r.header("Content-Type") == "image/png")
    #expect(size(r.body).map { $0 == (256, 256) } == true)
    let tag = try #require(r.header("ETag"))
    #expect(tag.hasPrefix("\"b") && tag.hasSuffix("-light-3-7-4-1\""))
    #expect(r.header("Cache-Control")?.contains("max-age") == true)
    let again = get(api, "/tiles/3/7/4.png", headers: ["if-none-match": tag])
    #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == tag)
  }

  @Test func retinaAndDarkTiles() throws {
    let retina = get(api, "/tiles/3/7/4@2x.png")
    #expect(retina.status == 200 && size(retina.body).map { $0 == (512, 512) } == true)
    let dark = get(api, "/tiles/3/7/4.png?style=dark")
    let light = get(api, "/tiles/3/7/4.png")
    #expect(dark.status == 200 && dark.body != light.body && dark.header("ETag") != light.header("ETag"))
    #expect(get(api, "/tiles/3/7/4.png?style=sepia").status == 400)
  }

  @Test(
    "bad tile names and numbers out of their ranges are 400, tiles outside the world 404",
    arguments: [
      ("/tiles/3/7/four.png", 400), ("/tiles/3/7/4.jpg", 400), ("/tiles/3/7/4", 400), ("/tiles/x/7/4.png", 400),
      ("/tiles/3/7/+4.png", 400), ("/tiles/3/8/4.png", 404), ("/tiles/3/7/8.png", 404), ("/tiles/20/0/0.png", 400),
      ("/tiles/-1/0/0.png", 400), ("/tiles/3/-1/0.png", 400), ("/tiles/99999999999999999999/0/0.png", 400),
      ("/tiles/19/524288/0.png", 400), ("/tiles/3/7/9223372036854775807.png", 404),
      ("/tiles/3/7/99999999999999999999.png", 400),
    ])
  func badTiles(target: String, status: Int) {
    let r = get(api, target)
    #expect(r.status == status, "\(target)")
    let message = (r.json["error"] as? [String: Any])?["message"] as? String ?? ""
    #expect(!message.isEmpty)
  }

  @Test func aServerWithoutTheBasemapSaysSo() {
    let r = get(router { $0.tiles = nil }, "/tiles/0/0/0.png")
    #expect(r.status == 404)
    #expect(((r.json["error"] as? [String: Any])?["message"] as? String)?.contains("no tiles") == true)
  }

  @Test func anUnreadableBasemapIs503() {
    let broken = BuiltInTiles(cacheDirectory: nil) { try Basemap(data: Data("not a basemap".utf8), name: "broken") }
    let r = get(router { $0.tiles = broken }, "/tiles/0/0/0.png")
    #expect(r.status == 503)
  }

  @Test func tilesAreKeptInTheFolderAndServedFromIt() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Tiles of an older basemap are removed when the first tile of this one is kept.
    let stale = folder.appendingPathComponent("0ld/light/0/0/0.png")
    try FileManager.default.createDirectory(at: stale.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data([1]).write(to: stale)
    let url = try #require(Basemap.shippedURL)
    let tiles = BuiltInTiles(cacheDirectory: folder) { try Basemap(contentsOf: url) }
    let api = router { $0.tiles = tiles }
    let first = get(api, "/tiles/5/28/12.png")
    #expect(first.status == 200)
    let identity = String(try #require(Basemap.identity(at: url)), radix: 16)
    let kept = folder.appendingPathComponent("\(identity)/light/5/28/12.png")
    #expect(FileManager.default.contents(atPath: kept.path).map([UInt8].init) == first.body)
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    // Served from the file: a changed file is what the next answer carries.
    var marked = first.body
    marked[marked.count - 1] ^= 0xFF
    try Data(marked).write(to: kept)
    #expect(get(api, "/tiles/5/28/12.png").body == marked)
    // Deep tiles are drawn each time, not kept.
    #expect(get(api, "/tiles/17/116000/51600.png").status == 200)
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(identity)/light/17").path))
  }

  @Test func theOpenAPIDocumentDescribesTiles() {
    let paths = get(api, "/openapi.json").json["paths"] as? [String: Any]
    #expect(paths?["/tiles/{z}/{x}/{y}"] != nil)
  }
}

/// The street map's vector tiles, served as stored, and their TileJSON.
@Suite struct VectorTileEndpointTests {
  let api = router()

  @Test func aTileIsServedAsStoredAndDecodes() throws {
    let answer = get(api, "/tiles/vector/0/0/0.mvt")
    #expect(answer.status == 200)
    #expect(answer.headers.first { $0.0 == "Content-Type" }?.1 == "application/vnd.mapbox-vector-tile")
    let tile = try VectorTile(decoding: answer.body, label: "answer")
    #expect(Set(tile.layers.map(\.name)) == ["transportation", "building", "park", "place"])
    // Revalidated by its ETag.
    let tag = try #require(answer.headers.first { $0.0 == "ETag" }?.1)
    #expect(get(api, "/tiles/vector/0/0/0.mvt", headers: ["if-none-match": tag]).status == 304)
  }

  @Test func wrongAndMissingTilesAreToldApart() {
    // Inside the archive's zooms, where it has nothing: no content.
    #expect(get(api, "/tiles/vector/3/1/1.mvt").status == 204)
    // Deeper than any archive, outside the world, or not a tile's name.
    #expect(get(api, "/tiles/vector/15/0/0.mvt").status == 404)
    #expect(get(api, "/tiles/vector/3/8/0.mvt").status == 404)
    #expect(get(api, "/tiles/vector/3/1/1.png").status == 400)
    #expect(get(api, "/tiles/vector/3/1/-1.mvt").status == 400)
    // A server without archives has no vector tiles.
    let none = router { $0.vectorTiles = [] }
    #expect(get(none, "/tiles/vector/0/0/0.mvt").status == 404)
    #expect(get(none, "/tiles/vector.json").status == 404)
  }

  @Test func theTileJSONPointsAtTheTiles() throws {
    let answer = get(api, "/tiles/vector.json", headers: ["host": "127.0.0.1:8080"])
    #expect(answer.status == 200)
    let json = answer.json
    #expect(json["tilejson"] as? String == "3.0.0")
    #expect(json["tiles"] as? [String] == ["http://127.0.0.1:8080/tiles/vector/{z}/{x}/{y}.mvt"])
    #expect(json["minzoom"] as? Int == 0 && json["maxzoom"] as? Int == 14)
    #expect(json["attribution"] as? String == "© OpenStreetMap contributors")
  }

  /// tilemaker's gzip tiles go out as gzip to clients that take it, inflated to others.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: helsinkiPMTiles), "needs Scripts/osm-test-archives.sh"))
  func gzipIsSentAsItIsToClientsThatTakeIt() throws {
    let archive = try PMTilesArchive(path: helsinkiPMTiles)
    let api = router { $0.vectorTiles = [archive] }
    let gzip = get(api, "/tiles/vector/14/9327/4742.mvt", headers: ["accept-encoding": "gzip, deflate"])
    #expect(gzip.status == 200)
    #expect(gzip.headers.contains { $0.0 == "Content-Encoding" && $0.1 == "gzip" })
    #expect(gzip.body.starts(with: [0x1F, 0x8B]))
    let plain = get(api, "/tiles/vector/14/9327/4742.mvt")
    #expect(!plain.headers.contains { $0.0 == "Content-Encoding" })
    #expect(try VectorTile(decoding: plain.body, label: "plain").layer(named: "building") != nil)
    #expect(plain.body == (try archive.tile(try #require(TileAddress(zoom: 14, x: 9327, y: 4742)))))
  }
}

let helsinkiPMTiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent(".build/osm/helsinki.pmtiles").path
