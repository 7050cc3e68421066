public import GeoPhotoCore

/// A routing engine's directions (`geophoto directions`): legs, turn-by-turn steps and the
/// route line, in each output format.
public struct DirectionsDocument: OutputDocument {
  public var directions: Directions

  public init(_ directions: Directions) { self.directions = directions }

  /// `{distance, duration, summary, legs: [{…, steps}], waypoints, geometry}`.
  public func json(pretty: Bool = false) -> [UInt8] {
    let d = directions
    var w = JSONWriter(pretty: pretty)
    w.beginObject()
    Self.writeTotals(distance: d.distance, duration: d.duration, to: &w)
    w.key("legs")
    w.beginArray()
    for leg in d.legs {
      w.beginObject()
      Self.writeTotals(distance: leg.distance, duration: leg.duration, to: &w)
      w.key("steps")
      w.beginArray()
      for s in leg.steps {
        JSONMembers([
          ("instruction", .string(s.instruction)), ("distance", .rounded(s.distance, places: 1)),
          ("duration", .rounded(s.duration, places: 1)), ("name", .string(s.name)), ("type", .string(s.type)),
          ("modifier", .optional(s.modifier)), ("location", Self.coordinate(s.location)),
        ]).write(to: &w)
      }
      w.endArray()
      w.endObject()
    }
    w.endArray()
    w.key("waypoints")
    w.beginArray()
    for waypoint in d.waypoints {
      JSONMembers([
        ("name", .string(waypoint.name)), ("latitude", .rounded(waypoint.location.latitude, places: 7)),
        ("longitude", .rounded(waypoint.location.longitude, places: 7)),
      ]).write(to: &w)
    }
    w.endArray()
    w.member("geometry", GeoJSON.LineString(d.geometry))
    w.endObject()
    return w.bytes
  }

  /// The route line (with its distance and duration) and one point per waypoint.
  public func geoJSON(pretty: Bool = false) -> [UInt8] {
    let d = directions
    typealias Line = GeoJSON.Feature<GeoJSON.LineString, JSONMembers>
    typealias Waypoint = GeoJSON.Feature<GeoJSON.Point, JSONMembers>
    let route = Line(
      geometry: GeoJSON.LineString(d.geometry),
      properties: JSONMembers([
        ("distance", .rounded(d.distance, places: 1)), ("duration", .rounded(d.duration, places: 1)),
      ]))
    let waypoints = d.waypoints.enumerated().map { i, waypoint in
      Waypoint(
        geometry: GeoJSON.Point(waypoint.location),
        properties: JSONMembers([("waypoint", .integer(Int64(i))), ("name", .string(waypoint.name))]))
    }
    let features: [EitherFeature<Line, Waypoint>] = [.first(route)] + waypoints.map { .second($0) }
    return GeoJSON.FeatureCollection(features).encoded(pretty: pretty)
  }

  /// One row per step, numbered through the whole route.
  public func csv() -> CSV {
    var rows: [[String]] = []
    var number = 0
    for (i, leg) in directions.legs.enumerated() {
      for s in leg.steps {
        number += 1
        rows.append([
          String(i + 1), String(number), s.instruction, CSV.number(s.distance, places: 1),
          CSV.number(s.duration, places: 1), s.name, s.type, s.modifier ?? "",
          CSV.number(s.location.latitude, places: 7),
          CSV.number(s.location.longitude, places: 7),
        ])
      }
    }
    return CSV(
      header: [
        "leg", "step", "instruction", "distance", "duration", "name", "type", "modifier", "latitude", "longitude",
      ], rows: rows)
  }

  /// Each leg's summary and numbered steps, then the total.
  public func table() -> String {
    var out = ""
    var number = 0
    for (i, leg) in directions.legs.enumerated() {
      out += "Leg \(i + 1): \(Instructions.summary(distance: leg.distance, duration: leg.duration))\n"
      for step in leg.steps {
        number += 1
        let distance = step.distance > 0 ? " (\(DistanceFormat.human(step.distance)))" : ""
        out += "  \(number). \(step.instruction)\(distance)\n"
      }
    }
    return out + "Total: \(Instructions.summary(distance: directions.distance, duration: directions.duration))\n"
  }

  /// `{"latitude", "longitude"}` as a value.
  static func coordinate(_ c: Coordinate) -> JSONValue {
    .object([("latitude", .rounded(c.latitude, places: 7)), ("longitude", .rounded(c.longitude, places: 7))])
  }

  /// Distance, duration and their spoken summary, for the whole route and each leg.
  static func writeTotals(distance: Double, duration: Double, to w: inout JSONWriter) {
    w.key("distance")
    w.metres(distance)
    w.key("duration")
    w.seconds(duration)
    w.key("summary")
    w.string(Instructions.summary(distance: distance, duration: duration))
  }
}
