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

  /// The photos and clusters inside `box` at `zoom`: the first `limit` of them (in the tree's
  /// order) and how many there are. However many the box holds, no more than `limit` are
  /// kept while the tree is walked.
  func items(in box: BoundingBox, zoom: Int, limit: Int = .max) -> (features: [Feature], total: Int) {
    var features: [Feature] = []
    var total = 0
    func add(_ feature: Feature) {
      total += 1
      if features.count < limit { features.append(feature) }
    }
    let removed = changes.map { $0.removed[clusters.level(for: zoom)] }
    clusters.forEachItem(in: box, zoom: zoom) { item in
      guard let taken = removed?[item.position] else {
        add(
          Feature(
            x: item.x, y: item.y, count: item.count, clusterID: item.clusterID,
            photo: item.pointIndex.map(photoPosition), representative: photoPosition(item.representative)))
        return
      }
      let left = item.count - taken.count
      guard left > 0, let changes, let id = item.clusterID, let first = leaves(of: id, limit: 1)?.first else { return }
      if left == 1 {
        // One photo is left of the cluster: it is shown as itself.
        let c = changes.coordinate(first)
        add(
          Feature(
            x: ClusterIndex.x(c.longitude), y: ClusterIndex.y(c.latitude), count: 1, clusterID: nil, photo: first,
            representative: first))
        return
      }
      // Shown by its first photo left (the first one may have moved or gone).
      add(
        Feature(
          x: (item.x * Double(item.count) - taken.x) / Double(left),
          y: (item.y * Double(item.count) - taken.y) / Double(left), count: left, clusterID: id, photo: nil,
          representative: first))
    }
    guard let changes else { return (features, total) }
    let everywhere = box.east - box.west >= 360
    for added in changes.added where everywhere || box.contains(added.coordinate) {
      add(
        Feature(
          x: ClusterIndex.x(added.coordinate.longitude), y: ClusterIndex.y(added.coordinate.latitude), count: 1,
          clusterID: nil, photo: added.position, representative: added.position))
    }
    return (features, total)
  }

  /// Whether `clusterID` names a cluster of this view.
  func contains(clusterID: Int) -> Bool { clusters.contains(clusterID: clusterID) }

  /// The snapshot positions of a cluster's photos, depth first, paged; nil for an unknown id.
  /// Photos taken out since the hierarchy was built are left out of the pages.
  func leaves(of clusterID: Int, limit: Int = 10, offset: Int = 0) -> [Int]? {
    guard let changes, !changes.hidden.isEmpty else {
      return clusters.leaves(of: clusterID, limit: limit, offset: offset)?.map(photoPosition)
    }
    return clusters.leaves(
      of: clusterID, limit: limit, offset: offset, hidden: { changes.hidden.contains(Int32(truncatingIfNeeded: $0)) },
      hiddenCount: { level, position in
        level < changes.removed.count ? changes.removed[level][position]?.count ?? 0 : 0
      }
    )?.map(photoPosition)
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
