import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoRoutes
import GeoPhotoStore

/// Reads a route file for a command, turning its errors into one-line runtime errors.
func readRoute(_ path: String) throws -> [RoutePoint] {
  do {
    return try RouteFile.read(URL(fileURLWithPath: path))
  } catch {
    throw RuntimeError(error.description)
  }
}

enum RouteCommand: Subcommand {
  static let spec = CommandSpec(
    name: "route",
    abstract: "Describe a route file: points, length, bounds and the map region that shows it.",
    discussion: """
      Route files are CSV (one 'lat,lon' per line), GPX (tracks and routes) or GeoJSON
      (a LineString). The region is centred on the centre of the route's bounds and spans
      --padding times the bounds, across the antimeridian too.
      """,
    arguments: [
      .init(name: "show", help: "The action (show).", completion: .values(["show"])),
      .init(name: "file", help: "A .csv, .gpx or .geojson route.", completion: .file),
    ],
    options: [
      Setting.nearFormat.option,
      padding.spec,
    ],
    examples: ["geophoto route show walk.gpx", "geophoto route show route.csv --format json"])

  static let padding = ValueOption.number(
    "padding", valueName: "factor", 1...100, help: "Region span as a multiple of the bounds."
  ).defaulting(to: RouteGeometry.defaultPadding) { String($0) }

  static func run(_ context: CommandContext) throws {
    let p = context.parsed.positionals
    guard let action = p.first else { throw UsageError("Missing expected argument '<show>'") }
    guard action == "show" else { throw UsageError("Unknown action '\(action)'; expected 'show'") }
    guard p.count == 2 else {
      throw p.count < 2 ? UsageError("Missing expected argument '<file>'") : UsageError("Unexpected argument '\(p[2])'")
    }
    let padding = try context.parsed.value(Self.padding)
    let points = try readRoute(p[1]).map(\.coordinate)
    guard let bounds = RouteGeometry.bounds(points) else { throw RuntimeError("\(p[1]): no points") }
    let length = RouteGeometry.length(points)
    let region = RouteGeometry.region(for: bounds, padding: padding)
    let document = RouteSummaryDocument(points: points, length: length, bounds: bounds, region: region)
    context.console.out(context.configuration.near.format.render(document))
  }
}

enum AlongCommand: Subcommand {
  static let spec = CommandSpec(
    name: "along",
    abstract: "List the indexed photos near a route, in the order the route passes them.",
    arguments: [.init(name: "file", help: "A .csv, .gpx or .geojson route.", completion: .file)],
    options: [
      within.spec, limit.spec,
      Setting.nearFormat.option,
    ] + FilterOptions.options,
    examples: ["geophoto along walk.gpx --within 200m", "geophoto along route.csv -w 1km --format geojson"])

  static let within = ValueOption.within(short: "w", help: "How far from the route (200m, 1km).")
  static let limit = ValueOption.integer("limit", short: "n", 1...Int.max, help: "The most photos to list.")
    .defaulting(shown: "all")

  static func run(_ context: CommandContext) throws {
    let p = context.parsed.positionals
    guard p.count == 1 else {
      throw p.isEmpty ? UsageError("Missing expected argument '<file>'") : UsageError("Unexpected argument '\(p[1])'")
    }
    let within = try context.parsed.value(Self.within)
    let limit = try context.parsed.value(Self.limit) ?? Int.max
    let filter = try FilterOptions.filter(context.parsed)
    let route = try readRoute(p[0]).map(\.coordinate)
    var annotations: [Annotation] = []
    if let store = try context.openStore(.readWrite) {
      let index = try store.spatialIndex(along: route, within: within, filter: filter)
      var coordinates: [Int64: Coordinate?] = [:]
      let found = RouteSearch.points(along: route, within: within, index: index) { id in
        if let c = coordinates[id] { return c }
        let photo = try? store.photo(id: id)
        let c = photo.flatMap { filter.includes($0) ? $0.coordinate : nil }
        coordinates[id] = c
        return c
      }
      for hit in found.prefix(limit) {
        guard let photo = try store.photo(id: hit.id),
          var a = Annotation(photo: photo, distance: hit.projection.distanceFromRoute)
        else { continue }
        a.distanceAlong = hit.projection.distanceAlong
        a.files = try store.files(of: [photo])[photo.id] ?? []
        annotations.append(a)
      }
    }
    let center = route[0]
    let query = NearQuery(
      center: center, limit: limit == Int.max ? annotations.count : limit, radius: within, filter: filter)
    context.console.out(context.configuration.near.format.render(AnnotationDocument(annotations, query: query)))
  }
}
