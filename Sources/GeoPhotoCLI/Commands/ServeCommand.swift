import Dispatch
import Foundation
import GeoPhotoHTTPD
import GeoPhotoPostgres
import GeoPhotoServer

enum ServeCommand: Subcommand {
  static let spec = CommandSpec(
    name: "serve",
    abstract: "Serve annotation lists (JSON, GeoJSON, clusters) and a web map over HTTP.",
    discussion: """
      Answers from the index in memory and picks up changes from 'sync' and 'fetch' without a
      restart. Listens on 127.0.0.1 unless told otherwise; binding another address prints a
      warning, and a token (--token or GEOPHOTO_TOKEN) then protects every /v1 request.
      One access-log line per request goes to stderr. Stops cleanly on SIGINT or SIGTERM.
      The API is described at /openapi.json.
      """,
    options: [
      .init(
        long: "host", valueName: "address",
        help: "The address or host name to listen on (a name: every address it resolves to).",
        defaultText: "127.0.0.1", setting: "serve.host"),
      .init(
        long: "port", short: "p", valueName: "port", help: "The port; 0 picks a free one.", defaultText: "8080",
        setting: "serve.port"),
      .init(
        long: "token", valueName: "token",
        help: "Require 'Authorization: Bearer <token>' on /v1 (also GEOPHOTO_TOKEN).", setting: "serve.token"),
      .init(
        long: "threads", valueName: "n", help: "Request threads.", defaultText: "one per core", setting: "serve.threads"
      ),
      .init(
        long: "allow-origin", valueName: "origin", help: "Access-Control-Allow-Origin.", defaultText: "*",
        setting: "serve.allow_origin"),
      .init(
        long: "privacy-zone", valueName: "lat,lon,radius", help: "Hide every photo in this circle (repeatable).",
        repeating: true,
        setting: "serve.privacy_zones"),
      .init(
        long: "tiles", valueName: "url", help: "Basemap tile URL template, or 'none'.", defaultText: "OpenStreetMap",
        setting: "serve.tiles"),
      .init(long: "quiet", short: "q", valueName: nil, help: "No access log."),
    ],
    examples: [
      "geophoto serve",
      "geophoto serve --host 0.0.0.0 --port 8080 --token \"$(cat ~/.config/geophoto/token)\"",
      "geophoto serve --privacy-zone 35.6895,139.6917,300m --tiles none",
    ])

  static func run(_ context: CommandContext) throws {
    guard context.parsed.positionals.isEmpty else {
      throw UsageError("Unexpected argument '\(context.parsed.positionals[0])'")
    }
    let config = context.configuration
    let console = context.console
    let holder: SnapshotHolder
    if context.usesPostgres {
      // One small pool for the whole process; the first load also checks the URL and schema.
      let pool = PostgresPool(url: config.databasePath)
      holder = SnapshotHolder(privacyZones: config.privacyZones) { try PostgresPhotoStore(pool: pool) }
      try holder.refresh()
    } else {
      holder = SnapshotHolder(databaseURL: context.databaseURL, privacyZones: config.privacyZones)
      if FileManager.default.fileExists(atPath: config.databasePath) {
        try holder.refresh()
      } else {
        console.err(
          "note: no index at \(config.databasePath) yet; run 'geophoto sync DIR' (it is picked up when it appears)\n")
      }
    }

    var api = APIConfiguration()
    api.token = config.token
    api.allowedOrigin = config.allowedOrigin
    api.maximumFeatures = config.maximumFeatures
    api.map.tileURL = config.tileURL
    api.map.attribution = config.attribution
    api.map.leafletFallbackURL = config.leafletURL
    let router = APIRouter(holder: holder, configuration: api)

    var options = HTTPServerOptions()
    options.host = config.host
    options.port = config.port
    if let threads = config.threads { options.threads = threads }
    let quiet = context.parsed.has("quiet")
    var log: HTTPServer.AccessLog?
    if !quiet {
      log = { @Sendable request, response, micros in
        console.err(APIRouter.accessLogLine(request, response, microseconds: micros) + "\n")
      }
    }
    let server: HTTPServer
    do {
      server = try HTTPServer(options: options, responder: router, log: log)
    } catch let error as HTTPServer.StartError {
      throw RuntimeError(error.description)
    }
    if !server.isLoopbackOnly {
      console.err("warning: listening on \(config.host): other machines can reach this server")
      console.err(config.token == nil ? "; set --token to require one\n" : "; /v1 requires the token\n")
    }
    let snapshot = holder.snapshot
    let shownHost = config.host.contains(":") ? "[\(config.host)]" : config.host
    // A host name: say which addresses it resolved to.
    let resolved = server.addresses == [config.host] ? "" : " (\(server.addresses.joined(separator: ", ")))"
    console.out(
      "serving \(snapshot.photos.count) photos (index generation \(snapshot.generation)) on "
        + "http://\(shownHost):\(server.port)/\(resolved)\n")
    holder.watch(interval: config.reloadInterval) { console.err("\($0)\n") }

    // Wait for SIGINT or SIGTERM, then finish the requests in flight and stop.
    let stop = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler { stop.signal() }
      source.resume()
      sources.append(source)
    }
    stop.wait()
    server.stop()
    holder.stopWatching()
    console.err("stopped\n")
  }
}
