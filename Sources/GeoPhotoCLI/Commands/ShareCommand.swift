import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoShares
import GeoPhotoStore

enum ShareCommand: Subcommand {
  static let spec = CommandSpec(
    name: "share",
    abstract: "Make, list and revoke links that share one trip or one filter's photos.",
    discussion: """
      'share create' makes a link whose token sees only the photos of one trip (--trip ID, from
      'geophoto trips') or of a filter (--since, --camera, …): every answer of 'serve' applies
      that scope, privacy zones too, and nothing can be edited through it. The link is
      printed once; the index keeps only the token's SHA-256. It expires after --expires (30
      days by default; 'never' for none). 'share list' shows the links, 'share revoke ID' ends
      one (a running server stops honouring it within a second). The link names the server
      as serve.hostnames (or serve.host) and serve.port say; the server needs a token of its
      own (serve.token_file), or everyone sees everything anyway.
      """,
    arguments: [
      .init(name: "create|list|revoke", help: "The action.", completion: .values(["create", "list", "revoke"])),
      .init(name: "id", help: "revoke: the link's id, as 'share list' shows it.", optional: true),
    ],
    options: [trip.spec, name.spec, expires.spec] + FilterOptions.options,
    examples: [
      "geophoto share create --trip t2n9c --name \"Japan 2024\"",
      "geophoto share create --since 2024-05-01 --until 2024-05-12 --expires 7d",
      "geophoto share list", "geophoto share revoke k3m9x2pq",
    ])

  static let trip = ValueOption.text(
    "trip", valueName: "id", help: "create: the trip to share (from 'geophoto trips').")
  static let name = ValueOption.text("name", valueName: "text", help: "create: what the link is called.")
  static let expires = ValueOption<Double?>(
    long: "expires", valueName: "duration", help: "create: how long the link works (30d, 12h), or never."
  ) { text throws(InputParser.Failure) in
    guard text.lowercased() != "never" else { return nil }
    let seconds = try InputParser.duration(text)
    guard seconds >= 60, seconds <= 3_660 * 86_400 else {
      throw InputParser.Failure("expected from 1m to 10 years, or never")
    }
    return seconds
  }.defaulting(to: 30 * 86_400) { _ in "30d" }

  static func run(_ context: CommandContext) throws {
    let p = context.parsed.positionals
    switch p.first {
    case "create":
      guard p.count == 1 else { throw UsageError("Unexpected argument '\(p[1])'") }
      try create(context)
    case "list":
      guard p.count == 1 else { throw UsageError("Unexpected argument '\(p[1])'") }
      try list(context)
    case "revoke":
      guard p.count == 2 else { throw UsageError("Missing expected argument '<id>'") }
      try revoke(p[1], context)
    case nil: throw UsageError("Missing expected argument '<create|list|revoke>'")
    case let action?: throw UsageError("Unknown action '\(action)'; expected 'create', 'list' or 'revoke'")
    }
  }

  static func create(_ context: CommandContext) throws {
    let parsed = context.parsed
    // The filter as its options were given, kept as query text (the server reads it back).
    var filterText: [String] = []
    for field in FilterField.allCases {
      for value in parsed.values[field.rawValue] ?? [] {
        filterText.append(
          "\(field.rawValue)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
      }
    }
    _ = try FilterOptions.filter(parsed)
    let tripID = try parsed.value(Self.trip)
    guard tripID != nil || !filterText.isEmpty else {
      throw UsageError(
        "Say what to share: --trip ID, or filters such as --since 2024-05 (sharing everything needs none)")
    }
    var name = try parsed.value(Self.name)
    if let id = tripID {
      let (trip, _) = try TripSearch.trip(id, context)
      name = name ?? trip.name
    }
    let store = try context.openOrCreateStore()
    let token = ShareToken.make()
    let now = Int64(Date().timeIntervalSince1970)
    let expiry = try parsed.value(Self.expires)
    let share = Share(
      id: ShareToken.makeID(), name: name ?? "Shared photos", tokenHash: ShareToken.hash(token), trip: tripID,
      filter: filterText.joined(separator: "&"), created: now, expires: expiry.map { now + Int64($0) })
    try store.addShare(share)
    let serve = context.configuration.serve
    let host =
      serve.api.hostnames.first
      ?? (serve.server.host == "0.0.0.0" || serve.server.host == "::" ? "localhost" : serve.server.host)
    let shownHost = host.contains(":") ? "[\(host)]" : host
    context.console.out("http://\(shownHost):\(serve.server.port)/?share=\(token)\n")
    let until =
      share.expires.map { " until \(CaptureDate(secondsSinceEpoch: Int($0), utcOffsetMinutes: 0).iso8601)" } ?? ""
    context.console.err("shared '\(share.name)' as \(share.id)\(until); the link is shown this once\n")
    if serve.api.token == nil && serve.tokenFile == nil {
      context.console.err(
        "warning: the server has no token (serve.token_file): without one, anyone who can reach it sees every photo\n")
    }
  }

  static func list(_ context: CommandContext) throws {
    guard let store = try context.openStore(.readWrite) else { return }
    let now = Int64(Date().timeIntervalSince1970)
    let rows = try store.shares().map { share -> [String] in
      func date(_ seconds: Int64?) -> String {
        seconds.map { String(CaptureDate(secondsSinceEpoch: Int($0), utcOffsetMinutes: 0).iso8601.prefix(10)) }
          ?? "never"
      }
      let state = share.revoked != nil ? "revoked" : share.isActive(at: now) ? "active" : "expired"
      let scope = share.trip.map { "trip \($0)" } ?? share.filter.removingPercentEncoding ?? share.filter
      return [share.id, share.name, scope, date(share.created), date(share.expires), state]
    }
    guard !rows.isEmpty else {
      context.console.err("no share links\n")
      return
    }
    context.console.out(
      TextTable(header: ["ID", "NAME", "SHARES", "CREATED", "EXPIRES", "STATE"], rows: rows).text)
  }

  static func revoke(_ id: String, _ context: CommandContext) throws {
    guard let store = try context.openStore(.readWrite),
      try store.revokeShare(id: id, at: Int64(Date().timeIntervalSince1970))
    else { throw RuntimeError("there is no active share link '\(id)'; 'geophoto share list' shows them") }
    context.console.out("revoked \(id)\n")
  }
}
