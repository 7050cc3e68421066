import GeoPhotoCore
import GeoPhotoFixtures
import Testing

/// A hierarchy read back from its bytes answers as the one that was built; damaged bytes are
/// an error, never a crash or an endless walk.
@Suite struct ClusterIndexEncodingTests {
  static let built = ClusterIndex(points: ClusterIndexTests.points)

  /// Every zoom's items in a few boxes, and each cluster's children, leaves and expansion zoom.
  static func answers(_ index: ClusterIndex) -> [String] {
    var lines: [String] = []
    let boxes = [
      BoundingBox(west: -180, south: -85, east: 180, north: 85),
      BoundingBox(west: 139, south: 35, east: 141, north: 36), BoundingBox(west: 170, south: -30, east: -170, north: 0),
    ]
    for zoom in 0...18 {
      for box in boxes {
        for item in index.items(in: box, zoom: zoom) {
          lines.append("\(zoom) \(item.x) \(item.y) \(item.count) \(item.pointIndex ?? -1) \(item.clusterID ?? -1)")
          if let id = item.clusterID {
            lines.append("  children \(index.children(of: id)?.map(\.count) ?? [])")
            lines.append(
              "  leaves \(index.leaves(of: id, limit: 1_000) ?? []) expands at \(index.expansionZoom(of: id) ?? -1)")
          }
        }
      }
    }
    return lines
  }

  @Test func aHierarchyReadBackAnswersAsTheBuiltOne() throws {
    let bytes = Self.built.encoded()
    let read = try bytes.withUnsafeBytes { try ClusterIndex(encoded: $0) }
    #expect(read.pointCount == Self.built.pointCount && read.options == Self.built.options)
    let (expected, got) = (Self.answers(Self.built), Self.answers(read))
    #expect(expected.count > 1_000)
    #expect(got == expected)
  }

  @Test func truncatedBytesAreAnError() {
    let bytes = Self.built.encoded()
    for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 997)) {
      #expect(throws: ClusterIndex.DecodingError.self) {
        try Array(bytes.prefix(length)).withUnsafeBytes { _ = try ClusterIndex(encoded: $0) }
      }
    }
    #expect(throws: ClusterIndex.DecodingError.self) {
      try (bytes + [0, 0, 0, 0, 0, 0, 0, 0]).withUnsafeBytes { _ = try ClusterIndex(encoded: $0) }
    }
  }

  /// Bytes overwritten anywhere: refused, or read into a hierarchy whose every walk ends.
  @Test func overwrittenBytesNeverCrashOrHang() {
    let bytes = Self.built.encoded()
    var rng = SeededGenerator(seed: 11)
    var refused = 0
    for round in 0..<400 {
      var damaged = bytes
      for _ in 0..<(1 + round % 4) {
        let at = Int(rng.next() % UInt64(damaged.count))
        damaged[at] = round % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: rng.next())
      }
      if let read = try? damaged.withUnsafeBytes({ try ClusterIndex(encoded: $0) }) {
        _ = Self.answers(read)
      } else {
        refused += 1
      }
    }
    #expect(refused > 0)
  }
}
