import Foundation
import GeoPhotoCore
import GeoPhotoServer

/// One setting of geophoto, described once: its key in the configuration file, its
/// environment variable, the flag that overrides it (if any), what it means, its default, and
/// how a value is checked and applied. Configuration resolution, `--help`, README's
/// configuration table and the example file are all checked against `Setting.all`.
struct Setting: Sendable {
  /// The command-line flag that overrides a setting.
  struct Flag: Sendable {
    var long: String
    var short: Character?
    /// Repeatable flags add a value each time (privacy zones).
    var repeating = false
    /// The command the flag belongs to, where other commands use the same flag name for
    /// something else (`fetch --radius`).
    var command: String?
  }

  /// The key in the configuration file: `near.limit`.
  var key: String
  /// `GEOPHOTO_LIMIT`.
  var environment: String
  var flag: Flag?
  /// How the value is shown in help: `n`, `distance`, `url`.
  var valueName: String
  /// What the setting does, as one sentence without a final full stop.
  var help: String
  /// The default, as people read it: `20`, `1km`, `one per core`.
  var defaultText: String
  /// What a shell may offer for the flag's value.
  var completion: CommandSpec.Completion? = nil
  /// Whether the value is a secret: never repeated in a message, and a configuration file
  /// that holds it should be readable by its owner alone.
  var isSecret = false
  /// Checks `value` and stores it in the configuration.
  var apply: @Sendable (inout Configuration, String, SettingEnvironment) throws -> Void

  /// The option a command shows for this setting's flag.
  var option: CommandSpec.Option {
    guard let flag else { preconditionFailure("setting \(key) has no flag") }
    return CommandSpec.Option(
      long: flag.long, short: flag.short, valueName: valueName, help: help + ".", defaultText: defaultText,
      repeating: flag.repeating, setting: key, environment: environment, completion: completion)
  }

  /// The setting with `key`, if geophoto has one.
  static func named(_ key: String) -> Setting? { all.first { $0.key == key } }
}

/// What applying a setting may need to know about the process (`~` in paths).
struct SettingEnvironment: Sendable {
  var variables: [String: String]

  func expandTilde(_ path: String) -> String { Configuration.expandTilde(path, environment: variables) }
}

/// A setting's value that cannot be used; the caller adds where it came from.
struct InvalidSetting: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The checks setting values go through, each with the message a bad value gets.
enum SettingValue {
  /// A bearer token: at least 8 characters; empty for none.
  static func token(_ value: String) throws(InvalidSetting) -> String? {
    guard value.isEmpty || value.count >= 8 else { throw InvalidSetting("a token needs at least 8 characters") }
    guard !value.contains(where: { $0.isWhitespace || !$0.isASCII }) else {
      throw InvalidSetting("a token is printable ASCII without spaces")
    }
    return value.isEmpty ? nil : value
  }

  /// The token in the first line of the file at `path`, and a warning when others than its
  /// owner may read the file.
  static func tokenFile(_ path: String) throws(InvalidSetting) -> (String, String?) {
    let file: ReadableFile
    let bytes: [UInt8]
    do {
      file = try ReadableFile(path: path)
      guard let read = try file.readAll(limit: 4_096) else { throw InvalidSetting("\(path) is larger than 4 KiB") }
      bytes = read
    } catch let error as InvalidSetting {
      throw error
    } catch {
      throw InvalidSetting("cannot read the token file \(path): \(error)")
    }
    let line = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    guard let token = try token(line.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))) else {
      throw InvalidSetting("the token file \(path) is empty")
    }
    return (token, ConfigurationFile.exposure(of: file.status, path: path, holding: "a token"))
  }

  /// Host names, comma-separated.
  static func hostnames(_ value: String) throws(InvalidSetting) -> [String] {
    let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    for name in names where name.isEmpty || name.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "@" }) {
      throw InvalidSetting("'\(name)' is not a host name")
    }
    return names
  }

  /// Web origins (`scheme://host[:port]`), comma-separated, `*` for any, or `none`.
  static func origins(_ value: String) throws(InvalidSetting) -> [String] {
    let origins = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    if origins == ["none"] { return [] }
    for origin in origins where origin != "*" {
      guard let scheme = origin.range(of: "://"),
        ["http", "https"].contains(origin[..<scheme.lowerBound].lowercased()),
        !origin[scheme.upperBound...].isEmpty, !origin[scheme.upperBound...].contains("/")
      else {
        throw InvalidSetting("'\(origin)' is not an origin; expected https://host[:port] or *")
      }
    }
    return origins
  }

  /// `true`/`false` (also yes/no, on/off, 1/0), any case.
  static func boolean(_ value: String, _ name: String) throws(InvalidSetting) -> Bool {
    switch value.trimmingCharacters(in: .whitespaces).lowercased() {
    case "true", "yes", "on", "1": return true
    case "false", "no", "off", "0": return false
    default: throw InvalidSetting("\(name) must be true or false")
    }
  }

  static func wholeNumber(_ value: String, _ range: ClosedRange<Int>, _ name: String) throws(InvalidSetting) -> Int {
    guard let n = Int(value), range.contains(n) else {
      throw InvalidSetting("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return n
  }

  static func distance(_ value: String) throws(InvalidSetting) -> Double {
    try parse { () throws(InputParser.Failure) in try InputParser.distance(value) }
  }

  static func duration(_ value: String) throws(InvalidSetting) -> Double {
    try parse { () throws(InputParser.Failure) in try InputParser.duration(value) }
  }

  static func byteCount(_ value: String) throws(InvalidSetting) -> Int {
    try parse { () throws(InputParser.Failure) in try InputParser.byteCount(value) }
  }

  static func url(_ value: String) throws(InvalidSetting) -> String {
    guard value.hasPrefix("https://") || value.hasPrefix("http://") else {
      throw InvalidSetting("'\(value)' is not an http(s) URL")
    }
    return value
  }

  /// One of `choices`, compared without case.
  static func choice<T: RawRepresentable<String>>(_ value: String, _ choices: [T], _ name: String)
    throws(InvalidSetting) -> T
  {
    guard let match = choices.first(where: { $0.rawValue == value.lowercased() }) else {
      throw InvalidSetting("\(name) must be one of: \(choices.map(\.rawValue).joined(separator: ", "))")
    }
    return match
  }

  /// An XYZ tile URL template with `{z}`, `{x}` and `{y}`.
  static func tileTemplate(_ value: String) throws(InvalidSetting) -> String {
    let template = try url(value)
    guard template.contains("{z}") && template.contains("{x}") && template.contains("{y}") else {
      throw InvalidSetting("a tile URL template needs {z}, {x} and {y}")
    }
    return template
  }

  /// A duration (`30s`, `2m`) in whole seconds within `range`.
  static func wholeSeconds(_ value: String, _ range: ClosedRange<Int>, _ name: String) throws(InvalidSetting) -> Int {
    let seconds = Int(try duration(value).rounded())
    guard range.contains(seconds) else {
      throw InvalidSetting("\(name) must be \(range.lowerBound)s to \(range.upperBound)s")
    }
    return seconds
  }

  /// A map's basemap: `builtin` (geophoto's own), `osm`, `none`, or a URL template that
  /// `template` checks.
  static func basemap(_ value: String, template: (String) throws(InvalidSetting) -> String) throws(InvalidSetting)
    -> MapBasemap
  {
    switch value {
    case "builtin": return .builtIn
    case "osm": return .template(MapBasemap.openStreetMap)
    case "none", "": return .none
    default: return .template(try template(value))
    }
  }

  /// `lat,lon,radius; lat,lon,radius` (radius with an optional unit).
  static func privacyZones(_ value: String) throws(InvalidSetting) -> [PrivacyZone] {
    var result: [PrivacyZone] = []
    for part in value.split(separator: ";") {
      let fields = part.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count == 3 else { throw InvalidSetting("a privacy zone is 'lat,lon,radius', not '\(part)'") }
      let center = try parse { () throws(InputParser.Failure) in
        try InputParser.coordinate(fields[0] + "," + fields[1])
      }
      result.append(PrivacyZone(center: center, radius: try distance(fields[2])))
    }
    return result
  }

  static func parse<T>(_ body: () throws(InputParser.Failure) -> T) throws(InvalidSetting) -> T {
    do {
      return try body()
    } catch {
      throw InvalidSetting(error.description)
    }
  }
}

/// A default value written as its setting's syntax reads it: the text README, help and the
/// manual show is made from the value in `Configuration.defaults`, never typed out beside it.
enum SettingText {
  /// `1d`, `5m`, `30s`, `0.5s`.
  static func duration(_ seconds: Double) -> String {
    for (unit, size) in [("d", 86_400.0), ("h", 3_600.0), ("m", 60.0)]
    where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
      return "\(Int(seconds / size))\(unit)"
    }
    return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
  }

  /// `table, json, geojson or csv`: an enumeration's values, from its type.
  static func choices<T: RawRepresentable<String>>(_ cases: [T]) -> String {
    let names = cases.map(\.rawValue)
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }

  /// `25km`, `200m`.
  static func distance(_ metres: Double) -> String {
    metres >= 1_000 && metres.truncatingRemainder(dividingBy: 1_000) == 0
      ? "\(Int(metres / 1_000))km" : "\(Int(metres))m"
  }

  /// `20MiB`, `512MB`: in the larger unit that divides it.
  static func byteCount(_ bytes: Int) -> String {
    for (unit, size) in [("GiB", 1 << 30), ("GB", 1_000_000_000), ("MiB", 1 << 20), ("MB", 1_000_000)]
    where bytes >= size && bytes % size == 0 {
      return "\(bytes / size)\(unit)"
    }
    return String(bytes)
  }
}
