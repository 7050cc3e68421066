import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoRemote
import GeoPhotoStore

enum NearCommand: Subcommand {
  static let spec = CommandSpec(
    name: "near",
    abstract: "List the indexed photos nearest to a place, as map annotations.",
    discussion: """
      Results are in exact great-circle order (ties by id), nearest first. Distances are
      metres on a sphere of the mean Earth radius (6371008.8 m), within 0.56 % of the
      WGS84 ellipsoid.
      """,
    arguments: [
      .init(name: "lat,lon", help: "The place: 35.68,139.76, '35.68, 139.76', or a name such as Tokyo or 'Kyoto, JP'.")
    ],
    options: [
      Setting.nearLimit.option,
      Setting.nearRadius.option,
      Setting.nearFormat.option,
      sort.spec,
    ] + FilterOptions.options + [
      fetchFlag.spec,
      Setting.nearMaxAge.option,
      RemoteSources.verboseOption,
    ],
    examples: [
      "geophoto near 35.68,139.76",
      "geophoto near '35.68, 139.76' --radius 2km --format json",
      "geophoto near -33.8568,151.2153 --limit 5",
      "geophoto near 35.68,139.76 --fetch --source local --source commons",
      "geophoto near Kyoto --since 2024-03-01 --until 2024-05-31",
      "geophoto near 35.68,139.76 --on 2024-05-03",
    ])

  static let sort = ValueOption<AnswerOrder>.choice(
    "sort", valueName: "order", help: "{choices}: nearest first, or by capture time."
  ).defaulting(to: .distance) { $0.rawValue }
  static let fetchFlag = FlagOption(
    long: "fetch", help: "First fetch remote photos around the place, unless fetched within --max-age.")

  static func run(_ context: CommandContext) throws {
    let center = try PlaceNames.placeArgument(context)
    let config = context.configuration
    let filter = try FilterOptions.filter(context.parsed)
    let query = NearQuery(center: center, limit: config.near.limit, radius: config.near.radius, filter: filter)
    let order = try context.parsed.value(sort)
    if context.parsed.has(fetchFlag) { try fetch(around: center, sources: filter.sources, context: context) }

    var annotations: [Annotation] = []
    var empty = true
    var location = CommandContext.stores.redacted(config.databasePath)
    if let store = try context.openStore(.readWrite) {
      location = store.location
      let neighbors = try store.nearest(query)
      let distances = Dictionary(neighbors.map { ($0.id, $0.distance) }, uniquingKeysWith: { a, _ in a })
      let photos = try store.photos(ids: neighbors.map(\.id))
      let files = try store.files(of: photos)
      annotations = photos.compactMap { photo in
        var a = Annotation(photo: photo, distance: distances[photo.id])
        a?.files = files[photo.id] ?? []
        return a
      }
      // Only an empty answer asks whether the index is empty (for the hint).
      empty = neighbors.isEmpty ? try !store.hasLocatedPhotos() : false
    }
    annotations = order.sorted(annotations)
    if empty {
      context.console.err(
        "hint: the index at \(location) has no located photos; run 'geophoto sync DIR' first\n")
    }
    context.console.out(config.near.format.render(AnnotationDocument(annotations, query: query)))
  }

  /// `--fetch`: asks each remote source for the area unless it was fetched within
  /// `--max-age`. A provider that fails is reported and the answer comes from the index.
  static func fetch(around center: Coordinate, sources: Set<PhotoSource>?, context: CommandContext) throws {
    let wanted = sources?.subtracting([.local])
    if let wanted, wanted.isEmpty { return }
    let config = context.configuration
    let store = try context.openOrCreateStore()
    let engine = FetchEngine(store: store, namer: PlaceNames.namer(context))
    let radius = config.near.radius ?? config.fetch.radius
    let now = IndexTime.now()
    for provider in try RemoteSources.providers(wanted: wanted, context: context) {
      do {
        let report = try engine.fetch(
          provider, center: center, radius: min(radius, provider.maximumRadius), limit: config.fetch.maximum ?? Int.max,
          maxAge: config.near.maxAge, now: now)
        if context.parsed.has(RemoteSources.verbose) { context.console.err(RemoteSources.describe(report) + "\n") }
      } catch let error as RemoteError {
        context.console.err("warning: \(error); answering from the index\n")
      }
    }
  }
}
