import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import Testing

@testable import GeoPhotoServer

/// `since`, `until` and `on` on every endpoint that lists photos: exact answers, clusters of
/// exactly the filtered photos, and 400s that name the parameter.
@Suite struct FilterTests {
  /// 3,000 photos around Tokyo over two years, a fifth without a capture time.
  static let photos: [Photo] = {
    var rng = SeededGenerator(seed: 14)
    return (1...3_000).map { i in
      let c = Coordinate(
        latitude: Double.random(in: 35.5...35.9, using: &rng), longitude: Double.random(in: 139.5...140, using: &rng))
      let taken =
        i % 5 == 0
        ? nil
        : CaptureDate(
          year: 2023 + i % 2, month: 1 + (i / 7) % 12, day: 1 + (i / 3) % 28, hour: i % 24, minute: 0,
          utcOffsetMinutes: i % 3 == 0 ? nil : 540)
      return Photo(
        id: Int64(i), source: .local, sourceID: "\(i)", path: "/p/\(i).jpg", coordinate: c, takenAt: taken,
        title: "photo \(i) \(Self.subjects[i % 4])" + (i % 3 == 0 ? " in Kyōto" : ""))
    }
  }()

  static let subjects = ["temple", "shrine", "gate", "bridge"]

  static let api: APIRouter = {
    let snapshot = IndexSnapshot(generation: 3, photos: photos)
    return APIRouter(holder: SnapshotHolder(initial: snapshot) { nil }, configuration: APIConfiguration())
  }()

  /// Kept by the oracle: taken in May 2024 by the photo's own wall clock.
  static func inMay2024(_ p: Photo) -> Bool {
    guard let t = p.takenAt else { return false }
    return t.year == 2024 && t.month == 5
  }

  @Test func nearIsTheBruteForceAnswer() throws {
    let q = Coordinate(latitude: 35.7, longitude: 139.7)
    let body = get(Self.api, "/v1/near?lat=35.7&lon=139.7&limit=40&since=2024-05&until=2024-05").json
    let ids = (body["annotations"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
    let kept = Self.photos.filter(Self.inMay2024)
    let hits: [(id: Int, d: Double)] = kept.map { (id: Int($0.id), d: GreatCircle.distance(q, $0.coordinate ?? q)) }
    let sorted = hits.sorted { a, b in a.d < b.d || (a.d == b.d && a.id < b.id) }
    let expected: [Int] = sorted.prefix(40).map(\.id)
    #expect(ids == Array(expected) && ids.count == 40)
    let dayOfMonth = try #require(kept.first?.takenAt?.day)
    let dayText = String(format: "2024-05-%02d", dayOfMonth)
    let day = get(Self.api, "/v1/near?lat=35.7&lon=139.7&limit=1000&on=\(dayText)").json
    let onDay = (day["annotations"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
    let expectedDay = Self.photos.filter { p in
      p.takenAt.map { $0.year == 2024 && $0.month == 5 && $0.day == dayOfMonth } == true
    }
    #expect(Set(onDay) == Set(expectedDay.map { Int($0.id) }) && !onDay.isEmpty)
  }

  /// Clusters of a filtered set are exactly the clusters of those photos built from scratch.
  @Test(arguments: [3, 9, 12, 15])
  func annotationsClusterExactlyTheFilteredPhotos(zoom: Int) throws {
    let kept = Self.photos.filter(Self.inMay2024)
    let scratch = ClusterIndex(points: kept.compactMap(\.coordinate))
    let box = BoundingBox(west: 139.5, south: 35.5, east: 140, north: 35.9)
    let expected = scratch.items(in: box, zoom: zoom)
    let features = expectGeoJSON(
      get(Self.api, "/v1/annotations?bbox=139.5,35.5,140,35.9&zoom=\(zoom)&since=2024-05&until=2024-05").json)
    #expect(features.count == expected.count)
    var total = 0
    for (feature, item) in zip(features, expected) {
      let p = feature["properties"] as? [String: Any] ?? [:]
      if let id = item.clusterID {
        #expect(p["cluster_id"] as? Int == id && p["point_count"] as? Int == item.count)
        total += item.count
      } else {
        #expect(feature["id"] as? Int == Int(kept[item.pointIndex ?? 0].id))
        total += 1
      }
    }
    #expect(total == kept.count)
    // A cluster's leaves, under the same filter, are filtered photos.
    if let cluster = expected.first(where: { $0.clusterID != nil }), let id = cluster.clusterID {
      let leaves = expectGeoJSON(
        get(Self.api, "/v1/clusters/\(id)/leaves?limit=1000&since=2024-05&until=2024-05").json)
      let leafIDs = Set(leaves.compactMap { $0["id"] as? Int })
      #expect(leafIDs.count == cluster.count)
      #expect(leafIDs.isSubset(of: Set(kept.map { Int($0.id) })))
    }
  }

  @Test func sortByTimeAndCamera() {
    let body = get(Self.api, "/v1/near?lat=35.7&lon=139.7&limit=200&since=2024&sort=time").json
    let annotations = body["annotations"] as? [[String: Any]] ?? []
    let keys = annotations.compactMap { ($0["takenAt"] as? String).flatMap(CaptureDate.init(iso8601:)) }
      .map { $0.instant ?? $0.localSecondsSinceEpoch }
    #expect(annotations.count == 200 && keys == keys.sorted())
    // No sample photo has a camera: a camera filter keeps none of them.
    let none = get(Self.api, "/v1/near?lat=35.7&lon=139.7&camera=canon").json
    #expect((none["annotations"] as? [[String: Any]])?.isEmpty == true)
    #expect(get(Self.api, "/v1/near?lat=35.7&lon=139.7&sort=title").status == 400)
    #expect(get(Self.api, "/v1/near?lat=35.7&lon=139.7&camera=").status == 400)
  }

  /// Text filters, against an oracle that knows how the titles were made.
  @Test func textFiltersAreTheBruteForceAnswer() throws {
    let q = Coordinate(latitude: 35.7, longitude: 139.7)
    func nearest(_ kept: [Photo], limit: Int) -> [Int] {
      let hits: [(id: Int, d: Double)] = kept.map { (id: Int($0.id), d: GreatCircle.distance(q, $0.coordinate ?? q)) }
      return hits.sorted { a, b in a.d < b.d || (a.d == b.d && a.id < b.id) }.prefix(limit).map(\.id)
    }
    for (text, oracle) in [
      ("temp%20KYOTO", { (i: Int) in i % 4 == 0 && i % 3 == 0 }),
      ("%22photo%2012%22", { (i: Int) in String(i).hasPrefix("12") }),
      ("bridge", { (i: Int) in i % 4 == 3 }),
      ("ridge", { (_: Int) in false }),
    ] {
      let kept = Self.photos.filter { oracle(Int($0.id)) }
      let body = get(Self.api, "/v1/near?lat=35.7&lon=139.7&limit=40&text=\(text)").json
      let ids = (body["annotations"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
      #expect(ids == nearest(kept, limit: 40), "\(text)")
      // With a time filter too.
      let may = kept.filter(Self.inMay2024)
      let both = get(Self.api, "/v1/near?lat=35.7&lon=139.7&limit=40&text=\(text)&since=2024-05&until=2024-05").json
      let bothIDs = (both["annotations"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
      #expect(bothIDs == nearest(may, limit: 40), "\(text) in May 2024")
      // The map's clusters are those of exactly the matching photos.
      let scratch = ClusterIndex(points: kept.compactMap(\.coordinate))
      let box = BoundingBox(west: 139.5, south: 35.5, east: 140, north: 35.9)
      let features = expectGeoJSON(get(Self.api, "/v1/annotations?bbox=139.5,35.5,140,35.9&zoom=10&text=\(text)").json)
      #expect(features.count == scratch.items(in: box, zoom: 10).count, "\(text)")
    }
    let response = get(Self.api, "/v1/near?lat=35.7&lon=139.7&text=%21%21")
    #expect(response.status == 400)
    let message = ((response.json["error"] as? [String: Any])?["message"] as? String) ?? ""
    #expect(message.contains("'text'") && message.contains("no words"), "\(message)")
  }

  @Test func badValuesAreBadRequestsNamingTheParameter() {
    for (query, words) in [
      ("since=2024-13", ["'since'", "2024-13"]), ("until=yesterday", ["'until'", "yesterday"]),
      ("on=2024-05", ["'on'", "not a day"]), ("on=2024-05-03&since=2024", ["'on'", "'since'"]),
      ("since=2025&until=2024", ["'since'", "'until'"]),
    ] {
      let response = get(Self.api, "/v1/near?lat=35.7&lon=139.7&" + query)
      #expect(response.status == 400, "\(query)")
      let message = ((response.json["error"] as? [String: Any])?["message"] as? String) ?? ""
      for word in words { #expect(message.contains(word), "\(query): \(message)") }
    }
  }
}
