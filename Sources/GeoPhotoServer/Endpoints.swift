import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoExif
import GeoPhotoHTTPD

/// Query parameters of one request, checked against the names an endpoint accepts.
struct Parameters {
  private var values: [String: String] = [:]

  init(_ request: ServerRequest, allowed: Set<String>, repeatable: Set<String> = []) throws {
    for (name, value) in request.query {
      guard allowed.contains(name) else {
        let known = allowed.sorted().joined(separator: ", ")
        throw APIError.badRequest("unknown parameter '\(name)'; this endpoint takes \(known)")
      }
      if let previous = values[name] {
        guard repeatable.contains(name) else { throw APIError.badRequest("parameter '\(name)' is given twice") }
        values[name] = previous + "," + value
      } else {
        values[name] = value
      }
    }
  }

  subscript(_ name: String) -> String? { values[name] }

  func require(_ name: String) throws -> String {
    guard let v = values[name], !v.isEmpty else { throw APIError.badRequest("parameter '\(name)' is required") }
    return v
  }

  func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
    guard let text = values[name] else { return nil }
    guard let v = InputParser.number(text) else {
      throw APIError.badRequest("'\(name)' must be a number, not '\(text)'")
    }
    guard range.contains(v) else {
      throw APIError.badRequest("'\(name)' must be between \(format(range.lowerBound)) and \(format(range.upperBound))")
    }
    return v
  }

  func integer(_ name: String, in range: ClosedRange<Int>, default value: Int) throws -> Int {
    guard let text = values[name] else { return value }
    guard let v = Int(text), range.contains(v) else {
      throw APIError.badRequest("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return v
  }

  /// A canonical form of the parameters (sorted names, numbers rounded), for cache keys.
  var canonical: String {
    values.keys.sorted().map { key in
      let value = values[key] ?? ""
      if let n = InputParser.number(value) { return "\(key)=\((n * 1e6).rounded() / 1e6)" }
      return "\(key)=\(value)"
    }.joined(separator: "&")
  }

  private func format(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
}

/// The endpoints, answering from one snapshot.
struct Endpoints {
  let snapshot: IndexSnapshot
  let configuration: APIConfiguration
  let request: ServerRequest

  // MARK: - Caching

  /// A strong ETag from the index generation and the normalized query.
  func etag(_ parameters: Parameters) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in (request.path + "?" + parameters.canonical).utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return "\"g\(snapshot.generation)-\(String(hash, radix: 36))\""
  }

  func notModified(_ tag: String) -> ServerResponse? {
    guard let header = request.headers["if-none-match"] else { return nil }
    let tags = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard tags.contains("*") || tags.contains(tag) else { return nil }
    return ServerResponse(status: 304, headers: cacheHeaders(tag))
  }

  func cacheHeaders(_ tag: String) -> [(String, String)] {
    [
      ("ETag", tag), ("Cache-Control", "public, max-age=\(configuration.cacheMaxAge)"),
      ("Access-Control-Expose-Headers", "ETag"),
    ]
  }

  /// Answers 304 when the client has the current version, else runs `body`.
  func cached(_ parameters: Parameters, type: String, _ body: () throws -> [UInt8]) rethrows -> ServerResponse {
    let tag = etag(parameters)
    if let unchanged = notModified(tag) { return unchanged }
    return ServerResponse(status: 200, headers: [("Content-Type", type)] + cacheHeaders(tag), body: try body())
  }

  // MARK: - /v1/near

  func near() throws -> ServerResponse {
    let p = try Parameters(
      request, allowed: ["lat", "lon", "limit", "radius", "source", "format"], repeatable: ["source"])
    guard let lat = try p.number("lat", in: -90...90) else { throw APIError.badRequest("parameter 'lat' is required") }
    guard let lon = try p.number("lon", in: -180...180) else {
      throw APIError.badRequest("parameter 'lon' is required")
    }
    let limit = try p.integer("limit", in: 1...1_000, default: 20)
    var radius: Double?
    if let text = p["radius"] {
      do {
        radius = try InputParser.distance(text)
      } catch {
        throw APIError.badRequest("'radius': \(error.description)")
      }
    }
    let sources = try sourceFilter(p["source"])
    let geoJSON = try wantsGeoJSON(p["format"])
    let center = Coordinate(latitude: lat, longitude: lon == 180 ? -180 : lon)
    let type = geoJSON ? "application/geo+json" : "application/json"
    return cached(p, type: type) {
      let found = snapshot.spatial.nearest(
        to: center, limit: limit, maximumDistance: radius,
        where: sources.map { allowed in { allowed.contains(snapshot.photos[Int($0)].source) } })
      let annotations = found.compactMap { Annotation(photo: snapshot.photos[Int($0.id)], distance: $0.distance) }
      let document = AnnotationDocument(
        annotations, query: NearQuery(center: center, limit: limit, radius: radius),
        options: AnnotationDocument.Options(includePaths: false))
      return geoJSON ? document.geoJSON() : document.json()
    }
  }

  func sourceFilter(_ text: String?) throws -> Set<PhotoSource>? {
    guard let text else { return nil }
    var sources = Set<PhotoSource>()
    for name in text.split(separator: ",") {
      let source = PhotoSource(rawValue: String(name))
      guard PhotoSource.known.contains(source) else {
        throw APIError.badRequest("'source' must be local, flickr or commons, not '\(name)'")
      }
      sources.insert(source)
    }
    return sources
  }

  func wantsGeoJSON(_ format: String?) throws -> Bool {
    switch format {
    case "geojson": return true
    case "json": return false
    case nil: return request.headers["accept"]?.contains("application/geo+json") == true
    case let other?: throw APIError.badRequest("'format' must be json or geojson, not '\(other)'")
    }
  }

  // MARK: - /v1/annotations

  func annotations() throws -> ServerResponse {
    let p = try Parameters(request, allowed: ["bbox", "zoom"])
    let parts = try p.require("bbox").split(separator: ",", omittingEmptySubsequences: false).map {
      InputParser.number(String($0))
    }
    guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3] else {
      throw APIError.badRequest("'bbox' must be four numbers: west,south,east,north")
    }
    guard abs(west) <= 540, abs(east) <= 540 else { throw APIError.badRequest("'bbox' longitudes must be within ±540") }
    guard abs(south) <= 90, abs(north) <= 90, south <= north else {
      throw APIError.badRequest("'bbox' latitudes must be within ±90 with south ≤ north")
    }
    guard let zoomValue = try p.number("zoom", in: 0...30) else {
      throw APIError.badRequest("parameter 'zoom' is required")
    }
    let zoom = Int(zoomValue.rounded(.down))
    return cached(p, type: "application/geo+json") {
      let items = snapshot.clusters.items(
        in: BoundingBox(west: west, south: south, east: east, north: north), zoom: zoom)
      let shown = items.prefix(configuration.maximumFeatures)
      var members: [(String, JSONValue)] = []
      if items.count > shown.count {
        members.append(("truncated", .bool(true)))
        members.append(("total", .integer(Int64(items.count))))
      }
      return GeoJSON.FeatureCollection(shown.map(feature), foreignMembers: JSONMembers(members)).encoded()
    }
  }

  func feature(_ item: ClusterIndex.Item) -> ViewportFeature {
    if let id = item.clusterID {
      return .cluster(
        id: id, coordinate: item.coordinate, count: item.count,
        expansionZoom: snapshot.clusters.expansionZoom(of: id) ?? 0)
    }
    return photoFeature(snapshot.photos[item.pointIndex ?? 0])
  }

  func photoFeature(_ photo: Photo) -> ViewportFeature {
    .photo(photo, subtitle: subtitle(photo), thumbnailURL: thumbnailLink(photo))
  }

  /// The subtitle a photo's pin and details carry (no distance: they answer no query).
  func subtitle(_ photo: Photo) -> String { Annotation(photo: photo, distance: nil)?.subtitle ?? "" }

  /// The provider's thumbnail for remote photos, geophoto's own endpoint for local ones.
  func thumbnailLink(_ photo: Photo) -> String {
    photo.thumbnailURL ?? "/v1/photos/\(photo.id)/thumbnail"
  }

  // MARK: - /v1/clusters/{id}/leaves

  func leaves(_ idText: String) throws -> ServerResponse {
    let p = try Parameters(request, allowed: ["limit", "offset"])
    guard let id = Int(idText) else { throw APIError.badRequest("cluster id must be a whole number, not '\(idText)'") }
    let limit = try p.integer("limit", in: 1...1_000, default: 10)
    let offset = try p.integer("offset", in: 0...Int(Int32.max), default: 0)
    guard snapshot.clusters.contains(clusterID: id) else {
      throw APIError.notFound("no cluster \(id) in index generation \(snapshot.generation)")
    }
    return cached(p, type: "application/geo+json") {
      let leaves = snapshot.clusters.leaves(of: id, limit: limit, offset: offset) ?? []
      return GeoJSON.FeatureCollection(
        leaves.map { photoFeature(snapshot.photos[$0]) },
        foreignMembers: JSONMembers([
          ("cluster_id", .integer(Int64(id))), ("offset", .integer(Int64(offset))), ("limit", .integer(Int64(limit))),
        ])
      ).encoded()
    }
  }

  // MARK: - /v1/photos/{id}

  func photoID(_ text: String) throws -> Photo {
    guard let id = Int64(text) else { throw APIError.badRequest("photo id must be a whole number, not '\(text)'") }
    guard let photo = snapshot.photo(id: id) else { throw APIError.notFound("no photo \(id)") }
    return photo
  }

  func photo(_ idText: String) throws -> ServerResponse {
    let p = try Parameters(request, allowed: [])
    let photo = try photoID(idText)
    return cached(p, type: "application/json") {
      PhotoDetailDocument(photo: photo, subtitle: subtitle(photo), thumbnailURL: thumbnailLink(photo)).encoded()
    }
  }

  /// A local photo's EXIF thumbnail (read from the file the index names, never a path from
  /// the request), or a redirect to the provider's thumbnail.
  func thumbnail(_ idText: String) throws -> ServerResponse {
    _ = try Parameters(request, allowed: [])
    let photo = try photoID(idText)
    if photo.source != .local {
      guard let url = photo.thumbnailURL else { throw APIError.notFound("photo \(photo.id) has no thumbnail") }
      return ServerResponse(status: 302, headers: [("Location", url), ("Cache-Control", "public, max-age=86400")])
    }
    guard let path = photo.path, let bytes = Self.embeddedThumbnail(path: path) else {
      throw APIError.notFound("photo \(photo.id) has no embedded thumbnail")
    }
    let tag = "\"t\(photo.id)-\(bytes.count)-\(snapshot.generation)\""
    if let unchanged = notModified(tag) { return unchanged }
    return ServerResponse(
      status: 200,
      headers: [("Content-Type", "image/jpeg"), ("ETag", tag), ("Cache-Control", "public, max-age=86400")],
      body: bytes)
  }

  static func embeddedThumbnail(path: String) -> [UInt8]? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil,
      let data = try? handle.read(upToCount: 256 * 1024)
    else { return nil }
    let bytes = [UInt8](data)
    return bytes.withUnsafeBytes { MetadataReader.thumbnail($0, fileSize: Int(size)) }
  }

  // MARK: - Service

  func health() throws -> ServerResponse {
    _ = try Parameters(request, allowed: [])
    let body = JSONValue.object([
      ("status", .string("ok")), ("generation", .integer(snapshot.generation)),
      ("photos", .integer(Int64(snapshot.photos.count))),
    ])
    return ServerResponse(
      status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
      body: body.encoded())
  }

  func openAPI() throws -> ServerResponse {
    _ = try Parameters(request, allowed: [])
    return ServerResponse(
      status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "public, max-age=3600")],
      body: Array(OpenAPIDocument.json.utf8))
  }
}
