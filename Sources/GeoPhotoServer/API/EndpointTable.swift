/// Every route of the HTTP API and the web map: the one list the router dispatches on and
/// the OpenAPI document is made from. A new endpoint is a `Endpoint` here and its responder.
enum EndpointTable {
  static let all: [Endpoint] =
    [
      NearEndpoint.route, AnnotationsEndpoints.annotationsRoute, AnnotationsEndpoints.leavesRoute,
      PhotoEndpoints.detailRoute, PhotoEndpoints.thumbnailRoute, PlaceEndpoints.route,
      TravelEndpoints.visitedRoute, TravelEndpoints.tripsRoute, TravelEndpoints.tripRoute, EditEndpoints.placeRoute,
      EditEndpoints.clearRoute, EditEndpoints.unplacedRoute, TileEndpoints.route,
      VectorTileEndpoints.tileRoute, VectorTileEndpoints.tileJSONRoute,
      ServiceEndpoints.statusRoute, ServiceEndpoints.healthRoute, ServiceEndpoints.openAPIRoute,
    ] + WebMapEndpoints.pageRoutes + WebMapEndpoints.assetRoutes

  /// Every route with its path pattern split into segments, once: what a request is matched
  /// against.
  static let table: [(route: Endpoint, pattern: [Substring])] = all.map { ($0, $0.segments) }

  /// The methods the server answers: every route's GET, HEAD as GET without the body,
  /// OPTIONS for a browser's preflight, and the edits' PUT and DELETE. Anything else is 405
  /// with these in `Allow`.
  static let methods = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]

  /// `methods` as an `Allow` or `Access-Control-Allow-Methods` value.
  static let allowedMethods = methods.joined(separator: ", ")

  /// The routes the OpenAPI document describes.
  static var documented: [Endpoint] { all.filter(\.documented) }
}
