import Dispatch
import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoHTTPD
import GeoPhotoPlaces
import GeoPhotoServer
import GeoPhotoStore
import GeoPhotoSync
import GeoPhotoThumbnails

enum ServeCommand: Subcommand {
  static let spec = CommandSpec(
    name: "serve",
    abstract: "Serve annotation lists (JSON, GeoJSON, clusters) and a web map over HTTP.",
    discussion: """
      Answers from the index in memory and picks up changes from 'sync' and 'fetch' without a
      restart. Listens on 127.0.0.1 unless told otherwise; binding another address prints a
      warning, and a token (--token-file, GEOPHOTO_TOKEN or --token) then protects every /v1
      request. It answers only requests for its own host names (localhost, 127.0.0.1, [::1],
      --host's, serve.hostnames; others get 421), and other web sites' pages may not read its
      answers unless --allow-origin names them.
      The web map draws geophoto's own basemap (--tiles builtin: /tiles, offline and private),
      with the streets of each OpenStreetMap archive given (--basemap FILE, PMTiles or MBTiles,
      or 'geophoto basemap add'); --tiles osm or a URL template use a tile server instead. One access-log line per request
      goes to stderr. Stops cleanly on SIGINT or SIGTERM.
      With --watch DIR (repeatable) the server also keeps the index in line with those folders
      as files change, as 'sync --watch' does, and answers with the changes within about 2 s.
      The API is described at /openapi.json.
      """,
    options: [
      Setting.serveHost.option,
      Setting.servePort.option,
      Setting.serveToken.option,
      Setting.serveTokenFile.option,
      Setting.serveThreads.option,
      Setting.serveRequestTimeout.option,
      Setting.serveAllowOrigin.option,
      Setting.servePrivacyZones.option,
      Setting.serveTiles.option,
      Setting.tilesCacheMax.option,
      Setting.tilesVector.option,
      Setting.serveAllowEdits.option,
      Setting.serveWriteXMP.option,
      watchFolder.spec,
      Setting.watchPoll.option,
      Setting.watchPollPaths.option,
      quiet.spec,
    ],
    examples: [
      "geophoto serve",
      "geophoto serve --host photos.local --port 8080 --token-file ~/.config/geophoto/token",
      "geophoto serve --privacy-zone 35.6895,139.6917,300m --tiles none",
      "geophoto serve --basemap ~/maps/kanto.pmtiles",
      "geophoto serve --watch ~/Pictures",
      "geophoto serve --token-file ~/.config/geophoto/token --allow-edits true --write-xmp true",
    ])

  static let watchFolder = ValueOption.text(
    "watch", short: "w", valueName: "dir",
    help: "Keep the index in line with this folder as files change (sync --watch inside the server).",
    completion: .directory, repeating: true)
  static let quiet = FlagOption(long: "quiet", short: "q", help: "No access log, and no line per watched batch.")

  static func run(_ context: CommandContext) throws {
    guard context.parsed.positionals.isEmpty else {
      throw UsageError("Unexpected argument '\(context.parsed.positionals[0])'")
    }
    let config = context.configuration
    let console = context.console
    let holder = try openIndex(context)
    // Every line the server writes goes through one buffer, written off the request path.
    let log = LogBuffer { console.err(String(decoding: $0, as: UTF8.self)) }
    defer { log.close() }
    let api = try apiConfiguration(context, log: log)
    let server: HTTPServer
    do {
      server = try HTTPServer(options: config.serve.server, responder: APIRouter(holder: holder, configuration: api))
    } catch let error as HTTPServer.StartError {
      throw RuntimeError(error.description)
    }
    // Listening for SIGINT and SIGTERM before the server says it is ready: a signal sent as
    // soon as it does stops it.
    let stop = StopSignals.listen()
    announce(server, holder: holder, hasToken: api.token != nil, context)
    holder.watch(interval: config.serve.reloadInterval) { log.append($0) }
    let folders = try watchFolders(context, quiet: context.parsed.has(quiet)) { log.append($0) }

    // Wait for SIGINT or SIGTERM, then finish the requests in flight and stop.
    stop.wait()
    // The batch in flight is written first.
    folders?.stop()
    server.stop()
    holder.stopWatching()
    log.append("stopped")
    log.close()
    if log.droppedLines > 0 { console.err("\(log.droppedLines) log lines were dropped in all\n") }
  }

  /// The index, opened read-only (a read-only file, role or replica serves as well), sharing
  /// one connection pool between reloads where it can; an index not there yet is picked up
  /// when it appears.
  static func openIndex(_ context: CommandContext) throws -> LoadedIndexHolder {
    let config = context.configuration
    let open = try CommandContext.stores.opener(config.databasePath, mode: .readOnly)
    let holder = LoadedIndexHolder(
      privacyZones: config.serve.privacyZones, builds: BuildSlots(limit: config.serve.maximumBuilds)
    ) {
      do {
        return try open()
      } catch let error as StoreError where error.kind == .missing {
        return nil
      }
    }
    if try holder.refresh() == nil && holder.snapshot.generation == 0 {
      context.console.err(
        "note: no index at \(CommandContext.stores.redacted(config.databasePath)) yet; run 'geophoto sync DIR' "
          + "(it is picked up when it appears)\n")
    }
    return holder
  }

  /// What the API answers with: the token (from its file), the host names, the log, the
  /// place names, thumbnails and basemap tiles kept beside a local index.
  static func apiConfiguration(_ context: CommandContext, log: LogBuffer) throws -> APIConfiguration {
    let config = context.configuration
    let console = context.console
    var api = config.serve.api
    if let file = config.serve.tokenFile {
      do {
        let (token, warning) = try SettingValue.tokenFile(file)
        api.token = token
        if let warning { console.err("warning: \(warning)\n") }
      } catch {
        throw RuntimeError("\(error)")
      }
    }
    // The name it listens on is one it answers for.
    api.hostnames.append(config.serve.server.host)
    if !context.parsed.has(quiet) { api.accessLog = { log.append($0) } }
    // The place search box's names: the gazetteer beside the index or shipped with geophoto,
    // mapped on the first search.
    if let url = PlaceNames.gazetteerURL(context) { api.places = PlaceDirectory { try PlaceNames.load(url) } }
    api.trips = try TripSearch.finder(context)
    if config.serve.allowEdits { api.edits = Self.edits(context) }
    let shareStore = try CommandContext.stores.opener(config.databasePath, mode: .readOnly)
    api.shares = ShareDirectory(
      load: { try shareStore().shares() }, clock: { Int64(Date().timeIntervalSince1970) })
    // Thumbnails kept beside a local index (a PostgreSQL one has no folder: they are made each time).
    let localFolder = CommandContext.stores.localDirectory(config.databasePath).map { _ in context.indexDirectory }
    if let localFolder {
      api.thumbnailCache = ThumbnailCache(directory: localFolder.appendingPathComponent("thumbnails"))
    }
    // geophoto's own basemap tiles, with the street map of the archives given, drawn on
    // request and kept beside a local index.
    let archives = try StreetMaps.archives(context)
    for archive in archives { console.err("street map: \(StreetMaps.describe(archive.info))\n") }
    api.vectorTiles = archives.filter { $0.info.format == .vector }
    api.map.streetCredits = archives.map(\.info.attributionText)
    if let url = Basemap.shippedURL {
      api.tiles = BuiltInTiles(
        cacheDirectory: localFolder?.appendingPathComponent("basemap-tiles"), maximumCacheBytes: config.tiles.cacheMax
      ) { try StreetMaps.renderer(basemap: url, archives: archives) }
    } else if api.map.basemap == .builtIn {
      console.err(
        "warning: geophoto's basemap (\(Basemap.bundledName)) is not installed beside it; the web map has none\n")
      api.map.basemap = .none
    }
    api.warnings = { log.append("warning: " + $0) }
    return api
  }

  /// The line that says where the server is, and warnings when other machines can reach it.
  /// How the server writes the map's edits: an index connection of its own that writes, the
  /// place names, and (`serve.write_xmp`) the photos' sidecars, overwriting the position the
  /// user corrected or removing it.
  static func edits(_ context: CommandContext) -> PhotoEdits {
    let location = context.configuration.databasePath
    let namerURL = PlaceNames.gazetteerURL(context)
    let radius = context.configuration.places.radius
    let sidecars: (@Sendable (String, Coordinate?) throws -> String?)? =
      context.configuration.serve.writeXMP ? Self.writeSidecar : nil
    return PhotoEdits(
      open: { try CommandContext.stores.open(location, mode: .readWrite) },
      namer: {
        guard let url = namerURL else { return nil }
        return GazetteerFileNamer(url: url, radius: radius)
      }, sidecars: sidecars)
  }

  /// Writes `position` into the sidecar of the photo at `photo` (the one it has, else
  /// `NAME.EXT.xmp`), or removes the position from it; the sidecar's path, nil when there was
  /// no position to remove.
  @Sendable static func writeSidecar(_ photo: String, _ position: Coordinate?) throws -> String? {
    let outcome: XMPSidecarFile.Outcome
    if let position {
      outcome = try XMPSidecarFile.write(position: XMPPosition(coordinate: position), forPhoto: photo, overwrite: true)
    } else {
      outcome = try XMPSidecarFile.removePosition(forPhoto: photo)
    }
    switch outcome {
    case .created(let path), .updated(let path): return path
    case .leftAlone(let path, let reason):
      if position == nil, reason == XMPSidecarFile.holdsNoPosition || reason == XMPSidecarFile.noSidecar { return nil }
      throw RuntimeError("\(path) \(reason)")
    }
  }

  static func announce(_ server: HTTPServer, holder: LoadedIndexHolder, hasToken: Bool, _ context: CommandContext) {
    let config = context.configuration
    let console = context.console
    if !server.isLoopbackOnly {
      console.err("warning: listening on \(config.serve.server.host): other machines can reach this server")
      console.err(
        hasToken ? "; /v1 requires the token\n" : "; set --token-file to require a token\n")
      if ["0.0.0.0", "::"].contains(config.serve.server.host) && config.serve.api.hostnames.isEmpty {
        console.err(
          "warning: it answers requests for localhost only until serve.hostnames names the host names clients use\n")
      }
    }
    // The counts only: a snapshot held here would stay for the server's life, with its caches
    // and its mapped spatial index file (still taking its disk space once replaced).
    let (shownCount, shownGeneration) = { ($0.count, $0.generation) }(holder.snapshot)
    let shownHost = config.serve.server.host.contains(":") ? "[\(config.serve.server.host)]" : config.serve.server.host
    // A host name: say which addresses it resolved to.
    let resolved =
      server.addresses == [config.serve.server.host] ? "" : " (\(server.addresses.joined(separator: ", ")))"
    console.out(
      "serving \(shownCount) photos (index generation \(shownGeneration)) on "
        + "http://\(shownHost):\(server.port)/\(resolved)\n")
  }

  /// The folders of `--watch`, kept in line on a thread of their own by a watcher with an
  /// index connection that writes (the server's own only read); its lines go to `say`.
  static func watchFolders(_ context: CommandContext, quiet: Bool, say: @escaping @Sendable (String) -> Void) throws
    -> WatchThread?
  {
    let folders = try context.parsed.values(watchFolder)
    guard !folders.isEmpty else { return nil }
    let watcher: FolderWatch
    do {
      watcher = try FolderWatch(
        roots: folders, options: SyncCommand.watchOptions(context),
        engine: {
          let engine = try SyncCommand.makeEngine(context)
          engine.warn = { path, reason in say("warning: \(path): \(reason)") }
          return engine
        },
        note: { note in
          switch note {
          case .started(let summary): if !quiet { say("watch: " + SyncCommand.describe(summary)) }
          case .batch(let summary): if !quiet { say("watch: " + SyncCommand.batchLine(summary)) }
          case .message(let text): say("watch: \(text)")
          }
        })
    } catch let refusal as SyncRefusal {
      throw RuntimeError(refusal.description)
    }
    return WatchThread(watcher, say: say)
  }
}

/// A folder watcher running on a thread of its own until `stop()`.
final class WatchThread: @unchecked Sendable {
  private let stopper: FolderWatch.Stopper
  private let finished = DispatchSemaphore(value: 0)

  init(_ watcher: FolderWatch, say: @escaping @Sendable (String) -> Void) {
    stopper = watcher.stopper
    let thread = Thread { [finished] in
      do {
        try watcher.run()
      } catch {
        say("watch: stopped: \(error)")
      }
      finished.signal()
    }
    thread.start()
  }

  /// Stops the watcher and waits for the batch in flight.
  func stop() {
    stopper.stop()
    finished.wait()
  }
}
