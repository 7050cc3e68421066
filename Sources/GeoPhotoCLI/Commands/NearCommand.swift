import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoStore

enum NearCommand {
  static let spec = CommandSpec(
    name: "near",
    abstract: "List the indexed photos nearest to a place, as map annotations.",
    discussion: """
      Results are in exact great-circle order (ties by id), nearest first. Distances are
      metres on a sphere of the mean Earth radius (6371008.8 m), within 0.56 % of the
      WGS84 ellipsoid.
      """,
    arguments: [.init(name: "lat,lon", help: "The place, such as 35.68,139.76 or '35.68, 139.76'.")],
    options: [
      .init(
        long: "limit", short: "n", valueName: "n", help: "The most photos to list (also GEOPHOTO_LIMIT).",
        defaultText: "20"),
      .init(
        long: "radius", short: "r", valueName: "distance",
        help: "Only photos within this distance: metres, or with a unit (500m, 2km, 1mi).",
        defaultText: "unlimited"),
      .init(
        long: "format", short: "f", valueName: "format", help: "table, json, geojson or csv (also GEOPHOTO_FORMAT).",
        defaultText: "table"),
    ],
    examples: [
      "geophoto near 35.68,139.76",
      "geophoto near '35.68, 139.76' --radius 2km --format json",
      "geophoto near -33.8568,151.2153 --limit 5",
    ])

  static func run(_ context: CommandContext) throws -> Int32 {
    let positionals = context.parsed.positionals
    guard !positionals.isEmpty else { throw UsageError("Missing expected argument '<lat,lon>'") }
    // "35.68, 139.76" typed without quotes arrives as two arguments: read them as one.
    let center = try InputParser.coordinate(positionals.joined(separator: " "))
    let config = context.configuration
    let query = NearQuery(center: center, limit: config.limit, radius: config.radius)

    var annotations: [Annotation] = []
    var empty = true
    if FileManager.default.fileExists(atPath: config.databasePath) {
      let store = try PhotoStore(url: context.databaseURL, create: false)
      let index = try store.spatialIndex()
      empty = index.isEmpty
      let neighbors = index.nearest(to: center, limit: query.limit, maximumDistance: query.radius)
      let distances = Dictionary(neighbors.map { ($0.id, $0.distance) }, uniquingKeysWith: { a, _ in a })
      annotations = try store.photos(ids: neighbors.map(\.id)).compactMap {
        Annotation(photo: $0, distance: distances[$0.id])
      }
    }
    if empty {
      context.console.err(
        "hint: the index at \(config.databasePath) has no located photos; run 'geophoto sync DIR' first\n")
    }
    context.console.out(render(annotations, query: query, format: config.format))
    return ExitStatus.success
  }

  static func render(_ annotations: [Annotation], query: NearQuery, format: OutputFormat) -> String {
    switch format {
    case .table: return annotations.isEmpty ? "" : AnnotationEncoding.table(annotations)
    case .json: return AnnotationEncoding.json(annotations, query: query).serialized(pretty: true) + "\n"
    case .geojson: return AnnotationEncoding.geoJSON(annotations).serialized(pretty: true) + "\n"
    case .csv: return AnnotationEncoding.csv(annotations)
    }
  }
}
