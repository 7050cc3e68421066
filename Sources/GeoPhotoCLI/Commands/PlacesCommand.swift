import Foundation
import GeoPhotoCore
import GeoPhotoPlaces
import GeoPhotoStore

enum PlacesCommand: Subcommand {
  static let spec = CommandSpec(
    name: "places",
    abstract: "Replace the place names with a GeoNames dump you downloaded.",
    discussion: """
      geophoto ships place names from GeoNames (cities500, 2026: places with their populations
      and time zones) and Natural Earth's country outlines. 'places import' reads a newer or
      other dump (cities500.txt, cities1000.txt, cities5000.txt, cities15000.txt) with
      admin1CodesASCII.txt and, optionally, admin2Codes.txt from download.geonames.org (and
      country names from countryInfo.txt with --countries), keeps the shipped country outlines,
      stores it beside the index, and names every photo's place again.
      """,
    arguments: [
      .init(name: "import", help: "The action (import).", completion: .values(["import"])),
      .init(name: "cities.txt", help: "A GeoNames cities dump.", completion: .file),
      .init(name: "admin1CodesASCII.txt", help: "Names of first-level divisions.", completion: .file),
      .init(name: "admin2Codes.txt", help: "Names of second-level divisions.", optional: true, completion: .file),
    ],
    options: [countries.spec],
    examples: ["geophoto places import cities500.txt admin1CodesASCII.txt admin2Codes.txt"])

  static let countries = ValueOption.text(
    "countries", valueName: "countryInfo.txt", help: "Country names (else the shipped ones).", completion: .file)

  static func run(_ context: CommandContext) throws {
    let p = context.parsed.positionals
    guard p.first == "import" else {
      throw UsageError(
        p.isEmpty ? "Missing expected argument '<import>'" : "Unknown action '\(p[0])'; expected 'import'")
    }
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
