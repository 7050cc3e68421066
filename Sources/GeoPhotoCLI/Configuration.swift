import Foundation
import GeoPhotoCore
import GeoPhotoRemote
import GeoPhotoRoutes
import GeoPhotoServer

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
  /// Seconds a fetched area stays fresh for `near --fetch`.
  var maxAge = 86_400.0
  var fetchRadius = 1_000.0
  var fetchMax: Int?
  var flickrAPIKey: String?
  var flickrEndpoint = FlickrProvider.defaultEndpoint
  var flickrFormat = FlickrProvider.Format.json
  var flickrRequestsPerHour = 3_600.0
  var commonsEndpoint = CommonsProvider.defaultEndpoint
  var connectTimeout = 10.0
  var timeout = 30.0
  var maximumResponseBytes = 20 * 1_048_576
  var attempts = 5
  var backoff = 0.5
  var contact: String?
  var host = "127.0.0.1"
  var port = 8080
  var token: String?
  var threads: Int?
  var allowedOrigin = "*"
  var maximumFeatures = 2_000
  var tileURL = WebMapConfiguration().tileURL
  var attribution = WebMapConfiguration().attribution
  var leafletURL = WebMapConfiguration().leafletFallbackURL
  var privacyZones: [PrivacyZone] = []
  var reloadInterval = 1.0
  var routingEndpoint: String?
  var routingEngine: RoutingClient.Engine?
  var routingProfile = "driving"
  var snapshotTiles: String?
  var placeRadius = 25_000.0
  var snapshotAttribution = "© OpenStreetMap contributors"

  /// Every key the configuration file accepts, with its environment variable.
  static let keys: [(key: String, environment: String, help: String)] = [
    ("db", "GEOPHOTO_DB", "the index: a SQLite file or a postgres:// URL"),
    ("near.limit", "GEOPHOTO_LIMIT", "results of 'near' (default 20)"),
    ("near.radius", "GEOPHOTO_RADIUS", "search radius of 'near' (default: unlimited)"),
    ("near.format", "GEOPHOTO_FORMAT", "output of 'near': table, json, geojson or csv"),
    ("near.max_age", "GEOPHOTO_MAX_AGE", "how long fetched areas stay fresh for 'near --fetch' (default 1d)"),
    ("sync.jobs", "GEOPHOTO_JOBS", "parallel readers of 'sync' (default: one per core)"),
    ("sync.batch", "GEOPHOTO_SYNC_BATCH", "files 'sync' commits per transaction (default 1000)"),
    ("fetch.radius", "GEOPHOTO_FETCH_RADIUS", "search radius of 'fetch' (default 1km)"),
    ("fetch.max", "GEOPHOTO_FETCH_MAX", "photos per provider and fetch (default: the provider's cap)"),
    ("flickr.api_key", "GEOPHOTO_FLICKR_API_KEY", "your Flickr API key"),
    ("flickr.endpoint", "GEOPHOTO_FLICKR_ENDPOINT", "Flickr REST endpoint"),
    ("flickr.format", "GEOPHOTO_FLICKR_FORMAT", "json or xml"),
    ("flickr.requests_per_hour", "GEOPHOTO_FLICKR_RATE", "request budget (default 3600)"),
    ("commons.endpoint", "GEOPHOTO_COMMONS_ENDPOINT", "MediaWiki API endpoint of Wikimedia Commons"),
    ("http.connect_timeout", "GEOPHOTO_CONNECT_TIMEOUT", "seconds to connect (default 10s)"),
    ("http.timeout", "GEOPHOTO_TIMEOUT", "seconds per request (default 30s)"),
    ("http.max_response", "GEOPHOTO_MAX_RESPONSE", "largest response accepted (default 20MiB)"),
    ("http.attempts", "GEOPHOTO_HTTP_ATTEMPTS", "tries per request, the first included (default 5)"),
    ("http.backoff", "GEOPHOTO_HTTP_BACKOFF", "first retry delay, doubled each time (default 0.5s)"),
    ("http.contact", "GEOPHOTO_CONTACT", "an e-mail or URL added to the User-Agent"),
    ("serve.host", "GEOPHOTO_HOST", "address 'serve' listens on (default 127.0.0.1)"),
    ("serve.port", "GEOPHOTO_PORT", "port of 'serve' (default 8080; 0 picks a free one)"),
    ("serve.token", "GEOPHOTO_TOKEN", "bearer token every /v1 request must carry"),
    ("serve.threads", "GEOPHOTO_THREADS", "request threads (default: one per core)"),
    ("serve.allow_origin", "GEOPHOTO_ALLOW_ORIGIN", "Access-Control-Allow-Origin (default *)"),
    ("serve.max_features", "GEOPHOTO_MAX_FEATURES", "features per /v1/annotations answer (default 2000)"),
    ("serve.tiles", "GEOPHOTO_TILES", "basemap tile URL template, or none"),
    ("serve.attribution", "GEOPHOTO_ATTRIBUTION", "basemap attribution (HTML)"),
    ("serve.leaflet_url", "GEOPHOTO_LEAFLET_URL", "where the map loads Leaflet without libjs-leaflet"),
    ("serve.privacy_zones", "GEOPHOTO_PRIVACY_ZONES", "hidden circles: lat,lon,radius; lat,lon,radius"),
    ("serve.reload_interval", "GEOPHOTO_RELOAD_INTERVAL", "how often 'serve' checks the index (default 1s)"),
    ("routing.endpoint", "GEOPHOTO_ROUTING_ENDPOINT", "an OSRM v5 or Valhalla server"),
    ("routing.engine", "GEOPHOTO_ROUTING_ENGINE", "osrm, valhalla or auto (asks the server)"),
    ("routing.profile", "GEOPHOTO_ROUTING_PROFILE", "driving, cycling or walking (default driving)"),
    ("places.radius", "GEOPHOTO_PLACE_RADIUS", "how far a photo's named place may be (default 25km)"),
    ("snapshot.tiles", "GEOPHOTO_SNAPSHOT_TILES", "XYZ PNG tile URL template for snapshots (default none)"),
    ("snapshot.attribution", "GEOPHOTO_SNAPSHOT_ATTRIBUTION", "the tiles' attribution, drawn on the image"),
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
  static func resolve(
    _ parsed: ParsedArguments, spec: CommandSpec? = nil, environment: [String: String]
  ) throws -> Configuration {
    var config = Configuration(databasePath: defaultDatabasePath(environment: environment))
    // 1. The configuration file.
    let explicitFile = parsed.value("config") ?? environment["GEOPHOTO_CONFIG"]
    let filePath = expandTilde(explicitFile ?? defaultConfigPath(environment: environment), environment: environment)
    if FileManager.default.fileExists(atPath: filePath) {
      for entry in try ConfigurationFile.read(filePath) {
        do {
          try config.apply(key: entry.key, value: entry.value, environment: environment)
        } catch {
          throw RuntimeError("\(filePath):\(entry.line): \(error)")
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
    for option in spec?.allOptions ?? [CommandSpec.dbOption] {
      guard let key = option.setting, let value = parsed.value(option.long) else { continue }
      do {
        try config.apply(key: key, value: value, environment: environment)
      } catch {
        throw UsageError("The value '\(value)' is invalid for '--\(option.long)': \(error)")
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
      if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
        databasePath = value
      } else if value.hasPrefix("sqlite:") {
        databasePath = Self.expandTilde(String(value.dropFirst("sqlite:".count)), environment: environment)
      } else if let scheme = value.range(of: "://"), !value[..<scheme.lowerBound].contains("/") {
        throw InvalidSetting(
          "'\(value[..<scheme.upperBound])…' is not an index geophoto knows: use a file path or a postgres:// URL")
      } else {
        databasePath = Self.expandTilde(value, environment: environment)
      }
    case "near.limit": limit = try wholeNumber(value, 1...100_000, "limit")
    case "near.radius": radius = try parse { () throws(InputParser.Failure) in try InputParser.distance(value) }
    case "near.format":
      guard let f = OutputFormat(rawValue: value.lowercased()) else {
        throw InvalidSetting("format must be one of: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      format = f
    case "sync.jobs": jobs = try wholeNumber(value, 1...256, "jobs")
    case "sync.batch": batchSize = try wholeNumber(value, 1...1_000_000, "batch")
    case "near.max_age": maxAge = try parse { () throws(InputParser.Failure) in try InputParser.duration(value) }
    case "fetch.radius": fetchRadius = try parse { () throws(InputParser.Failure) in try InputParser.distance(value) }
    case "fetch.max": fetchMax = try wholeNumber(value, 1...1_000_000, "max")
    case "flickr.api_key": flickrAPIKey = value.isEmpty ? nil : value
    case "flickr.endpoint": flickrEndpoint = try url(value)
    case "flickr.format":
      guard let f = FlickrProvider.Format(rawValue: value.lowercased()) else {
        throw InvalidSetting("format must be json or xml")
      }
      flickrFormat = f
    case "flickr.requests_per_hour": flickrRequestsPerHour = Double(try wholeNumber(value, 1...1_000_000, "rate"))
    case "commons.endpoint": commonsEndpoint = try url(value)
    case "http.connect_timeout":
      connectTimeout = try parse { () throws(InputParser.Failure) in try InputParser.duration(value) }
    case "http.timeout": timeout = try parse { () throws(InputParser.Failure) in try InputParser.duration(value) }
    case "http.max_response":
      maximumResponseBytes = try parse { () throws(InputParser.Failure) in try InputParser.byteCount(value) }
    case "http.attempts": attempts = try wholeNumber(value, 1...20, "attempts")
    case "http.backoff": backoff = try parse { () throws(InputParser.Failure) in try InputParser.duration(value) }
    case "http.contact": contact = value.isEmpty ? nil : value
    case "serve.host":
      guard !value.isEmpty else { throw InvalidSetting("the host is empty") }
      host = value
    case "serve.port": port = try wholeNumber(value, 0...65_535, "port")
    case "serve.token":
      guard value.isEmpty || value.count >= 8 else { throw InvalidSetting("a token needs at least 8 characters") }
      token = value.isEmpty ? nil : value
    case "serve.threads": threads = try wholeNumber(value, 1...256, "threads")
    case "serve.allow_origin": allowedOrigin = value
    case "serve.max_features": maximumFeatures = try wholeNumber(value, 1...100_000, "max_features")
    case "serve.tiles":
      tileURL = value == "none" ? "" : value
      if !tileURL.isEmpty { _ = try url(value) }
    case "serve.attribution": attribution = value
    case "serve.leaflet_url": leafletURL = try url(value)
    case "serve.privacy_zones": privacyZones += try zones(value)
    case "routing.endpoint": routingEndpoint = try url(value)
    case "routing.engine":
      guard value == "auto" || RoutingClient.Engine(rawValue: value) != nil else {
        throw InvalidSetting("engine must be osrm, valhalla or auto")
      }
      routingEngine = RoutingClient.Engine(rawValue: value)
    case "routing.profile":
      guard !value.isEmpty, value.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
        throw InvalidSetting("profile must be a name such as driving, cycling or walking")
      }
      routingProfile = value
    case "snapshot.tiles":
      snapshotTiles = value == "none" || value.isEmpty ? nil : try url(value)
      if let t = snapshotTiles, !(t.contains("{z}") && t.contains("{x}") && t.contains("{y}")) {
        throw InvalidSetting("a tile URL template needs {z}, {x} and {y}")
      }
    case "snapshot.attribution": snapshotAttribution = value
    case "places.radius": placeRadius = try parse { () throws(InputParser.Failure) in try InputParser.distance(value) }
    case "serve.reload_interval":
      reloadInterval = max(0.05, try parse { () throws(InputParser.Failure) in try InputParser.duration(value) })
    default:
      throw InvalidSetting("unknown setting '\(key)'; known: \(Self.keys.map(\.key).joined(separator: ", "))")
    }
  }

  private func parse<T>(_ body: () throws(InputParser.Failure) -> T) throws(InvalidSetting) -> T {
    do {
      return try body()
    } catch {
      throw InvalidSetting(error.description)
    }
  }

  private func wholeNumber(_ value: String, _ range: ClosedRange<Int>, _ name: String) throws(InvalidSetting) -> Int {
    guard let n = Int(value), range.contains(n) else {
      throw InvalidSetting("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return n
  }

  /// `lat,lon,radius; lat,lon,radius` (radius with an optional unit).
  private func zones(_ value: String) throws(InvalidSetting) -> [PrivacyZone] {
    var result: [PrivacyZone] = []
    for part in value.split(separator: ";") {
      let fields = part.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count == 3 else { throw InvalidSetting("a privacy zone is 'lat,lon,radius', not '\(part)'") }
      let center = try parse { () throws(InputParser.Failure) in try InputParser.coordinate(fields[0] + "," + fields[1])
      }
      let radius = try parse { () throws(InputParser.Failure) in try InputParser.distance(fields[2]) }
      result.append(PrivacyZone(center: center, radius: radius))
    }
    return result
  }

  private func url(_ value: String) throws(InvalidSetting) -> String {
    guard value.hasPrefix("https://") || value.hasPrefix("http://") else {
      throw InvalidSetting("'\(value)' is not an http(s) URL")
    }
    return value
  }
}
