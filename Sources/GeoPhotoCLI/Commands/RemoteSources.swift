import Foundation
import GeoPhotoCore
import GeoPhotoHTTP
import GeoPhotoRemote

/// Options and set-up shared by the commands that reach remote providers.
enum RemoteSources {
  static let sourceOption = FilterOptions.option(.source)
  static let verbose = FlagOption(long: "verbose", short: "v", help: "Print each request (keys redacted) on stderr.")
  static var verboseOption: CommandSpec.Option { verbose.spec }

  /// The sources named with `--source`, or `nil` when none was named.
  static func selected(_ parsed: ParsedArguments) throws -> Set<PhotoSource>? {
    guard let names = parsed.values[sourceOption.long], !names.isEmpty else { return nil }
    do {
      guard case .sources(let sources) = try FilterField.source.read(names.joined(separator: ",")) else { return nil }
      return sources
    } catch {
      throw UsageError(error.message { "'--\($0.rawValue)'" })
    }
  }

  static var userAgent: String { "geophoto/\(GeoPhotoCommand.version) (+https://github.com/geophoto/geophoto)" }

  /// The providers to ask: those in `wanted`, or by default Commons and, when a key is
  /// configured, Flickr. A missing Flickr key is an error when Flickr was asked for by name,
  /// and a note otherwise.
  static func providers(
    wanted: Set<PhotoSource>?, context: CommandContext
  ) throws -> [any PhotoProvider] {
    let config = context.configuration
    let remote = wanted.map { $0.subtracting([.local]) } ?? [.flickr, .commons]
    let options = config.http.clientOptions(userAgent: userAgent, secrets: [config.flickr.apiKey].compactMap { $0 })
    let retry = config.http.retry
    let console = context.console
    let verbose = context.parsed.has(Self.verbose)
    let log: @Sendable (String) -> Void = { line in if verbose { console.err("\(line)\n") } }

    var providers: [any PhotoProvider] = []
    if remote.contains(.flickr) {
      if let key = config.flickr.apiKey {
        let flickrContext = ProviderContext(
          client: try HTTPClient(options: options), retry: retry,
          limiter: RateLimiter(perHour: config.flickr.requestsPerHour, burst: 5), log: log)
        providers.append(
          FlickrProvider(
            apiKey: key, endpoint: config.flickr.endpoint, format: config.flickr.format, context: flickrContext))
      } else if wanted?.contains(.flickr) == true {
        throw RuntimeError("Flickr needs an API key: \(FlickrProvider.keyHelp)")
      } else {
        console.err("note: Flickr skipped: no API key (\(FlickrProvider.keyHelp))\n")
      }
    }
    if remote.contains(.commons) {
      // One request at a time (the client is serial); no fixed rate, as Wikimedia asks.
      let commonsContext = ProviderContext(client: try HTTPClient(options: options), retry: retry, log: log)
      providers.append(CommonsProvider(endpoint: config.commons.endpoint, context: commonsContext))
    }
    return providers
  }

  static func describe(_ report: FetchReport) -> String {
    if report.wasFresh { return "\(report.source): fetched recently, nothing requested" }
    return "\(report.source): \(report.photos) photos (\(report.added) new, \(report.updated) updated)"
  }
}
