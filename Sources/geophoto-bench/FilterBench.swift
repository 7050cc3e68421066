import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoServer

// MARK: - Filters: nearest with a time filter, and exports

/// k = 50 nearest with a time filter that keeps about a tenth of 1M photos (one year of ten),
/// in process, beside a brute-force scan that filters every photo; the server's snapshot and
/// map viewports under the same filter.
func benchFilters(points: [Coordinate]) throws {
  print("Filters: \(points.count) photos over ten years (a fifth floating, a twentieth without a time), k = \(k)")
  var rng = SeededGenerator(seed: 2019)
  let (ids, vectors) = idsAndVectors(points)
  var instants = [Int64](repeating: PointTimes.none, count: points.count)
  var locals = [Int64](repeating: PointTimes.none, count: points.count)
  let start = Int64(CaptureDate(year: 2015, month: 1, day: 1).localSecondsSinceEpoch)
  let span = Int64(CaptureDate(year: 2025, month: 1, day: 1).localSecondsSinceEpoch) - start
  for i in points.indices {
    let roll = Int.random(in: 0..<20, using: &rng)
    guard roll > 0 else { continue }
    let local = start + Int64.random(in: 0..<span, using: &rng)
    locals[i] = local
    if roll > 4 { instants[i] = local - Int64(Int.random(in: -12...14, using: &rng)) * 3_600 }
  }
  let index = SpatialIndex(
    building: ids, vectors: vectors, tags: [UInt8](repeating: 0, count: ids.count), instants: instants, locals: locals)
  let range = TimeRange(since: try TimeBound("2019"), until: try TimeBound("2019"))
  let times = index.times ?? PointTimes(instants: [], locals: [])
  let kept = (0..<index.count).filter { times.matches($0, range) }.count
  let qs = queries(points, count: 20_000)
  var samples: [UInt64] = []
  var checksum: Int64 = 0
  for q in qs {
    let (r, t) = timed { index.nearest(to: q, limit: k, time: range) }
    samples.append(t)
    checksum &+= r.first?.id ?? 0
  }
  let filtered = Percentiles(samples)
  // The anchor: every photo tested and ranked; it doubles as a check of the index's answer.
  var brute: [UInt64] = []
  for q in qs.prefix(100) {
    let (r, t) = timed { () -> [Int64] in
      let c = GreatCircle.unitVector(q)
      var best: [(Double, Int64)] = []
      for i in 0..<points.count
      where range.matches(
        instant: instants[i] == PointTimes.none ? nil : instants[i],
        local: locals[i] == PointTimes.none ? nil : locals[i])
      {
        let dx = vectors[3 * i] - c.x
        let dy = vectors[3 * i + 1] - c.y
        let dz = vectors[3 * i + 2] - c.z
        best.append((dx * dx + dy * dy + dz * dz, ids[i]))
      }
      best.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
      return best.prefix(k).map(\.1)
    }
    brute.append(t)
    precondition(
      r == index.nearest(to: q, limit: k, time: range).map(\.id),
      "filtered index and brute force disagree")
  }
  let bf = Percentiles(brute)
  row(
    "k=50 nearest taken in 2019 p50 / p99", String(format: "%.1f / %.1f µs", filtered.p50, filtered.p99),
    String(format: "goal p50 ≤ 20 µs; the filter keeps %.1f %%", Double(kept) / Double(index.count) * 100))
  row(
    "  brute force: filter and rank every photo, p50 (anchor)", String(format: "%.0f µs", bf.p50),
    String(format: "%.0f× slower", bf.p50 / filtered.p50))
  // The server's snapshot: a selective filter gets an index of its own on first use.
  let photos = points.enumerated().map { i, p -> Photo in
    let taken: CaptureDate? =
      locals[i] == PointTimes.none
      ? nil
      : {
        var d = CaptureDate(secondsSinceEpoch: Int(locals[i]), utcOffsetMinutes: nil)
        if instants[i] != PointTimes.none { d.utcOffsetMinutes = Int(locals[i] - instants[i]) / 60 }
        return d
      }()
    return Photo(id: ids[i], source: .local, sourceID: "\(i)", coordinate: p, takenAt: taken, title: "")
  }
  let snapshot = LoadedIndex(generation: 1, photos: photos)
  let query = { (q: Coordinate) in NearQuery(center: q, limit: k, filter: PhotoFilter(time: range)) }
  let (_, firstQuery) = try timed { try snapshot.nearest(query(qs[0])) }
  var served: [UInt64] = []
  for q in qs {
    let (r, t) = try timed { try snapshot.nearest(query(q)) }
    served.append(t)
    checksum &+= Int64(r.first.map { Int($0.id) } ?? 0)
  }
  for q in qs.prefix(20) {
    let served = try snapshot.nearest(query(q)).map(\.id)
    precondition(
      served == index.nearest(to: q, limit: k, time: range).map(\.id),
      "the snapshot's filtered index and the kd-tree disagree")
  }
  let cached = Percentiles(served)
  row(
    "  server snapshot, the filter's own index, p50 / p99",
    String(format: "%.1f / %.1f µs", cached.p50, cached.p99),
    String(format: "built on the first query: %.0f ms", milliseconds(firstQuery)))
  // Map viewports over the filtered photos: the filter's hierarchy is built on its first
  // viewport and kept; each later viewport reads it.
  let filter = PhotoFilter(time: range)
  let (_, hierarchy) = try timed { _ = try snapshot.clusters(for: filter) }
  var viewports: [UInt64] = []
  var viewRng = SeededGenerator(seed: 99)
  for _ in 0..<2_000 {
    let (box, zoom) = randomViewport(around: points, using: &viewRng)
    let (items, t) = try timed { try snapshot.clusters(for: filter).clusters.items(in: box, zoom: zoom) }
    viewports.append(t)
    checksum &+= Int64(items.count)
  }
  let view = Percentiles(viewports)
  row(
    "filtered map viewport, the filter's hierarchy, p50 / p99",
    String(format: "%.1f / %.1f µs", view.p50, view.p99),
    String(format: "goal p50 ≤ 50 ms, p99 ≤ 200 ms; first viewport builds it: %.0f ms", milliseconds(hierarchy)))
  print("  (checksum \(checksum))")

}
