/// One answer of a spatial query: the photo id and its great-circle distance in metres.
public struct Neighbor: Hashable, Sendable {
  public var id: Int64
  public var distance: Double

  public init(id: Int64, distance: Double) {
    self.id = id
    self.distance = distance
  }
}

/// A static kd-tree over unit vectors that answers k-nearest and within-radius queries in exact
/// great-circle order.
///
/// Points are stored as unit vectors `(x, y, z)`; the squared chord between two unit vectors
/// is monotonic in their great-circle distance, so the tree ranks by true distance without
/// trigonometry, wrap-around or pole cases. Ties are broken by id, so the answer is the same
/// as a brute-force sort by `(distance, id)`.
///
/// The layout follows kdbush: flat arrays, an implicit tree (the split point of the range
/// `lo...hi` sits at `(lo + hi) / 2`), no node objects, and one split axis byte per point.
/// Each split uses the axis along which its range is widest, which suits clustered photo sets.
public struct SpatialIndex: Sendable {
  /// The number of points in a leaf range that is scanned instead of split.
  public let leafSize: Int
  /// Photo ids in tree order.
  public private(set) var ids: Column<Int64>
  /// Unit vectors in tree order, three components per point.
  public let vectors: Column<Double>
  /// The split axis (0, 1 or 2) stored at the split point of every internal range.
  public let axes: Column<UInt8>
  /// A byte per point, in tree order, that queries may filter on (a photo's `PhotoSource.code`):
  /// testing it costs nothing per candidate, unlike looking the photo up.
  public let tags: Column<UInt8>
  /// Each point's capture time in tree order, when the index was built with them.
  public var times: PointTimes?

  public var count: Int { ids.count }

  /// Where the point at tree position `position` is (its unit vector as a coordinate).
  public func coordinate(at position: Int) -> Coordinate {
    GreatCircle.coordinate(x: vectors[3 * position], y: vectors[3 * position + 1], z: vectors[3 * position + 2])
  }

  /// The tree positions by ascending id (ties by position): how a photo is found by its id.
  public func positionsByID() -> Column<Int32> {
    var pairs = [(id: Int64, position: Int32)]()
    pairs.reserveCapacity(count)
    for (position, id) in ids.enumerated() { pairs.append((id, Int32(position))) }
    pairs.sort { $0.id < $1.id || ($0.id == $1.id && $0.position < $1.position) }
    return Column(count: pairs.count) { out in
      for (i, pair) in pairs.enumerated() { out[i] = pair.position }
    }
  }

  /// Takes new ids for the same points, in tree order (see `PointTimes`).
  mutating func adopt(ids newIDs: [Int64]) {
    precondition(newIDs.count == ids.count, "one id per point")
    ids = Column(newIDs)
  }
  public var isEmpty: Bool { ids.isEmpty }

  /// An error in the flat arrays handed to `init(ids:vectors:axes:leafSize:)`.
  public struct InvalidLayout: Error, CustomStringConvertible {
    public var description: String
  }

  /// Builds the tree.
  ///
  /// - Parameters:
  ///   - points: photo ids and positions; ids should be unique.
  ///   - tags: a byte per point (its source code), in the order of `points`; zeros if nil.
  ///   - leafSize: ranges of at most this many points are scanned linearly.
  public init(points: [(id: Int64, coordinate: Coordinate)], tags: [UInt8]? = nil, leafSize: Int = 16) {
    var ids = [Int64](repeating: 0, count: points.count)
    var vectors = [Double](repeating: 0, count: points.count * 3)
    for (i, point) in points.enumerated() {
      let v = GreatCircle.unitVector(point.coordinate)
      ids[i] = point.id
      vectors[3 * i] = v.x
      vectors[3 * i + 1] = v.y
      vectors[3 * i + 2] = v.z
    }
    self.init(building: ids, vectors: vectors, tags: tags, leafSize: leafSize)
  }

  /// Builds the tree from ids and unit vectors already computed (three per id), with a tag
  /// byte per id (zeros if nil).
  public init(building ids: [Int64], vectors: [Double], tags: [UInt8]? = nil, leafSize: Int = 16) {
    precondition(vectors.count == ids.count * 3, "three vector components per id")
    self.init(building: ids, points: vectors, dimensions: 3, tags: tags, leafSize: leafSize, timeLevels: 0)
  }

  /// The split axis of a range split by capture time (`times.locals`) instead of position.
  public static let timeAxis: UInt8 = 3

  /// Builds over `points` with `dimensions` numbers each: the unit vector, then (with 4)
  /// the capture time's wall clock. The top `timeLevels` levels split by time,
  /// larger ones along their widest spatial axis; `vectors` keeps the first three numbers.
  init(building ids: [Int64], points: [Double], dimensions: Int, tags: [UInt8]?, leafSize: Int, timeLevels: Int) {
    precondition(tags.map { $0.count == ids.count } ?? true, "one tag per id")
    var ids = ids
    var points = points
    var tags = tags ?? [UInt8](repeating: 0, count: ids.count)
    var axes = [UInt8](repeating: 0, count: ids.count)
    let leaf = max(1, leafSize)
    ids.withUnsafeMutableBufferPointer { idBuffer in
      points.withUnsafeMutableBufferPointer { pointBuffer in
        tags.withUnsafeMutableBufferPointer { tagBuffer in
          axes.withUnsafeMutableBufferPointer { axisBuffer in
            var builder = TreeBuilder(
              ids: idBuffer, points: pointBuffer, dimensions: dimensions, tags: tagBuffer, axes: axisBuffer,
              leafSize: leaf, timeLevels: timeLevels)
            builder.build()
          }
        }
      }
    }
    self.ids = Column(ids)
    self.vectors = Column(count: ids.count * 3) { vectors in
      for i in ids.indices {
        for d in 0..<3 { vectors[3 * i + d] = points[dimensions * i + d] }
      }
    }
    self.tags = Column(tags)
    self.axes = Column(axes)
    self.leafSize = leaf
  }

  /// Adopts arrays produced by an earlier build (for example read back from disk), after
  /// checking that they are consistent so a damaged file cannot cause out-of-bounds reads.
  public init(ids: [Int64], vectors: [Double], axes: [UInt8], tags: [UInt8], leafSize: Int) throws {
    try self.init(
      ids: Column(ids), vectors: Column(vectors), axes: Column(axes), tags: Column(tags), leafSize: leafSize,
      checkingValues: true)
  }

  /// Adopts columns produced by an earlier build (a mapped file, say). Their lengths are always
  /// checked: a search only ever reads inside them. With `checkingValues`, so are their values
  /// (axes and unit-vector components in range), a pass over every point; without it, a damaged
  /// file can give wrong answers but never an out-of-bounds read (the walk's ranges come from
  /// the point count alone, and any axis byte or number is safe to compare).
  public init(
    ids: Column<Int64>, vectors: Column<Double>, axes: Column<UInt8>, tags: Column<UInt8>, leafSize: Int,
    checkingValues: Bool
  ) throws {
    guard leafSize >= 1 else { throw InvalidLayout(description: "leaf size \(leafSize) < 1") }
    guard vectors.count == ids.count * 3, axes.count == ids.count, tags.count == ids.count else {
      throw InvalidLayout(description: "array lengths do not match the point count")
    }
    if checkingValues {
      // Whole passes without early exits, which the compiler turns into vector instructions.
      guard axes.withUnsafeBufferPointer({ $0.reduce(0) { max($0, $1) } }) <= Self.timeAxis else {
        throw InvalidLayout(description: "split axis out of range")
      }
      // NaN fails the comparison, so it is counted too.
      guard vectors.withUnsafeBufferPointer({ $0.reduce(0) { $0 + (abs($1) <= 1.000_000_1 ? 0 : 1) } }) == 0 else {
        throw InvalidLayout(description: "vector component is not a unit-vector component")
      }
    }
    self.ids = ids
    self.vectors = vectors
    self.axes = axes
    self.tags = tags
    self.leafSize = leafSize
  }

  // MARK: - Queries

  /// The `limit` nearest points to `center`, nearest first, ties by ascending id.
  ///
  /// - Parameters:
  ///   - center: the query position.
  ///   - limit: the most results to return.
  ///   - maximumDistance: if given, only points at most this many metres away.
  ///   - isIncluded: if given, only the points it accepts, by their position in tree order
  ///     (read `ids[position]` or `tags[position]`): a source filter, say. The answer is still
  ///     exact: the nearest `limit` of the accepted points.
  /// - Returns: at most `limit` neighbours in `(distance, id)` order.
  ///   - time: if given, only the points whose capture time (`times`) it takes, tested inline
  ///     (an index built without times takes none).
  public func nearest(
    to center: Coordinate, limit: Int, maximumDistance: Double? = nil, time: TimeRange? = nil,
    where isIncluded: ((Int) -> Bool)? = nil
  ) -> [Neighbor] {
    guard limit > 0, !ids.isEmpty else { return [] }
    if time != nil && times == nil { return [] }
    let q = GreatCircle.unitVector(center)
    let bound = maximumDistance.map { GreatCircle.squaredChord(forDistance: $0) } ?? .infinity
    let found = search(
      qx: q.x, qy: q.y, qz: q.z, limit: min(limit, ids.count), bound: bound, time: time.map(TimeWindow.init),
      isIncluded: isIncluded)
    return found.map { Neighbor(id: $0.id, distance: GreatCircle.distance(squaredChord: $0.d2)) }
  }

  /// What `nearest` answers over `points` alone, by ranking each of them: for candidate sets
  /// a text index has already cut down to a few, where building a tree costs more than it
  /// saves. Distances are the tree's to the bit (the same unit vectors and chord).
  public static func nearest(
    among points: [(id: Int64, coordinate: Coordinate)], to center: Coordinate, limit: Int,
    maximumDistance: Double? = nil
  ) -> [Neighbor] {
    let capacity = min(limit, points.count)
    guard capacity > 0 else { return [] }
    let q = GreatCircle.unitVector(center)
    let bound = maximumDistance.map { GreatCircle.squaredChord(forDistance: $0) } ?? .infinity
    var heap = BoundedMaxHeap(capacity: capacity)
    for point in points {
      let v = GreatCircle.unitVector(point.coordinate)
      let dx = v.x - q.x
      let dy = v.y - q.y
      let dz = v.z - q.z
      heap.offer(d2: dx * dx + dy * dy + dz * dz, id: point.id, bound: bound)
    }
    return heap.sorted().map { Neighbor(id: $0.id, distance: GreatCircle.distance(squaredChord: $0.d2)) }
  }

  /// Every point within `radius` metres of `center`, nearest first, ties by ascending id.
  public func within(radius: Double, of center: Coordinate) -> [Neighbor] {
    nearest(to: center, limit: ids.count, maximumDistance: radius)
  }

  private func search(
    qx: Double, qy: Double, qz: Double, limit: Int, bound: Double, time: TimeWindow?, isIncluded: ((Int) -> Bool)?
  ) -> [(d2: Double, id: Int64)] {
    var heap = BoundedMaxHeap(capacity: limit)
    let instants = times?.instants ?? []
    let locals = times?.locals ?? []
    ids.withUnsafeBufferPointer { ids in
      vectors.withUnsafeBufferPointer { v in
        axes.withUnsafeBufferPointer { axes in
          instants.withUnsafeBufferPointer { instants in
            locals.withUnsafeBufferPointer { locals in
              // Whether the point at `i` passes the filters; asked only of points close enough to
              // enter the answer, the time first (two loads, no call).
              @inline(__always) func passes(_ i: Int) -> Bool {
                if let time, !time.matches(instant: instants[i], local: locals[i]) { return false }
                if let isIncluded, !isIncluded(i) { return false }
                return true
              }
              let q = (qx, qy, qz)
              // Explicit stack of (lo, hi, lower bound of the squared chord to the range).
              var stack = SearchStack()
              stack.push(lo: 0, hi: ids.count - 1, bound: 0)
              while let (lo, hi, rangeBound) = stack.pop() {
                let worst = heap.isFull ? heap.worst.d2 : bound
                if rangeBound > worst { continue }
                if hi - lo < leafSize {
                  var limitD2 = worst
                  for i in lo...hi {
                    let dx = v[3 * i] - q.0
                    let dy = v[3 * i + 1] - q.1
                    let dz = v[3 * i + 2] - q.2
                    let d2 = dx * dx + dy * dy + dz * dz
                    // Farther than the current worst answer (or the bound): it cannot enter.
                    if d2 > limitD2 || !passes(i) { continue }
                    heap.offer(d2: d2, id: ids[i], bound: bound)
                    if heap.isFull { limitD2 = heap.worst.d2 }
                  }
                  continue
                }
                let m = (lo + hi) >> 1
                let dx = v[3 * m] - q.0
                let dy = v[3 * m + 1] - q.1
                let dz = v[3 * m + 2] - q.2
                let d2 = dx * dx + dy * dy + dz * dz
                if d2 <= worst && passes(m) {
                  heap.offer(d2: d2, id: ids[m], bound: bound)
                }
                let axis = Int(axes[m])
                if axis == Int(SpatialIndex.timeAxis) {
                  // Split by capture time: the left side is no later than the split point, the
                  // right no earlier. Neither is nearer; a time filter may rule one out.
                  let t = locals.isEmpty ? 0 : locals[m]
                  if m + 1 <= hi && (time.map { t < $0.latestLocal } ?? true) {
                    stack.push(lo: m + 1, hi: hi, bound: rangeBound)
                  }
                  if lo <= m - 1 && (time.map { t >= $0.earliestLocal } ?? true) {
                    stack.push(lo: lo, hi: m - 1, bound: rangeBound)
                  }
                  continue
                }
                stack.pushHalves(
                  lo: lo, hi: hi, split: m, diff: axis == 0 ? -dx : (axis == 1 ? -dy : -dz), bound: rangeBound)
              }
            }
          }
        }
      }
    }
    return heap.sorted()
  }
}

// MARK: - Building

/// Recursive median split with the widest axis, done in place on the flat arrays.
private struct TreeBuilder {
  let ids: UnsafeMutableBufferPointer<Int64>
  /// `dimensions` numbers per point: the unit vector, then the capture time when there is one.
  let points: UnsafeMutableBufferPointer<Double>
  let dimensions: Int
  let tags: UnsafeMutableBufferPointer<UInt8>
  let axes: UnsafeMutableBufferPointer<UInt8>
  let leafSize: Int
  /// How many levels from the top split by time (axis 3); 0 for none.
  let timeLevels: Int

  mutating func build() {
    guard ids.count > 0 else { return }
    var work: [(Int, Int, Int)] = [(0, ids.count - 1, 0)]
    while let (lo, hi, depth) = work.popLast() {
      if hi - lo < leafSize { continue }
      let m = (lo + hi) >> 1
      let axis = dimensions > 3 && depth < timeLevels ? Int(SpatialIndex.timeAxis) : widestAxis(lo: lo, hi: hi)
      select(
        FlatPoints(ids: ids, coordinates: points, tags: tags, dimensions: dimensions, axis: axis), k: m, lo: lo, hi: hi)
      axes[m] = UInt8(axis)
      work.append((lo, m - 1, depth + 1))
      work.append((m + 1, hi, depth + 1))
    }
  }

  private func widestAxis(lo: Int, hi: Int) -> Int {
    var minX = Double.infinity
    var maxX = -Double.infinity
    var minY = Double.infinity
    var maxY = -Double.infinity
    var minZ = Double.infinity
    var maxZ = -Double.infinity
    for i in lo...hi {
      let x = points[dimensions * i]
      let y = points[dimensions * i + 1]
      let z = points[dimensions * i + 2]
      minX = min(minX, x)
      maxX = max(maxX, x)
      minY = min(minY, y)
      maxY = max(maxY, y)
      minZ = min(minZ, z)
      maxZ = max(maxZ, z)
    }
    let sx = maxX - minX
    let sy = maxY - minY
    let sz = maxZ - minZ
    if sx >= sy && sx >= sz { return 0 }
    return sy >= sz ? 1 : 2
  }

}

// MARK: - Search helpers

/// A fixed-capacity max-heap on `(d2, id)`: its top is the current k-th best answer.
///
/// Its entries live in memory of its own, grown by doubling up to `capacity` (a walk for every
/// point within a radius may ask for all of them), so an offer is plain loads and stores with
/// no array's uniqueness or bounds checks on the path every candidate takes. `sorted()` frees
/// it: a heap answers once.
private struct BoundedMaxHeap {
  private struct Entry {
    var d2: Double
    var id: Int64

    /// Whether this entry ranks after `other`: farther, or as far with a larger id.
    @inline(__always)
    func ranksAfter(_ other: Entry) -> Bool { d2 > other.d2 || (d2 == other.d2 && id > other.id) }
  }

  private var entries: UnsafeMutablePointer<Entry>
  private var allocated: Int
  private(set) var count = 0
  let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    allocated = max(1, min(capacity, 4096))
    entries = .allocate(capacity: allocated)
  }

  var isFull: Bool { count >= capacity }
  var worst: (d2: Double, id: Int64) { (entries[0].d2, entries[0].id) }

  @inline(__always)
  mutating func offer(d2: Double, id: Int64, bound: Double) {
    let entry = Entry(d2: d2, id: id)
    if count < capacity {
      guard d2 <= bound else { return }
      if count == allocated { grow() }
      var child = count
      count += 1
      // Sift up: parents that rank before the new entry move down.
      while child > 0 {
        let parent = (child - 1) >> 1
        guard entry.ranksAfter(entries[parent]) else { break }
        entries[child] = entries[parent]
        child = parent
      }
      entries[child] = entry
      return
    }
    guard entries[0].ranksAfter(entry) else { return }
    // Sift down from the top: children that rank after the new entry move up.
    var parent = 0
    while true {
      let left = 2 * parent + 1
      if left >= count { break }
      var largest = left
      if left + 1 < count && entries[left + 1].ranksAfter(entries[left]) { largest = left + 1 }
      guard entries[largest].ranksAfter(entry) else { break }
      entries[parent] = entries[largest]
      parent = largest
    }
    entries[parent] = entry
  }

  private mutating func grow() {
    let larger = min(capacity, allocated * 2)
    let moved = UnsafeMutablePointer<Entry>.allocate(capacity: larger)
    moved.moveInitialize(from: entries, count: count)
    entries.deallocate()
    entries = moved
    allocated = larger
  }

  /// The entries nearest first, ties by ascending id; frees the heap.
  mutating func sorted() -> [(d2: Double, id: Int64)] {
    var buffer = UnsafeMutableBufferPointer(start: entries, count: count)
    buffer.sort { $1.ranksAfter($0) }
    let answer = buffer.map { (d2: $0.d2, id: $0.id) }
    entries.deallocate()
    count = 0
    allocated = 0
    return answer
  }
}

/// The pending ranges of a tree walk; reserved once so a walk rarely allocates.
@usableFromInline struct SearchStack {
  @usableFromInline var items: [(Int, Int, Double)] = []

  @inlinable init() { items.reserveCapacity(64) }

  @inlinable @inline(__always)
  mutating func push(lo: Int, hi: Int, bound: Double) { items.append((lo, hi, bound)) }

  @inlinable @inline(__always)
  mutating func pop() -> (Int, Int, Double)? { items.popLast() }

  /// The halves of the range `lo...hi` split at `m` along an axis where the query lies `diff`
  /// from the split point: the far half with the larger bound `diff²`, the near one pushed last
  /// so it is visited first.
  @inlinable @inline(__always)
  mutating func pushHalves(lo: Int, hi: Int, split m: Int, diff: Double, bound: Double) {
    let farBound = max(bound, diff * diff)
    if diff < 0 {
      if m + 1 <= hi { push(lo: m + 1, hi: hi, bound: farBound) }
      if lo <= m - 1 { push(lo: lo, hi: m - 1, bound: bound) }
    } else {
      if lo <= m - 1 { push(lo: lo, hi: m - 1, bound: farBound) }
      if m + 1 <= hi { push(lo: m + 1, hi: hi, bound: bound) }
    }
  }
}
