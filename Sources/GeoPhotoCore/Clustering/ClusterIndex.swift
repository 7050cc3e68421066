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

    /// The clustering radius at `zoom`, in the unit square.
    public func radius(at zoom: Int) -> Double { radius / (extent * pow(2, Double(zoom))) }
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
    /// Where the item lies in its level (the level's tree position).
    public var position: Int
    /// The input index of the item's first point in `leaves(of:)` order (its own for a point):
    /// the photo a map shows a cluster by.
    public var representative: Int
    public var coordinate: Coordinate { ClusterIndex.coordinate(x: x, y: y) }

    public init(
      x: Double, y: Double, pointIndex: Int?, clusterID: Int?, count: Int, position: Int, representative: Int
    ) {
      self.x = x
      self.y = y
      self.pointIndex = pointIndex
      self.clusterID = clusterID
      self.count = count
      self.position = position
      self.representative = representative
    }
  }

  /// One zoom level: its items in the order of its kd-tree (kdbush's layout: the item at the
  /// middle of each range splits it), a column per field, so a level read back from a file is
  /// used where it lies.
  public struct Level: Sendable {
    /// A parent that is none (the item was not merged one zoom down).
    public static let noParent = UInt32.max

    /// The items' kd-tree: their x and y in the unit square, interleaved.
    let tree: PlaneIndex
    /// A point's input index, or a cluster's id less the point count: `(origin << 5) + zoom + 1`.
    public let ids: Column<UInt32>
    /// Photos in each item: 1 for a point, 2 or more for a cluster.
    public let counts: Column<UInt32>
    /// The cluster each item was merged into one zoom down (its id less the point count), or
    /// `noParent`.
    public let parents: Column<UInt32>
    /// Each item's tree position by the index it was made with (cluster ids name their origin
    /// by that index, as supercluster's do).
    public let positions: Column<UInt32>
    /// Each item's first point in `leaves(of:)` order (`Item.representative`).
    public let representatives: Column<UInt32>

    public var count: Int { ids.count }
    /// The bytes its columns take: two coordinates and five numbers an item.
    public var byteCount: Int { count * (2 * MemoryLayout<Double>.stride + 5 * MemoryLayout<UInt32>.stride) }
    /// x, y of each item in tree order, interleaved.
    public var coords: Column<Double> { tree.coords }

    /// A level from its columns (a file's), whose lengths it checks: every query reads inside
    /// them. Their values are checked where they are used, so damaged values give wrong items,
    /// never an out-of-bounds read or an endless walk.
    public init(
      coords: Column<Double>, ids: Column<UInt32>, counts: Column<UInt32>, parents: Column<UInt32>,
      positions: Column<UInt32>, representatives: Column<UInt32>, nodeSize: Int
    ) throws {
      let n = ids.count
      guard coords.count == 2 * n, counts.count == n, parents.count == n, positions.count == n,
        representatives.count == n
      else { throw DecodingError(description: "a level's columns differ in length") }
      tree = PlaneIndex(coords: coords, nodeSize: nodeSize)
      self.ids = ids
      self.counts = counts
      self.parents = parents
      self.positions = positions
      self.representatives = representatives
    }

    func x(_ position: Int) -> Double { tree.coords[2 * position] }
    func y(_ position: Int) -> Double { tree.coords[2 * position + 1] }
  }

  /// Values in a hierarchy's columns that it cannot use, and why.
  public struct DecodingError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
  }

  public let options: Options
  public let pointCount: Int
  /// Levels indexed by zoom, `minZoom ... maxZoom + 1` (the first `minZoom` are empty).
  public let levels: [Level]

  /// The most points a hierarchy holds: a cluster id keeps its origin's index in 27 bits.
  public static let maximumPointCount = 1 << 27

  /// The hierarchy over a kd-tree's points: point `i` is the tree's point at position `i`.
  public init(pointsOf tree: SpatialIndex, options: Options = Options()) {
    self.init(points: (0..<tree.count).map(tree.coordinate(at:)), options: options)
  }

  /// A hierarchy from its levels (read back from a file), indexed by zoom.
  public init(options: Options, pointCount: Int, levels: [Level]) throws {
    guard options.minZoom >= 0, options.minZoom <= options.maxZoom, options.maxZoom <= 30, options.nodeSize >= 1,
      options.radius.isFinite, options.extent.isFinite, options.extent > 0
    else { throw DecodingError(description: "options out of range") }
    guard pointCount >= 0, pointCount < Self.maximumPointCount else {
      throw DecodingError(description: "point count out of range")
    }
    guard levels.count == options.maxZoom + 2 else {
      throw DecodingError(description: "level count does not match the zooms")
    }
    self.options = options
    self.pointCount = pointCount
    self.levels = levels
  }

  /// Builds the hierarchy for `points` (their positions in the input order are their indexes).
  public init(points: [Coordinate], options: Options = Options()) {
    var levels = [Level?](repeating: nil, count: options.maxZoom + 2)
    Self.build(points: points, options: options) { zoom, level in levels[zoom] = level }
    self.options = options
    pointCount = points.count
    let empty = Self.emptyLevel(nodeSize: options.nodeSize)
    self.levels = levels.map { $0 ?? empty }
  }

  private static func emptyLevel(nodeSize: Int) -> Level {
    // Columns of equal (zero) length: the layout is valid.
    // swift-format-ignore: NeverUseForceTry
    try! Level(
      coords: [], ids: [], counts: [], parents: [], positions: [], representatives: [], nodeSize: nodeSize)
  }

  /// A level while it is made: its items in the order they were made.
  private struct Working {
    var xs: [Double] = []
    var ys: [Double] = []
    var ids: [UInt32] = []
    var counts: [UInt32] = []
    var representatives: [UInt32] = []

    var count: Int { xs.count }

    mutating func reserveCapacity(_ n: Int) {
      xs.reserveCapacity(n)
      ys.reserveCapacity(n)
      ids.reserveCapacity(n)
      counts.reserveCapacity(n)
      representatives.reserveCapacity(n)
    }

    mutating func append(x: Double, y: Double, id: UInt32, count: UInt32, representative: UInt32) {
      xs.append(x)
      ys.append(y)
      ids.append(id)
      counts.append(count)
      representatives.append(representative)
    }

    /// Item `k` of `level` carried down unmerged.
    mutating func append(_ k: Int, of level: Working) {
      append(
        x: level.xs[k], y: level.ys[k], id: level.ids[k], count: level.counts[k],
        representative: level.representatives[k])
    }
  }

  /// Builds the hierarchy for `points`, handing each level to `emit` with its zoom as soon as
  /// it is complete, from `maxZoom + 1` (the points) down to `minZoom`: a writer keeps two
  /// levels in memory, not all of them.
  public static func build(
    points: [Coordinate], options: Options = Options(), emit: (_ zoom: Int, _ level: Level) throws -> Void
  ) rethrows {
    precondition(points.count < maximumPointCount, "at most \(maximumPointCount) points")
    var current = Working()
    current.reserveCapacity(points.count)
    let visits = options.order == .zOrder ? mortonOrder(points) : Array(points.indices)
    for i in visits {
      let p = points[i]
      current.append(x: x(p.longitude), y: y(p.latitude), id: UInt32(i), count: 1, representative: UInt32(i))
    }
    for zoom in stride(from: options.maxZoom + 1, through: options.minZoom, by: -1) {
      let (order, coords) = PlaneIndex.build(xs: current.xs, ys: current.ys, nodeSize: options.nodeSize)
      let n = current.count
      var positions = [UInt32](repeating: 0, count: n)
      for (position, made) in order.enumerated() { positions[Int(made)] = UInt32(position) }
      let tree = PlaneIndex(coords: Column(coords), nodeSize: options.nodeSize)
      var parents = [UInt32](repeating: Level.noParent, count: n)
      var next = Working()
      if zoom > options.minZoom {
        next = cluster(
          current, tree: tree, order: order, positions: positions, parents: &parents, zoom: zoom - 1,
          options: options)
      }
      // swift-format-ignore: NeverUseForceTry
      let level = try! Level(
        coords: tree.coords, ids: Column(order.map { current.ids[Int($0)] }),
        counts: Column(order.map { current.counts[Int($0)] }), parents: Column(order.map { parents[Int($0)] }),
        positions: Column(positions), representatives: Column(order.map { current.representatives[Int($0)] }),
        nodeSize: options.nodeSize)
      try emit(zoom, level)
      current = next
    }
  }

  /// One step of the hierarchy: the items of `level` (zoom + 1, in the order they were made,
  /// `tree` over them with `order` from tree positions to that order and `positions` back)
  /// merged at `zoom`; `parents` (by the order they were made) learns where each went. A new
  /// cluster's representative is that of its member first in tree order, the child
  /// `children(of:)` lists first.
  private static func cluster(
    _ level: Working, tree: PlaneIndex, order: [Int32], positions: [UInt32], parents: inout [UInt32], zoom: Int,
    options: Options
  ) -> Working {
    let r = options.radius(at: zoom)
    var visited = [Bool](repeating: false, count: level.count)
    var next = Working()
    next.reserveCapacity(level.count)
    var neighbors: [Int32] = []
    for i in 0..<level.count where !visited[i] {
      visited[i] = true
      let x = level.xs[i]
      let y = level.ys[i]
      neighbors.removeAll(keepingCapacity: true)
      tree.within(x, y, r, into: &neighbors)
      for k in neighbors.indices { neighbors[k] = order[Int(neighbors[k])] }
      let originCount = Int(level.counts[i])
      var total = originCount
      for k in neighbors where !visited[Int(k)] { total += Int(level.counts[Int(k)]) }
      if total > originCount && total >= options.minPoints {
        var wx = x * Double(originCount)
        var wy = y * Double(originCount)
        let id = UInt32((i << 5) + (zoom + 1))
        var first = i
        for k32 in neighbors {
          let k = Int(k32)
          guard !visited[k] else { continue }
          visited[k] = true
          let c = Double(level.counts[k])
          wx += level.xs[k] * c
          wy += level.ys[k] * c
          parents[k] = id
          if positions[k] < positions[first] { first = k }
        }
        parents[i] = id
        next.append(
          x: wx / Double(total), y: wy / Double(total), id: id, count: UInt32(total),
          representative: level.representatives[first])
      } else {
        next.append(i, of: level)
        if total > 1 {
          for k32 in neighbors {
            let k = Int(k32)
            guard !visited[k] else { continue }
            visited[k] = true
            next.append(k, of: level)
          }
        }
      }
    }
    return next
  }

  // MARK: - Queries

  /// Clamps a requested zoom to the levels that exist.
  public func level(for zoom: Int) -> Int { max(options.minZoom, min(zoom, options.maxZoom + 1)) }

  /// The item at tree position `position` of `level`; nil when its values are damaged (a
  /// point index past the points).
  func item(_ position: Int, of level: Level) -> Item? {
    let count = Int(level.counts[position])
    let id = Int(level.ids[position])
    let representative = Int(level.representatives[position])
    guard representative < pointCount else { return nil }
    if count > 1 {
      return Item(
        x: level.x(position), y: level.y(position), pointIndex: nil, clusterID: id + pointCount, count: count,
        position: position, representative: representative)
    }
    guard id < pointCount else { return nil }
    return Item(
      x: level.x(position), y: level.y(position), pointIndex: id, clusterID: nil, count: 1, position: position,
      representative: id)
  }

  /// The item at `position` of the level of `zoom`; nil outside it or when its values are
  /// damaged.
  public func item(at position: Int, zoom: Int) -> Item? {
    let level = levels[self.level(for: zoom)]
    guard position >= 0, position < level.count else { return nil }
    return item(position, of: level)
  }

  /// The items of the level of `zoom` within `radius` of (`x`, `y`) in the unit square.
  public func items(near x: Double, _ y: Double, radius: Double, zoom: Int) -> [Item] {
    let level = levels[self.level(for: zoom)]
    var found: [Int32] = []
    level.tree.within(x, y, radius, into: &found)
    return found.compactMap { item(Int($0), of: level) }
  }

  /// The clustering radius at `zoom`, in the unit square.
  public func radius(at zoom: Int) -> Double { options.radius(at: zoom) }

  /// The cluster an item of level `zoom + 1` was merged into at `zoom`, as a cluster id; nil
  /// when it was not merged.
  public func parent(ofItemAt position: Int, zoom: Int) -> Int? {
    let level = levels[self.level(for: zoom + 1)]
    guard position >= 0, position < level.count, level.parents[position] != Level.noParent else { return nil }
    return Int(level.parents[position]) + pointCount
  }

  /// Points and clusters inside a box at a zoom. A box with `west > east` crosses the
  /// antimeridian; one spanning 360° or more covers every longitude.
  public func items(in box: BoundingBox, zoom: Int) -> [Item] {
    var items: [Item] = []
    forEachItem(in: box, zoom: zoom) { items.append($0) }
    return items
  }

  /// Calls `body` with each point and cluster inside a box at a zoom, holding none of them: a
  /// caller keeps what it needs (a capped page) however many there are.
  public func forEachItem(in box: BoundingBox, zoom: Int, _ body: (Item) -> Void) {
    let (west, south, east, north) = {
      let b = box.normalized
      return (b.west, b.south, b.east, b.north)
    }()
    if west > east {
      forEachItem(in: BoundingBox(west: west, south: south, east: 180, north: north), zoom: zoom, body)
      forEachItem(in: BoundingBox(west: -180, south: south, east: east, north: north), zoom: zoom, body)
      return
    }
    let level = levels[self.level(for: zoom)]
    withoutActuallyEscaping(body) { body in
      var sink = VisitingSink { position in
        if let found = self.item(Int(position), of: level) { body(found) }
      }
      level.tree.range(minX: Self.x(west), minY: Self.y(north), maxX: Self.x(east), maxY: Self.y(south), into: &sink)
    }
  }

  /// No cluster id of any index is larger: ids count from the point count (below 2²⁷) and
  /// go up to 2³² above it.
  public static let largestClusterID: Int64 = 1 << 34

  /// The zoom a cluster was made at and the tree position of the item it grew from (at zoom
  /// + 1), from its id.
  func origin(of clusterID: Int) -> (zoom: Int, position: Int)? {
    // Any Int may come in (a request's path): the subtraction is checked, not trusted.
    let (local, overflow) = clusterID.subtractingReportingOverflow(pointCount)
    guard !overflow, local >= 0, local <= Int(UInt32.max) else { return nil }
    let zoom = (local % 32) - 1
    let index = local >> 5
    guard zoom >= options.minZoom, zoom <= options.maxZoom else { return nil }
    let level = levels[zoom + 1]
    guard index < level.count else { return nil }
    let position = Int(level.positions[index])
    guard position < level.count else { return nil }
    return (zoom, position)
  }

  /// Whether `clusterID` names a cluster of this index.
  public func contains(clusterID: Int) -> Bool {
    guard let (zoom, position) = origin(of: clusterID) else { return false }
    return Int(levels[zoom + 1].parents[position]) == clusterID - pointCount
  }

  /// The items a cluster splits into one zoom level down; `nil` for an unknown id.
  public func children(of clusterID: Int) -> [Item]? {
    guard contains(clusterID: clusterID), let (zoom, position) = origin(of: clusterID) else { return nil }
    let level = levels[zoom + 1]
    let r = radius(at: zoom)
    let local = UInt32(clusterID - pointCount)
    var found: [Int32] = []
    level.tree.within(level.x(position), level.y(position), r, into: &found)
    return found.map(Int.init).filter { level.parents[$0] == local }.sorted().compactMap { item($0, of: level) }
  }

  /// The input points inside a cluster, depth first, paged; `nil` for an unknown id.
  ///
  /// Points `hidden` says are hidden are left out of the pages (`hiddenCount` tells how many
  /// of them an item of a level holds, so whole sub-clusters before the page are stepped over
  /// by their counts): a page costs its depth in the tree and its own points, whatever the
  /// offset.
  public func leaves(
    of clusterID: Int, limit: Int = 10, offset: Int = 0, hidden: (Int) -> Bool = { _ in false },
    hiddenCount: (_ level: Int, _ position: Int) -> Int = { _, _ in 0 }
  ) -> [Int]? {
    guard contains(clusterID: clusterID) else { return nil }
    var result: [Int] = []
    var skipped = 0
    appendLeaves(
      of: clusterID, limit: limit, offset: offset, skipped: &skipped, into: &result, hidden: hidden,
      hiddenCount: hiddenCount)
    return result
  }

  private func appendLeaves(
    of clusterID: Int, limit: Int, offset: Int, skipped: inout Int, into result: inout [Int], hidden: (Int) -> Bool,
    hiddenCount: (Int, Int) -> Int
  ) {
    guard let (zoom, _) = origin(of: clusterID) else { return }
    for child in children(of: clusterID) ?? [] {
      if let cluster = child.clusterID {
        // A child was made deeper than its parent: every walk down ends (damaged ids that
        // say otherwise are passed over).
        guard let (childZoom, _) = origin(of: cluster), childZoom > zoom else { continue }
        let visible = max(0, child.count - hiddenCount(zoom + 1, child.position))
        if skipped + visible <= offset {
          skipped += visible  // the whole sub-cluster lies before the page
        } else {
          appendLeaves(
            of: cluster, limit: limit, offset: offset, skipped: &skipped, into: &result, hidden: hidden,
            hiddenCount: hiddenCount)
        }
      } else if let point = child.pointIndex, !hidden(point) {
        if skipped < offset { skipped += 1 } else { result.append(point) }
      }
      if result.count >= limit { return }
    }
  }

  /// The zoom at which a cluster breaks apart (the map zooms there when it is clicked):
  /// supercluster's walk down clusters with a single child, which ends at once here, since a
  /// cluster is made of two items or more of the zoom below the one it was made at.
  public func expansionZoom(of clusterID: Int) -> Int? {
    guard let (zoom, _) = origin(of: clusterID), contains(clusterID: clusterID) else { return nil }
    return zoom + 1
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
