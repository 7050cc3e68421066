import Foundation
import Testing

@testable import GeoPhotoCore

/// Reference distance computed independently of `GreatCircle`: the spherical law of cosines
/// on vectors via atan2 of the cross and dot products (well conditioned at every angle).
func referenceDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
  func vector(_ c: Coordinate) -> (Double, Double, Double) {
    let lat = c.latitude * Double.pi / 180
    let lon = c.longitude * Double.pi / 180
    return (cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
  }
  let p = vector(a)
  let q = vector(b)
  let cx = p.1 * q.2 - p.2 * q.1
  let cy = p.2 * q.0 - p.0 * q.2
  let cz = p.0 * q.1 - p.1 * q.0
  let dot = p.0 * q.0 + p.1 * q.1 + p.2 * q.2
  return 6_371_008.8 * atan2((cx * cx + cy * cy + cz * cz).squareRoot(), dot)
}

/// A tiny deterministic generator for the tests (xorshift64*).
struct TestRandom: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 2_685_821_657_736_338_717
  }
}

/// Points that stress the index: clusters, exact duplicates, both poles, the antimeridian.
func stressPoints(count: Int, seed: UInt64) -> [(id: Int64, coordinate: Coordinate)] {
  var rng = TestRandom(state: seed)
  var points: [(Int64, Coordinate)] = []
  var id: Int64 = 1
  func add(_ lat: Double, _ lon: Double) {
    points.append((id, Coordinate(latitude: lat, longitude: lon)))
    id += 1
  }
  let centres = (0..<20).map { _ in
    (Double.random(in: -80...80, using: &rng), Double.random(in: -180..<180, using: &rng))
  }
  while points.count < count {
    switch Int.random(in: 0..<10, using: &rng) {
    case 0:  // near a pole
      let lat = Double.random(in: 89.9...90, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
      add(lat, Double.random(in: -180..<180, using: &rng))
    case 1:  // astride the antimeridian
      let lon =
        Bool.random(using: &rng)
        ? Double.random(in: 179.9..<180, using: &rng) : Double.random(in: -180 ..< -179.9, using: &rng)
      add(Double.random(in: -60...60, using: &rng), lon)
    case 2:  // exact duplicate of an earlier point (a burst)
      if let last = points.randomElement(using: &rng) {
        add(last.1.latitude, last.1.longitude)
      }
    case 3:  // anywhere
      add(Double.random(in: -90...90, using: &rng), Double.random(in: -180..<180, using: &rng))
    default:
      let c = centres.randomElement(using: &rng) ?? (0, 0)
      add(
        c.0 + Double.random(in: -0.05...0.05, using: &rng),
        c.1 + Double.random(in: -0.05...0.05, using: &rng))
    }
  }
  return points
}

func bruteForce(
  _ points: [(id: Int64, coordinate: Coordinate)], from q: Coordinate, limit: Int,
  within radius: Double? = nil
) -> [(id: Int64, distance: Double)] {
  typealias Hit = (id: Int64, distance: Double)
  let all: [Hit] = points.map { p -> Hit in (p.id, referenceDistance(q, p.coordinate)) }
  let inside: [Hit] = all.filter { hit in radius.map { hit.distance <= $0 } ?? true }
  let sorted: [Hit] = inside.sorted { a, b in
    a.distance < b.distance || (a.distance == b.distance && a.id < b.id)
  }
  return Array(sorted.prefix(limit))
}

@Suite struct SpatialIndexTests {
  static let points = stressPoints(count: 20_000, seed: 0x5EED)
  static let index = SpatialIndex(points: points)

  static let queries: [Coordinate] = {
    var rng = TestRandom(state: 99)
    var qs: [Coordinate] = [
      Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 123),
      Coordinate(latitude: 89.95, longitude: -45), Coordinate(latitude: 0, longitude: 180),
      Coordinate(latitude: 10, longitude: -180), Coordinate(latitude: -20, longitude: 179.99),
      Coordinate(latitude: 0, longitude: 0),
    ]
    for _ in 0..<150 {
      qs.append(
        Coordinate(
          latitude: Double.random(in: -90...90, using: &rng), longitude: Double.random(in: -180..<180, using: &rng)))
    }
    // Queries at indexed points, so exact duplicates and ties sit at the very top.
    for p in points.prefix(600).filter({ $0.id % 12 == 0 }) { qs.append(p.coordinate) }
    return qs
  }()

  /// Compares ids exactly; where two reference distances are within rounding of each other
  /// the order of that pair is not decidable in floating point, so it is allowed to swap.
  func expectSameOrder(_ got: [Neighbor], _ expected: [(id: Int64, distance: Double)]) {
    #expect(got.count == expected.count)
    for (g, e) in zip(got, expected) {
      #expect(abs(g.distance - e.distance) <= 1e-6 * max(1, e.distance))
      if g.id != e.id {
        #expect(abs(g.distance - e.distance) < 1e-7, "id \(g.id) where \(e.id) was expected")
      }
    }
  }

  @Test(arguments: [1, 10, 50])
  func nearestMatchesBruteForce(k: Int) {
    for q in Self.queries {
      expectSameOrder(Self.index.nearest(to: q, limit: k), bruteForce(Self.points, from: q, limit: k))
    }
  }

  @Test func tiesAreBrokenByID() {
    // Five photos at one spot and one elsewhere: the spot's ids come back ascending.
    let spot = Coordinate(latitude: 35.68, longitude: 139.76)
    let points: [(id: Int64, coordinate: Coordinate)] = [
      (42, spot), (7, spot), (19, spot), (3, Coordinate(latitude: 35.7, longitude: 139.8)), (8, spot), (1, spot),
    ]
    let index = SpatialIndex(points: points, leafSize: 1)
    #expect(index.nearest(to: spot, limit: 4).map(\.id) == [1, 7, 8, 19])
    #expect(index.nearest(to: spot, limit: 10).map(\.id) == [1, 7, 8, 19, 42, 3])
  }

  @Test(arguments: [100.0, 5_000, 250_000])
  func radiusMatchesBruteForce(radius: Double) {
    for q in Self.queries.prefix(60) {
      let got = Self.index.within(radius: radius, of: q)
      let expected = bruteForce(Self.points, from: q, limit: .max, within: radius)
      // Points within rounding of the boundary may fall either side.
      let firm = expected.filter { $0.distance < radius * (1 - 1e-9) }
      #expect(got.count >= firm.count && got.count <= expected.count + 1)
      expectSameOrder(Array(got.prefix(firm.count)), firm)
    }
  }

  @Test func limitWithRadius() {
    let q = Coordinate(latitude: 0, longitude: 180)
    let got = Self.index.nearest(to: q, limit: 5, maximumDistance: 50_000)
    let expected = bruteForce(Self.points, from: q, limit: 5, within: 50_000)
    expectSameOrder(got, expected)
  }

  @Test func antimeridianNeighboursAreFound() {
    let points: [(id: Int64, coordinate: Coordinate)] = [
      (1, Coordinate(latitude: 0, longitude: 179.999)),
      (2, Coordinate(latitude: 0, longitude: -179.999)),
      (3, Coordinate(latitude: 0, longitude: 170)),
    ]
    let index = SpatialIndex(points: points)
    let result = index.nearest(to: Coordinate(latitude: 0, longitude: -179.9995), limit: 2)
    #expect(result.map(\.id) == [2, 1])
    // 0.0015° of longitude at the equator.
    #expect(abs(result[1].distance - 6_371_008.8 * 0.0015 * .pi / 180) < 0.01)
  }

  @Test func emptyAndDegenerateInputs() {
    let empty = SpatialIndex(points: [])
    #expect(empty.nearest(to: Coordinate(latitude: 1, longitude: 2), limit: 5).isEmpty)
    let one = SpatialIndex(points: [(9, Coordinate(latitude: -90, longitude: 0))])
    #expect(one.nearest(to: Coordinate(latitude: 90, longitude: 0), limit: 0).isEmpty)
    let far = one.nearest(to: Coordinate(latitude: 90, longitude: 0), limit: 3)
    #expect(far.map(\.id) == [9])
    #expect(abs(far[0].distance - GreatCircle.maximumDistance) < 1e-6)
  }

  @Test func adoptedArraysAnswerLikeTheOriginal() throws {
    let copy = try SpatialIndex(
      ids: Self.index.ids, vectors: Self.index.vectors, axes: Self.index.axes, tags: Self.index.tags,
      leafSize: Self.index.leafSize, checkingValues: true)
    let q = Coordinate(latitude: 48.85, longitude: 2.35)
    #expect(copy.nearest(to: q, limit: 20) == Self.index.nearest(to: q, limit: 20))
  }

  @Test func damagedArraysAreRejected() {
    #expect(throws: SpatialIndex.InvalidLayout.self) {
      try SpatialIndex(ids: [1, 2], vectors: [0, 0, 1], axes: [0, 0], tags: [0, 0], leafSize: 16)
    }
    #expect(throws: SpatialIndex.InvalidLayout.self) {
      try SpatialIndex(ids: [1], vectors: [0, 0, 1], axes: [7], tags: [0], leafSize: 16)
    }
    #expect(throws: SpatialIndex.InvalidLayout.self) {
      try SpatialIndex(ids: [1], vectors: [.nan, 0, 1], axes: [0], tags: [0], leafSize: 16)
    }
    #expect(throws: SpatialIndex.InvalidLayout.self) {
      try SpatialIndex(ids: [1], vectors: [0, 0, 1], axes: [0], tags: [], leafSize: 16)
    }
  }

  /// Tags move with their points while the tree is built, so a filter on them answers like a
  /// brute-force scan of the tagged points.
  @Test func tagFiltersAnswerLikeBruteForce() {
    let points = Self.points.prefix(5_000).map { $0 }
    let tag = { (id: Int64) -> UInt8 in UInt8(id % 3) }
    let index = SpatialIndex(points: points, tags: points.map { tag($0.id) }, leafSize: 8)
    #expect(zip(index.ids, index.tags).allSatisfy { tag($0) == $1 })
    for q in Self.queries.prefix(40) {
      let got = index.nearest(to: q, limit: 10, where: { index.tags[$0] == 1 })
      var candidates: [(id: Int64, d: Double)] = []
      for p in points where tag(p.id) == 1 { candidates.append((p.id, referenceDistance(q, p.coordinate))) }
      candidates.sort { a, b in a.d < b.d || (a.d == b.d && a.id < b.id) }
      let expected = candidates.prefix(10)
      #expect(got.count == expected.count)
      for (g, e) in zip(got, expected) { #expect(g.id == e.id || abs(g.distance - e.d) < 1e-6) }
    }
  }
}
