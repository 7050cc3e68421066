public import Foundation

/// Where geophoto keeps what it can make again (tiles fetched for snapshots, a PostgreSQL
/// index's spatial file): one rule for every cache. systemd's `CacheDirectory` for a service,
/// else `$XDG_CACHE_HOME/geophoto` (an absolute one), else `~/.cache/geophoto`.
public enum CacheFolder {
  public static func geophoto(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    if let service = environment["CACHE_DIRECTORY"]?.split(separator: ":").first, service.hasPrefix("/") {
      return URL(fileURLWithPath: String(service), isDirectory: true)
    }
    if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
      return URL(fileURLWithPath: cache, isDirectory: true).appendingPathComponent("geophoto")
    }
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/geophoto")
  }
}
