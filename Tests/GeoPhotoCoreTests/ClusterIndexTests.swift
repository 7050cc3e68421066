import Foundation
import Testing

@testable import GeoPhotoCore

/// supercluster's greedy algorithm written out with brute-force neighbour search, as the
/// reference: for each level, the items (x, y, count) in the order they are emitted. Points
/// are visited in the order given and projected with the test's own Mercator formula.
func referenceLevels(_ points: [Coordinate], options: ClusterIndex.Options) -> [Int: [(Double, Double, Int)]] {
  typealias Item = (x: Double, y: Double, count: Int)
  var current: [Item] = points.map { (mercatorX($0.longitude), mercatorY($0.latitude), 1) }
  var result: [Int: [(Double, Double, Int)]] = [options.maxZoom + 1: current.map { ($0.x, $0.y, $0.count) }]
  for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
    let r = options.radius / (options.extent * pow(2, Double(zoom)))
    var visited = [Bool](repeating: false, count: current.count)
    var next: [Item] = []
    for i in current.indices where !visited[i] {
      visited[i] = true
      let neighbours = current.indices.filter { k in
        let dx = current[k].x - current[i].x
        let dy = current[k].y - current[i].y
        return dx * dx + dy * dy <= r * r && !visited[k]
      }
      let total = current[i].count + neighbours.reduce(0) { $0 + current[$1].count }
      if total > current[i].count && total >= options.minPoints {
        var wx = current[i].x * Double(current[i].count)
        var wy = current[i].y * Double(current[i].count)
        for k in neighbours {
          visited[k] = true
          wx += current[k].x * Double(current[k].count)
          wy += current[k].y * Double(current[k].count)
        }
        next.append((wx / Double(total), wy / Double(total), total))
      } else {
        next.append(current[i])
        if total > 1 {
          for k in neighbours {
            visited[k] = true
            next.append(current[k])
          }
        }
      }
    }
    result[zoom] = next.map { ($0.x, $0.y, $0.count) }
    current = next
  }
  return result
}

/// Web Mercator in the unit square, written as the textbook has it: x = λ/2π + ½,
/// y = ½ − ln tan(π/4 + φ/2) / 2π, clamped to the square.
func mercatorX(_ longitude: Double) -> Double { longitude / 360 + 0.5 }
func mercatorY(_ latitude: Double) -> Double {
  let phi = latitude * .pi / 180
  return min(1, max(0, 0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)))
}

let world = BoundingBox(west: -180, south: -90, east: 180, north: 90)

@Suite struct ClusterIndexTests {
  static let points: [Coordinate] =
    stressPoints(count: 600, seed: 77).map(\.coordinate)
    + (0..<30).map { _ in Coordinate(latitude: 35.68, longitude: 139.76) }  // a whole folder at one spot

  @Test func levelsMatchTheBruteForceReference() {
    var options = ClusterIndex.Options()
    options.maxZoom = 8
    options.order = .input
    let index = ClusterIndex(points: Self.points, options: options)
    let reference = referenceLevels(Self.points, options: options)
    for zoom in options.minZoom...(options.maxZoom + 1) {
      let got = index.items(in: world, zoom: zoom).map { ($0.x, $0.y, $0.count) }
        .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
      let expected = (reference[zoom] ?? []).sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
      #expect(got.count == expected.count, "zoom \(zoom)")
      for (g, e) in zip(got, expected) {
        #expect(abs(g.0 - e.0) < 1e-9 && abs(g.1 - e.1) < 1e-9 && g.2 == e.2, "zoom \(zoom)")
      }
    }
  }

  @Test func everyPhotoIsInExactlyOneItemPerZoom() throws {
    let index = ClusterIndex(points: Self.points)
    for zoom in 0...17 {
      var seen = [Int](repeating: 0, count: Self.points.count)
      var total = 0
      for item in index.items(in: world, zoom: zoom) {
        total += item.count
        if let cluster = item.clusterID {
          let leaves = try #require(index.leaves(of: cluster, limit: .max))
          #expect(leaves.count == item.count)
          for leaf in leaves { seen[leaf] += 1 }
        } else if let p = item.pointIndex {
          seen[p] += 1
        }
      }
      #expect(total == Self.points.count, "zoom \(zoom)")
      #expect(seen.allSatisfy { $0 == 1 }, "zoom \(zoom)")
    }
  }

  /// A cluster's representative is its first leaf, a photo's its own index.
  @Test func representativesAreFirstLeaves() throws {
    let index = ClusterIndex(points: Self.points)
    for zoom in 0...17 {
      for item in index.items(in: world, zoom: zoom) {
        let first = item.clusterID.map { index.leaves(of: $0, limit: 1)?.first } ?? item.pointIndex
        #expect(item.representative == first, "zoom \(zoom)")
      }
    }
  }

  @Test func sameSpotPhotosComeBackThroughPagedLeaves() throws {
    let index = ClusterIndex(points: Self.points)
    let spot = BoundingBox(west: 139.7599, south: 35.6799, east: 139.7601, north: 35.6801)
    let cluster = try #require(index.items(in: spot, zoom: 16).first { $0.count >= 30 }?.clusterID)
    var all: [Int] = []
    var offset = 0
    while let page = index.leaves(of: cluster, limit: 7, offset: offset), !page.isEmpty {
      all += page
      offset += page.count
    }
    #expect(all.count == 30 && Set(all).count == 30)
    #expect(all.allSatisfy { Self.points[$0] == Coordinate(latitude: 35.68, longitude: 139.76) })
    // Beyond the clustered zooms they are single photos again.
    #expect(index.items(in: spot, zoom: 17).count == 30)
    #expect(index.expansionZoom(of: cluster) == 17)
  }

  /// supercluster's expansion zoom walks down clusters with one child to the zoom where one
  /// splits; that walk, made here with `children(of:)`, gives what the index answers.
  @Test func expansionZoomSplitsTheCluster() throws {
    let index = ClusterIndex(points: Self.points)
    var checked = 0
    for zoom in 0...16 {
      for item in index.items(in: world, zoom: zoom) {
        guard let id = item.clusterID else { continue }
        var current = id
        var expansion = try #require(index.origin(of: id)).zoom
        while expansion <= index.options.maxZoom, let children = index.children(of: current) {
          expansion += 1
          guard children.count == 1, let only = children[0].clusterID else { break }
          current = only
        }
        #expect(index.expansionZoom(of: id) == expansion, "cluster \(id)")
        #expect(expansion > zoom && expansion <= 17)
        checked += 1
      }
    }
    #expect(checked > 100)
    #expect(index.expansionZoom(of: 12_345_678) == nil)
    #expect(index.leaves(of: 3) == nil)  // an input index is not a cluster id
  }

  @Test func antimeridianBoxes() {
    let points = [
      Coordinate(latitude: 0, longitude: 179.5), Coordinate(latitude: 0, longitude: -179.5),
      Coordinate(latitude: 0, longitude: 0),
    ]
    let index = ClusterIndex(points: points)
    let across = index.items(in: BoundingBox(west: 179, south: -1, east: -179, north: 1), zoom: 17)
    #expect(Set(across.compactMap(\.pointIndex)) == [0, 1])
    #expect(index.items(in: BoundingBox(west: -540, south: -90, east: 540, north: 90), zoom: 17).count == 3)
  }

  @Test func mortonOrderInterleavesBits() {
    // Four quadrants of the Mercator square, visited in Z order: NW, NE, SW, SE.
    let points = [
      Coordinate(latitude: -45, longitude: 90), Coordinate(latitude: 45, longitude: -90),
      Coordinate(latitude: -45, longitude: -90), Coordinate(latitude: 45, longitude: 90),
    ]
    #expect(ClusterIndex.mortonOrder(points) == [1, 3, 2, 0])
  }

  @Test func projectionRoundTrips() {
    for c in [Coordinate(latitude: 35.68, longitude: 139.76), Coordinate(latitude: -33.9, longitude: -70.1)] {
      let back = ClusterIndex.coordinate(x: ClusterIndex.x(c.longitude), y: ClusterIndex.y(c.latitude))
      #expect(abs(back.latitude - c.latitude) < 1e-9 && abs(back.longitude - c.longitude) < 1e-9)
    }
    #expect(ClusterIndex.y(90) == 0 && ClusterIndex.y(-90) == 1)
  }
}
