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

  /// What names photos' places as the engines write them: the gazetteer beside the index or
  /// shipped with geophoto, loaded only when a place is asked for; nil when there is none.
  static func namer(_ context: CommandContext) -> (any PlaceNamer)? {
    guard let url = gazetteerURL(context) else { return nil }
    return GazetteerFileNamer(url: url, radius: context.configuration.places.radius)
  }

  /// The place a command is about, from its positional arguments: `35.68,139.76`, or
  /// `35.68, 139.76` typed without quotes (two arguments, read as one), or a place name.
  static func placeArgument(_ context: CommandContext) throws -> Coordinate {
    let positionals = context.parsed.positionals
    guard !positionals.isEmpty else { throw UsageError("Missing expected argument '<lat,lon>'") }
    return try coordinate(positionals.joined(separator: " "), context)
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
      let shown = String(format: "%.4f, %.4f", first.coordinate.latitude, first.coordinate.longitude)
      if matches.count == 1 {
        // Say where the search is: a name is a guess until the user sees which place it took.
        context.console.err("\(context.command): \(first.label) (\(shown))\n")
      } else {
        // The most populous, and the next few it could have meant (a qualifier picks one).
        let others = matches.dropFirst().prefix(3).map(\.label).joined(separator: "; ")
        context.console.err(
          "note: '\(text)' matches \(matches.count) places; using the most populous, \(first.label) (\(shown)); "
            + "others: \(others)\(matches.count > 4 ? "; …" : "")\n")
      }
      return first.coordinate
    }
  }
}
