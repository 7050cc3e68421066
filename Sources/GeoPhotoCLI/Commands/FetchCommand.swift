import Foundation
import GeoPhotoCore
import GeoPhotoRemote
import GeoPhotoStore

enum FetchCommand: Subcommand {
  static let spec = CommandSpec(
    name: "fetch",
    abstract: "Pull the public geotagged photos around a place from Flickr and Wikimedia Commons.",
    discussion: """
      Each provider's photos are stored in one transaction, keyed by the provider's id: a
      re-fetch updates photos instead of adding them twice, and a failure leaves the index
      as it was. Flickr needs an API key (GEOPHOTO_FLICKR_API_KEY or flickr.api_key) and
      searches up to 32 km; Commons needs none and searches up to 10 km.
      """,
    arguments: [.init(name: "lat,lon", help: "The place, such as 35.68,139.76.")],
    options: [
      Setting.fetchRadius.option,
      RemoteSources.sourceOption,
      Setting.fetchMax.option,
      RemoteSources.verboseOption,
    ],
    examples: [
      "geophoto fetch 35.68,139.76 --radius 3km",
      "GEOPHOTO_FLICKR_API_KEY=… geophoto fetch 48.8584,2.2945 --source flickr --max 500",
    ])

  static func run(_ context: CommandContext) throws {
    let center = try PlaceNames.placeArgument(context)
    let wanted = try RemoteSources.selected(context.parsed)
    if let wanted, wanted == [.local] {
      throw UsageError("'fetch' reaches remote sources only; local photos come from 'geophoto sync'")
    }
    let providers = try RemoteSources.providers(wanted: wanted, context: context)
    guard !providers.isEmpty else { throw RuntimeError("no remote source to fetch from") }
    let store = try context.openOrCreateStore()
    let engine = FetchEngine(store: store, namer: PlaceNames.namer(context))
    let now = IndexTime.now()
    var failed = false
    for provider in providers {
      do {
        let limit = context.configuration.fetch.maximum ?? Int.max
        let report = try engine.fetch(
          provider, center: center, radius: context.configuration.fetch.radius, limit: limit, now: now)
        context.console.out(RemoteSources.describe(report) + "\n")
      } catch let error as RemoteError {
        context.console.err("Error: \(error)\n")
        failed = true
      }
    }
    if failed { throw ExitCode.failure }
  }
}
