import Foundation
import GeoPhotoCore
import GeoPhotoHTTPD
import GeoPhotoTravel
import Testing

@testable import GeoPhotoServer

@Suite struct AnnotationsTests {
  let api = router()

  func counts(_ features: [[String: Any]]) -> Int {
    features.reduce(0) { sum, f in
      let p = f["properties"] as? [String: Any] ?? [:]
      return sum + ((p["cluster"] as? Bool) == true ? (p["point_count"] as? Int ?? 0) : 1)
    }
  }

  @Test(arguments: [0, 5, 10, 14, 16, 17, 20])
  func viewportCountsAddUpToThePhotosInside(zoom: Int) {
    // All of Tokyo: the 30 sample photos there, whatever the zoom.
    let features = expectGeoJSON(get(api, "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=\(zoom)").json)
    #expect(counts(features) == 30, "zoom \(zoom)")
    for f in features {
      let p = f["properties"] as? [String: Any] ?? [:]
      if p["cluster"] as? Bool == true {
        #expect(p["cluster_id"] as? Int == f["id"] as? Int)
        #expect((p["expansion_zoom"] as? Int ?? 0) > zoom)
        #expect(p["point_count_abbreviated"] is String)
      } else {
        #expect(p["title"] is String && p["subtitle"] is String)
      }
    }
  }

  @Test func clustersOpenIntoTheirLeaves() throws {
    let features =
      get(api, "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=12").json["features"] as? [[String: Any]] ?? []
    let burst = try #require(
      features.first { (($0["properties"] as? [String: Any])?["point_count"] as? Int ?? 0) >= 25 })
    let id = try #require((burst["properties"] as? [String: Any])?["cluster_id"] as? Int)
    var ids: [Int] = []
    var offset = 0
    while true {
      let page = get(api, "/v1/clusters/\(id)/leaves?limit=10&offset=\(offset)")
      #expect(page.status == 200)
      let leaves = expectGeoJSON(page.json)
      if leaves.isEmpty { break }
      ids += leaves.compactMap { $0["id"] as? Int }
      offset += leaves.count
    }
    let count = (burst["properties"] as? [String: Any])?["point_count"] as? Int ?? 0
    #expect(ids.count == count && Set(ids).count == count)
    // Its bubble shows the thumbnail of one of its own photos.
    let picture = try #require((burst["properties"] as? [String: Any])?["thumbnailURL"] as? String)
    let shown = try #require(Int(picture.replacing("/v1/photos/", with: "").replacing("/thumbnail", with: "")))
    #expect(ids.contains(shown), "\(picture) is not one of the cluster's photos")
  }

  @Test func antimeridianViewport() {
    let features = expectGeoJSON(get(api, "/v1/annotations?bbox=179.9,-18,-179.9,-17.5&zoom=17").json)
    let titles = Set(features.compactMap { ($0["properties"] as? [String: Any])?["title"] as? String })
    #expect(titles == ["Fiji east", "Fiji west"])
  }

  @Test func answersAreCapped() {
    let small = router { $0.maximumFeatures = 5 }
    let r = get(small, "/v1/annotations?bbox=-180,-90,180,90&zoom=17").json
    #expect((r["features"] as? [Any])?.count == 5)
    #expect(r["truncated"] as? Bool == true && r["total"] as? Int == samplePhotos().count)
  }
}

@Suite struct OpenAPITests {
  /// The sample photos, with a trip: Fiji and London, away from Tokyo (two photos make one).
  let api = router { $0.trips = TripFinder(rules: TripRules(minimumPhotos: 2)) }

  /// A request for `route` that should succeed: path ids filled in, required parameters from
  /// their examples.
  func example(_ route: Endpoint) throws -> String {
    var path = route.path
    if path.hasPrefix("/v1/clusters/") { path = path.replacing("{id}", with: String(try firstClusterID())) }
    if path.hasPrefix("/v1/trips/") { path = path.replacing("{id}", with: try firstTripID()) }
    path = path.replacing("/v1/photos/{id}/thumbnail", with: "/v1/photos/5/thumbnail").replacing("{id}", with: "1")
    path = path.replacing("/tiles/vector/{z}/{x}/{y}", with: "/tiles/vector/0/0/0.mvt")
    path = path.replacing("/tiles/{z}/{x}/{y}", with: "/tiles/3/7/4.png")
    let query = route.parameters.filter { $0.location == .query && $0.required }.map { p in
      "\(p.name)=\(p.example ?? "")"
    }
    return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
  }

  /// The public API, as README documents it: a route that drops out of the document, or one
  /// added without a decision to publish it, fails here.
  static let publishedPaths: Set<String> = [
    "/healthz", "/openapi.json", "/v1/status", "/v1/near", "/v1/annotations", "/v1/clusters/{id}/leaves",
    "/v1/photos/{id}", "/v1/photos/{id}/thumbnail", "/v1/places", "/tiles/{z}/{x}/{y}", "/tiles/vector/{z}/{x}/{y}",
    "/v1/places/visited", "/v1/trips", "/v1/trips/{id}", "/v1/photos/{id}/location", "/v1/unplaced",
    "/tiles/vector.json",
  ]

  /// The document describes what the server does: every operation it lists answers, with the
  /// parameters it lists (each accepted, a bad value of each refused naming it).
  @Test func theDocumentDescribesTheServer() throws {
    let r = get(api, "/openapi.json")
    #expect(r.status == 200)
    let doc = r.json
    #expect((doc["openapi"] as? String)?.hasPrefix("3.") == true)
    #expect((doc["info"] as? [String: Any])?["version"] as? String == GeoPhotoVersion.current)
    let paths = try #require(doc["paths"] as? [String: Any])
    #expect(Set(paths.keys) == Self.publishedPaths)
    var operationIDs: Set<String> = []
    for (path, item) in paths {
      let operations = try #require(item as? [String: Any], "\(path)")
      for (method, operation) in operations where method != "get" {
        // Edits: described with their body, refused by a server that takes none.
        let id = try #require((operation as? [String: Any])?["operationId"] as? String)
        #expect(operationIDs.insert(id).inserted, "operationId \(id) twice")
        #expect(((operation as? [String: Any])?["responses"] as? [String: Any])?["403"] != nil, "\(method) \(path)")
      }
      guard let operation = operations["get"] as? [String: Any] else { continue }
      let id = try #require(operation["operationId"] as? String)
      #expect(operationIDs.insert(id).inserted, "operationId \(id) twice")
      let parameters = operation["parameters"] as? [[String: Any]] ?? []
      let target = try example(path: path, parameters: parameters)
      let status = get(api, target).status
      #expect(status == 200 || status == 302, "\(target): \(status)")
      #expect(
        operation["responses"].flatMap { ($0 as? [String: Any])?["\(status == 302 ? 302 : 200)"] } != nil, "\(path)")
      for parameter in parameters where parameter["in"] as? String == "query" {
        let name = try #require(parameter["name"] as? String)
        let probe = get(api, target + (target.contains("?") ? "&" : "?") + "\(name)=%25%25%25")
        let message = (probe.json["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(!message.hasPrefix("unknown parameter"), "\(path) rejects its own '\(name)'")
        if probe.status == 400 { #expect(message.contains("'\(name)'"), "\(path): \(message)") }
      }
    }
  }

  /// A request for a documented operation, built from the document alone: path ids filled in,
  /// required query parameters from their examples.
  func example(path: String, parameters: [[String: Any]]) throws -> String {
    var target = path
    if target.hasPrefix("/v1/clusters/") { target = target.replacing("{id}", with: String(try firstClusterID())) }
    if target.hasPrefix("/v1/trips/") { target = target.replacing("{id}", with: try firstTripID()) }
    target = target.replacing("/v1/photos/{id}/thumbnail", with: "/v1/photos/5/thumbnail").replacing("{id}", with: "1")
    target = target.replacing("/tiles/vector/{z}/{x}/{y}", with: "/tiles/vector/0/0/0.mvt")
    target = target.replacing("/tiles/{z}/{x}/{y}", with: "/tiles/3/7/4.png")
    let query = parameters.filter { $0["in"] as? String == "query" && $0["required"] as? Bool == true }.map { p in
      let example = (p["schema"] as? [String: Any])?["example"].map { "\($0)" } ?? ""
      return
        "\(p["name"] as? String ?? "")=\(example.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? "")"
    }
    return query.isEmpty ? target : target + "?" + query.joined(separator: "&")
  }

  /// Every route answers, and accepts every parameter it declares (and no other).
  @Test func everyRouteAnswersWithTheParametersItDeclares() throws {
    for route in EndpointTable.all where route.method == "GET" {
      let target = try example(route)
      let status = get(api, target).status
      #expect(status == 200 || status == 302 || (route.path.hasPrefix("/assets/") && status == 404), "\(target)")
      for parameter in route.parameters where parameter.location == .query {
        let probe = get(api, target + (target.contains("?") ? "&" : "?") + "\(parameter.name)=%")
        let message = (probe.json["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(!message.hasPrefix("unknown parameter"), "\(route.path) rejects its own '\(parameter.name)'")
      }
      let unknown = get(api, target + (target.contains("?") ? "&" : "?") + "surely_not_a_parameter=1")
      #expect(unknown.status == 400, "\(route.path)")
    }
  }

  @Test func rangesAndDefaultsComeFromTheTable() throws {
    let paths = try #require(get(api, "/openapi.json").json["paths"] as? [String: Any])
    let near = try #require((paths["/v1/near"] as? [String: Any])?["get"] as? [String: Any])
    let parameters = try #require(near["parameters"] as? [[String: Any]])
    let limit = try #require(parameters.first { $0["name"] as? String == "limit" }?["schema"] as? [String: Any])
    #expect(limit["minimum"] as? Int == 1 && limit["maximum"] as? Int == 1000 && limit["default"] as? Int == 20)
    // And the endpoint enforces the same range.
    #expect(get(api, "/v1/near?lat=1&lon=1&limit=1000").status == 200)
    #expect(get(api, "/v1/near?lat=1&lon=1&limit=1001").status == 400)
  }

  func firstTripID() throws -> String {
    let trips = get(api, "/v1/trips").json["trips"] as? [[String: Any]] ?? []
    return try #require(trips.first?["id"] as? String, "the example photos make no trip")
  }

  func firstClusterID() throws -> Int {
    let features =
      get(api, "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=5").json["features"] as? [[String: Any]] ?? []
    let ids = features.compactMap { ($0["properties"] as? [String: Any])?["cluster_id"] as? Int }
    return try #require(ids.first)
  }
}

/// README's HTTP API table is the route table's, as `APIReference` writes it.
@Suite struct APIReferenceTests {
  @Test func theReadmeTableIsTheRouteTables() throws {
    let readme = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
    let table = APIReference.markdownTable
    #expect(readme.contains(table), "README's HTTP API table should read:\n\(table)")
    // Every published path has its row, and no cell runs on.
    for path in OpenAPITests.publishedPaths {
      #expect(["GET", "PUT", "DELETE"].contains { table.contains("`\($0) \(path)`") }, "\(path)")
    }
    for line in table.split(separator: "\n") {
      for cell in line.split(separator: "|") { #expect(cell.count <= 400, "a cell of \(cell.count) characters") }
    }
  }
}
