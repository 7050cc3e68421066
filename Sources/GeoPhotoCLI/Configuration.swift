import Foundation
import GeoPhotoCore

/// How results are printed.
enum OutputFormat: String, CaseIterable, Sendable {
  case table, json, geojson, csv
}

/// Settings resolved from, in order of precedence: command-line flags, `GEOPHOTO_*`
/// environment variables, the configuration file, built-in defaults.
struct Configuration: Equatable, Sendable {
  var databasePath: String
  var limit = 20
  var radius: Double?
  var format = OutputFormat.table
  var jobs: Int?
  var batchSize = 1_000

  /// Every key the configuration file accepts, with its environment variable.
  static let keys: [(key: String, environment: String, help: String)] = [
    ("db", "GEOPHOTO_DB", "the index file"),
    ("near.limit", "GEOPHOTO_LIMIT", "results of 'near' (default 20)"),
    ("near.radius", "GEOPHOTO_RADIUS", "search radius of 'near' (default: unlimited)"),
    ("near.format", "GEOPHOTO_FORMAT", "output of 'near': table, json, geojson or csv"),
    ("sync.jobs", "GEOPHOTO_JOBS", "parallel readers of 'sync' (default: one per core)"),
    ("sync.batch", "GEOPHOTO_SYNC_BATCH", "files 'sync' commits per transaction (default 1000)"),
  ]

  static func defaultDatabasePath(environment: [String: String]) -> String {
    let home = environment["HOME"] ?? NSHomeDirectory()
    let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
    return data + "/geophoto/index.sqlite"
  }

  static func defaultConfigPath(environment: [String: String]) -> String {
    let home = environment["HOME"] ?? NSHomeDirectory()
    let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
    return config + "/geophoto/config"
  }

  static func expandTilde(_ path: String, environment: [String: String]) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    return (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
  }

  /// Resolves every setting for one command run.
  static func resolve(_ parsed: ParsedArguments, environment: [String: String]) throws -> Configuration {
    var config = Configuration(databasePath: defaultDatabasePath(environment: environment))
    // 1. The configuration file.
    let explicitFile = parsed.value("config") ?? environment["GEOPHOTO_CONFIG"]
    let filePath = expandTilde(explicitFile ?? defaultConfigPath(environment: environment), environment: environment)
    if FileManager.default.fileExists(atPath: filePath) {
      for (line, key, value) in try readFile(filePath) {
        do {
          try config.apply(key: key, value: value, environment: environment)
        } catch {
          throw RuntimeError("\(filePath):\(line): \(error)")
        }
      }
    } else if let explicitFile {
      throw RuntimeError("configuration file \(explicitFile) does not exist")
    }
    // 2. The environment, 3. the flags.
    for entry in keys {
      if let value = environment[entry.environment], !value.isEmpty {
        do {
          try config.apply(key: entry.key, value: value, environment: environment)
        } catch {
          throw RuntimeError("\(entry.environment): \(error)")
        }
      }
    }
    let flags: [(String, String)] = [
      ("db", "db"), ("limit", "near.limit"), ("radius", "near.radius"), ("format", "near.format"),
      ("jobs", "sync.jobs"),
    ]
    for (flag, key) in flags {
      guard let value = parsed.value(flag) else { continue }
      do {
        try config.apply(key: key, value: value, environment: environment)
      } catch {
        throw UsageError("The value '\(value)' is invalid for '--\(flag)': \(error)")
      }
    }
    return config
  }

  /// A setting's value that cannot be used; the caller adds where it came from.
  struct InvalidSetting: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  mutating func apply(key: String, value: String, environment: [String: String]) throws(InvalidSetting) {
    switch key {
    case "db":
      guard !value.isEmpty else { throw InvalidSetting("the index path is empty") }
      databasePath = Self.expandTilde(value, environment: environment)
    case "near.limit":
      guard let n = Int(value), n >= 1, n <= 100_000 else {
        throw InvalidSetting("limit must be a whole number from 1 to 100000")
      }
      limit = n
    case "near.radius":
      do {
        radius = try InputParser.distance(value)
      } catch {
        throw InvalidSetting(error.description)
      }
    case "near.format":
      guard let f = OutputFormat(rawValue: value.lowercased()) else {
        throw InvalidSetting("format must be one of: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      format = f
    case "sync.jobs":
      guard let n = Int(value), n >= 1, n <= 256 else {
        throw InvalidSetting("jobs must be a whole number from 1 to 256")
      }
      jobs = n
    case "sync.batch":
      guard let n = Int(value), n >= 1, n <= 1_000_000 else {
        throw InvalidSetting("batch must be a whole number from 1 to 1000000")
      }
      batchSize = n
    default:
      throw InvalidSetting("unknown setting '\(key)'; known: \(Self.keys.map(\.key).joined(separator: ", "))")
    }
  }

  /// Reads `key = value` lines; `#` starts a comment; blank lines are ignored.
  static func readFile(_ path: String) throws -> [(line: Int, key: String, value: String)] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RuntimeError("cannot read configuration file \(path)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw RuntimeError("\(path) is not UTF-8 text")
    }
    var entries: [(Int, String, String)] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = Substring(rawLine)
      if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
      let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
      if trimmed.isEmpty { continue }
      guard let eq = trimmed.firstIndex(of: "=") else {
        throw RuntimeError("\(path):\(index + 1): expected 'key = value', found '\(trimmed)'")
      }
      let key = trimmed[..<eq].trimmingCharacters(in: .whitespaces)
      var value = trimmed[trimmed.index(after: eq)...].trimmingCharacters(in: .whitespaces)
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast())
      }
      entries.append((index + 1, key, value))
    }
    return entries
  }
}
