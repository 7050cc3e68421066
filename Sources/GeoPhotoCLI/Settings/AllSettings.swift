import GeoPhotoEncoding
import GeoPhotoRemote
import GeoPhotoRoutes
import GeoPhotoServer
import GeoPhotoTravel

extension Setting {
  /// Every setting, one row each, grouped by the subsystem it configures. A new setting is one
  /// row here, a field in its `Configuration` group, and a line in README and the example file
  /// (the tests say which when they are missing).
  static let all: [Setting] = [
    // index
    index,
    // near
    nearLimit, nearRadius, nearFormat, nearMaxAge,
    // sync
    syncJobs, syncBatch,
    // watch
    watchPoll, watchPollPaths,
    // fetch
    fetchRadius, fetchMax,
    // flickr
    flickrAPIKey, flickrEndpoint, flickrFormat, flickrRequestsPerHour,
    // commons
    commonsEndpoint,
    // http
    httpConnectTimeout, httpTimeout, httpMaxResponse, httpAttempts, httpBackoff, httpContact,
    // serve
    serveHost, servePort, serveToken, serveTokenFile, serveHostnames, serveThreads, serveMaxConnections,
    serveMaxConnectionsPerClient, serveIdleTimeout, serveRequestTimeout, serveAllowOrigin, serveMaxFeatures,
    serveMaxBuilds, servePrivacyZones, serveTiles, serveAttribution, serveLeafletURL, serveReloadInterval,
    serveAllowEdits, serveWriteXMP,
    // tiles
    tilesCacheMax, tilesVector,
    // routing
    routingEndpoint, routingEngine, routingProfile,
    // places
    placesRadius,
    // trips
    tripsHome, tripsAway, tripsGap, tripsMinimumPhotos,
    // snapshot
    snapshotTiles, snapshotAttribution,
  ]

  static let index = Setting(
    key: "db", environment: "GEOPHOTO_DB", flag: Flag(long: "db"), valueName: "path|url",
    help: "The index: a SQLite file (or sqlite:PATH), or postgres://user@host/db for a shared PostGIS database",
    defaultText: "~/.local/share/geophoto/index.sqlite", completion: .file
  ) { c, v, env in c.databasePath = try IndexLocation.parse(v, env) }

  static let nearLimit = Setting(
    key: "near.limit", environment: "GEOPHOTO_LIMIT", flag: Flag(long: "limit", short: "n", command: "near"),
    valueName: "n", help: "The most photos 'near' lists", defaultText: String(Configuration.defaults.near.limit)
  ) { c, v, _ in c.near.limit = try SettingValue.wholeNumber(v, 1...100_000, "limit") }

  static let nearRadius = Setting(
    key: "near.radius", environment: "GEOPHOTO_RADIUS", flag: Flag(long: "radius", short: "r", command: "near"),
    valueName: "distance", help: "Only photos within this distance: metres, or with a unit (500m, 2km, 1mi)",
    defaultText: "unlimited"
  ) { c, v, _ in c.near.radius = try SettingValue.distance(v) }

  static let nearFormat = Setting(
    key: "near.format", environment: "GEOPHOTO_FORMAT", flag: Flag(long: "format", short: "f"),
    valueName: "format", help: "The output: \(SettingText.choices(OutputFormat.allCases))",
    defaultText: Configuration.defaults.near.format.rawValue,
    completion: .values(OutputFormat.allCases.map(\.rawValue))
  ) { c, v, _ in c.near.format = try SettingValue.choice(v, OutputFormat.allCases, "format") }

  static let nearMaxAge = Setting(
    key: "near.max_age", environment: "GEOPHOTO_MAX_AGE", flag: Flag(long: "max-age"), valueName: "duration",
    help: "How long a fetched area stays fresh for 'near --fetch' (30m, 12h, 1d)",
    defaultText: SettingText.duration(Configuration.defaults.near.maxAge)
  ) { c, v, _ in c.near.maxAge = try SettingValue.duration(v) }

  static let syncJobs = Setting(
    key: "sync.jobs", environment: "GEOPHOTO_JOBS", flag: Flag(long: "jobs", short: "j"), valueName: "n",
    help: "Files 'sync' reads in parallel", defaultText: "one per core"
  ) { c, v, _ in c.sync.jobs = try SettingValue.wholeNumber(v, 1...256, "jobs") }

  static let syncBatch = Setting(
    key: "sync.batch", environment: "GEOPHOTO_SYNC_BATCH", valueName: "n",
    help: "Files 'sync' commits per transaction", defaultText: String(Configuration.defaults.sync.batchSize)
  ) { c, v, _ in c.sync.batchSize = try SettingValue.wholeNumber(v, 1...1_000_000, "batch") }

  static let watchPoll = Setting(
    key: "watch.poll", environment: "GEOPHOTO_POLL", flag: Flag(long: "poll"), valueName: "duration",
    help:
      "How often '--watch' syncs again folders inotify cannot follow (network shares, FUSE, beyond the watch limit, --poll-path)",
    defaultText: SettingText.duration(Configuration.defaults.watch.pollInterval)
  ) { c, v, _ in c.watch.pollInterval = max(1, try SettingValue.duration(v)) }

  static let watchPollPaths = Setting(
    key: "watch.poll_paths", environment: "GEOPHOTO_POLL_PATHS", flag: Flag(long: "poll-path", repeating: true),
    valueName: "dir",
    help: "Folders '--watch' always polls, whatever their filesystem ('dir:dir', or the flag repeated)",
    defaultText: "none", completion: .directory
  ) { c, v, env in
    c.watch.pollPaths += v.split(separator: ":").map { env.expandTilde(String($0)) }.filter { !$0.isEmpty }
  }

  static let fetchRadius = Setting(
    key: "fetch.radius", environment: "GEOPHOTO_FETCH_RADIUS", flag: Flag(long: "radius", short: "r", command: "fetch"),
    valueName: "distance", help: "How far around the place 'fetch' searches (500m, 3km)",
    defaultText: SettingText.distance(Configuration.defaults.fetch.radius)
  ) { c, v, _ in c.fetch.radius = try SettingValue.distance(v) }

  static let fetchMax = Setting(
    key: "fetch.max", environment: "GEOPHOTO_FETCH_MAX", flag: Flag(long: "max"), valueName: "n",
    help: "The most photos per provider and fetch", defaultText: "the provider's cap (Flickr 4000, Commons 500)"
  ) { c, v, _ in c.fetch.maximum = try SettingValue.wholeNumber(v, 1...1_000_000, "max") }

  static let flickrAPIKey = Setting(
    key: "flickr.api_key", environment: "GEOPHOTO_FLICKR_API_KEY", valueName: "key",
    help: "Your Flickr API key; without one Flickr is skipped", defaultText: "none", isSecret: true
  ) { c, v, _ in c.flickr.apiKey = v.isEmpty ? nil : v }

  static let flickrEndpoint = Setting(
    key: "flickr.endpoint", environment: "GEOPHOTO_FLICKR_ENDPOINT", valueName: "url",
    help: "The Flickr REST endpoint", defaultText: Configuration.defaults.flickr.endpoint
  ) { c, v, _ in c.flickr.endpoint = try SettingValue.url(v) }

  static let flickrFormat = Setting(
    key: "flickr.format", environment: "GEOPHOTO_FLICKR_FORMAT", valueName: "format",
    help: "How Flickr answers: \(SettingText.choices(FlickrProvider.Format.allCases))",
    defaultText: Configuration.defaults.flickr.format.rawValue
  ) { c, v, _ in c.flickr.format = try SettingValue.choice(v, FlickrProvider.Format.allCases, "format") }

  static let flickrRequestsPerHour = Setting(
    key: "flickr.requests_per_hour", environment: "GEOPHOTO_FLICKR_RATE", valueName: "n",
    help: "Requests to Flickr per hour, at most",
    defaultText: String(Int(Configuration.defaults.flickr.requestsPerHour))
  ) { c, v, _ in c.flickr.requestsPerHour = Double(try SettingValue.wholeNumber(v, 1...1_000_000, "rate")) }

  static let commonsEndpoint = Setting(
    key: "commons.endpoint", environment: "GEOPHOTO_COMMONS_ENDPOINT", valueName: "url",
    help: "The MediaWiki API endpoint of Wikimedia Commons", defaultText: Configuration.defaults.commons.endpoint
  ) { c, v, _ in c.commons.endpoint = try SettingValue.url(v) }

  static let httpConnectTimeout = Setting(
    key: "http.connect_timeout", environment: "GEOPHOTO_CONNECT_TIMEOUT", valueName: "duration",
    help: "How long to wait for a server to accept a connection",
    defaultText: SettingText.duration(Configuration.defaults.http.client.connectTimeout)
  ) { c, v, _ in c.http.client.connectTimeout = try SettingValue.duration(v) }

  static let httpTimeout = Setting(
    key: "http.timeout", environment: "GEOPHOTO_TIMEOUT", valueName: "duration",
    help: "How long one request may take", defaultText: SettingText.duration(Configuration.defaults.http.client.timeout)
  ) { c, v, _ in c.http.client.timeout = try SettingValue.duration(v) }

  static let httpMaxResponse = Setting(
    key: "http.max_response", environment: "GEOPHOTO_MAX_RESPONSE", valueName: "size",
    help: "The largest response accepted",
    defaultText: SettingText.byteCount(Configuration.defaults.http.client.maximumResponseBytes)
  ) { c, v, _ in c.http.client.maximumResponseBytes = try SettingValue.byteCount(v) }

  static let httpAttempts = Setting(
    key: "http.attempts", environment: "GEOPHOTO_HTTP_ATTEMPTS", valueName: "n",
    help: "Tries per request, the first included", defaultText: String(Configuration.defaults.http.retry.attempts)
  ) { c, v, _ in c.http.retry.attempts = try SettingValue.wholeNumber(v, 1...20, "attempts") }

  static let httpBackoff = Setting(
    key: "http.backoff", environment: "GEOPHOTO_HTTP_BACKOFF", valueName: "duration",
    help: "The first retry's delay, doubled for each retry after it, with jitter",
    defaultText: SettingText.duration(Configuration.defaults.http.retry.baseDelay)
  ) { c, v, _ in c.http.retry.baseDelay = try SettingValue.duration(v) }

  static let httpContact = Setting(
    key: "http.contact", environment: "GEOPHOTO_CONTACT", valueName: "e-mail|url",
    help: "An e-mail address or URL added to the User-Agent", defaultText: "none"
  ) { c, v, _ in c.http.contact = v.isEmpty ? nil : v }

  static let serveHost = Setting(
    key: "serve.host", environment: "GEOPHOTO_HOST", flag: Flag(long: "host"), valueName: "address",
    help: "The address or host name 'serve' listens on (a name: every address it resolves to)",
    defaultText: Configuration.defaults.serve.server.host
  ) { c, v, _ in
    guard !v.isEmpty else { throw InvalidSetting("the host is empty") }
    c.serve.server.host = v
  }

  static let servePort = Setting(
    key: "serve.port", environment: "GEOPHOTO_PORT", flag: Flag(long: "port", short: "p"), valueName: "port",
    help: "The port 'serve' listens on; 0 picks a free one",
    defaultText: String(Configuration.defaults.serve.server.port)
  ) { c, v, _ in c.serve.server.port = try SettingValue.wholeNumber(v, 0...65_535, "port") }

  static let serveToken = Setting(
    key: "serve.token", environment: "GEOPHOTO_TOKEN", flag: Flag(long: "token"), valueName: "token",
    help:
      "A token every /v1 request must carry as 'Authorization: Bearer <token>' (GEOPHOTO_TOKEN or --token-file keep it out of 'ps')",
    defaultText: "none", isSecret: true
  ) { c, v, _ in c.serve.api.token = try SettingValue.token(v) }

  static let serveTokenFile = Setting(
    key: "serve.token_file", environment: "GEOPHOTO_TOKEN_FILE", flag: Flag(long: "token-file"), valueName: "file",
    help: "A file whose first line is the token, read when 'serve' starts (it wins over serve.token; chmod 600 it)",
    defaultText: "none", completion: .file
  ) { c, v, env in c.serve.tokenFile = v.isEmpty ? nil : env.expandTilde(v) }

  static let serveHostnames = Setting(
    key: "serve.hostnames", environment: "GEOPHOTO_HOSTNAMES", valueName: "name,…",
    help:
      "Host names 'serve' answers for besides localhost, 127.0.0.1, [::1] and --host's (others get 421)",
    defaultText: "none"
  ) { c, v, _ in c.serve.api.hostnames += try SettingValue.hostnames(v) }

  static let serveThreads = Setting(
    key: "serve.threads", environment: "GEOPHOTO_THREADS", flag: Flag(long: "threads"), valueName: "n",
    help: "Request threads of 'serve'", defaultText: "one per core"
  ) { c, v, _ in c.serve.server.threads = try SettingValue.wholeNumber(v, 1...256, "threads") }

  static let serveMaxConnections = Setting(
    key: "serve.max_connections", environment: "GEOPHOTO_MAX_CONNECTIONS", valueName: "n",
    help: "Connections 'serve' keeps open at once, from everyone",
    defaultText: String(Configuration.defaults.serve.server.connectionLimit)
  ) { c, v, _ in c.serve.server.connectionLimit = try SettingValue.wholeNumber(v, 1...65_536, "max_connections") }

  static let serveMaxConnectionsPerClient = Setting(
    key: "serve.max_connections_per_client", environment: "GEOPHOTO_MAX_CONNECTIONS_PER_CLIENT", valueName: "n",
    help: "Connections one client address may keep open at once (0: no limit; for a reverse proxy)",
    defaultText: String(Configuration.defaults.serve.server.connectionsPerClient)
  ) { c, v, _ in
    c.serve.server.connectionsPerClient = try SettingValue.wholeNumber(v, 0...65_536, "max_connections_per_client")
  }

  static let serveIdleTimeout = Setting(
    key: "serve.idle_timeout", environment: "GEOPHOTO_IDLE_TIMEOUT", valueName: "duration",
    help: "How long an idle connection stays open",
    defaultText: SettingText.duration(Double(Configuration.defaults.serve.server.connectionTimeout))
  ) { c, v, _ in c.serve.server.connectionTimeout = try SettingValue.wholeSeconds(v, 1...3_600, "idle_timeout") }

  static let serveRequestTimeout = Setting(
    key: "serve.request_timeout", environment: "GEOPHOTO_REQUEST_TIMEOUT", flag: Flag(long: "request-timeout"),
    valueName: "duration",
    help: "How long a client has to send a whole request, body included (slow senders are cut off)",
    defaultText: SettingText.duration(Double(Configuration.defaults.serve.server.requestTimeout))
  ) { c, v, _ in c.serve.server.requestTimeout = try SettingValue.wholeSeconds(v, 1...3_600, "request_timeout") }

  static let serveAllowOrigin = Setting(
    key: "serve.allow_origin", environment: "GEOPHOTO_ALLOW_ORIGIN", flag: Flag(long: "allow-origin", repeating: true),
    valueName: "origin",
    help:
      "Web origins whose pages may read answers (CORS): https://maps.example.org, a list, or * for any; none by default",
    defaultText: "none"
  ) { c, v, _ in c.serve.api.allowedOrigins += try SettingValue.origins(v) }

  static let serveMaxFeatures = Setting(
    key: "serve.max_features", environment: "GEOPHOTO_MAX_FEATURES", valueName: "n",
    help: "The most features one /v1/annotations answer carries",
    defaultText: String(Configuration.defaults.serve.api.maximumFeatures)
  ) { c, v, _ in c.serve.api.maximumFeatures = try SettingValue.wholeNumber(v, 1...100_000, "max_features") }

  static let serveMaxBuilds = Setting(
    key: "serve.max_builds", environment: "GEOPHOTO_MAX_BUILDS", valueName: "n",
    help: "Clusters and photo sets for new filters 'serve' builds at once (more get 503 with Retry-After)",
    defaultText: "one per core"
  ) { c, v, _ in c.serve.maximumBuilds = try SettingValue.wholeNumber(v, 1...256, "max_builds") }

  static let servePrivacyZones = Setting(
    key: "serve.privacy_zones", environment: "GEOPHOTO_PRIVACY_ZONES",
    flag: Flag(long: "privacy-zone", repeating: true), valueName: "lat,lon,radius",
    help: "Circles whose photos 'serve' never shows ('lat,lon,radius; …', or the flag repeated)",
    defaultText: "none"
  ) { c, v, _ in c.serve.privacyZones += try SettingValue.privacyZones(v) }

  static let serveTiles = Setting(
    key: "serve.tiles", environment: "GEOPHOTO_TILES", flag: Flag(long: "tiles", command: "serve"),
    valueName: "tiles",
    help: "The web map's basemap: builtin (geophoto's own, offline), osm, a tile URL template, or none",
    defaultText: "builtin", completion: .values(["builtin", "osm", "none"])
  ) { c, v, _ in c.serve.api.map.basemap = try SettingValue.basemap(v, template: SettingValue.url) }

  static let serveAttribution = Setting(
    key: "serve.attribution", environment: "GEOPHOTO_ATTRIBUTION", valueName: "html",
    help: "The basemap's attribution on the web map (HTML)", defaultText: "the basemap's own"
  ) { c, v, _ in c.serve.api.map.attribution = v }

  static let serveLeafletURL = Setting(
    key: "serve.leaflet_url", environment: "GEOPHOTO_LEAFLET_URL", valueName: "url",
    help:
      "Where the web map loads Leaflet from when libjs-leaflet is not installed (none: the page says to install it)",
    defaultText: "none"
  ) { c, v, _ in c.serve.api.map.leafletFallbackURL = v == "none" ? nil : try SettingValue.url(v) }

  static let serveReloadInterval = Setting(
    key: "serve.reload_interval", environment: "GEOPHOTO_RELOAD_INTERVAL", valueName: "duration",
    help: "How often 'serve' checks the index for changes",
    defaultText: SettingText.duration(Configuration.defaults.serve.reloadInterval)
  ) { c, v, _ in c.serve.reloadInterval = max(0.05, try SettingValue.duration(v)) }

  static let serveAllowEdits = Setting(
    key: "serve.allow_edits", environment: "GEOPHOTO_ALLOW_EDITS", flag: Flag(long: "allow-edits"),
    valueName: "bool",
    help: "Whether the map may place photos and clear positions (PUT and DELETE /v1/photos/ID/location); needs a token",
    defaultText: "false"
  ) { c, v, _ in c.serve.allowEdits = try SettingValue.boolean(v, "allow_edits") }

  static let serveWriteXMP = Setting(
    key: "serve.write_xmp", environment: "GEOPHOTO_WRITE_XMP", flag: Flag(long: "write-xmp", command: "serve"),
    valueName: "bool", help: "Whether the map's edits are also written into the photos' XMP sidecars",
    defaultText: "false"
  ) { c, v, _ in c.serve.writeXMP = try SettingValue.boolean(v, "write_xmp") }

  static let tilesCacheMax = Setting(
    key: "tiles.cache_max", environment: "GEOPHOTO_TILE_CACHE_MAX", flag: Flag(long: "tile-cache-max"),
    valueName: "size",
    help: "The most disk the server's cache of drawn tiles takes (1MB, 512MB, 2GB; least recently used out)",
    defaultText: SettingText.byteCount(Configuration.defaults.tiles.cacheMax)
  ) { c, v, _ in
    let bytes = try SettingValue.byteCount(v)
    guard bytes >= 1_000_000 else { throw InvalidSetting("cache_max must be at least 1MB") }
    c.tiles.cacheMax = bytes
  }

  static let tilesVector = Setting(
    key: "tiles.vector", environment: "GEOPHOTO_TILES_VECTOR", flag: Flag(long: "basemap", repeating: true),
    valueName: "file",
    help:
      "A PMTiles or MBTiles archive of OpenStreetMap drawn as the street map where it has data "
      + "('file:file', the flag or the line repeated; 'geophoto basemap add' writes the line)",
    defaultText: "none", completion: .file
  ) { c, v, env in
    c.tiles.vector += v.split(separator: ":").map { env.expandTilde(String($0)) }.filter { !$0.isEmpty }
  }

  static let routingEndpoint = Setting(
    key: "routing.endpoint", environment: "GEOPHOTO_ROUTING_ENDPOINT", valueName: "url",
    help: "The OSRM v5 or Valhalla server 'directions' asks", defaultText: "none"
  ) { c, v, _ in c.routing.endpoint = try SettingValue.url(v) }

  static let routingEngine = Setting(
    key: "routing.engine", environment: "GEOPHOTO_ROUTING_ENGINE", flag: Flag(long: "engine"), valueName: "engine",
    help: "The routing engine: osrm, valhalla or auto (asks the server)", defaultText: "auto",
    completion: .values(RoutingClient.Engine.allCases.map(\.rawValue) + ["auto"])
  ) { c, v, _ in
    guard v == "auto" || RoutingClient.Engine(rawValue: v) != nil else {
      throw InvalidSetting("engine must be osrm, valhalla or auto")
    }
    c.routing.engine = RoutingClient.Engine(rawValue: v)
  }

  static let routingProfile = Setting(
    key: "routing.profile", environment: "GEOPHOTO_ROUTING_PROFILE", flag: Flag(long: "profile"),
    valueName: "profile", help: "The routing profile: driving, cycling or walking",
    defaultText: Configuration.defaults.routing.profile,
    completion: .values(["driving", "cycling", "walking"])
  ) { c, v, _ in
    guard !v.isEmpty, v.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
      throw InvalidSetting("profile must be a name such as driving, cycling or walking")
    }
    c.routing.profile = v
  }

  static let placesRadius = Setting(
    key: "places.radius", environment: "GEOPHOTO_PLACE_RADIUS", valueName: "distance",
    help: "How far from a photo its named place may be",
    defaultText: SettingText.distance(Configuration.defaults.places.radius)
  ) { c, v, _ in c.places.radius = try SettingValue.distance(v) }

  static let tripsHome = Setting(
    key: "trips.home", environment: "GEOPHOTO_TRIPS_HOME", flag: Flag(long: "home", command: "trips"),
    valueName: "place",
    help: "Where trips start from: auto (the place with the most photo-days, following moves), LAT,LON or a place name",
    defaultText: Configuration.defaults.trips.home
  ) { c, v, _ in
    let home = v.trimmingCharacters(in: .whitespaces)
    guard !home.isEmpty else { throw InvalidSetting("home needs auto, LAT,LON or a place name") }
    c.trips.home = home
  }

  static let tripsAway = Setting(
    key: "trips.away", environment: "GEOPHOTO_TRIPS_AWAY", flag: Flag(long: "away", command: "trips"),
    valueName: "distance", help: "How far from home photos are away on a trip (a day out nearer is no trip)",
    defaultText: SettingText.distance(Configuration.defaults.trips.rules.away)
  ) { c, v, _ in
    let away = try SettingValue.distance(v)
    guard away >= 1_000 else { throw InvalidSetting("away must be at least 1km") }
    c.trips.rules.away = away
  }

  static let tripsGap = Setting(
    key: "trips.gap", environment: "GEOPHOTO_TRIPS_GAP", flag: Flag(long: "gap", command: "trips"),
    valueName: "duration", help: "The longest time without photos inside one trip (12h, 36h, 3d)",
    defaultText: SettingText.duration(Double(Configuration.defaults.trips.rules.gap))
  ) { c, v, _ in
    let gap = try SettingValue.duration(v)
    guard gap >= 60, gap <= 366 * 86_400 else { throw InvalidSetting("gap must be from 1m to 366d") }
    c.trips.rules.gap = Int64(gap)
  }

  static let tripsMinimumPhotos = Setting(
    key: "trips.min_photos", environment: "GEOPHOTO_TRIPS_MIN_PHOTOS",
    flag: Flag(long: "min-photos", command: "trips"), valueName: "n",
    help: "The fewest located photos a trip has", defaultText: String(Configuration.defaults.trips.rules.minimumPhotos)
  ) { c, v, _ in c.trips.rules.minimumPhotos = try SettingValue.wholeNumber(v, 1...1_000_000, "min_photos") }

  static let snapshotTiles = Setting(
    key: "snapshot.tiles", environment: "GEOPHOTO_SNAPSHOT_TILES", flag: Flag(long: "tiles", command: "snapshot"),
    valueName: "tiles",
    help: "The snapshots' basemap: builtin (geophoto's own, offline), osm, an XYZ PNG tile URL template, or none",
    defaultText: "builtin", completion: .values(["builtin", "osm", "none"])
  ) { c, v, _ in c.snapshot.tiles = try SettingValue.basemap(v, template: SettingValue.tileTemplate) }

  static let snapshotAttribution = Setting(
    key: "snapshot.attribution", environment: "GEOPHOTO_SNAPSHOT_ATTRIBUTION", valueName: "text",
    help: "The snapshot basemap's attribution, drawn on the image", defaultText: "the basemap's own"
  ) { c, v, _ in c.snapshot.attribution = v }
}
