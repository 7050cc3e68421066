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
    context.console.out(config.near.format.render(DirectionsDocument(directions)))
  }
}
