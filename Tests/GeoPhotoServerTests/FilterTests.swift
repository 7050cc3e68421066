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
        id: Int64(i), source: .local, sourceID: "/p/\(i).jpg", coordinate: c, takenAt: taken,
        title: "photo \(i) \(Self.subjects[i % 4])" + (i % 3 == 0 ? " in Kyōto" : ""),
        cameraMake: Self.cameras[i % 5].make, cameraModel: Self.cameras[i % 5].model)
    }
  }()

  /// Two photos in five have no camera; the others are from three cameras, one without a make.
  static let cameras: [(make: String?, model: String?)] = [
    ("Canon", "Canon EOS R5"), ("FUJIFILM", "X100V"), (nil, "Canon PowerShot G7 X"), (nil, nil), (nil, nil),
  ]

  static let subjects = ["temple", "shrine", "gate", "bridge"]

  static let api: APIRouter = {
    let snapshot = LoadedIndex(generation: 3, photos: photos)
    return APIRouter(holder: LoadedIndexHolder(initial: snapshot) { nil }, configuration: APIConfiguration())
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

  /// Every photo a map answer stands for: its single pins, and every leaf of its clusters
  /// (paged through `/v1/clusters/{id}/leaves` with the same filter). Each cluster's
  /// `point_count` is checked against its leaves on the way.
  static func photosShown(
    by features: [[String: Any]], filter: String, sourceLocation: SourceLocation = #_sourceLocation
  )
    -> [Int]
  {
    var shown: [Int] = []
    for feature in features {
      let p = feature["properties"] as? [String: Any] ?? [:]
      guard let id = p["cluster_id"] as? Int, let count = p["point_count"] as? Int else {
        shown += (feature["id"] as? Int).map { [$0] } ?? []
        continue
      }
      var leaves: [Int] = []
      while leaves.count < count {
        let page = expectGeoJSON(
          get(api, "/v1/clusters/\(id)/leaves?limit=1000&offset=\(leaves.count)&\(filter)").json,
          sourceLocation: sourceLocation)
        if page.isEmpty { break }
        leaves += page.compactMap { $0["id"] as? Int }
      }
      #expect(leaves.count == count, "cluster \(id) counts \(count) photos", sourceLocation: sourceLocation)
      shown += leaves
    }
    return shown
  }

  /// The map answer for a filtered set stands for exactly the filtered photos, each once: the
  /// brute-force filter is the oracle, the leaves the way back from clusters to photos.
  @Test(arguments: [3, 9, 12, 15])
  func annotationsStandForExactlyTheFilteredPhotos(zoom: Int) throws {
    let kept = Self.photos.filter(Self.inMay2024).map { Int($0.id) }
    let filter = "since=2024-05&until=2024-05"
    // The box holds every photo (all are inside 139.5…140, 35.5…35.9).
    let features = expectGeoJSON(get(Self.api, "/v1/annotations?bbox=139,35,141,36&zoom=\(zoom)&\(filter)").json)
    let shown = Self.photosShown(by: features, filter: filter)
    #expect(shown.sorted() == kept.sorted())
    // Deep enough, the map shows single pins as well as clusters; at zoom 3 one cluster.
    let clusters = features.filter { ($0["properties"] as? [String: Any])?["cluster_id"] != nil }
    if zoom == 3 { #expect(features.count == 1 && clusters.count == 1) }
    if zoom == 15 { #expect(clusters.count < features.count) }
  }

  @Test func sortByTimeAndCamera() {
    let body = get(Self.api, "/v1/near?lat=35.7&lon=139.7&limit=200&since=2024&sort=time").json
    let annotations = body["annotations"] as? [[String: Any]] ?? []
    let keys = annotations.compactMap { ($0["takenAt"] as? String).flatMap(CaptureDate.init(iso8601:)) }
      .map { $0.instant ?? $0.localSecondsSinceEpoch }
    #expect(annotations.count == 200 && keys == keys.sorted())
    // A camera filter keeps the photos whose make or model contains the text, any case.
    let q = Coordinate(latitude: 35.7, longitude: 139.7)
    let cases: [(text: String, cameras: [Int])] = [
      ("canon", [0, 2]), ("FUJI", [1]), ("x100v", [1]), ("eos%20r5", [0]), ("nikon", []),
    ]
    for (text, cameraIndexes) in cases {
      let kept = Self.photos.filter { cameraIndexes.contains(Int($0.id) % 5) }
      let hits: [(id: Int, d: Double)] = kept.map { (id: Int($0.id), d: GreatCircle.distance(q, $0.coordinate ?? q)) }
      let sorted = hits.sorted { a, b in a.d < b.d || (a.d == b.d && a.id < b.id) }
      let expected: [Int] = sorted.prefix(50).map(\.id)
      let body = get(Self.api, "/v1/near?lat=35.7&lon=139.7&limit=50&camera=\(text)").json
      let ids = (body["annotations"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
      #expect(ids == Array(expected), "camera=\(text)")
      #expect(ids.count == (cameraIndexes.isEmpty ? 0 : 50), "camera=\(text)")
    }
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
      // The map stands for exactly the matching photos.
      let features = expectGeoJSON(get(Self.api, "/v1/annotations?bbox=139,35,141,36&zoom=10&text=\(text)").json)
      let shown = Self.photosShown(by: features, filter: "text=\(text)")
      #expect(shown.sorted() == kept.map { Int($0.id) }.sorted(), "\(text)")
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
