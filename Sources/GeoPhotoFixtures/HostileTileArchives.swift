extension HostileFiles {
  /// Vector tiles and PMTiles archives, one good and the others each with one extreme count,
  /// length or offset: the fuzzers' seeds for the `mvt` and `pmtiles` targets.
  public static var tileArchives: [File] {
    let street = streetTile
    // A line whose LineTo claims 2²⁹ − 1 vertices and carries one.
    var geometry: [UInt8] = [0x09, 0x02, 0x02]
    ProtobufWriter.varint(UInt64(536_870_911) << 3 | 2, into: &geometry)
    geometry += [0x02, 0x02]
    var feature: [UInt8] = []
    ProtobufWriter.field(3, varint: 2, into: &feature)
    ProtobufWriter.field(4, geometry, into: &feature)
    var layer: [UInt8] = []
    ProtobufWriter.field(15, varint: 2, into: &layer)
    ProtobufWriter.field(1, Array("a".utf8), into: &layer)
    ProtobufWriter.field(2, feature, into: &layer)
    var hugeCount: [UInt8] = []
    ProtobufWriter.field(3, layer, into: &hugeCount)
    return [
      File(name: "street.mvt", bytes: street, field: "none: a well-formed tile"),
      File(name: "mvt-geometry-count.mvt", bytes: hugeCount, field: "LineTo count 2^29-1"),
      File(
        name: "mvt-layer-length.mvt", bytes: [0x1a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x78, 0x02],
        field: "layer length 2^32-1"),
      File(name: "one-tile.pmtiles", bytes: pmtiles(tiles: [(0, street)]), field: "none: a well-formed archive"),
      File(
        name: "pmtiles-root-length.pmtiles", bytes: pmtiles(tiles: [(0, street)], rootLength: .max),
        field: "root directory length 2^64-1"),
      File(
        name: "pmtiles-tile-offset.pmtiles", bytes: pmtiles(tiles: [(0, street)], firstOffset: .max / 2),
        field: "tile offset 2^63-1"),
      File(
        name: "pmtiles-entry-count.pmtiles", bytes: pmtiles(tiles: [(0, street)], entryCount: .max),
        field: "directory entry count 2^64-1"),
    ]
  }

  /// A small street scene: a road, a building, a park and a place label.
  static var streetTile: [UInt8] {
    var tile = VectorTileBuilder()
    tile.add(.line([(0, 2_000), (4_096, 2_100)]), to: "transportation", tags: ["class": .string("primary")])
    tile.add(.polygon([[(100, 100), (400, 100), (400, 400), (100, 400)]]), to: "building")
    tile.add(
      .polygon([[(1_000, 1_000), (3_000, 1_000), (3_000, 3_000)]]), to: "park", tags: ["class": .string("park")])
    tile.add(.point(x: 2_048, y: 2_048), to: "place", tags: ["class": .string("city"), "name": .string("Helsinki")])
    return tile.bytes
  }

  /// A PMTiles (v3) archive of `tiles` (Hilbert id, bytes) in its root directory, not
  /// compressed, of tile type `type` (1 vector, 2 PNG, 3 JPEG, 4 WebP), with the given extreme
  /// values written in place of the true ones.
  public static func pmtiles(
    tiles: [(UInt64, [UInt8])], metadata: [UInt8] = [], zooms: ClosedRange<UInt8> = 0...14, type: UInt8 = 1,
    rootLength: UInt64? = nil,
    firstOffset: UInt64? = nil, entryCount: UInt64? = nil
  ) -> [UInt8] {
    var root: [UInt8] = []
    ProtobufWriter.varint(entryCount ?? UInt64(tiles.count), into: &root)
    var last: UInt64 = 0
    for (id, _) in tiles {
      ProtobufWriter.varint(id - last, into: &root)
      last = id
    }
    for _ in tiles { ProtobufWriter.varint(1, into: &root) }
    for (_, bytes) in tiles { ProtobufWriter.varint(UInt64(bytes.count), into: &root) }
    var offset: UInt64 = 0
    for (i, (_, bytes)) in tiles.enumerated() {
      ProtobufWriter.varint(i == 0 ? (firstOffset ?? offset) + 1 : 0, into: &root)
      offset += UInt64(bytes.count)
    }
    let data = tiles.flatMap(\.1)
    var header = Array("PMTiles".utf8) + [3]
    func u64(_ v: UInt64) { for k in 0..<8 { header.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
    let rootOffset: UInt64 = 127
    let metadataOffset = rootOffset + UInt64(root.count)
    let dataOffset = metadataOffset + UInt64(metadata.count)
    let fields: [UInt64] = [
      rootOffset, rootLength ?? UInt64(root.count), metadataOffset, UInt64(metadata.count), 0, 0, dataOffset,
      UInt64(data.count), UInt64(tiles.count), UInt64(tiles.count), UInt64(tiles.count),
    ]
    for value in fields { u64(value) }
    header += [1, 1, 2, type, zooms.lowerBound, zooms.upperBound]
    header += [UInt8](repeating: 0, count: 127 - header.count)
    return header + root + metadata + data
  }
}
