import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoVectorTiles

/// Archives that are damaged or hostile: one clear error at open, or a tile refused, never a
/// crash, a hang or a buffer sized from the file's numbers.
@Suite struct DamagedArchiveTests {
  static let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
    "gp-archives-\(getpid())", isDirectory: true)

  func write(_ bytes: [UInt8], _ name: String) throws -> String {
    try FileManager.default.createDirectory(at: Self.scratch, withIntermediateDirectories: true)
    let url = Self.scratch.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  func openError(_ bytes: [UInt8]) throws -> String? {
    do {
      _ = try PMTilesArchive(path: try write(bytes, "damaged-\(UUID().uuidString).pmtiles"))
      return nil
    } catch { return "\(error)" }
  }

  /// A header for sections laid out by the arguments, every other field plausible.
  static func header(
    root: (Int, Int), metadata: (Int, Int) = (0, 0), leaves: (Int, Int) = (0, 0), data: (Int, Int),
    directories: UInt8 = 1, tiles: UInt8 = 2, type: UInt8 = 1, zooms: (UInt8, UInt8) = (0, 14)
  ) -> [UInt8] {
    var h = Array("PMTiles".utf8) + [3]
    func u64(_ v: Int) {
      for k in 0..<8 { h.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: Int64(v)) >> (8 * UInt64(k)))) }
    }
    for (offset, length) in [root, metadata, leaves, data] {
      u64(offset)
      u64(length)
    }
    u64(1)
    u64(1)
    u64(1)
    h += [1, directories, tiles, type, zooms.0, zooms.1]
    h += [UInt8](repeating: 0, count: 127 - h.count)
    return h
  }

  /// A directory of `entries` (id, offset, length, run), not compressed.
  static func directory(_ entries: [(UInt64, UInt64, UInt64, UInt64)], rawOffsets: [UInt64]? = nil) -> [UInt8] {
    var d: [UInt8] = []
    ProtobufWriter.varint(UInt64(entries.count), into: &d)
    var last: UInt64 = 0
    for e in entries {
      ProtobufWriter.varint(e.0 &- last, into: &d)
      last = e.0
    }
    for e in entries { ProtobufWriter.varint(e.3, into: &d) }
    for e in entries { ProtobufWriter.varint(e.2, into: &d) }
    for (i, e) in entries.enumerated() { ProtobufWriter.varint(rawOffsets?[i] ?? e.1 + 1, into: &d) }
    return d
  }

  /// A whole archive of one tile at 0/0/0 holding `tile`, directories not compressed.
  static func archive(tile: [UInt8], tiles: UInt8 = 1) -> [UInt8] {
    let root = directory([(0, 0, UInt64(tile.count), 1)])
    return header(root: (127, root.count), data: (127 + root.count, tile.count), tiles: tiles) + root + tile
  }

  @Test func aGoodHandMadeArchiveOpens() throws {
    let tile = VectorTileTests.lake
    let archive = try PMTilesArchive(path: try write(Self.archive(tile: tile), "good.pmtiles"))
    let zero = try #require(TileAddress(zoom: 0, x: 0, y: 0))
    #expect(try archive.storedTile(zero) == tile)
    #expect(try archive.vectorTile(zero)?.layer(named: "water")?.features.count == 1)
  }

  @Test func damagedHeadersAreRefusedAtOpen() throws {
    let good = Self.archive(tile: VectorTileTests.lake)
    // Truncated anywhere in the header, or before the root directory ends.
    for n in [0, 7, 100, 126] {
      #expect(try openError(Array(good.prefix(n)))?.contains("shorter than its 127-byte header") == true, "\(n)")
    }
    #expect(try openError(Array(good.prefix(130)))?.contains("the root directory at 127") == true)
    #expect(try openError(Array("PMTilez".utf8) + good.dropFirst(7)) == "not a PMTiles archive")
    var v4 = good
    v4[7] = 4
    #expect(try openError(v4) == "PMTiles version 4 (geophoto reads version 3)")
    // Sections past the end, and offsets of 2⁶³ and beyond.
    for root in [(127, 1 << 40), (Int.max, 10), (-1, 10)] {
      #expect(try openError(Self.header(root: root, data: (0, 0)) + good.dropFirst(127)) != nil, "\(root)")
    }
    #expect(
      try openError(Self.header(root: (127, 7), data: (200, Int.max)) + good.dropFirst(127))?.contains("tile data")
        == true)
    // Compressions and tile types geophoto cannot read.
    #expect(
      try openError(Self.header(root: (127, 5), data: (132, 52), tiles: 3) + good.dropFirst(127))
        == "tiles compressed with method 3 (geophoto reads gzip or none)")
    #expect(
      try openError(Self.header(root: (127, 5), data: (132, 52), directories: 4) + good.dropFirst(127))
        == "directories compressed with method 4 (geophoto reads gzip or none)")
    #expect(
      try openError(Self.header(root: (127, 5), data: (132, 52), type: 6) + good.dropFirst(127))
        == "MapLibre tiles (MLT), which geophoto does not read")
    #expect(
      try openError(Self.header(root: (127, 5), data: (132, 52), zooms: (5, 2)) + good.dropFirst(127)) == "zooms 5 to 2"
    )
  }

  @Test func damagedDirectoriesAreRefused() throws {
    func withRoot(_ root: [UInt8]) -> [UInt8] {
      Self.header(root: (127, root.count), data: (127 + root.count, 52)) + root + VectorTileTests.lake
    }
    // A count no bytes could hold (no buffer is made from it).
    var huge: [UInt8] = []
    ProtobufWriter.varint(UInt64.max, into: &huge)
    #expect(try openError(withRoot(huge + [0, 0, 0, 0]))?.contains("entries cannot fit") == true)
    // Ids not increasing, an id that overflows, a first offset of 0 (it would be -1).
    #expect(try openError(withRoot(Self.directory([(5, 0, 52, 1), (5, 0, 52, 1)]))) != nil)
    #expect(try openError(withRoot(Self.directory([(UInt64.max - 1, 0, 52, 1), (UInt64.max, 0, 52, 5)]))) != nil)
    #expect(try openError(withRoot(Self.directory([(0, 0, 52, 1)], rawOffsets: [0]))) != nil)
    // A length of 0, and a directory cut short.
    #expect(try openError(withRoot(Self.directory([(0, 0, 0, 1)]))) != nil)
    #expect(try openError(withRoot(Array(Self.directory([(0, 0, 52, 1), (1, 0, 52, 1)]).dropLast()))) != nil)
    // A root that says gzip but is not.
    let root = Self.directory([(0, 0, 52, 1)])
    let notGzip = Self.header(root: (127, root.count), data: (127 + root.count, 52), directories: 2) + root
    #expect(try openError(notGzip + VectorTileTests.lake)?.contains("not a whole gzip stream") == true)
  }

  @Test func tilesPointingOutsideTheirSectionAreRefused() throws {
    // The entry's offset past the tile data: the archive opens, the tile is refused.
    let root = Self.directory([(0, 1 << 40, 52, 1)])
    let path = try write(
      Self.header(root: (127, root.count), data: (127 + root.count, 52)) + root + VectorTileTests.lake, "far.pmtiles")
    let archive = try PMTilesArchive(path: path)
    let zero = try #require(TileAddress(zoom: 0, x: 0, y: 0))
    #expect(throws: DataDamage.self) { try archive.storedTile(zero) }
    // A leaf pointing at itself: bounded by the depth, not followed forever.
    let selfLeaf = Self.directory([(0, 0, 5, 0)])
    #expect(selfLeaf.count == 5)
    let leafRoot = Self.directory([(0, 0, UInt64(selfLeaf.count), 0)])
    let loop =
      Self.header(
        root: (127, leafRoot.count), leaves: (127 + leafRoot.count, selfLeaf.count),
        data: (127 + leafRoot.count + selfLeaf.count, 0)) + leafRoot + selfLeaf
    let looping = try PMTilesArchive(path: try write(loop, "loop.pmtiles"))
    #expect(throws: DataDamage.self) { try looping.storedTile(zero) }
  }

  @Test func aTileThatIsNotGzipOrNotATileIsRefused() throws {
    // Declared gzip, and starting like gzip, but cut short.
    let cut: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xab, 0xcd]
    let zero = try #require(TileAddress(zoom: 0, x: 0, y: 0))
    let a = try PMTilesArchive(path: try write(Self.archive(tile: cut, tiles: 2), "cut.pmtiles"))
    #expect(throws: DataDamage.self) { try a.vectorTile(zero) }
    // Not compressed at all and not a tile (text).
    let b = try PMTilesArchive(path: try write(Self.archive(tile: Array("hello, map".utf8), tiles: 2), "text.pmtiles"))
    #expect(throws: DataDamage.self) { try b.vectorTile(zero) }
  }

  /// 20,000 tiles at zoom 14 scattered at random: the Python writer puts them in leaf
  /// directories, and every one is found.
  @Test(.enabled(if: OSMArchives.areBuilt, "needs the Python pmtiles package (Scripts/osm-test-archives.sh)"))
  func leafDirectoriesAreFollowed() throws {
    let path = Self.scratch.appendingPathComponent("leaves.pmtiles").path
    try FileManager.default.createDirectory(at: Self.scratch, withIntermediateDirectories: true)
    let program = """
      import random, sys
      from pmtiles.tile import zxy_to_tileid, TileType, Compression
      from pmtiles.writer import Writer
      random.seed(7)
      ids = sorted(set(zxy_to_tileid(14, random.randrange(16384), random.randrange(16384)) for _ in range(20000)))
      with open(sys.argv[1], "wb") as f:
          w = Writer(f)
          for i in ids:
              w.write_tile(i, i.to_bytes(8, "little") * random.randrange(1, 40))
          w.finalize({"tile_type": TileType.PNG, "tile_compression": Compression.NONE, "min_zoom": 14, "max_zoom": 14,
                      "min_lon_e7": -1800000000, "min_lat_e7": -850000000, "max_lon_e7": 1800000000,
                      "max_lat_e7": 850000000, "center_zoom": 14, "center_lon_e7": 0, "center_lat_e7": 0}, {})
      for i in ids[::97]: print(i)
      """
    let sample = try OSMArchives.python(program, [path]).split(separator: "\n").compactMap { UInt64($0) }
    #expect(sample.count > 200)
    let archive = try PMTilesArchive(path: path)
    #expect(archive.header.leafDirectories.count > 0)
    #expect(archive.info.format == .png)
    for id in sample {
      let tile = try #require(TileAddress(hilbertID: id))
      let bytes = try #require(try archive.storedTile(tile), "\(tile)")
      // Each tile is its id, repeated.
      #expect(bytes.count % 8 == 0 && bytes.prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) } == id)
    }
  }

  @Test func hostileMBTilesAreRefusedOrBounded() throws {
    func open(_ setup: String) throws -> String? {
      let path = Self.scratch.appendingPathComponent("\(UUID().uuidString).mbtiles").path
      try FileManager.default.createDirectory(at: Self.scratch, withIntermediateDirectories: true)
      let run = try ToolRun(
        "/usr/bin/python3",
        [
          "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", path,
          setup,
        ])
      #expect(run.status == 0, "\(run.stderr)")
      do {
        _ = try MBTilesArchive(path: path)
        return nil
      } catch { return "\(error)" }
    }
    #expect(try openError(Array("not sqlite".utf8)) != nil)
    // No tiles table; an empty one; raster tiles of a format geophoto does not know.
    #expect(try open("CREATE TABLE metadata (name text, value text);")?.contains("not an MBTiles archive") == true)
    #expect(
      try open(
        "CREATE TABLE metadata (name text, value text); CREATE TABLE tiles (zoom_level, tile_column, tile_row, tile_data);"
      )?
      .contains("holds no tiles") == true)
    #expect(
      try open(
        "CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'tiff');"
          + "CREATE TABLE tiles (zoom_level, tile_column, tile_row, tile_data); INSERT INTO tiles VALUES (0, 0, 0, x'00');"
      )?
      .contains("format tiff") == true)
    // `tiles` as a view that never ends: the query is stopped, not waited for.
    let endless = try open(
      "CREATE TABLE metadata (name text, value text);"
        + "CREATE VIEW tiles AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n) "
        + "SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row, x'00' AS tile_data FROM n WHERE i < 0;")
    #expect(endless?.contains("interrupted") == true, "\(endless ?? "opened")")
  }

  /// The fuzzers' seeds: the good ones read, each extreme field refused (at open, or the tile).
  @Test func theHostileSeedsAreRefusedWhereTheyAreExtreme() throws {
    let zero = try #require(TileAddress(zoom: 0, x: 0, y: 0))
    for file in HostileFiles.tileArchives {
      let good = file.field.hasPrefix("none")
      if file.name.hasSuffix(".mvt") {
        let tile = try? VectorTile(decoding: file.bytes, label: file.name)
        let drawable = tile.map { t in t.layers.flatMap { l in l.features.compactMap { TileGeometry($0, in: t) } } }
        #expect((drawable?.isEmpty == false) == good, "\(file.name)")
      } else {
        let archive = try? PMTilesArchive(MappedBytes(Data(file.bytes)), path: file.name)
        let tile = archive.flatMap { try? $0.vectorTile(zero) }
        #expect((tile?.layers.count == 4) == good, "\(file.name)")
      }
    }
  }
}
