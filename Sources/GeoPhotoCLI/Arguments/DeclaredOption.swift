import GeoPhotoCore

/// A command-line option that takes a value, declared once, as swift-argument-parser declares
/// one: its names, value name, help and completions, and how its text becomes a value of its
/// type. The command's spec lists `spec`; `run` reads the typed value with
/// `parsed.value(Self.option)`, never a name in a string. A bad value is one usage error that
/// names the option and says what it takes.
struct ValueOption<Value: Sendable>: Sendable {
  var long: String
  var short: Character?
  var valueName: String
  var help: String
  var completion: CommandSpec.Completion?
  var repeating = false
  /// Reads one value; the failure says what the option takes.
  var read: @Sendable (String) throws(InputParser.Failure) -> Value

  var spec: CommandSpec.Option {
    CommandSpec.Option(
      long: long, short: short, valueName: valueName, help: help, repeating: repeating, completion: completion)
  }

  /// The same option with a default: help shows it (as `shown` writes it), and reading never
  /// gives nil.
  func defaulting(to value: Value, shown: (Value) -> String) -> DefaultedOption<Value> {
    DefaultedOption(option: self, defaultValue: value, defaultText: shown(value))
  }

  /// The same option with a default that is no value (`all`, `the file's`), shown as `text`.
  func defaulting(shown text: String) -> DefaultedOption<Value?> {
    let read = self.read
    return DefaultedOption(
      option: ValueOption<Value?>(
        long: long, short: short, valueName: valueName, help: help, completion: completion, repeating: repeating
      ) { text throws(InputParser.Failure) in try read(text) },
      defaultValue: nil, defaultText: text)
  }
}

/// A value option with its default, written once here.
struct DefaultedOption<Value: Sendable>: Sendable {
  var option: ValueOption<Value>
  var defaultValue: Value
  var defaultText: String

  var spec: CommandSpec.Option {
    var spec = option.spec
    spec.defaultText = defaultText
    return spec
  }
}

/// An option without a value: present or not.
struct FlagOption: Sendable {
  var long: String
  var short: Character?
  var help: String

  var spec: CommandSpec.Option { CommandSpec.Option(long: long, short: short, valueName: nil, help: help) }
}

extension ValueOption where Value == String {
  /// Text, taken as it is.
  static func text(
    _ long: String, short: Character? = nil, valueName: String, help: String,
    completion: CommandSpec.Completion? = nil, repeating: Bool = false
  ) -> ValueOption<String> {
    ValueOption(
      long: long, short: short, valueName: valueName, help: help, completion: completion, repeating: repeating
    ) { $0 }
  }
}

extension ValueOption where Value == Int {
  /// A whole number within `range`.
  static func integer(
    _ long: String, short: Character? = nil, valueName: String = "n", _ range: ClosedRange<Int>, help: String
  ) -> ValueOption<Int> {
    ValueOption(long: long, short: short, valueName: valueName, help: help) { text throws(InputParser.Failure) in
      guard let n = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(n) else {
        throw InputParser.Failure("expected a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return n
    }
  }
}

extension ValueOption where Value == Double {
  /// How far from a route photos count as along it (`RouteSearch.defaultWithin` unless given).
  static func within(short: Character? = nil, help: String) -> DefaultedOption<Double> {
    distance("within", short: short, help: help).defaulting(to: RouteSearch.defaultWithin) { "\(Int($0))m" }
  }

  /// A distance in metres: `500`, `500m`, `2km`, `1mi`.
  static func distance(_ long: String, short: Character? = nil, help: String) -> ValueOption<Double> {
    ValueOption(long: long, short: short, valueName: "distance", help: help) { text throws(InputParser.Failure) in
      try InputParser.distance(text)
    }
  }

  /// A duration in seconds: `90`, `30m`, `12h`, `1d`.
  static func duration(_ long: String, short: Character? = nil, help: String) -> ValueOption<Double> {
    ValueOption(long: long, short: short, valueName: "duration", help: help) { text throws(InputParser.Failure) in
      try InputParser.duration(text)
    }
  }

  /// A decimal number within `range`.
  static func number(
    _ long: String, short: Character? = nil, valueName: String, _ range: ClosedRange<Double>, help: String
  ) -> ValueOption<Double> {
    ValueOption(long: long, short: short, valueName: valueName, help: help) { text throws(InputParser.Failure) in
      guard let n = InputParser.number(text), range.contains(n) else {
        throw InputParser.Failure("expected a number from \(range.lowerBound) to \(range.upperBound)")
      }
      return n
    }
  }
}

extension ValueOption where Value: CaseIterable & RawRepresentable, Value.RawValue == String, Value: Sendable {
  /// One of an enumeration's cases, by its raw value: help, completions and the error list
  /// them from the type.
  static func choice(_ long: String, short: Character? = nil, valueName: String, help: String) -> ValueOption<Value> {
    let names = Value.allCases.map(\.rawValue)
    let listed = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    return ValueOption(
      long: long, short: short, valueName: valueName, help: help.replacing("{choices}", with: listed),
      completion: .values(names)
    ) { text throws(InputParser.Failure) in
      guard let value = Value(rawValue: text.lowercased()) else { throw InputParser.Failure("expected \(listed)") }
      return value
    }
  }
}
