import Foundation
public import GeoPhotoCore

/// What `route show` says about a route: its points, length, bounds and the map region that
/// shows it, in each output format.
public struct RouteSummaryDocument: OutputDocument {
  public var points: [Coordinate]
  public var length: Double
  public var bounds: BoundingBox
  public var region: CoordinateRegion

  public init(points: [Coordinate], length: Double, bounds: BoundingBox, region: CoordinateRegion) {
    self.points = points
    self.length = length
    self.bounds = bounds
    self.region = region
  }

  /// `{points, length, bounds, region: {center, span}}`.
  public func json(pretty: Bool = false) -> [UInt8] {
    var w = JSONWriter(pretty: pretty)
    w.beginObject()
    w.key("points")
    w.integer(Int64(points.count))
    w.key("length")
    w.metres(length)
    w.key("bounds")
    w.bounds(bounds)
    w.key("region")
    w.beginObject()
    w.key("center")
    w.coordinate(region.center)
    w.key("span")
    w.beginObject()
    w.key("latitudeDelta")
    w.degrees(region.latitudeDelta)
    w.key("longitudeDelta")
    w.degrees(region.longitudeDelta)
    w.endObject()
    w.endObject()
    w.endObject()
    return w.bytes
  }

  /// The route as a LineString feature with its bounds, point count and length.
  public func geoJSON(pretty: Bool = false) -> [UInt8] {
    GeoJSON.Feature(
      bbox: bounds, geometry: GeoJSON.LineString(points),
      properties: JSONMembers([("points", .integer(Int64(points.count))), ("length", .rounded(length, places: 1))])
    ).encoded(pretty: pretty)
  }

  /// One row: the figures of the JSON form, flat.
  public func csv() -> CSV {
    CSV(
      header: [
        "points", "length", "south", "west", "north", "east", "center_latitude", "center_longitude",
        "latitude_delta", "longitude_delta",
      ],
      rows: [
        [String(points.count), CSV.number(length, places: 1)]
          + [
            bounds.south, bounds.west, bounds.north, bounds.east, region.center.latitude, region.center.longitude,
            region.latitudeDelta, region.longitudeDelta,
          ].map { CSV.number($0, places: 7) }
      ])
  }

  public func table() -> String {
    """
    points: \(points.count)
    length: \(DistanceFormat.human(length)) (\(String(format: "%.1f", length)) m)
    bounds: south \(bounds.south), west \(bounds.west), north \(bounds.north), east \(bounds.east)\
    \(bounds.crossesAntimeridian ? " (across the antimeridian)" : "")
    region: centre \(String(format: "%.6f,%.6f", region.center.latitude, region.center.longitude)), \
    span \(String(format: "%.6f° × %.6f°", region.latitudeDelta, region.longitudeDelta))

    """
  }
}
