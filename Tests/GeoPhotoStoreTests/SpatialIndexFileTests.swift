import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

/// The spatial index file: what is read back (mapped) answers as what was built; a file cut
/// short or overwritten is refused or read into indexes whose every query stays inside the
/// file and ends, and its checksum tells it apart from an intact one.
@Suite struct SpatialIndexFileTests {
  static let points: [Coordinate] =
    SyntheticLibrary.points(count: 600, seed: 77)
    + (0..<30).map { _ in Coordinate(latitude: 35.68, longitude: 139.76) }  // a whole folder at one spot

  static let tree = SpatialIndex(
    building: points.indices.map { Int64($0) * 3 + 1 },
    vectors: points.flatMap { p -> [Double] in
      let v = GreatCircle.unitVector(p)
      return [v.x, v.y, v.z]
    }, tags: points.indices.map { UInt8($0 % 3) }, instants: points.indices.map { 1_700_000_000 + Int64($0) * 60 },
    locals: points.indices.map { $0 % 5 == 0 ? PointTimes.none : 1_700_000_000 + Int64($0) * 60 + 3_600 })

  static let stamp = SpatialIndexFile.Stamp(generation: 12, identity: -77)

  static func written(in dir: TemporaryDirectory) throws -> URL {
    let url = dir.url.appendingPathComponent("i.sqlite.spatial")
    try SpatialIndexFile.write(tree, stamp: stamp, to: url)
    return url
  }

  /// Every zoom's items in a few boxes, each cluster's children, leaves and expansion zoom,
  /// and nearest photos around a few places: everything a reader asks.
  static func answers(_ clusters: ClusterIndex, _ tree: SpatialIndex) -> [String] {
    var lines: [String] = []
    let boxes = [
      BoundingBox(west: -180, south: -85, east: 180, north: 85),
      BoundingBox(west: 139, south: 35, east: 141, north: 36), BoundingBox(west: 170, south: -30, east: -170, north: 0),
    ]
    for zoom in 0...18 {
      for box in boxes {
        for item in clusters.items(in: box, zoom: zoom) {
          lines.append("\(zoom) \(item.x) \(item.y) \(item.count) \(item.pointIndex ?? -1) \(item.clusterID ?? -1)")
          if let id = item.clusterID {
            lines.append("  children \(clusters.children(of: id)?.map(\.count) ?? [])")
            lines.append(
              "  leaves \(clusters.leaves(of: id, limit: 1_000) ?? []) expands at \(clusters.expansionZoom(of: id) ?? -1)"
            )
          }
        }
      }
    }
    for center in [points[0], points[300], Coordinate(latitude: -33.9, longitude: 151.2)] {
      let found = tree.nearest(to: center, limit: 20, time: TimeRange(since: nil, until: nil))
      lines.append("near \(found.map { "\($0.id)@\($0.distance)" })")
    }
    return lines
  }

  @Test func whatIsReadBackAnswersAsWhatWasBuilt() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.written(in: dir)
    #expect(SpatialIndexFile.stamp(at: url) == Self.stamp)
    let contents = try SpatialIndexFile.open(url)
    #expect(contents.stamp == Self.stamp)
    #expect(SpatialIndexFile.verify(contents))
    #expect(Array(contents.tree.ids) == Array(Self.tree.ids))
    #expect(Array(contents.tree.vectors) == Array(Self.tree.vectors))
    #expect(Array(contents.tree.times?.locals ?? []) == Array(Self.tree.times?.locals ?? []))
    #expect(Array(contents.positionsByID) == Array(Self.tree.positionsByID()))
    let built = ClusterIndex(pointsOf: Self.tree)
    #expect(contents.clusters.options == built.options && contents.clusters.pointCount == built.pointCount)
    let (expected, got) = (Self.answers(built, Self.tree), Self.answers(contents.clusters, contents.tree))
    #expect(expected.count > 1_000)
    #expect(got == expected)
  }

  @Test func aFileCutShortIsRefused() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.written(in: dir)
    let bytes = try Data(contentsOf: url)
    let cut = dir.url.appendingPathComponent("cut.spatial")
    for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 997)) {
      try bytes.prefix(length).write(to: cut)
      #expect(throws: SpatialIndexFile.FormatError.self) { _ = try SpatialIndexFile.open(cut) }
    }
    try Data("junk".utf8).write(to: cut)
    #expect(throws: SpatialIndexFile.FormatError.self) { _ = try SpatialIndexFile.open(cut) }
    #expect(SpatialIndexFile.stamp(at: cut) == nil)
  }

  /// Bytes overwritten anywhere: refused, or mapped into indexes whose every query ends
  /// without reading outside the file; the checksum finds every one of them.
  @Test func overwrittenBytesNeverCrashOrHangAndFailTheChecksum() throws {
    let dir = try TemporaryDirectory()
    let url = try Self.written(in: dir)
    let bytes = try Data(contentsOf: url)
    let damagedURL = dir.url.appendingPathComponent("damaged.spatial")
    var rng = SeededGenerator(seed: 11)
    var (refused, caught) = (0, 0)
    for round in 0..<300 {
      var damaged = bytes
      for _ in 0..<(1 + round % 4) {
        let at = Int(rng.next() % UInt64(damaged.count))
        let value = round % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: rng.next())
        damaged[at] = damaged[at] == value ? ~value : value
      }
      try damaged.write(to: damagedURL)
      if let contents = try? SpatialIndexFile.open(damagedURL) {
        _ = Self.answers(contents.clusters, contents.tree)
        // Bytes in the header's padding are not covered; every other change is.
        if !SpatialIndexFile.verify(contents) { caught += 1 }
      } else {
        refused += 1
      }
    }
    #expect(refused > 0)
    #expect(refused + caught >= 295)
  }

  /// A tree and hierarchy over nothing is a file too.
  @Test func anEmptyIndexIsWrittenAndRead() throws {
    let dir = try TemporaryDirectory()
    let url = dir.url.appendingPathComponent("empty.spatial")
    try SpatialIndexFile.write(SpatialIndex(points: []), stamp: Self.stamp, to: url)
    let contents = try SpatialIndexFile.open(url)
    #expect(contents.tree.count == 0 && contents.clusters.pointCount == 0)
    #expect(SpatialIndexFile.verify(contents))
    #expect(contents.clusters.items(in: BoundingBox(west: -180, south: -85, east: 180, north: 85), zoom: 3).isEmpty)
  }
}
