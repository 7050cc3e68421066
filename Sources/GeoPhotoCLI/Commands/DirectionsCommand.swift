import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTP
import GeoPhotoRoutes

enum DirectionsCommand: Subcommand {
  static let spec = CommandSpec(
    name: "directions",
    abstract: "Directions from an OSRM or Valhalla server: legs, times and turn-by-turn steps.",
    discussion: """
      The points are routed in order (A→B→C…), one leg between each pair. The server is set by
      GEOPHOTO_ROUTING_ENDPOINT or 'routing.endpoint'; OSRM v5 and Valhalla both work (the
      engine is asked for when 'routing.engine' is not set).
      """,
    arguments: [.init(name: "lat,lon", help: "Two or more points: start, [via …], destination.", repeating: true)],
    options: [
      Setting.nearFormat.option,
      Setting.routingProfile.option,
      Setting.routingEngine.option,
    ],
    examples: [
      "geophoto directions 52.52,13.40 52.524,13.406",
      "geophoto directions 35.6812,139.7671 35.6586,139.7454 35.7148,139.7967 --format geojson",
    ])

  static func run(_ context: CommandContext) throws {
    let p = context.parsed.positionals
    guard p.count >= 2 else { throw UsageError("Missing expected argument: at least two '<lat,lon>' points") }
    let points = try p.map { try PlaceNames.coordinate($0, context) }
    let config = context.configuration
    guard let endpoint = config.routing.endpoint else {
      throw RuntimeError(
        "no routing server: set GEOPHOTO_ROUTING_ENDPOINT or 'routing.endpoint' to an OSRM v5 or Valhalla URL")
    }
    let options = config.http.clientOptions(userAgent: RemoteSources.userAgent)
    let http = try HTTPClient(options: options)
    let directions: Directions
    do {
      let engine = try config.routing.engine ?? RoutingClient.detectEngine(endpoint: endpoint, client: http)
      let client = RoutingClient(endpoint: endpoint, engine: engine, profile: config.routing.profile, client: http)
      directions = try client.route(through: points)
    } catch let error as RoutingError {
      throw RuntimeError(error.description)
    }
    context.console.out(render(directions, format: config.near.format))
  }

  static func render(_ d: Directions, format: OutputFormat) -> String {
    switch format {
    case .table, .csv:
      var out = ""
      var number = 0
      for (i, leg) in d.legs.enumerated() {
        out += "Leg \(i + 1): \(Instructions.summary(distance: leg.distance, duration: leg.duration))\n"
        for step in leg.steps {
          number += 1
          let distance = step.distance > 0 ? " (\(DistanceFormat.human(step.distance)))" : ""
          out += "  \(number). \(step.instruction)\(distance)\n"
        }
      }
      out += "Total: \(Instructions.summary(distance: d.distance, duration: d.duration))\n"
      return out
    case .json:
      var w = JSONWriter(pretty: true)
      w.beginObject()
      writeTotals(distance: d.distance, duration: d.duration, to: &w)
      w.key("legs")
      w.beginArray()
      for leg in d.legs {
        w.beginObject()
        writeTotals(distance: leg.distance, duration: leg.duration, to: &w)
        w.key("steps")
        w.beginArray()
        for s in leg.steps {
          w.beginObject()
          w.key("instruction")
          w.string(s.instruction)
          w.key("distance")
          w.rounded(s.distance, places: 1)
          w.key("duration")
          w.rounded(s.duration, places: 1)
          w.key("name")
          w.string(s.name)
          w.key("type")
          w.string(s.type)
          w.key("modifier")
          w.string(s.modifier)
          w.key("location")
          AnnotationEncoding.writeCoordinate(s.location, to: &w)
          w.endObject()
        }
        w.endArray()
        w.endObject()
      }
      w.endArray()
      w.key("waypoints")
      w.beginArray()
      for waypoint in d.waypoints {
        w.beginObject()
        w.key("name")
        w.string(waypoint.name)
        w.key("latitude")
        w.rounded(waypoint.location.latitude, places: 7)
        w.key("longitude")
        w.rounded(waypoint.location.longitude, places: 7)
        w.endObject()
      }
      w.endArray()
      w.key("geometry")
      AnnotationEncoding.writeLineString(d.geometry, to: &w)
      w.endObject()
      return String(decoding: w.bytes, as: UTF8.self) + "\n"
    case .geojson:
      var w = JSONWriter(pretty: true)
      w.beginObject()
      w.key("type")
      w.string("FeatureCollection")
      w.key("features")
      w.beginArray()
      w.beginObject()
      w.key("type")
      w.string("Feature")
      w.key("geometry")
      AnnotationEncoding.writeLineString(d.geometry, to: &w)
      w.key("properties")
      w.beginObject()
      w.key("distance")
      w.rounded(d.distance, places: 1)
      w.key("duration")
      w.rounded(d.duration, places: 1)
      w.endObject()
      w.endObject()
      for (i, waypoint) in d.waypoints.enumerated() {
        w.beginObject()
        w.key("type")
        w.string("Feature")
        w.key("geometry")
        AnnotationEncoding.writePoint(waypoint.location, to: &w)
        w.key("properties")
        w.beginObject()
        w.key("waypoint")
        w.integer(Int64(i))
        w.key("name")
        w.string(waypoint.name)
        w.endObject()
        w.endObject()
      }
      w.endArray()
      w.endObject()
      return String(decoding: w.bytes, as: UTF8.self) + "\n"
    }
  }

  /// Distance, duration and their spoken summary, for the whole route and each leg.
  static func writeTotals(distance: Double, duration: Double, to w: inout JSONWriter) {
    w.key("distance")
    w.rounded(distance, places: 1)
    w.key("duration")
    w.rounded(duration, places: 1)
    w.key("summary")
    w.string(Instructions.summary(distance: distance, duration: duration))
  }
}
