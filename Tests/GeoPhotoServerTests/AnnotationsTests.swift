import Foundation
import GeoPhotoCore
import GeoPhotoHTTPD
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
  let api = router()

  @Test func documentIsValidAndMatchesTheRoutes() throws {
    let r = get(api, "/openapi.json")
    #expect(r.status == 200)
    let doc = r.json
    #expect((doc["openapi"] as? String)?.hasPrefix("3.") == true)
    let paths = try #require(doc["paths"] as? [String: Any])
    let examples: [String: String] = [
      "/v1/near": "/v1/near?lat=35.68&lon=139.76",
      "/v1/annotations": "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=10",
      "/v1/clusters/{id}/leaves": "/v1/clusters/\(try firstClusterID())/leaves",
      "/v1/photos/{id}": "/v1/photos/1",
      "/v1/photos/{id}/thumbnail": "/v1/photos/5/thumbnail",
      "/healthz": "/healthz",
      "/openapi.json": "/openapi.json",
    ]
    #expect(Set(paths.keys) == Set(examples.keys))
    for (path, target) in examples {
      let status = get(api, target).status
      #expect(status == 200 || status == 302, "\(path) answered \(status)")
      // Every documented parameter is one the endpoint accepts.
      let operation = (paths[path] as? [String: Any])?["get"] as? [String: Any] ?? [:]
      for parameter in operation["parameters"] as? [[String: Any]] ?? [] where parameter["in"] as? String == "query" {
        let name = parameter["name"] as? String ?? ""
        let probe = get(api, target + (target.contains("?") ? "&" : "?") + "\(name)=%")
        let message = (probe.json["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(!message.hasPrefix("unknown parameter"), "\(path) rejects its documented '\(name)'")
      }
    }
  }

  func firstClusterID() throws -> Int {
    let features =
      get(api, "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=5").json["features"] as? [[String: Any]] ?? []
    let ids = features.compactMap { ($0["properties"] as? [String: Any])?["cluster_id"] as? Int }
    return try #require(ids.first)
  }
}
