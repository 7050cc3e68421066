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
      let request = ValhallaRequest(
        locations: points.map { .init(lat: Self.sixDecimals($0.latitude), lon: Self.sixDecimals($0.longitude)) },
        costing: valhallaCosting)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let json = (try? encoder.encode(request)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
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
    guard let answer = try? JSONDecoder().decode(RoutingAnswer.self, from: Data(response.body)) else {
      throw RoutingError(.badAnswer, "the routing server at \(endpoint) answered HTTP \(response.status) without JSON")
    }
    if let failure = Self.error(in: answer, status: response.status) { throw failure }
    return try Self.directions(answer)
  }

  static func transportError(_ error: HTTPError, endpoint: String) -> RoutingError {
    if error.kind == .timeout {
      return RoutingError(.timeout, "the routing server at \(endpoint) did not answer in time")
    }
    return RoutingError(.unreachable, "cannot reach the routing server at \(endpoint): \(error.message)")
  }

  /// OSRM's NoRoute, Valhalla's 442, or an answer without a route: one message.
  static let noRouteError = RoutingError(.noRoute, "no route connects these points (NoRoute)")

  /// A coordinate to 1e-6 degrees (about 10 cm), as the request carries it.
  static func sixDecimals(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }

  /// OSRM's `{"code": …}` (also Valhalla with format=osrm) and Valhalla's native errors.
  static func error(in answer: RoutingAnswer, status: Int) -> RoutingError? {
    if let code = answer.code, code != "Ok" {
      let message = answer.message ?? ""
      switch code {
      case "NoRoute": return Self.noRouteError
      case "NoSegment":
        return RoutingError(
          .noSegment, "a point is too far from any street (NoSegment)\(message.isEmpty ? "" : ": \(message)")")
      default:
        return RoutingError(
          .invalidQuery, "the routing server refused the query (\(code))\(message.isEmpty ? "" : ": \(message)")")
      }
    }
    if let number = answer.errorCode {
      let message = answer.error ?? ""
      switch number {
      case 442: return Self.noRouteError
      case 171: return RoutingError(.noSegment, "a point is too far from any street (NoSegment)")
      default: return RoutingError(.invalidQuery, "the routing server refused the query (error \(number): \(message))")
      }
    }
    if status != 200 { return RoutingError(.badAnswer, "the routing server answered HTTP \(status)") }
    return nil
  }

  static func directions(_ answer: RoutingAnswer) throws(RoutingError) -> Directions {
    guard let route = answer.routes?.first else {
      throw Self.noRouteError
    }
    var geometry: [Coordinate] = []
    if let encoded = route.geometry {
      do {
        geometry = try Polyline.decode(encoded, precision: 6)
      } catch {
        throw RoutingError(.badAnswer, "the route geometry could not be decoded: \(error.description)")
      }
    }
    let legs = (route.legs ?? []).map { leg in
      RouteLeg(
        distance: leg.distance ?? 0, duration: leg.duration ?? 0,
        steps: (leg.steps ?? []).map { step in
          RouteStep(
            distance: step.distance ?? 0, duration: step.duration ?? 0, name: step.name ?? "",
            type: step.maneuver?.type ?? "turn", modifier: step.maneuver?.modifier, exit: step.maneuver?.exit,
            bearingAfter: step.maneuver?.bearingAfter,
            location: step.maneuver?.location?.coordinate ?? Coordinate(latitude: 0, longitude: 0))
        })
    }
    let waypoints = (answer.waypoints ?? []).compactMap { w in
      w.location?.coordinate.map { (name: w.name ?? "", location: $0) }
    }
    return Directions(
      distance: route.distance ?? 0, duration: route.duration ?? 0, legs: legs, geometry: geometry,
      waypoints: waypoints)
  }
}

/// Valhalla's route request, in OSRM's answer format with polyline6 shapes.
struct ValhallaRequest: Encodable {
  struct Location: Encodable {
    var lat: Double
    var lon: Double
  }
  var locations: [Location]
  var costing: String
  var format = "osrm"
  var shapeFormat = "polyline6"
  var units = "kilometers"

  enum CodingKeys: String, CodingKey {
    case locations, costing, format, units
    case shapeFormat = "shape_format"
  }
}

/// An OSRM v5 route answer (Valhalla's with format=osrm), or either's error: only what
/// directions use, each member optional (a missing one is a zero or an empty list).
struct RoutingAnswer: Decodable {
  var code: String?
  var message: String?
  var errorCode: Int?
  var error: String?
  var routes: [Route]?
  var waypoints: [Waypoint]?

  enum CodingKeys: String, CodingKey {
    case code, message, error, routes, waypoints
    case errorCode = "error_code"
  }

  struct Route: Decodable {
    var distance: Double?
    var duration: Double?
    var geometry: String?
    var legs: [Leg]?
  }

  struct Leg: Decodable {
    var distance: Double?
    var duration: Double?
    var steps: [Step]?
  }

  struct Step: Decodable {
    var distance: Double?
    var duration: Double?
    var name: String?
    var maneuver: Maneuver?
  }

  struct Maneuver: Decodable {
    var type: String?
    var modifier: String?
    var exit: Int?
    var bearingAfter: Double?
    var location: Position?

    enum CodingKeys: String, CodingKey {
      case type, modifier, exit, location
      case bearingAfter = "bearing_after"
    }
  }

  struct Waypoint: Decodable {
    var name: String?
    var location: Position?
  }

  /// `[longitude, latitude]`.
  struct Position: Decodable {
    var coordinate: Coordinate?
    init(from decoder: any Decoder) throws {
      let pair = try decoder.singleValueContainer().decode([Double].self)
      coordinate = pair.count == 2 ? Coordinate(latitude: pair[1], longitude: pair[0]) : nil
    }
  }
}
