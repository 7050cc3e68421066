import Foundation
import GeoPhotoCore
import GeoPhotoPlaces
import GeoPhotoStore

/// Place names for the commands: naming photos' places in the index, and reading place names
/// where a coordinate is expected.
enum PlaceNames {
  static func gazetteerURL(_ context: CommandContext) -> URL? {
    Gazetteer.locate(indexDirectory: context.indexDirectory)
  }

  static func gazetteer(_ context: CommandContext) throws -> Gazetteer? {
    guard let url = gazetteerURL(context) else { return nil }
    return try load(url)
  }

  static func load(_ url: URL) throws -> Gazetteer {
    do {
      return try Gazetteer(contentsOf: url)
    } catch {
      throw RuntimeError("the place-name file \(url.path) is damaged: \(error)")
    }
  }

  /// Names the places of photos that have none yet (or were named with another gazetteer).
  static func assign(_ store: any PhotoStore, _ context: CommandContext) throws {
    // Loading the gazetteer costs tens of milliseconds: only when some photo needs it.
    guard let url = gazetteerURL(context), let identity = Gazetteer.identity(at: url),
      try store.hasPhotosToPlace(gazetteer: Int64(identity))
    else { return }
    let g = try load(url)
    let radius = context.configuration.placeRadius
    let count = try store.assignPlaces(gazetteer: Int64(g.identity)) { c in
      g.nearest(to: c, within: radius).map {
        PlaceName(
          name: $0.place.name, admin1: $0.place.admin1, admin2: $0.place.admin2, countryCode: $0.place.countryCode,
          distance: $0.distance)
      }
    }
    if count > 0 { try store.refreshDerivedIndexes() }
  }

  /// A coordinate (`35.68,139.76`) or a place name (`Tokyo`, `Kyoto, JP`); an ambiguous name
  /// takes the most populous match and says which on stderr.
  static func coordinate(_ text: String, _ context: CommandContext) throws -> Coordinate {
    do {
      return try InputParser.coordinate(text)
    } catch let failure {
      // A number after the last comma (`nan,0`, `35.6,east`): a mistyped coordinate, not a name.
      let last = text.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
      let looksLikeCoordinate = text.contains(",") && (InputParser.number(last) != nil || text.first?.isNumber == true)
      guard !looksLikeCoordinate, let g = try gazetteer(context) else { throw failure }
      let matches = g.places(named: text)
      guard let first = matches.first else {
        let suggestions = g.suggestions(for: text)
        let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"
        throw UsageError("'\(text)' is neither a coordinate (LAT,LON) nor a known place\(hint)")
      }
      if matches.count > 1 {
        context.console.err(
          "note: '\(text)' matches \(matches.count) places; using \(first.label) (\(String(format: "%.4f,%.4f", first.coordinate.latitude, first.coordinate.longitude)))\n"
        )
      }
      return first.coordinate
    }
  }
}

enum PlacesCommand {
  static let spec = CommandSpec(
    name: "places",
    abstract: "Replace the place names with a GeoNames dump you downloaded.",
    discussion: """
      geophoto ships place names from GeoNames (cities with 1000 or more inhabitants, 2015
      data). 'places import' reads a newer or larger dump (cities500.txt, cities1000.txt,
      allCountries.txt…) with admin1CodesASCII.txt and, optionally, admin2Codes.txt from
      download.geonames.org, stores it beside the index, and names every photo's place again.
      """,
    arguments: [
      .init(name: "import", help: "The action (import)."), .init(name: "cities.txt", help: "A GeoNames cities dump."),
      .init(name: "admin1CodesASCII.txt", help: "Names of first-level divisions."),
      .init(name: "admin2Codes.txt", help: "Names of second-level divisions.", optional: true),
    ],
    examples: ["geophoto places import cities500.txt admin1CodesASCII.txt admin2Codes.txt"])

  static func run(_ context: CommandContext) throws -> Int32 {
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
    let places: [Place]
    do {
      places = try GazetteerBuilder.placesFromGeoNames(
        cities: try text(p[1]), admin1: try text(p[2]), admin2: p.count == 4 ? try text(p[3]) : nil)
    } catch let error as GazetteerBuilder.InputError {
      throw RuntimeError(error.description)
    }
    guard !places.isEmpty else { throw RuntimeError("\(p[1]) holds no places") }
    let bytes: [UInt8]
    do {
      bytes = try GazetteerBuilder.build(places)
    } catch {
      throw RuntimeError(error.description)
    }
    guard let store = try context.openStore(create: true) else { return ExitStatus.failure }
    let target = context.indexDirectory.appendingPathComponent(Gazetteer.importedName)
    try FileManager.default.createDirectory(at: context.indexDirectory, withIntermediateDirectories: true)
    try Data(bytes).write(to: target, options: .atomic)
    try PlaceNames.assign(store, context)
    context.console.out("imported \(places.count) places into \(target.path); photos named again\n")
    return ExitStatus.success
  }
}
