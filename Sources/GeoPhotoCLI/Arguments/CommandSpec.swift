/// A declarative description of one command: it drives parsing, validation and help, so the
/// help text can never disagree with what the parser accepts.
struct CommandSpec: Sendable {
  /// What a shell may offer for a value: drives the completion scripts.
  enum Completion: Sendable, Equatable {
    /// One of these words.
    case values([String])
    case file
    case directory
  }

  struct Argument: Sendable {
    var name: String
    var help: String
    var repeating = false
    var optional = false
    var completion: Completion?
  }

  struct Option: Sendable {
    var long: String
    var short: Character?
    /// `nil` for a flag (no value).
    var valueName: String?
    var help: String
    var defaultText: String?
    var repeating = false
    /// The key of the setting this option overrides (flags beat environment and file); see
    /// `Setting.option`.
    var setting: String?
    /// The environment variable of that setting, for help.
    var environment: String?
    var completion: Completion?
  }

  var name: String
  var abstract: String
  var discussion: String?
  var arguments: [Argument] = []
  var options: [Option] = []
  var examples: [String] = []

  static let help = FlagOption(long: "help", short: "h", help: "Show help information.")
  static let config = ValueOption.text(
    "config", valueName: "path", help: "The configuration file.", completion: .file
  ).defaulting(shown: "~/.config/geophoto/config")
  static let configEnvironment = "GEOPHOTO_CONFIG"
  static let helpOption = help.spec
  static let dbOption = Setting.index.option
  static let configOption = {
    var option = config.spec
    option.environment = configEnvironment
    return option
  }()

  var allOptions: [Option] { options + [Self.dbOption, Self.configOption, Self.helpOption] }

  func option(named long: String) -> Option? { allOptions.first { $0.long == long } }
  func option(short: Character) -> Option? { allOptions.first { $0.short == short } }

  /// `geophoto near <lat,lon> [--limit <n>] ...`
  var usage: String {
    var parts = ["geophoto", name]
    for a in arguments {
      var text = "<\(a.name)>"
      if a.repeating { text += " ..." }
      parts.append(a.optional ? "[\(text)]" : text)
    }
    for o in options {
      let value = o.valueName.map { " <\($0)>" } ?? ""
      parts.append("[--\(o.long)\(value)]")
    }
    return parts.joined(separator: " ")
  }
}

/// Parsed command-line values, checked against a `CommandSpec`.
struct ParsedArguments: Sendable {
  var positionals: [String] = []
  var values: [String: [String]] = [:]
  var flags: Set<String> = []

  // By name only here: commands read an option through its declaration (`ValueOption`,
  // `FlagOption`), typed.
  fileprivate func value(_ long: String) -> String? { values[long]?.last }
}

extension ParsedArguments {
  /// The option's value, nil when it was not given.
  func value<V>(_ option: ValueOption<V>) throws(UsageError) -> V? {
    guard let text = value(option.long) else { return nil }
    do {
      return try option.read(text)
    } catch {
      throw UsageError("The value '\(text)' is invalid for '--\(option.long) <\(option.valueName)>': \(error)")
    }
  }

  /// Every value a repeatable option was given, in order.
  func values<V>(_ option: ValueOption<V>) throws(UsageError) -> [V] {
    var read: [V] = []
    for text in values[option.long] ?? [] {
      do {
        read.append(try option.read(text))
      } catch {
        throw UsageError("The value '\(text)' is invalid for '--\(option.long) <\(option.valueName)>': \(error)")
      }
    }
    return read
  }

  /// The option's value, or its default.
  func value<V>(_ option: DefaultedOption<V>) throws(UsageError) -> V {
    try value(option.option) ?? option.defaultValue
  }

  /// The option's value; a usage error when it was not given.
  func required<V>(_ option: ValueOption<V>) throws(UsageError) -> V {
    guard let value = try value(option) else {
      throw UsageError("Missing expected option '--\(option.long) <\(option.valueName)>'")
    }
    return value
  }

  /// Whether the option was given at all.
  func isGiven<V>(_ option: ValueOption<V>) -> Bool { values[option.long] != nil }

  /// Whether the flag was given.
  func has(_ flag: FlagOption) -> Bool { flags.contains(flag.long) }
}

/// A problem with how the command was called; printed with the usage line, exit 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A runtime failure; printed as one `Error:` line, exit 1.
struct RuntimeError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

enum ArgumentParser {
  /// Splits `arguments` (after the command name) according to `spec`.
  ///
  /// Accepts `--name value`, `--name=value`, `-n value`, grouped short flags and `--` before
  /// positionals. A token such as `-33.8,151.2` is a value, not an option: negative
  /// coordinates need no quoting tricks.
  static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var i = 0
    var onlyPositionals = false
    func takeValue(for option: CommandSpec.Option, inline: String?) throws(UsageError) -> String {
      if let inline { return inline }
      guard i + 1 < arguments.count else {
        throw UsageError("Missing value for '--\(option.long) <\(option.valueName ?? "value")>'")
      }
      i += 1
      return arguments[i]
    }
    func record(_ option: CommandSpec.Option, inline: String?) throws(UsageError) {
      if option.valueName == nil {
        if inline != nil { throw UsageError("The flag '--\(option.long)' does not take a value") }
        parsed.flags.insert(option.long)
      } else {
        let value = try takeValue(for: option, inline: inline)
        if !option.repeating, parsed.values[option.long] != nil {
          parsed.values[option.long] = [value]
        } else {
          parsed.values[option.long, default: []].append(value)
        }
      }
    }
    while i < arguments.count {
      let token = arguments[i]
      defer { i += 1 }
      if onlyPositionals || token == "-" || !token.hasPrefix("-") || looksNumeric(token) {
        parsed.positionals.append(token)
      } else if token == "--" {
        onlyPositionals = true
      } else if token.hasPrefix("--") {
        let body = token.dropFirst(2)
        let name: Substring
        var inline: String?
        if let eq = body.firstIndex(of: "=") {
          name = body[..<eq]
          inline = String(body[body.index(after: eq)...])
        } else {
          name = body
        }
        guard let option = spec.option(named: String(name)) else {
          throw UsageError("Unknown option '--\(name)'")
        }
        try record(option, inline: inline)
      } else {
        let letters = Array(token.dropFirst())
        for (k, letter) in letters.enumerated() {
          guard let option = spec.option(short: letter) else {
            throw UsageError("Unknown option '-\(letter)'")
          }
          if option.valueName != nil {
            let rest = String(letters[(k + 1)...])
            try record(option, inline: rest.isEmpty ? nil : rest)
            break
          }
          try record(option, inline: nil)
        }
      }
    }
    return parsed
  }

  /// `-33.8`, `-33.8,151.2`, `-.5`: a negative number, not an option.
  static func looksNumeric(_ token: String) -> Bool {
    guard token.hasPrefix("-"), let next = token.dropFirst().first else { return false }
    return next.isNumber || next == "."
  }
}
