import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

@testable import GeoPhotoRoutes

@Suite struct PolylineTests {
  // Test vectors of the Google polyline algorithm (precision 5) and Valhalla's precision 6.
  @Test func decodesKnownStrings() throws {
    let three = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5)
    #expect(
      three == [
        Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95),
        Coordinate(latitude: 43.252, longitude: -126.453),
      ])
    let grid = [
      Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.52, longitude: 13.403),
      Coordinate(latitude: 52.52, longitude: 13.406), Coordinate(latitude: 52.522, longitude: 13.406),
      Coordinate(latitude: 52.524, longitude: 13.406),
    ]
    #expect(try Polyline.decode("_cqdcB_{zpX?ozD?ozD_|B?_|B?", precision: 6) == grid)
    #expect(try Polyline.decode("_yp_I_expA?wQ?wQoK?oK?", precision: 5) == grid)
  }

  @Test func encodesKnownStrings() {
    #expect(Polyline.encode([Coordinate(latitude: -179.9832104, longitude: 0)]).hasPrefix("`~oia@"))
    #expect(
      Polyline.encode(
        [Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.524, longitude: 13.406)], precision: 6)
        == "_cqdcB_{zpX_yF_vJ")
    #expect(
      Polyline.encode(
        [Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.524, longitude: 13.406)], precision: 5)
        == "_yp_I_expA_Xod@")
  }

  @Test func wrongPrecisionAndDamageAreErrors() {
    // A precision-6 string read as precision 5 lands 10× too far: out of range.
    #expect(throws: Polyline.DecodeError.self) { try Polyline.decode("_cqdcB_{zpX", precision: 5) }
    #expect(throws: Polyline.DecodeError.self) { try Polyline.decode("_p~iF~ps|", precision: 5) }
    #expect(throws: Polyline.DecodeError.self) { try Polyline.decode("abc\u{7F}", precision: 5) }
  }
}

@Suite struct InstructionTests {
  func step(
    _ type: String, _ modifier: String? = nil, name: String = "Main Street", bearing: Double? = nil, exit: Int? = nil
  )
    -> RouteStep
  {
    RouteStep(
      distance: 10, duration: 1, name: name, type: type, modifier: modifier, exit: exit, bearingAfter: bearing,
      location: Coordinate(latitude: 0, longitude: 0))
  }

  @Test func sentences() {
    #expect(step("depart", bearing: 90).instruction == "Head east on Main Street")
    #expect(step("depart", bearing: 350).instruction == "Head north on Main Street")
    #expect(step("depart", name: "", bearing: 225).instruction == "Head southwest")
    #expect(step("turn", "left").instruction == "Turn left onto Main Street")
    #expect(step("new name", "slight right").instruction == "Turn slight right onto Main Street")
    #expect(step("turn", "uturn").instruction == "Make a U-turn onto Main Street")
    #expect(step("turn", "straight").instruction == "Continue straight onto Main Street")
    #expect(step("end of road", "right", name: "").instruction == "Turn right")
    #expect(step("continue", "left").instruction == "Continue left on Main Street")
    #expect(step("roundabout", exit: 2).instruction == "Enter the roundabout and take exit 2 onto Main Street")
    #expect(step("arrive").instruction == "You have arrived at your destination")
    #expect(step("some future type", "left").instruction == "Turn left onto Main Street")
  }

  @Test func summaries() {
    #expect(Instructions.summary(distance: 1_234, duration: 240) == "1.2 km, 4 min")
    #expect(Instructions.summary(distance: 851, duration: 20) == "0.9 km, under 1 min")
    #expect(Instructions.summary(distance: 120_000, duration: 3_900) == "120.0 km, 1 h 5 min")
  }
}

/// Against a real Valhalla serving the street grid of Tests/Fixtures/routing/grid.osm
/// (`make test` starts one through Scripts/valhalla.sh and sets the endpoint).
@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["GEOPHOTO_TEST_ROUTING_ENDPOINT"] != nil,
    "needs a routing engine: run through 'make test' (Scripts/valhalla.sh)"))
struct ValhallaTests {
  let endpoint = ProcessInfo.processInfo.environment["GEOPHOTO_TEST_ROUTING_ENDPOINT"] ?? ""

  func client(timeout: Double = 10) throws -> RoutingClient {
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = timeout
    let http = try HTTPClient(options: options)
    return RoutingClient(
      endpoint: endpoint, engine: try RoutingClient.detectEngine(endpoint: endpoint, client: http), client: http)
  }

  @Test func detectsValhalla() throws {
    #expect(try client().engine == .valhalla)
  }

  @Test func routesAcrossTheGrid() throws {
    let d = try client().route(through: [
      Coordinate(latitude: 52.52, longitude: 13.40), Coordinate(latitude: 52.524, longitude: 13.406),
    ])
    #expect(abs(d.distance - 852) < 5)
    #expect(d.legs.count == 1)
    #expect(
      d.legs[0].steps.map(\.instruction) == [
        "Head east on Alpha Street", "Turn left onto Third Avenue", "You have arrived at your destination",
      ])
    // The geometry runs along Alpha Street, then up Third Avenue.
    #expect(d.geometry.first == Coordinate(latitude: 52.52, longitude: 13.4))
    #expect(d.geometry.last == Coordinate(latitude: 52.524, longitude: 13.406))
    #expect(abs(RouteGeometry.length(d.geometry) - d.distance) < 5)
  }

  @Test func severalPointsAreRoutedLegByLeg() throws {
    let d = try client().route(through: [
      Coordinate(latitude: 52.52, longitude: 13.40), Coordinate(latitude: 52.524, longitude: 13.406),
      Coordinate(latitude: 52.52, longitude: 13.406),
    ])
    #expect(d.legs.count == 2)
    #expect(abs(d.legs.reduce(0) { $0 + $1.distance } - d.distance) < 1)
    #expect(d.legs[1].steps.last?.type == "arrive")
  }

  @Test func oneWayStreetsAreRespected() throws {
    // Beta Street runs one way eastbound: going west the route goes round the block.
    let d = try client().route(through: [
      Coordinate(latitude: 52.522, longitude: 13.406), Coordinate(latitude: 52.522, longitude: 13.400),
    ])
    #expect(!d.legs[0].steps.contains { $0.name == "Beta Street" })
    #expect(d.distance > 600)
    let east = try client().route(through: [
      Coordinate(latitude: 52.522, longitude: 13.400), Coordinate(latitude: 52.522, longitude: 13.406),
    ])
    #expect(east.legs[0].steps.first?.name == "Beta Street")
  }

  @Test func errorsAreClear() throws {
    let c = try client()
    do {
      _ = try c.route(through: [
        Coordinate(latitude: 52.52, longitude: 13.40), Coordinate(latitude: 52.53, longitude: 13.4215),
      ])
      Issue.record("routed to an unconnected street")
    } catch {
      #expect(error.kind == .noRoute)
    }
    do {
      _ = try c.route(through: [Coordinate(latitude: 52.52, longitude: 13.40), Coordinate(latitude: 10, longitude: 10)])
      Issue.record("routed to the middle of nowhere")
    } catch {
      #expect(error.kind == .noSegment)
    }
  }
}

@Suite struct RoutingFaultTests {
  @Test func unreachableAndSlowServers() throws {
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = 0.3
    let http = try HTTPClient(options: options)
    let nowhere = RoutingClient(endpoint: "http://127.0.0.1:9", engine: .osrm, client: http)
    let points = [Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 2, longitude: 2)]
    #expect(throws: RoutingError.self) { try nowhere.route(through: points) }
    let slow = try FixtureHTTPServer { _ in
      var r = FixtureResponse.text("{\"code\":\"Ok\"}")
      r.delay = 1
      return r
    }
    do {
      _ = try RoutingClient(endpoint: slow.baseURL, engine: .osrm, client: http).route(through: points)
      Issue.record("no timeout")
    } catch {
      #expect(error.kind == .timeout)
    }
  }

  @Test func osrmRequestsAndAnswers() throws {
    // An OSRM-shaped answer (as osrm-backend sends it) played from a fixture server.
    let body = """
      {"code":"Ok","waypoints":[{"name":"Alpha Street","location":[13.4,52.52]},{"name":"Third Avenue","location":[13.406,52.524]}],
      "routes":[{"distance":852.0,"duration":87.7,"geometry":"_cqdcB_{zpX?ozD?ozD_|B?_|B?","legs":[{"distance":852.0,"duration":87.7,
      "steps":[{"distance":406,"duration":41.8,"name":"Alpha Street","maneuver":{"type":"depart","bearing_after":90,"location":[13.4,52.52]}},
      {"distance":446,"duration":45.9,"name":"Third Avenue","maneuver":{"type":"turn","modifier":"left","location":[13.406,52.52]}},
      {"distance":0,"duration":0,"name":"Third Avenue","maneuver":{"type":"arrive","location":[13.406,52.524]}}]}]}]}
      """
    let server = try FixtureHTTPServer { _ in .text(body) }
    let http = try HTTPClient(options: HTTPClientOptions(userAgent: "geophoto-tests"))
    let d = try RoutingClient(endpoint: server.baseURL, engine: .osrm, profile: "driving", client: http)
      .route(through: [Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.524, longitude: 13.406)])
    #expect(server.requests.first?.path == "/route/v1/driving/13.400000,52.520000;13.406000,52.524000")
    #expect(server.requests.first?.query["steps"] == "true")
    #expect(
      d.legs[0].steps.map(\.instruction) == [
        "Head east on Alpha Street", "Turn left onto Third Avenue", "You have arrived at your destination",
      ])
    #expect(d.geometry.count == 5 && d.waypoints.map(\.name) == ["Alpha Street", "Third Avenue"])
    let refused = try FixtureHTTPServer { _ in
      .text("{\"code\":\"InvalidQuery\",\"message\":\"Query string malformed\"}", status: 400)
    }
    do {
      _ = try RoutingClient(endpoint: refused.baseURL, engine: .osrm, client: http)
        .route(through: [Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 2, longitude: 2)])
      Issue.record("no error")
    } catch {
      #expect(error.kind == .invalidQuery && error.description.contains("InvalidQuery"))
    }
  }
}
