import Foundation
public import GeoPhotoCore
public import GeoPhotoHTTP

/// Why a route could not be had, one line each.
public struct RoutingError: Error, Equatable, CustomStringConvertible {
  public enum Kind: Equatable, Sendable {
    /// The points are not connected by the network (one-way streets, islands).
    case noRoute
    /// A point is too far from any street to snap to it.
    case noSegment
    case invalidQuery
    case unreachable
    case timeout
    case badAnswer
  }

  public var kind: Kind
  public var description: String

  public init(_ kind: Kind, _ description: String) {
    self.kind = kind
    self.description = description
  }
}

/// A client for OSRM v5's route API and for Valhalla answering in OSRM's format.
///
/// OSRM takes the points in the URL (`/route/v1/{profile}/lon,lat;lon,lat`); Valhalla takes a
/// JSON request (`/route?json=…` with `"format": "osrm"`). Both answer with OSRM-shaped JSON,
/// from which geophoto composes its own instruction sentences.
public struct RoutingClient: Sendable {
  public enum Engine: String, CaseIterable, Sendable { case osrm, valhalla }

  public var endpoint: String
  public var engine: Engine
  /// OSRM profile (`driving`, `cycling`, `walking`) or the matching Valhalla costing.
  public var profile: String
  public var client: HTTPClient

  public init(endpoint: String, engine: Engine, profile: String = "driving", client: HTTPClient) {
    self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
    self.engine = engine
    self.profile = profile
    self.client = client
  }

  /// Asks the server what it is: Valhalla answers `/status` with its version.
  public static func detectEngine(endpoint: String, client: HTTPClient) throws(RoutingError) -> Engine {
    let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
    let response: HTTPResponse
    do {
      response = try client.get(base + "/status")
    } catch {
      throw Self.transportError(error, endpoint: base)
    }
    if response.status == 200,
      let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
      object["version"] != nil, object["available_actions"] != nil
    {
      return .valhalla
    }
    return .osrm
  }

  var valhallaCosting: String {
    switch profile {
    case "driving", "car", "auto": return "auto"
    case "cycling", "bike", "bicycle": return "bicycle"
    case "walking", "foot", "pedestrian": return "pedestrian"
    default: return profile
    }
  }

  func url(for points: [Coordinate]) -> String {
    switch engine {
    case .osrm:
      let list = points.map { String(format: "%.6f,%.6f", $0.longitude, $0.latitude) }.joined(separator: ";")
      return QueryString.url(
        "\(endpoint)/route/v1/\(QueryString.escape(profile))/\(list)",
        [("steps", "true"), ("overview", "full"), ("geometries", "polyline6")])
    case .valhalla:
      let locations = points.map { String(format: "{\"lat\":%.6f,\"lon\":%.6f}", $0.latitude, $0.longitude) }
      let json =
        "{\"locations\":[\(locations.joined(separator: ","))],\"costing\":\"\(valhallaCosting)\","
        + "\"format\":\"osrm\",\"shape_format\":\"polyline6\",\"units\":\"kilometers\"}"
      return QueryString.url("\(endpoint)/route", [("json", json)])
    }
  }

  /// The route through `points` in order: one leg per consecutive pair.
  public func route(through points: [Coordinate]) throws(RoutingError) -> Directions {
    guard points.count >= 2 else { throw RoutingError(.invalidQuery, "a route needs at least two points") }
    let response: HTTPResponse
    do {
      response = try client.get(url(for: points))
    } catch {
      throw Self.transportError(error, endpoint: endpoint)
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
      throw RoutingError(.badAnswer, "the routing server at \(endpoint) answered HTTP \(response.status) without JSON")
    }
    if let failure = Self.error(in: object, status: response.status) { throw failure }
    return try Self.parse(object)
  }

  static func transportError(_ error: HTTPError, endpoint: String) -> RoutingError {
    if error.kind == .timeout {
      return RoutingError(.timeout, "the routing server at \(endpoint) did not answer in time")
    }
    return RoutingError(.unreachable, "cannot reach the routing server at \(endpoint): \(error.message)")
  }

  /// OSRM's `{"code": …}` (also Valhalla with format=osrm) and Valhalla's native errors.
  static func error(in object: [String: Any], status: Int) -> RoutingError? {
    if let code = object["code"] as? String, code != "Ok" {
      let message = object["message"] as? String ?? ""
      switch code {
      case "NoRoute": return RoutingError(.noRoute, "no route connects these points (NoRoute)")
      case "NoSegment":
        return RoutingError(
          .noSegment, "a point is too far from any street (NoSegment)\(message.isEmpty ? "" : ": \(message)")")
      default:
        return RoutingError(
          .invalidQuery, "the routing server refused the query (\(code))\(message.isEmpty ? "" : ": \(message)")")
      }
    }
    if let number = object["error_code"] as? Int {
      let message = object["error"] as? String ?? ""
      switch number {
      case 442: return RoutingError(.noRoute, "no route connects these points (NoRoute)")
      case 171: return RoutingError(.noSegment, "a point is too far from any street (NoSegment)")
      default: return RoutingError(.invalidQuery, "the routing server refused the query (error \(number): \(message))")
      }
    }
    if status != 200 { return RoutingError(.badAnswer, "the routing server answered HTTP \(status)") }
    return nil
  }

  static func parse(_ object: [String: Any]) throws(RoutingError) -> Directions {
    guard let route = (object["routes"] as? [[String: Any]])?.first else {
      throw RoutingError(.noRoute, "no route connects these points (NoRoute)")
    }
    func number(_ v: Any?) -> Double { (v as? Double) ?? (v as? Int).map(Double.init) ?? 0 }
    func coordinate(_ v: Any?) -> Coordinate? {
      guard let pair = v as? [Double], pair.count == 2 else { return nil }
      return Coordinate(latitude: pair[1], longitude: pair[0])
    }
    var geometry: [Coordinate] = []
    if let encoded = route["geometry"] as? String {
      do {
        geometry = try Polyline.decode(encoded, precision: 6)
      } catch {
        throw RoutingError(.badAnswer, "the route geometry could not be decoded: \(error.description)")
      }
    }
    var legs: [RouteLeg] = []
    for leg in route["legs"] as? [[String: Any]] ?? [] {
      var steps: [RouteStep] = []
      for step in leg["steps"] as? [[String: Any]] ?? [] {
        let maneuver = step["maneuver"] as? [String: Any] ?? [:]
        steps.append(
          RouteStep(
            distance: number(step["distance"]), duration: number(step["duration"]), name: step["name"] as? String ?? "",
            type: maneuver["type"] as? String ?? "turn", modifier: maneuver["modifier"] as? String,
            exit: maneuver["exit"] as? Int,
            bearingAfter: (maneuver["bearing_after"] as? Double)
              ?? (maneuver["bearing_after"] as? Int).map(Double.init),
            location: coordinate(maneuver["location"]) ?? Coordinate(latitude: 0, longitude: 0)))
      }
      legs.append(RouteLeg(distance: number(leg["distance"]), duration: number(leg["duration"]), steps: steps))
    }
    let waypoints = (object["waypoints"] as? [[String: Any]] ?? []).compactMap { w -> (String, Coordinate)? in
      coordinate(w["location"]).map { (w["name"] as? String ?? "", $0) }
    }
    return Directions(
      distance: number(route["distance"]), duration: number(route["duration"]), legs: legs, geometry: geometry,
      waypoints: waypoints.map { (name: $0.0, location: $0.1) })
  }
}
