public import GeoPhotoCore
import GeoPhotoStore

/// A cluster hierarchy over some of a snapshot's photos, as the map sees it: items of a
/// viewport, and a cluster's photos, by snapshot position.
///
/// Point `i` of `clusters` is the photo at snapshot position `positions[i]` (position `i` when
/// `positions` is nil). A hierarchy over the spatial index file's tree may be followed by
/// photos changed since the file was built (`changes`): until the file is built again, those
/// that moved or went are taken out of the clusters that held them (counts and centres as
/// without them) and those added or moved are shown as photos of their own.
public struct ClusterView: Sendable {
  public let clusters: ClusterIndex
  let positions: [Int]?
  let changes: MergedChanges?

  init(clusters: ClusterIndex, positions: [Int]?, changes: MergedChanges? = nil) {
    self.clusters = clusters
    self.positions = positions
    self.changes = changes
  }

  /// A photo or a cluster in a viewport.
  struct Feature {
    var x: Double
    var y: Double
    var count: Int
    /// A cluster's id.
    var clusterID: Int?
    /// A photo's snapshot position.
    var photo: Int?
    /// The snapshot position of the photo a cluster is shown by (its first); a photo's own.
    var representative: Int
    var coordinate: Coordinate { ClusterIndex.coordinate(x: x, y: y) }
  }

  func photoPosition(_ point: Int) -> Int { positions.map { $0[point] } ?? point }

  /// The photos and clusters inside `box` at `zoom`.
  func items(in box: BoundingBox, zoom: Int) -> [Feature] {
    let items = clusters.items(in: box, zoom: zoom)
    func feature(_ item: ClusterIndex.Item) -> Feature {
      Feature(
        x: item.x, y: item.y, count: item.count, clusterID: item.clusterID, photo: item.pointIndex.map(photoPosition),
        representative: photoPosition(item.representative))
    }
    guard let changes else { return items.map(feature) }
    let removed = changes.removed[clusters.level(for: zoom)]
    var features: [Feature] = []
    features.reserveCapacity(items.count)
    for item in items {
      guard let taken = removed[item.position] else {
        features.append(feature(item))
        continue
      }
      let left = item.count - taken.count
      if left <= 0 { continue }
      guard let id = item.clusterID, let first = leaves(of: id, limit: 1)?.first else { continue }
      if left == 1 {
        // One photo is left of the cluster: it is shown as itself.
        let c = changes.coordinate(first)
        features.append(
          Feature(
            x: ClusterIndex.x(c.longitude), y: ClusterIndex.y(c.latitude), count: 1, clusterID: nil, photo: first,
            representative: first))
        continue
      }
      // Shown by its first photo left (the first one may have moved or gone).
      features.append(
        Feature(
          x: (item.x * Double(item.count) - taken.x) / Double(left),
          y: (item.y * Double(item.count) - taken.y) / Double(left), count: left, clusterID: id, photo: nil,
          representative: first))
    }
    let everywhere = box.east - box.west >= 360
    for added in changes.added where everywhere || box.contains(added.coordinate) {
      features.append(
        Feature(
          x: ClusterIndex.x(added.coordinate.longitude), y: ClusterIndex.y(added.coordinate.latitude), count: 1,
          clusterID: nil, photo: added.position, representative: added.position))
    }
    return features
  }

  /// Whether `clusterID` names a cluster of this view.
  func contains(clusterID: Int) -> Bool { clusters.contains(clusterID: clusterID) }

  /// The snapshot positions of a cluster's photos, depth first, paged; nil for an unknown id.
  func leaves(of clusterID: Int, limit: Int = 10, offset: Int = 0) -> [Int]? {
    guard let changes, !changes.hidden.isEmpty else {
      return clusters.leaves(of: clusterID, limit: limit, offset: offset)?.map(photoPosition)
    }
    // At most every photo taken out lies among the first ones: read that many more, then page.
    let (wanted, overflow) = offset.addingReportingOverflow(limit)
    let reach = overflow ? Int.max : wanted.addingReportingOverflow(changes.hidden.count).partialValue
    guard let points = clusters.leaves(of: clusterID, limit: max(0, reach), offset: 0) else { return nil }
    return Array(points.filter { !changes.hidden.contains(Int32($0)) }.dropFirst(offset).prefix(limit))
      .map(photoPosition)
  }

  /// The zoom at which a cluster breaks apart.
  func expansionZoom(of clusterID: Int) -> Int? { clusters.expansionZoom(of: clusterID) }
}

/// Photos changed since a hierarchy was built, merged into what it answers: for each level,
/// what the photos taken out took from each item (how many, and their summed positions), and
/// the photos added.
struct MergedChanges: Sendable {
  struct Taken: Sendable {
    var count = 0
    var x = 0.0
    var y = 0.0
  }

  /// By level (zoom), the items photos were taken out of, by position.
  let removed: [[Int: Taken]]
  /// The hierarchy's points taken out (tree positions of photos that moved or went).
  let hidden: Set<Int32>
  /// Photos added or moved since: their snapshot positions and coordinates.
  let added: [(position: Int, coordinate: Coordinate)]
  /// A snapshot position's coordinate.
  let coordinate: @Sendable (Int) -> Coordinate

  /// Follows each hidden point from its own item at the top level down through the clusters
  /// that hold it: its parent at each zoom, found near it (a cluster's centre lies within twice
  /// the radius of each of its members), or the same item carried down unmerged.
  init(
    clusters: ClusterIndex, hidden: Set<Int32>, added: [(position: Int, coordinate: Coordinate)],
    coordinate: @escaping @Sendable (Int) -> Coordinate
  ) {
    let options = clusters.options
    var removed = [[Int: Taken]](repeating: [:], count: options.maxZoom + 2)
    for point in hidden {
      let c = coordinate(Int(point))
      let (x, y) = (ClusterIndex.x(c.longitude), ClusterIndex.y(c.latitude))
      func take(_ item: ClusterIndex.Item, zoom: Int) {
        removed[zoom][item.position, default: Taken()].count += 1
        removed[zoom][item.position, default: Taken()].x += x
        removed[zoom][item.position, default: Taken()].y += y
      }
      let top = options.maxZoom + 1
      guard var item = clusters.items(near: x, y, radius: 0, zoom: top).first(where: { $0.pointIndex == Int(point) })
      else { continue }
      take(item, zoom: top)
      for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
        let next: ClusterIndex.Item?
        if let parent = clusters.parent(ofItemAt: item.position, zoom: zoom) {
          next = clusters.items(near: item.x, item.y, radius: 2 * clusters.radius(at: zoom), zoom: zoom)
            .first { $0.clusterID == parent }
        } else {
          let (point, cluster) = (item.pointIndex, item.clusterID)
          next = clusters.items(near: item.x, item.y, radius: 0, zoom: zoom)
            .first { $0.pointIndex == point && $0.clusterID == cluster }
        }
        guard let next else { break }
        take(next, zoom: zoom)
        item = next
      }
    }
    self.removed = removed
    self.hidden = hidden
    self.added = added
    self.coordinate = coordinate
  }
}
