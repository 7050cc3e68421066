import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD

/// `/v1/annotations` (pins and clusters for a map viewport) and `/v1/clusters/{id}/leaves`
/// (the photos inside a cluster).
enum AnnotationsEndpoints {
  static let bbox = RouteParameter.query(
    "bbox", .boundingBox, required: true, example: "139.6,35.6,139.9,35.8",
    "west,south,east,north in degrees; west > east crosses the antimeridian")
  static let zoom = RouteParameter.query(
    "zoom", .number(0...30), required: true, example: "10", "Map zoom; fractions are rounded down")

  static let annotationsRoute = Route(
    path: "/v1/annotations", operationID: "annotations",
    summary:
      "Pins and clusters for a map viewport (supercluster's algorithm: radius 40 px at extent 512, zoom 0-16 clustered)",
    parameters: [bbox, zoom] + FilterParameters.all,
    responses: [
      APIResponse(
        status: 200,
        description: "Photos and clusters (at most the configured cap; then 'truncated': true and 'total')",
        content: [("application/geo+json", .reference("FeatureCollection"))])
    ], respond: annotations)

  static func annotations(_ c: EndpointContext) throws -> ServerResponse {
    let box = c.parameters.box(bbox) ?? BoundingBox(west: 0, south: 0, east: 0, north: 0)
    let zoomLevel = Int((c.parameters.number(zoom) ?? 0).rounded(.down))
    let filter = try FilterParameters.filter(c.parameters)
    return c.cached(type: "application/geo+json") {
      let view = c.snapshot.clusters(for: filter)
      let items = view.clusters.items(in: box, zoom: zoomLevel)
      let shown = items.prefix(c.configuration.maximumFeatures)
      var members: [(String, JSONValue)] = []
      if items.count > shown.count {
        members.append(("truncated", .bool(true)))
        members.append(("total", .integer(Int64(items.count))))
      }
      return GeoJSON.FeatureCollection(shown.map { feature($0, view, c) }, foreignMembers: JSONMembers(members))
        .encoded()
    }
  }

  static func feature(_ item: ClusterIndex.Item, _ view: ClusterView, _ c: EndpointContext) -> ViewportFeature {
    if let id = item.clusterID {
      // The bubble's picture: the cluster's first photo (a walk down its first branches).
      let first = view.clusters.leaves(of: id, limit: 1)?.first.map { c.snapshot.photos[view.photoPosition($0)] }
      return .cluster(
        id: id, coordinate: item.coordinate, count: item.count, expansionZoom: view.clusters.expansionZoom(of: id) ?? 0,
        thumbnailURL: first.map { c.thumbnailLink($0) } ?? "")
    }
    return photoFeature(c.snapshot.photos[view.photoPosition(item.pointIndex ?? 0)], c)
  }

  static func photoFeature(_ photo: Photo, _ c: EndpointContext) -> ViewportFeature {
    .photo(photo, subtitle: c.subtitle(photo), thumbnailURL: c.thumbnailLink(photo))
  }

  static let clusterID = RouteParameter.path("id", .identifier("cluster id"), "cluster_id from /v1/annotations")
  static let limit = RouteParameter.query("limit", .integer(1...1_000, default: 10), "Page size")
  static let offset = RouteParameter.query("offset", .integer(0...Int(Int32.max), default: 0), "Photos to skip")

  static let leavesRoute = Route(
    path: "/v1/clusters/{id}/leaves", operationID: "clusterLeaves", summary: "The photos inside a cluster, paged",
    parameters: [clusterID, limit, offset] + FilterParameters.all,
    responses: [
      APIResponse(
        status: 200, description: "One page of photos",
        content: [("application/geo+json", .reference("FeatureCollection"))])
    ], respond: leaves)

  static func leaves(_ c: EndpointContext) throws -> ServerResponse {
    let id = Int(c.parameters.identifier(clusterID) ?? -1)
    let limit = c.parameters.integer(limit)
    let offset = c.parameters.integer(offset)
    let view = c.snapshot.clusters(for: try FilterParameters.filter(c.parameters))
    guard view.clusters.contains(clusterID: id) else {
      throw APIError.notFound("no cluster \(id) in index generation \(c.snapshot.generation) for this filter")
    }
    return c.cached(type: "application/geo+json") {
      let leaves = view.clusters.leaves(of: id, limit: limit, offset: offset) ?? []
      return GeoJSON.FeatureCollection(
        leaves.map { photoFeature(c.snapshot.photos[view.photoPosition($0)], c) },
        foreignMembers: JSONMembers([
          ("cluster_id", .integer(Int64(id))), ("offset", .integer(Int64(offset))), ("limit", .integer(Int64(limit))),
        ])
      ).encoded()
    }
  }
}
