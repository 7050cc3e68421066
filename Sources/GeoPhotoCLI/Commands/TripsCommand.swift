import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoTravel

enum TripsCommand: Subcommand {
  static let spec = CommandSpec(
    name: "trips",
    abstract: "Find the trips in your photos' timeline.",
    discussion: """
      A trip is a run of photos taken farther than --away from home, with no more than --gap
      between consecutive ones, and at least --min-photos of them; a day out nearer than
      --away is no trip. Home is, with --home auto, the place with the most photo-days (days
      with a photo there), and it follows a move once the new place has held the most
      photo-days for 90 days. Photos without a position belong to the trip they were taken
      during. Each trip has an id that stays while its photos stay: 'export --trip ID' and
      'snapshot --trip ID' take it. Trips are found over all your own (local) photos, or the
      sources --source names; the other filters (those of 'near') choose which trips are
      listed and which of their photos count: --since 2023 lists the trips with photos taken
      since 2023, home still found from every year.
      """,
    options: [
      Setting.tripsHome.option, Setting.tripsAway.option, Setting.tripsGap.option, Setting.tripsMinimumPhotos.option,
      format.spec,
    ] + FilterOptions.options,
    examples: [
      "geophoto trips", "geophoto trips --home Helsinki --away 150km --gap 2d",
      "geophoto trips --since 2023 --format geojson > trips.geojson",
      "geophoto export --trip t2n9c --format gpx -o japan.gpx",
    ])

  static let format = ValueOption<OutputFormat>.choice(
    "format", short: "f", valueName: "format", help: "{choices} (GeoJSON: each trip's route line)."
  ).defaulting(to: .table) { $0.rawValue }

  static func run(_ context: CommandContext) throws {
    let parsed = context.parsed
    guard parsed.positionals.isEmpty else { throw UsageError("Unexpected argument '\(parsed.positionals[0])'") }
    let filter = try FilterOptions.filter(parsed)
    let format = try parsed.value(Self.format)
    let (homes, trips) = try TripSearch.trips(context, filter: filter)
    if trips.isEmpty {
      let why = homes.isEmpty ? "no dated photos with a position" : "no run of photos away from home makes a trip"
      context.console.err("no trips: \(why)\n")
    }
    context.console.out(format.render(TripListDocument(homes: homes, trips: trips)))
  }
}
