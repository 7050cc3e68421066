import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD

/// `/v1/annotations` (pins and clusters for a map viewport) and `/v1/clusters/{id}/leaves`
/// (the photos inside a cluster).
enum AnnotationsEndpoints {
  static let bbox = EndpointParameter.query(
    "bbox", .boundingBox, required: true, example: "139.6,35.6,139.9,35.8",
    "west,south,east,north in degrees; west > east crosses the antimeridian")
  static let zoom = EndpointParameter.query(
    "zoom", .number(0...30), required: true, example: "10", "Map zoom; fractions are rounded down")

  static let annotationsRoute = Endpoint(
    path: "/v1/annotations", operationID: "annotations",
    summary:
      "Pins and clusters for a map viewport (supercluster's algorithm: radius 40 px at extent 512, zoom 0-16 clustered)",
    access: .token, shareable: true, parameters: [bbox, zoom] + FilterParameters.all,
    responses: [
      APIResponse(
        status: 200,
        description: "Photos and clusters (at most the configured cap; then 'truncated': true and 'total')",
        content: [("application/geo+json", Viewport.reference)])
    ], work: .filterClusters, respond: annotations)

  static func annotations(_ c: EndpointContext) throws -> ServerResponse {
    let box = c.parameters.box(bbox) ?? BoundingBox(west: 0, south: 0, east: 0, north: 0)
    let zoomLevel = Int((c.parameters.number(zoom) ?? 0).rounded(.down))
    let filter = try c.filter()
    return try c.cached(type: "application/geo+json") {
      let view = try c.snapshot.clusters(for: filter)
      let (shown, total) = view.items(in: box, zoom: zoomLevel, limit: c.configuration.maximumFeatures)
      // A pin shows its photo; a bubble its first photo. A local photo's thumbnail is
      // geophoto's own, named by its id: only pins and remote photos' bubbles need the rows.
      let ids = shown.map { c.snapshot.id(at: $0.representative) }
      let needed = zip(shown, ids).compactMap { item, id in
        item.photo != nil || !c.snapshot.isLocal(at: item.representative) ? id : nil
      }
      let details = try c.snapshot.details(needed)
      let features = zip(shown, ids).compactMap { item, id -> ViewportFeature? in
        guard let clusterID = item.clusterID else { return details[id].map { photoFeature($0.photo, c) } }
        let thumbnail =
          c.snapshot.isLocal(at: item.representative)
          ? EndpointContext.localThumbnailLink(id) : details[id].map { c.thumbnailLink($0.photo) } ?? ""
        return .cluster(
          id: clusterID, coordinate: item.coordinate, count: item.count,
          expansionZoom: view.expansionZoom(of: clusterID) ?? 0, thumbnailURL: thumbnail)
      }
      return Viewport(features: features, total: total > shown.count ? total : nil).encoded()
    }
  }

  /// `/v1/annotations`' answer: the viewport's photos and clusters, and when the cap cut them,
  /// `truncated` and how many there were.
  struct Viewport: JSONWritable, DescribedJSON {
    var features: [ViewportFeature]
    /// Set when the cap left features out: how many the viewport has.
    var total: Int?

    func write(to w: inout JSONWriter) {
      var members: [(String, JSONValue)] = []
      if let total { members = [("truncated", .bool(true)), ("total", .integer(Int64(total)))] }
      GeoJSON.FeatureCollection(features, foreignMembers: JSONMembers(members)).write(to: &w)
    }

    static let schemaName = "Viewport"
    static let schema = GeoJSON.featureCollectionSchema(
      features: ViewportFeature.reference,
      members: [
        ("truncated", .described(.boolean, "The cap left features out")),
        ("total", .described(.integer, "How many features the viewport has, when truncated")),
      ])
  }

  /// A page of a cluster's photos: the photos, the cluster, and the page's place.
  struct LeafPage: JSONWritable, DescribedJSON {
    var features: [ViewportFeature]
    var clusterID: Int
    var offset: Int
    var limit: Int

    func write(to w: inout JSONWriter) {
      GeoJSON.FeatureCollection(
        features,
        foreignMembers: JSONMembers([
          ("cluster_id", .integer(Int64(clusterID))), ("offset", .integer(Int64(offset))),
          ("limit", .integer(Int64(limit))),
        ])
      ).write(to: &w)
    }

    static let schemaName = "ClusterLeaves"
    static let schema = GeoJSON.featureCollectionSchema(
      features: ViewportFeature.reference,
      members: [("cluster_id", .integer), ("offset", .integer), ("limit", .integer)])
  }

  static func photoFeature(_ photo: Photo, _ c: EndpointContext) -> ViewportFeature {
    .photo(photo, subtitle: c.subtitle(photo), thumbnailURL: c.thumbnailLink(photo))
  }

  static let clusterID = EndpointParameter.path(
    "id", .identifier("cluster id", 0...ClusterIndex.largestClusterID), "cluster_id from /v1/annotations")
  static let limit = EndpointParameter.query("limit", .integer(1...1_000, default: 10), "Page size")
  static let offset = EndpointParameter.query("offset", .integer(0...Int(Int32.max), default: 0), "Photos to skip")

  static let leavesRoute = Endpoint(
    path: "/v1/clusters/{id}/leaves", operationID: "clusterLeaves", summary: "The photos inside a cluster, paged",
    access: .token, shareable: true, parameters: [clusterID, limit, offset] + FilterParameters.all,
    responses: [
      APIResponse(
        status: 200, description: "One page of photos",
        content: [("application/geo+json", LeafPage.reference)])
    ], work: .filterClusters, respond: leaves)

  static func leaves(_ c: EndpointContext) throws -> ServerResponse {
    let id = Int(c.parameters.identifier(clusterID) ?? -1)
    let limit = c.parameters.integer(limit)
    let offset = c.parameters.integer(offset)
    let view = try c.snapshot.clusters(for: try c.filter())
    guard view.contains(clusterID: id) else {
      throw APIError.notFound("no cluster \(id) in index generation \(c.snapshot.generation) for this filter")
    }
    return try c.cached(type: "application/geo+json") {
      let ids = (view.leaves(of: id, limit: limit, offset: offset) ?? []).map { c.snapshot.id(at: $0) }
      let details = try c.snapshot.details(ids)
      return LeafPage(
        features: ids.compactMap { details[$0].map { photoFeature($0.photo, c) } }, clusterID: id, offset: offset,
        limit: limit
      ).encoded()
    }
  }
}
