import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoPlaces
import GeoPhotoVectorTiles
import Testing

@testable import GeoPhotoServer

/// Photos for router tests: the Tokyo walk, a remote photo, a burst at one spot, and photos
/// astride the antimeridian.
func samplePhotos() -> [Photo] {
  var photos: [Photo] = []
  var id: Int64 = 1
  func add(_ lat: Double, _ lon: Double, _ title: String, source: PhotoSource = .local, thumbnail: String? = nil) {
    photos.append(
      Photo(
        id: id, source: source, sourceID: source == .local ? "/photos/\(id).jpg" : "\(id)",
        coordinate: Coordinate(latitude: lat, longitude: lon),
        takenAt: CaptureDate(year: 2024, month: 5, day: 3, hour: 10, utcOffsetMinutes: 540), title: title,
        url: source == .local ? nil : "https://www.flickr.com/photos/o/\(id)/", thumbnailURL: thumbnail,
        attribution: source == .local ? nil : "Aki"))
    id += 1
  }
  add(35.68124, 139.76712, "Tokyo Station")
  add(35.6852, 139.7528, "East Gardens")
  add(35.68004, 139.75047, "Nijubashi")
  add(35.6717, 139.765, "Ginza")
  add(35.6586, 139.7454, "Tokyo Tower", source: .flickr, thumbnail: "https://live.staticflickr.com/1/5_s_q.jpg")
  for _ in 0..<25 { add(35.7148, 139.7967, "Senso-ji burst") }
  add(-17.77, 179.99, "Fiji east")
  add(-17.77, -179.99, "Fiji west")
  add(51.5, -0.12, "London")
  return photos
}

/// A PMTiles archive of one street tile, as the fuzzers' seed has it, mapped from memory.
let sampleArchive: (any TileArchive)? = HostileFiles.tileArchives.first { $0.name == "one-tile.pmtiles" }.flatMap {
  try? PMTilesArchive(MappedBytes(Data($0.bytes)), path: "street.pmtiles")
}

func router(_ configure: (inout APIConfiguration) -> Void = { _ in }, zones: [PrivacyZone] = [], generation: Int64 = 7)
  -> APIRouter
{
  var configuration = APIConfiguration()
  configuration.map.leafletDirectory = "/nonexistent"
  // The place search over the shipped gazetteer, as `serve` gives it.
  configuration.places = Gazetteer.shippedURL.map { url in PlaceDirectory { try Gazetteer(contentsOf: url) } }
  // The built-in tiles over the shipped basemap, drawn each time (no folder).
  configuration.tiles = Basemap.shippedURL.map { url in
    BuiltInTiles(cacheDirectory: nil) { try Basemap(contentsOf: url) }
  }
  // A street map's archive: one vector tile at 0/0/0 (a road, a building, a park, a city).
  configuration.vectorTiles = sampleArchive.map { [$0] } ?? []
  configure(&configuration)
  let snapshot = LoadedIndex(generation: generation, photos: samplePhotos(), privacyZones: zones)
  let holder = LoadedIndexHolder(initial: snapshot) { nil }
  return APIRouter(holder: holder, configuration: configuration)
}

/// GET `target` (path and query, unescaped) through the router, no sockets.
func get(
  _ router: APIRouter, _ target: String, method: String = "GET", headers: [String: String] = [:]
) -> ServerResponse {
  let parts = target.split(separator: "?", maxSplits: 1)
  let query =
    parts.count > 1
    ? parts[1].split(separator: "&").map { pair -> (name: String, value: String) in
      let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      // Decoded, as the server's transport hands values over.
      let value = kv.count > 1 ? String(kv[1]) : ""
      return (String(kv[0]), value.removingPercentEncoding ?? value)
    } : []
  return router.respond(
    to: ServerRequest(
      method: method, path: String(parts[0]), query: query, headers: headers, targetLength: target.utf8.count))
}

extension ServerResponse {
  func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
  var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
}

/// Checks the RFC 7946 rules a map client relies on; returns the features.
@discardableResult
func expectGeoJSON(_ object: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
  #expect(object["type"] as? String == "FeatureCollection", sourceLocation: sourceLocation)
  #expect(object["crs"] == nil, sourceLocation: sourceLocation)
  let features = object["features"] as? [[String: Any]] ?? []
  for f in features {
    #expect(f["type"] as? String == "Feature", sourceLocation: sourceLocation)
    #expect(f["properties"] is [String: Any], sourceLocation: sourceLocation)
    #expect(f["id"] is Int || f["id"] is String, sourceLocation: sourceLocation)
    let geometry = f["geometry"] as? [String: Any] ?? [:]
    #expect(geometry["type"] as? String == "Point", sourceLocation: sourceLocation)
    let position = geometry["coordinates"] as? [Double] ?? []
    #expect(position.count == 2, sourceLocation: sourceLocation)
    if position.count == 2 {
      #expect(
        abs(position[0]) <= 180 && abs(position[1]) <= 90, "position is [lon, lat]", sourceLocation: sourceLocation)
    }
  }
  return features
}
