import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoVectorTiles

@Suite struct VectorTileTests {
  /// The 52-byte tile of the reference: layer `water`, feature 7, `class=lake`, an 8 × 8 square.
  static let lake: [UInt8] =
    [0x1a, 0x32, 0x78, 0x02, 0x0a, 0x05] + Array("water".utf8)
    + [0x12, 0x15, 0x08, 0x07, 0x12, 0x02, 0x00, 0x00, 0x18, 0x03]
    + [0x22, 0x0b, 0x09, 0x00, 0x00, 0x1a, 0x10, 0x00, 0x00, 0x10, 0x0f, 0x00, 0x0f]
    + [0x1a, 0x05] + Array("class".utf8) + [0x22, 0x06, 0x0a, 0x04] + Array("lake".utf8) + [0x28, 0x80, 0x20]

  @Test func theReferenceTileDecodes() throws {
    #expect(Self.lake.count == 52)
    let tile = try VectorTile(decoding: Self.lake, label: "lake")
    let layer = try #require(tile.layer(named: "water"))
    #expect(layer.version == 2 && layer.extent == 4_096)
    #expect(layer.features.count == 1)
    let feature = layer.features[0]
    #expect(feature.id == 7 && feature.type == .polygon)
    #expect(layer.value("class", of: feature) == .string("lake"))
    let geometry = try #require(TileGeometry(feature, in: tile))
    #expect(
      geometry.parts == [
        [TilePoint(x: 0, y: 0), TilePoint(x: 8, y: 0), TilePoint(x: 8, y: 8), TilePoint(x: 0, y: 8)]
      ])
    #expect(geometry.isExterior == [true])
    #expect(TileGeometry.signedArea(geometry.parts[0]) == 128)
  }

  /// The geometry of one feature, from its command integers.
  func geometry(_ type: VectorTile.GeometryType, _ commands: [UInt32]) -> TileGeometry? {
    var stream: [UInt8] = []
    for c in commands { ProtobufWriter.varint(UInt64(c), into: &stream) }
    var feature: [UInt8] = [0x18, type.rawValue, 0x22]
    ProtobufWriter.varint(UInt64(stream.count), into: &feature)
    feature += stream
    var layer: [UInt8] = [0x78, 0x02, 0x0a, 0x01, 0x61, 0x12]
    ProtobufWriter.varint(UInt64(feature.count), into: &layer)
    layer += feature
    var bytes: [UInt8] = [0x1a]
    ProtobufWriter.varint(UInt64(layer.count), into: &bytes)
    bytes += layer
    guard let tile = try? VectorTile(decoding: bytes, label: "t"), let f = tile.layers.first?.features.first else {
      return nil
    }
    return TileGeometry(f, in: tile)
  }

  @Test func theSpecificationsGeometriesDecode() throws {
    // A point at (25, 17); a multipoint (5,7), (3,2).
    #expect(geometry(.point, [9, 50, 34])?.parts == [[TilePoint(x: 25, y: 17)]])
    #expect(geometry(.point, [17, 10, 14, 3, 9])?.parts == [[TilePoint(x: 5, y: 7), TilePoint(x: 3, y: 2)]])
    // A line (2,2) (2,10) (10,10); a multiline.
    #expect(geometry(.line, [9, 4, 4, 18, 0, 16, 16, 0])?.parts.first?.count == 3)
    #expect(geometry(.line, [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8])?.parts.count == 2)
    // A polygon with a hole: exterior, then an interior ring.
    let polygon = try #require(
      geometry(
        .polygon,
        [
          9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15, 9, 4, 13, 26, 0, 8, 8, 0, 0, 7,
          15,
        ]))
    #expect(polygon.parts.count == 3)
    #expect(polygon.isExterior == [true, true, false])
  }

  @Test func damagedGeometriesAreNotDrawn() {
    // Starts with a LineTo.
    #expect(geometry(.line, [10, 4, 4]) == nil)
    // A count far beyond the integers left (mvt-fixtures 051/057).
    #expect(geometry(.line, [9, 4, 4, (536_870_911 << 3) | 2, 2, 2]) == nil)
    // A ClosePath in a line, and a ClosePath of count 2.
    #expect(geometry(.line, [9, 4, 4, 18, 0, 16, 16, 0, 15]) == nil)
    #expect(geometry(.polygon, [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 23]) == nil)
    // Parameters missing at the end.
    #expect(geometry(.line, [9, 4, 4, 18, 0]) == nil)
    // An unknown command.
    #expect(geometry(.line, [9, 4, 4, 11, 4, 4]) == nil)
    // A zero-area ring is dropped, leaving nothing.
    #expect(geometry(.polygon, [9, 0, 0, 26, 20, 0, 19, 0, 2, 0, 15]) == nil)
    // A repeated vertex is dropped, the rest kept.
    #expect(geometry(.line, [9, 4, 4, 26, 0, 0, 0, 16, 16, 0])?.parts.first?.count == 3)
  }

  @Test func damagedFramingRefusesTheTile() {
    func refused(_ bytes: [UInt8]) -> String? {
      do {
        _ = try VectorTile(decoding: bytes, label: "t")
        return nil
      } catch { return error.description }
    }
    // Cut short anywhere.
    for n in 1..<Self.lake.count { #expect(refused(Array(Self.lake.prefix(n))) != nil, "\(n) bytes") }
    // A gzip stream read as a tile: wire type 3 or 7.
    #expect(refused([0x1f, 0x8b, 0x08, 0x00]) != nil)
    // A length far past the end.
    #expect(refused([0x1a, 0xff, 0xff, 0xff, 0xff, 0x0f]) != nil)
    // A varint of eleven bytes.
    #expect(refused([0x08] + [UInt8](repeating: 0xff, count: 10) + [0x01]) != nil)
    // A layer without a name.
    #expect(refused([0x1a, 0x02, 0x78, 0x02]) == "t: a layer without a name")
    // A string that is not UTF-8.
    #expect(refused([0x1a, 0x05, 0x0a, 0x03, 0x61, 0xff, 0x62]) == "t: a string at byte 4 is not UTF-8")
  }

  @Test func featuresWithBadTagsAreDroppedAndCounted() throws {
    // The lake's tags point at key 0 and value 0; with value 5 the feature is dropped.
    var bytes = Self.lake
    #expect(bytes[15...18] == [0x12, 0x02, 0x00, 0x00])
    bytes[18] = 0x05
    let tile = try VectorTile(decoding: bytes, label: "t")
    #expect(tile.layers.first?.features.isEmpty == true)
    #expect(tile.dropped == 1)
  }
}
