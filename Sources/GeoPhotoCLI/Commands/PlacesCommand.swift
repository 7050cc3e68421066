import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoPlaces
import GeoPhotoStore
import GeoPhotoTravel

enum PlacesCommand: Subcommand {
  static let spec = CommandSpec(
    name: "places",
    abstract: "List the places your photos were taken in, or replace the place names with a GeoNames dump.",
    discussion: """
      'places visited' lists where the photos were taken: countries, their first-level regions
      and their cities, each with its photo count, the first and last day there (local time),
      the id of the photo nearest its middle and the box around its photos. It counts your own
      photos (local ones) unless --source names others, and takes the same filters as 'near'.

      geophoto ships place names from GeoNames (cities500, 2026: places with their populations
      and time zones) and Natural Earth's country outlines. 'places import' reads a newer or
      other dump (cities500.txt, cities1000.txt, cities5000.txt, cities15000.txt) with
      admin1CodesASCII.txt and, optionally, admin2Codes.txt from download.geonames.org (and
      country names from countryInfo.txt with --countries), keeps the shipped country outlines,
      stores it beside the index, and names every photo's place again.
      """,
    arguments: [
      .init(name: "visited|import", help: "The action.", completion: .values(["visited", "import"])),
      .init(name: "cities.txt", help: "import: a GeoNames cities dump.", optional: true, completion: .file),
      .init(
        name: "admin1CodesASCII.txt", help: "import: names of first-level divisions.", optional: true, completion: .file
      ),
      .init(
        name: "admin2Codes.txt", help: "import: names of second-level divisions.", optional: true, completion: .file),
    ],
    options: [level.spec, order.spec, format.spec] + FilterOptions.options + [countries.spec],
    examples: [
      "geophoto places visited", "geophoto places visited --level country --sort date",
      "geophoto places visited --since 2024 --format csv",
      "geophoto places import cities500.txt admin1CodesASCII.txt admin2Codes.txt",
    ])

  static let level = ValueOption<PlaceLevel>.choice(
    "level", valueName: "level", help: "visited: how deep the list goes: {choices}."
  ).defaulting(to: .city) { $0.rawValue }
  static let order = ValueOption<PlaceOrder>.choice(
    "sort", valueName: "order", help: "visited: {choices} (most photos first, by name, by first visit)."
  ).defaulting(to: .count) { $0.rawValue }
  static let format = ValueOption<OutputFormat>.choice(
    "format", short: "f", valueName: "format", help: "visited: {choices}."
  ).defaulting(to: .table) { $0.rawValue }

  static let countries = ValueOption.text(
    "countries", valueName: "countryInfo.txt", help: "import: country names (else the shipped ones).",
    completion: .file)

  static func run(_ context: CommandContext) throws {
    let p = context.parsed.positionals
    switch p.first {
    case "visited": try visited(context)
    case "import": try importPlaces(context)
    case nil: throw UsageError("Missing expected argument '<visited|import>'")
    case let action?: throw UsageError("Unknown action '\(action)'; expected 'visited' or 'import'")
    }
  }

  /// `places visited`: the tree of places the photos were taken in.
  static func visited(_ context: CommandContext) throws {
    let parsed = context.parsed
    guard parsed.positionals.count == 1 else { throw UsageError("Unexpected argument '\(parsed.positionals[1])'") }
    let filter = try FilterOptions.filter(parsed)
    let level = try parsed.value(Self.level)
    let order = try parsed.value(Self.order)
    let photos = try context.openStore(.readWrite).map { try DatedPhotos.read(from: $0, passing: filter) } ?? []
    let names = try PlaceNames.gazetteer(context)?.countryNamesByCode ?? [:]
    let visited = PlacesVisited(photos, level: level, order: order) { names[$0] ?? $0 }
    if visited.countries.isEmpty {
      context.console.err("no located photos\(filter.isEmpty ? "" : " pass the filters"); nothing was visited\n")
    }
    context.console.out(
      try parsed.value(Self.format).render(PlacesVisitedDocument(visited, level: level, order: order)))
  }

  /// `places import`: a GeoNames dump in place of the shipped place names.
  static func importPlaces(_ context: CommandContext) throws {
    let p = context.parsed.positionals
    guard p.count == 3 || p.count == 4 else {
      throw UsageError("Expected the cities file, the admin1 codes and optionally the admin2 codes")
    }
    func text(_ path: String) throws -> String {
      guard let data = FileManager.default.contents(atPath: path) else { throw RuntimeError("cannot read \(path)") }
      return String(decoding: data, as: UTF8.self)
    }
    // The shipped gazetteer's countries and outlines come along: a dump has no outlines.
    let shipped = try Gazetteer.shippedURL.map(PlaceNames.load)?.countryData ?? (countries: [], rings: [])
    let places: [Place]
    let bytes: [UInt8]
    do {
      places = try GazetteerBuilder.placesFromGeoNames(
        cities: try text(p[1]), admin1: try text(p[2]), admin2: p.count == 4 ? try text(p[3]) : nil)
      guard !places.isEmpty else { throw RuntimeError("\(p[1]) holds no places") }
      let countries = try context.parsed.value(Self.countries).map {
        try GazetteerBuilder.countriesFromGeoNames(text($0))
      }
      bytes = try GazetteerBuilder.build(places, countries: countries ?? shipped.countries, rings: shipped.rings)
    } catch let error as GazetteerBuilder.InputError {
      throw RuntimeError(error.description)
    }
    let store = try context.openOrCreateStore()
    let target = context.indexDirectory.appendingPathComponent(Gazetteer.importedName)
    try FileManager.default.createDirectory(at: context.indexDirectory, withIntermediateDirectories: true)
    try Data(bytes).write(to: target, options: .atomic)
    let namer = try PlaceNames.load(target).namer(within: context.configuration.places.radius)
    try store.write { _ = try store.assignPlaces(with: namer) }
    try store.refreshDerivedIndexes()
    context.console.out("imported \(places.count) places into \(target.path); photos named again\n")
  }
}
