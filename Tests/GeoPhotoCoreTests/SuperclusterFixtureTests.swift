import Foundation
import Testing

@testable import GeoPhotoCore

/// supercluster's published fixtures (`../shared/corpora/supercluster/`, see its README) as
/// the reference for geophoto's clustering in supercluster's visit order (`.input`), and the
/// one place geophoto's default differs stated as a test: the Z-order pass is the same
/// algorithm run on the points in Z-order.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: superclusterFixtures.path), "needs ../shared/corpora"))
struct SuperclusterFixtureTests {
  /// places.json: the placed features' coordinates and names, in file order. Its one feature
  /// without a geometry is the last, so input indexes are the same as supercluster's.
  static func places() throws -> (points: [Coordinate], names: [String], features: Int) {
    let data = try Data(contentsOf: superclusterFixtures.appendingPathComponent("places.json"))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let features = try #require(root["features"] as? [[String: Any]])
    var points: [Coordinate] = []
    var names: [String] = []
    for feature in features {
      guard let geometry = feature["geometry"] as? [String: Any],
        let position = geometry["coordinates"] as? [Double]
      else { continue }
      points.append(Coordinate(latitude: position[1], longitude: position[0]))
      names.append(((feature["properties"] as? [String: Any])?["name"] as? String) ?? "")
    }
    return (points, names, features.count)
  }

  /// What a zoom-0 tile feature says: its pixel, and its point count (1 for a photo) or name.
  struct TileFeature: Hashable, CustomStringConvertible {
    var x: Int
    var y: Int
    var count: Int
    var name: String?
    var clusterID: Int?
    var description: String { "(\(x),\(y)) \(name ?? "\(count) points") \(clusterID.map { "#\($0)" } ?? "")" }
  }

  /// The features of supercluster's `getTile(0, 0, 0)` inside the world (its 64-px buffer
  /// also repeats features near the antimeridian one world over: those are left out).
  static func expectedTile(_ file: String) throws -> [TileFeature] {
    let data = try Data(contentsOf: superclusterFixtures.appendingPathComponent(file))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let features = try #require(root["features"] as? [[String: Any]])
    return try features.compactMap { f in
      let pixel = try #require((f["geometry"] as? [[Double]])?.first)
      guard (0...512).contains(pixel[0]) else { return nil }
      let tags = try #require(f["tags"] as? [String: Any])
      let cluster = tags["cluster"] as? Bool ?? false
      return TileFeature(
        x: Int(pixel[0]), y: Int(pixel[1]), count: cluster ? try #require(tags["point_count"] as? Int) : 1,
        name: cluster ? nil : tags["name"] as? String, clusterID: cluster ? tags["cluster_id"] as? Int : nil)
    }
  }

  /// geophoto's zoom-0 items as tile features: pixels as supercluster rounds them (extent 512).
  static func tile(_ index: ClusterIndex, names: [String], idOffset: Int) -> [TileFeature] {
    index.items(in: BoundingBox(west: -180, south: -90, east: 180, north: 90), zoom: 0).map { item in
      TileFeature(
        x: Int((512 * item.x).rounded()), y: Int((512 * item.y).rounded()), count: item.count,
        name: item.pointIndex.map { names[$0] }, clusterID: item.clusterID.map { $0 + idOffset })
    }
  }

  static func supercluster(minPoints: Int = 2) throws -> (ClusterIndex, [String], Int) {
    let (points, names, features) = try places()
    var options = ClusterIndex.Options()
    options.order = .input
    options.minPoints = minPoints
    // supercluster numbers clusters after every input feature, geophoto after the placed ones.
    return (ClusterIndex(points: points, options: options), names, features - points.count)
  }

  @Test(arguments: [(2, "places-z0-0-0.json"), (5, "places-z0-0-0-min5.json")])
  func theZoomZeroTileIsSuperclusters(minPoints: Int, file: String) throws {
    let (index, names, offset) = try Self.supercluster(minPoints: minPoints)
    let expected = try Self.expectedTile(file)
    let got = Self.tile(index, names: names, idOffset: offset)
    #expect(expected.count == 32 || minPoints != 2)
    #expect(expected.reduce(0) { $0 + $1.count } == 162)
    func shapes(_ features: [TileFeature]) -> Set<TileFeature> {
      Set(features.map { TileFeature(x: $0.x, y: $0.y, count: $0.count, name: $0.name) })
    }
    #expect(
      shapes(got) == shapes(expected),
      "only geophoto: \(shapes(got).subtracting(shapes(expected))); only supercluster: \(shapes(expected).subtracting(shapes(got)))"
    )
    #expect(got.count == expected.count)
    // Cluster ids encode (index in the level << 5) + zoom + 1, as supercluster's do. Where a
    // group short of minPoints leaves its members unclustered, each implementation lists them
    // in the order its own kd-tree finds them, so later indexes (and ids) may differ there;
    // with the default minPoints every id is supercluster's.
    if minPoints == 2 { #expect(Set(got) == Set(expected)) }
  }

  @Test func childrenLeavesAndExpansionZoomsAreSuperclusters() throws {
    let (index, names, offset) = try Self.supercluster()
    // supercluster's test.js: getChildren(164) has point counts [6, 7, 2, 1].
    let children = try #require(index.children(of: 164 - offset))
    #expect(children.map(\.count).sorted() == [1, 2, 6, 7])
    // getLeaves(164, 10, 5) names these ten; supercluster's page order follows its kd-tree's
    // walk and geophoto's its level order, so the same members come in another order.
    let members = try #require(index.leaves(of: 164 - offset, limit: .max))
    #expect(members.count == 16 && Set(members).count == 16)
    let leaves = members.map { names[$0] }
    let page = [
      "Niagara Falls", "Cape San Blas", "Cape Sable", "Cape Canaveral", "San  Salvador", "Cabo Gracias a Dios",
      "I. de Cozumel", "Grand Cayman", "Miquelon", "Cape Bauld",
    ]
    #expect(Set(page).isSubset(of: leaves))
    for (cluster, zoom) in [(164, 1), (196, 1), (581, 2), (1157, 2), (4134, 3)] {
      #expect(index.contains(clusterID: cluster - offset))
      #expect(index.expansionZoom(of: cluster - offset) == zoom, "cluster \(cluster)")
    }
  }

  /// geophoto's default visits points along a Z-order curve: exactly the input-order
  /// algorithm (checked above against supercluster) run on the points sorted that way.
  @Test func theZOrderPassIsTheSamePassOnZOrderedPoints() throws {
    let (points, _, _) = try Self.places()
    let order = ClusterIndex.mortonOrder(points)
    #expect(Set(order) == Set(points.indices))
    var inputOrder = ClusterIndex.Options()
    inputOrder.order = .input
    let sorted = ClusterIndex(points: order.map { points[$0] }, options: inputOrder)
    let zOrdered = ClusterIndex(points: points)
    let world = BoundingBox(west: -180, south: -90, east: 180, north: 90)
    var differs = false
    for zoom in 0...17 {
      let a = zOrdered.items(in: world, zoom: zoom)
      let b = sorted.items(in: world, zoom: zoom)
      func key(_ item: ClusterIndex.Item, _ map: (Int) -> Int) -> String {
        "\(item.x) \(item.y) \(item.count) \(item.pointIndex.map(map).map(String.init) ?? "c")"
      }
      #expect(Set(a.map { key($0) { $0 } }) == Set(b.map { key($0) { order[$0] } }), "zoom \(zoom)")
      let reference = try Self.supercluster().0.items(in: world, zoom: zoom)
      if Set(a.map(\.count)) != Set(reference.map(\.count)) || a.count != reference.count { differs = true }
    }
    // And on this input the two orders do give different clusters somewhere: the difference
    // the README states is real.
    #expect(differs)
  }
}

let superclusterFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora/supercluster")
