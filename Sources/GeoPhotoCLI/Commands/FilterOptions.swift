import GeoPhotoCore

/// The options that choose which photos a query takes, the same on every command that lists
/// photos: `FilterField`'s six filters as options (`--source`, `--since`, `--until`, `--on`,
/// `--camera`, `--text`).
enum FilterOptions {
  /// `--name <value>` for each filter, its help and completions from the filter's declaration.
  static let options: [CommandSpec.Option] = FilterField.allCases.map(option)

  static func option(_ field: FilterField) -> CommandSpec.Option {
    CommandSpec.Option(
      long: field.rawValue, short: field == .source ? "s" : nil, valueName: field.valueName, help: field.help + ".",
      defaultText: field == .source ? "all" : nil, repeating: field.repeatable,
      completion: field.choices.map(CommandSpec.Completion.values))
  }

  /// The filter the options name; a bad value is a usage error naming the option.
  static func filter(_ parsed: ParsedArguments) throws -> PhotoFilter {
    do {
      return try PhotoFilter { field in parsed.values[field.rawValue].map { $0.joined(separator: ",") } }
    } catch {
      throw UsageError(error.message { "'--\($0.rawValue)'" })
    }
  }
}
