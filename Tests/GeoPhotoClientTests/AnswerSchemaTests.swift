import Foundation
import FoundationNetworking
import GeoPhotoClient
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoPlaces
import GeoPhotoServer
import GeoPhotoStore
import Testing

/// Whether Debian's JSON Schema validator is installed.
let schemaValidatorIsThere = (try? ToolRun("/usr/bin/python3", ["-c", "import jsonschema"]))?.status == 0

/// Real answers of every documented route, from a served index whose photos fill every field
/// an answer can carry, against the schemas of the server's own `/openapi.json`, checked by
/// Debian's python3-jsonschema (an oracle that shares no code with the server); and the same
/// answers decoded by the Swift client.
@Suite(.enabled(if: schemaValidatorIsThere, "needs python3-jsonschema (Scripts/install-deps.sh test)"))
struct AnswerSchemaTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/schema/validate-answers.py")

  /// The example photos, plus photos with every field: a place, altitude, camera, size,
  /// description and keywords; a video with its duration; a remote photo with its licence.
  static func richIndex() throws -> ServedIndex {
    try ServedIndex { store in
      let place = PlaceName(
        name: "Asakusa", admin1: "Tokyo", admin2: "Taitō", countryCode: "JP", distance: 412.5, population: 54_000,
        timeZone: "Asia/Tokyo", geonameID: 1_850_144)
      var full = Photo(
        id: 0, source: .local, sourceID: "/photos/full.jpg",
        coordinate: Coordinate(latitude: 35.7148, longitude: 139.7967), altitude: 12.5,
        takenAt: CaptureDate(year: 2024, month: 5, day: 5, hour: 9, minute: 30, utcOffsetMinutes: 540),
        title: "Senso-ji at dawn", cameraMake: "FUJIFILM", cameraModel: "X100V", width: 6240, height: 4160,
        orientation: 1, place: place, description: "The main hall", keywords: ["temple", "morning"])
      full.timeZone = "Asia/Tokyo"
      try store.upsert(PhotoRecord(photo: full), now: IndexTime.now())
      let video = Photo(
        id: 0, source: .local, sourceID: "/photos/clip.mp4",
        coordinate: Coordinate(latitude: 35.7101, longitude: 139.8107),
        takenAt: CaptureDate(year: 2024, month: 5, day: 5, hour: 10, utcOffsetMinutes: 540), title: "clip",
        place: place, mediaType: .video, duration: 12.75)
      try store.upsert(PhotoRecord(photo: video), now: IndexTime.now())
      let remote = Photo(
        id: 0, source: .commons, sourceID: "File:Kaminarimon.jpg",
        coordinate: Coordinate(latitude: 35.7111, longitude: 139.7963), title: "Kaminarimon",
        url: "https://commons.wikimedia.org/wiki/File:Kaminarimon.jpg",
        thumbnailURL: "https://upload.wikimedia.org/k.jpg", attribution: "A. Photographer", license: "CC BY-SA 4.0")
      try store.upsert(PhotoRecord(photo: remote), now: IndexTime.now())
      // Four years with trips, photos without positions among them: places visited, trips, unplaced.
      for record in TravelTimeline.fourYears().0.records(placedWith: 1) {
        try store.upsert(record, now: IndexTime.now())
      }
    }
  }

  /// One answer: the documented path it answers, its status and type, and its body.
  struct Answer {
    var path: String
    var status: Int
    var mediaType: String
    var body: Data
  }

  static func fetch(_ index: ServedIndex, _ target: String, path: String, accept: String? = nil) async throws -> Answer
  {
    var request = URLRequest(url: URL(string: target, relativeTo: index.base)!)
    if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    let type = (http.value(forHTTPHeaderField: "Content-Type") ?? "").split(separator: ";").first.map(String.init) ?? ""
    return Answer(path: path, status: http.statusCode, mediaType: type, body: data)
  }

  @Test func everyAnswerIsWhatTheDocumentSays() async throws {
    let index = try Self.richIndex()
    let documentAnswer = try await Self.fetch(index, "/openapi.json", path: "/openapi.json")
    let paths = try #require(
      (try JSONSerialization.jsonObject(with: documentAnswer.body) as? [String: Any])?["paths"] as? [String: Any])
    var answers = [documentAnswer]
    func add(_ target: String, _ path: String, accept: String? = nil) async throws {
      answers.append(try await Self.fetch(index, target, path: path, accept: accept))
    }
    try await add("/v1/near?lat=35.7&lon=139.78&limit=50", "/v1/near")
    try await add("/v1/near?lat=35.7&lon=139.78&limit=50&format=geojson", "/v1/near")
    try await add("/v1/near?lat=35.7&lon=139.78", "/v1/near", accept: "application/geo+json")
    try await add("/v1/near?lat=1&lon=1&radius=10m", "/v1/near")  // nothing near
    for zoom in [2, 12, 18] { try await add("/v1/annotations?bbox=-180,-90,180,90&zoom=\(zoom)", "/v1/annotations") }
    let clusters = try #require(
      (try JSONSerialization.jsonObject(with: answers[answers.count - 3].body) as? [String: Any])?["features"]
        as? [[String: Any]])
    let clusterIDs = clusters.compactMap { ($0["properties"] as? [String: Any])?["cluster_id"] as? Int }
    let clusterID = try #require(clusterIDs.first)
    try await add("/v1/clusters/\(clusterID)/leaves?limit=100", "/v1/clusters/{id}/leaves")
    let ids = try await index.client.near(latitude: 35.7, longitude: 139.78, limit: 100).map(\.id)
    #expect(ids.count >= 15)
    for id in ids { try await add("/v1/photos/\(id)", "/v1/photos/{id}") }
    try await add("/v1/places?q=Kyoto", "/v1/places")
    try await add("/v1/places?q=Kyotto", "/v1/places")  // no such place: suggestions
    try await add("/v1/status", "/v1/status")
    try await add("/v1/places/visited", "/v1/places/visited")
    try await add("/v1/places/visited?level=country&sort=date", "/v1/places/visited")
    try await add("/v1/trips", "/v1/trips")
    let trips = try #require(
      (try JSONSerialization.jsonObject(with: answers[answers.count - 1].body) as? [String: Any])?["trips"]
        as? [[String: Any]])
    #expect(trips.count >= 7)
    for trip in trips.prefix(3) {
      try await add("/v1/trips/\(try #require(trip["id"] as? String))", "/v1/trips/{id}")
    }
    try await add("/v1/unplaced?limit=10", "/v1/unplaced")
    try await add("/healthz", "/healthz")
    try await add("/tiles/vector.json", "/tiles/vector.json")
    // Errors, each in the error shape.
    try await add("/v1/near?lat=95&lon=1", "/v1/near")
    try await add("/v1/photos/999999", "/v1/photos/{id}")
    try await add("/v1/annotations?bbox=1,2,3&zoom=3", "/v1/annotations")
    #expect(Set(answers.map(\.status)) == [200, 400, 404])
    // Every documented JSON route was asked.
    let jsonPaths = paths.filter { _, item in
      let responses = ((item as? [String: Any])?["get"] as? [String: Any])?["responses"] as? [String: Any] ?? [:]
      let ok = (responses["200"] as? [String: Any])?["content"] as? [String: Any] ?? [:]
      return ok.keys.contains { $0.hasSuffix("json") }
    }.keys
    #expect(Set(jsonPaths).isSubset(of: Set(answers.map(\.path))), "\(Set(jsonPaths).subtracting(answers.map(\.path)))")

    let folder = index.directory.appendingPathComponent("schema")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try documentAnswer.body.write(to: folder.appendingPathComponent("openapi.json"))
    let list: [[String: Any]] = try answers.map { a in
      [
        "path": a.path, "status": a.status, "mediaType": a.mediaType,
        "body": try JSONSerialization.jsonObject(with: a.body),
      ]
    }
    try JSONSerialization.data(withJSONObject: list).write(to: folder.appendingPathComponent("answers.json"))
    let run = try ToolRun(
      "/usr/bin/python3",
      [
        Self.script.path, folder.appendingPathComponent("openapi.json").path,
        folder.appendingPathComponent("answers.json").path,
      ])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("\(answers.count) answers checked, 0 failures"), "\(run.stdout)")

    // The client decodes the same answers.
    let client = index.client
    let near = try await client.near(latitude: 35.7, longitude: 139.78, limit: 50)
    let rawNear = try #require(
      (try JSONSerialization.jsonObject(with: answers[1].body) as? [String: Any])?["annotations"] as? [[String: Any]])
    #expect(near.map(\.id) == rawNear.compactMap { ($0["id"] as? NSNumber)?.int64Value })
    #expect(near.contains { $0.place?.name == "Asakusa" } && near.count > 15)
    for zoom in [2, 12, 18] {
      let viewport = try await client.annotations(west: -180, south: -90, east: 180, north: 90, zoom: zoom)
      #expect(!viewport.features.isEmpty)
    }
    #expect(try await client.leaves(ofCluster: clusterID, limit: 100).count > 1)
    for id in ids { #expect(try await client.photo(id: id).id == id) }
    let video = try await client.photo(id: try #require(near.first { $0.title == "clip" }?.id))
    #expect(video.duration == 12.75)
    #expect(try await client.places(named: "Kyoto").places.first?.countryCode == "JP")
    #expect(try await client.places(named: "Kyotto").suggestions.contains("Kyoto"))
  }
}
