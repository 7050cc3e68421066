import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTP
import GeoPhotoHTTPD
import GeoPhotoRemote
import GeoPhotoRoutes
import GeoPhotoServer
import GeoPhotoTravel

/// Settings resolved from, in order of precedence: command-line flags, `GEOPHOTO_*`
/// environment variables, the configuration file, built-in defaults (`Setting.all` says
/// which keys there are).
///
/// Grouped by the subsystem they configure; where a subsystem has an options type of its own
/// (the HTTP client, its retries, the HTTP server, the API) the group holds that type, so
/// settings are applied to it directly and handed over as they are.
struct Configuration: Sendable {
  /// Every setting at its default (the index path aside, which depends on the environment).
  static let defaults = Configuration(databasePath: "")

  var databasePath: String
  var near = Near()
  var sync = Sync()
  var watch = Watch()
  var fetch = Fetch()
  var flickr = Flickr()
  var commons = Commons()
  var http = HTTP()
  var serve = Serve()
  var routing = Routing()
  var places = Places()
  var trips = Trips()
  var snapshot = Snapshot()
  var tiles = Tiles()
  /// What the user should hear about the settings (a secret in a file others can read).
  var warnings: [String] = []

  struct Near: Sendable {
    var limit = 20
    var radius: Double?
    var format = OutputFormat.table
    /// Seconds a fetched area stays fresh for `near --fetch`.
    var maxAge = 86_400.0
  }

  struct Sync: Sendable {
    var jobs: Int?
    var batchSize = 1_000
  }

  struct Watch: Sendable {
    var pollInterval = 300.0
    var pollPaths: [String] = []
  }

  struct Fetch: Sendable {
    var radius = 1_000.0
    var maximum: Int?
  }

  struct Flickr: Sendable {
    var apiKey: String?
    var endpoint = FlickrProvider.defaultEndpoint
    var format = FlickrProvider.Format.json
    var requestsPerHour = 3_600.0
  }

  struct Commons: Sendable {
    var endpoint = CommonsProvider.defaultEndpoint
  }

  struct HTTP: Sendable {
    /// Timeouts and the size cap; the User-Agent is set where a client is made.
    var client = HTTPClientOptions(userAgent: "")
    var retry = RetryPolicy()
    var contact: String?

    /// The client options with geophoto's User-Agent (and the contact, when set).
    func clientOptions(userAgent: String, secrets: [String] = []) -> HTTPClientOptions {
      var options = client
      options.userAgent = contact.map { "\(userAgent) \($0)" } ?? userAgent
      options.redactor = Redactor(secrets: secrets)
      return options
    }
  }

  struct Serve: Sendable {
    var server = HTTPServerOptions()
    var api = APIConfiguration()
    var privacyZones: [PrivacyZone] = []
    var reloadInterval = 1.0
    /// Builds for new filters at once; nil for one per core.
    var maximumBuilds: Int?
    /// The file the token is read from when the server starts (only `serve` reads it: a path
    /// that only the service can read does not trouble other commands).
    var tokenFile: String?
    /// Whether the map may edit positions (`serve.allow_edits`), and write them to sidecars.
    var allowEdits = false
    var writeXMP = false
  }

  struct Tiles: Sendable {
    /// The most bytes the server's disk cache of drawn tiles holds.
    var cacheMax = 512_000_000
    /// Vector-tile archives (PMTiles, MBTiles) drawn as the street map, the first on top.
    var vector: [String] = []
  }

  struct Routing: Sendable {
    var endpoint: String?
    /// nil: ask the server.
    var engine: RoutingClient.Engine?
    var profile = "driving"
  }

  struct Trips: Sendable {
    /// `auto`, `LAT,LON` or a place name, resolved when trips are found.
    var home = "auto"
    var rules = TripRules()
  }

  struct Places: Sendable {
    var radius = 25_000.0
  }

  struct Snapshot: Sendable {
    var tiles = MapBasemap.builtIn
    /// nil: the basemap's own.
    var attribution: String?
  }

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
  static func resolve(
    _ parsed: ParsedArguments, spec: CommandSpec? = nil, environment: [String: String]
  ) throws -> Configuration {
    var config = Configuration(databasePath: defaultDatabasePath(environment: environment))
    let context = SettingEnvironment(variables: environment)
    // 1. The configuration file.
    let explicitFile = try parsed.value(CommandSpec.config) ?? environment[CommandSpec.configEnvironment]
    let filePath = expandTilde(explicitFile ?? defaultConfigPath(environment: environment), environment: environment)
    if FileManager.default.fileExists(atPath: filePath) {
      let entries = try ConfigurationFile.read(filePath)
      let secrets = entries.filter { Setting.named($0.key)?.isSecret == true }.map(\.key)
      if !secrets.isEmpty,
        let warning = ConfigurationFile.exposure(of: filePath, holding: secrets.joined(separator: ", "))
      {
        config.warnings.append(warning)
      }
      for entry in entries {
        guard let setting = Setting.named(entry.key) else {
          throw RuntimeError(
            "\(filePath):\(entry.line): unknown setting '\(entry.key)'; known: "
              + Setting.all.map(\.key).joined(separator: ", "))
        }
        do {
          try setting.apply(&config, entry.value, context)
        } catch {
          throw RuntimeError("\(filePath):\(entry.line): \(error)")
        }
      }
    } else if let explicitFile {
      throw RuntimeError("configuration file \(explicitFile) does not exist")
    }
    // 2. The environment, 3. the flags.
    for setting in Setting.all {
      if let value = environment[setting.environment], !value.isEmpty {
        do {
          try setting.apply(&config, value, context)
        } catch {
          throw RuntimeError("\(setting.environment): \(error)")
        }
      }
    }
    for option in spec?.allOptions ?? [CommandSpec.dbOption] {
      guard let key = option.setting, let setting = Setting.named(key) else { continue }
      // A repeatable flag applies each value it was given; any other, its last.
      let given = parsed.values[option.long] ?? []
      let values = option.repeating ? given : given.suffix(1)
      for value in values {
        do {
          try setting.apply(&config, value, context)
        } catch {
          // A secret is never repeated; an index URL without its password.
          let shown =
            setting.isSecret
            ? "given" : setting.key == Setting.index.key ? CommandContext.stores.redacted(value) : value
          throw UsageError("The value '\(shown)' is invalid for '--\(option.long)': \(error)")
        }
      }
    }
    return config
  }
}

/// Where an index is, as `--db`, GEOPHOTO_DB and `db` give it: whatever the store backends
/// take (a file path, `sqlite:PATH`, a `postgres://` URL), in the form they open.
enum IndexLocation {
  static func parse(_ value: String, _ environment: SettingEnvironment) throws(InvalidSetting) -> String {
    do {
      return try CommandContext.stores.normalize(value, expandTilde: environment.expandTilde)
    } catch {
      throw InvalidSetting(error.description)
    }
  }
}
