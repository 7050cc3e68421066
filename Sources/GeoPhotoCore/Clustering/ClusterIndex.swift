import Foundation

/// Point clustering for map viewports with supercluster's semantics and defaults.
///
/// Points are projected to Web Mercator in the unit square. Starting from the input points at
/// `maxZoom + 1` (visited in Z-order by default, see `VisitOrder`; supercluster visits them
/// in input order), each zoom level from `maxZoom` down to `minZoom` greedily merges every point
/// or cluster with its not-yet-merged neighbours within `radius / (extent · 2^zoom)` into a
/// cluster at their count-weighted centroid, if together they hold at least `minPoints`
/// photos. Each level keeps its own 2-D kd-tree. Cluster ids encode where a cluster was made
/// (`(origin index << 5) + (zoom + 1) + N` for N input points), so they are stable for the same
/// input and need no lookup table.
public struct ClusterIndex: Sendable {
  public struct Options: Sendable, Equatable {
    public var minZoom = 0
    public var maxZoom = 16
    public var minPoints = 2
    /// Cluster radius in pixels at `extent`.
    public var radius = 40.0
    public var extent = 512.0
    public var nodeSize = 64
    /// The order the greedy pass visits the input points in, which decides which point seeds
    /// each cluster.
    public var order = VisitOrder.zOrder

    public init() {}
  }

  /// Where a greedy pass starts its clusters.
  public enum VisitOrder: Sendable, Equatable {
    /// Along a Z-order curve over the Mercator square (`mortonOrder`): neighbours sit close
    /// in memory, which makes the build several times faster, and the clusters do not depend
    /// on the order photos happened to be loaded in. geophoto's default.
    case zOrder
    /// In input order, as supercluster does: the same input gives supercluster's clusters.
    case input
  }

  /// One item of a zoom level: an input point (`clusterID == nil`, `pointIndex` set) or a cluster.
  public struct Item: Sendable, Equatable {
    /// Position in the unit square.
    public var x: Double
    public var y: Double
    /// The input point's index, for a single point.
    public var pointIndex: Int?
    public var clusterID: Int?
    public var count: Int
    public var coordinate: Coordinate { ClusterIndex.coordinate(x: x, y: y) }
  }

  /// One zoom level, structure of arrays.
  struct Level: Sendable {
    var xs: [Double] = []
    var ys: [Double] = []
    /// The input point index, or for a cluster its id.
    var ids: [Int] = []
    var isCluster: [Bool] = []
    var counts: [Int32] = []
    /// The cluster id this item was merged into at the next zoom down, or -1.
    var parents: [Int] = []
    var tree = PlaneIndex(xs: [], ys: [])

    var count: Int { xs.count }

    mutating func reserveCapacity(_ n: Int) {
      xs.reserveCapacity(n)
      ys.reserveCapacity(n)
      ids.reserveCapacity(n)
      isCluster.reserveCapacity(n)
      counts.reserveCapacity(n)
      parents.reserveCapacity(n)
    }

    mutating func append(x: Double, y: Double, id: Int, cluster: Bool, count: Int32) {
      xs.append(x)
      ys.append(y)
      ids.append(id)
      isCluster.append(cluster)
      counts.append(count)
      parents.append(-1)
    }

    func item(_ i: Int) -> Item {
      Item(
        x: xs[i], y: ys[i], pointIndex: isCluster[i] ? nil : ids[i], clusterID: isCluster[i] ? ids[i] : nil,
        count: Int(counts[i]))
    }
  }

  public let options: Options
  public let pointCount: Int
  /// Levels indexed by zoom, `minZoom ... maxZoom + 1`.
  let levels: [Level]

  /// The hierarchy over a kd-tree's points: point `i` is the tree's point at position `i`.
  public init(pointsOf tree: SpatialIndex, options: Options = Options()) {
    self.init(points: (0..<tree.count).map(tree.coordinate(at:)), options: options)
  }

  /// A hierarchy read back (`init(encoded:)`), its levels already checked.
  init(options: Options, pointCount: Int, levels: [Level]) {
    self.options = options
    self.pointCount = pointCount
    self.levels = levels
  }

  /// Builds the hierarchy for `points` (their positions in the input order are their indexes).
  public init(points: [Coordinate], options: Options = Options()) {
    self.options = options
    pointCount = points.count
    var top = Level()
    top.reserveCapacity(points.count)
    let visits = options.order == .zOrder ? Self.mortonOrder(points) : Array(points.indices)
    for i in visits {
      let p = points[i]
      top.append(x: Self.x(p.longitude), y: Self.y(p.latitude), id: i, cluster: false, count: 1)
    }
    top.tree = PlaneIndex(xs: top.xs, ys: top.ys, nodeSize: options.nodeSize)
    var levels = [Level](repeating: Level(), count: options.maxZoom + 2)
    levels[options.maxZoom + 1] = top
    var previous = top
    for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
      var next = Self.cluster(&previous, zoom: zoom, options: options, pointCount: points.count)
      next.tree = PlaneIndex(xs: next.xs, ys: next.ys, nodeSize: options.nodeSize)
      levels[zoom + 1] = previous  // now carrying parent links
      levels[zoom] = next
      previous = next
    }
    self.levels = levels
  }

  /// One step of the hierarchy: the items of `level` (zoom + 1) merged at `zoom`.
  private static func cluster(_ level: inout Level, zoom: Int, options: Options, pointCount: Int) -> Level {
    let r = options.radius / (options.extent * pow(2, Double(zoom)))
    var visited = [Bool](repeating: false, count: level.count)
    var next = Level()
    next.reserveCapacity(level.count)
    var neighbors: [Int32] = []
    for i in 0..<level.count where !visited[i] {
      visited[i] = true
      let x = level.xs[i]
      let y = level.ys[i]
      neighbors.removeAll(keepingCapacity: true)
      level.tree.within(x, y, r, into: &neighbors)
      let originCount = Int(level.counts[i])
      var total = originCount
      for k in neighbors where !visited[Int(k)] { total += Int(level.counts[Int(k)]) }
      if total > originCount && total >= options.minPoints {
        var wx = x * Double(originCount)
        var wy = y * Double(originCount)
        let id = (i << 5) + (zoom + 1) + pointCount
        for k32 in neighbors {
          let k = Int(k32)
          guard !visited[k] else { continue }
          visited[k] = true
          let c = Double(level.counts[k])
          wx += level.xs[k] * c
          wy += level.ys[k] * c
          level.parents[k] = id
        }
        level.parents[i] = id
        next.append(x: wx / Double(total), y: wy / Double(total), id: id, cluster: true, count: Int32(total))
      } else {
        next.append(x: x, y: y, id: level.ids[i], cluster: level.isCluster[i], count: level.counts[i])
        if total > 1 {
          for k32 in neighbors {
            let k = Int(k32)
            guard !visited[k] else { continue }
            visited[k] = true
            next.append(
              x: level.xs[k], y: level.ys[k], id: level.ids[k], cluster: level.isCluster[k], count: level.counts[k])
          }
        }
      }
    }
    return next
  }

  // MARK: - Queries

  /// Clamps a requested zoom to the levels that exist.
  public func level(for zoom: Int) -> Int { max(options.minZoom, min(zoom, options.maxZoom + 1)) }

  /// Points and clusters inside a box at a zoom. A box with `west > east` crosses the
  /// antimeridian; one spanning 360° or more covers every longitude.
  public func items(in box: BoundingBox, zoom: Int) -> [Item] {
    var west = ((box.west + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
    let south = max(-90, min(90, box.south))
    var east =
      box.east == 180
      ? 180 : ((box.east + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
    let north = max(-90, min(90, box.north))
    if box.east - box.west >= 360 {
      west = -180
      east = 180
    } else if west > east {
      return items(in: BoundingBox(west: west, south: south, east: 180, north: north), zoom: zoom)
        + items(in: BoundingBox(west: -180, south: south, east: east, north: north), zoom: zoom)
    }
    let level = levels[self.level(for: zoom)]
    var ids: [Int32] = []
    level.tree.range(minX: Self.x(west), minY: Self.y(north), maxX: Self.x(east), maxY: Self.y(south), into: &ids)
    return ids.map { level.item(Int($0)) }
  }

  /// The zoom a cluster was made at and its index there, from its id.
  func origin(of clusterID: Int) -> (zoom: Int, index: Int)? {
    let local = clusterID - pointCount
    guard local >= 0 else { return nil }
    let zoom = (local % 32) - 1
    let index = local >> 5
    guard zoom >= options.minZoom, zoom <= options.maxZoom, index < levels[zoom + 1].count else { return nil }
    return (zoom, index)
  }

  /// Whether `clusterID` names a cluster of this index.
  public func contains(clusterID: Int) -> Bool {
    guard let (zoom, index) = origin(of: clusterID) else { return false }
    return levels[zoom + 1].parents[index] == clusterID
  }

  /// The items a cluster splits into one zoom level down; `nil` for an unknown id.
  public func children(of clusterID: Int) -> [Item]? {
    guard contains(clusterID: clusterID), let (zoom, index) = origin(of: clusterID) else { return nil }
    let level = levels[zoom + 1]
    let r = options.radius / (options.extent * pow(2, Double(zoom)))
    var ids: [Int32] = []
    level.tree.within(level.xs[index], level.ys[index], r, into: &ids)
    return ids.map(Int.init).filter { level.parents[$0] == clusterID }.sorted().map { level.item($0) }
  }

  /// The input points inside a cluster, depth first, paged; `nil` for an unknown id.
  public func leaves(of clusterID: Int, limit: Int = 10, offset: Int = 0) -> [Int]? {
    guard contains(clusterID: clusterID) else { return nil }
    var result: [Int] = []
    var skipped = 0
    appendLeaves(of: clusterID, limit: limit, offset: offset, skipped: &skipped, into: &result)
    return result
  }

  private func appendLeaves(of clusterID: Int, limit: Int, offset: Int, skipped: inout Int, into result: inout [Int]) {
    for child in children(of: clusterID) ?? [] {
      if let cluster = child.clusterID {
        if skipped + child.count <= offset {
          skipped += child.count  // the whole sub-cluster lies before the page
        } else {
          appendLeaves(of: cluster, limit: limit, offset: offset, skipped: &skipped, into: &result)
        }
      } else if skipped < offset {
        skipped += 1
      } else if let point = child.pointIndex {
        result.append(point)
      }
      if result.count >= limit { return }
    }
  }

  /// The zoom at which a cluster breaks apart (the map zooms there when it is clicked).
  public func expansionZoom(of clusterID: Int) -> Int? {
    guard let (zoom, _) = origin(of: clusterID), contains(clusterID: clusterID) else { return nil }
    var id = clusterID
    var expansion = zoom
    while expansion <= options.maxZoom {
      guard let children = children(of: id) else { break }
      expansion += 1
      guard children.count == 1, let only = children[0].clusterID else { break }
      id = only
    }
    return expansion
  }

  /// Input indexes sorted along a Z-order (Morton) curve over the Mercator square, ties by
  /// index. The greedy pass visits points in this order: neighbours sit close in memory, which
  /// makes the build several times faster than input order, and the result does not depend on
  /// the order photos happened to be loaded in.
  public static func mortonOrder(_ points: [Coordinate]) -> [Int] {
    func spread(_ v: UInt64) -> UInt64 {
      var x = v & 0xFFFF_FFFF
      x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
      x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
      x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
      x = (x | (x << 2)) & 0x3333_3333_3333_3333
      x = (x | (x << 1)) & 0x5555_5555_5555_5555
      return x
    }
    let scale = Double(UInt32.max)
    var keyed = points.enumerated().map { i, p -> (UInt64, Int) in
      let qx = UInt64(max(0, min(scale, x(p.longitude) * scale)))
      let qy = UInt64(max(0, min(scale, y(p.latitude) * scale)))
      return (spread(qx) | (spread(qy) << 1), i)
    }
    keyed.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
    return keyed.map(\.1)
  }

  // MARK: - Projection

  /// Longitude to Web Mercator x in 0…1.
  public static func x(_ longitude: Double) -> Double { longitude / 360 + 0.5 }

  /// Latitude to Web Mercator y in 0…1 (north up), clamped at the Mercator limit.
  public static func y(_ latitude: Double) -> Double {
    let s = sin(latitude * .pi / 180)
    let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
    return y < 0 ? 0 : (y > 1 ? 1 : y)
  }

  public static func coordinate(x: Double, y: Double) -> Coordinate {
    let y2 = (180 - y * 360) * .pi / 180
    return Coordinate(latitude: 360 * atan(exp(y2)) / .pi - 90, longitude: (x - 0.5) * 360)
  }
}
