import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import GeoPhotoStore
import Synchronization
import Testing

@testable import GeoPhotoRemote

/// Fixture responses shipped with the tests, in the providers' recorded formats.
enum Fixture {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func bytes(_ name: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))) ?? []
  }

  static func response(_ name: String, status: Int = 200) -> FixtureResponse {
    let type = name.hasSuffix(".xml") ? "text/xml" : (name.hasSuffix(".html") ? "text/html" : "text/plain")
    return FixtureResponse(status: status, headers: [("Content-Type", type)], body: bytes(name))
  }
}

let testKey = "a1b2c3d4e5f6a7b8c9d0"

/// Collects `--verbose`-style log lines.
final class LogLines: Sendable {
  let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
}

func context(
  timeout: Double = 5, limit: Int = 1 << 20, log: LogLines? = nil,
  sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
) throws -> ProviderContext {
  var options = HTTPClientOptions(userAgent: "geophoto-tests/1 (+https://example.invalid)")
  options.timeout = timeout
  options.connectTimeout = 2
  options.maximumResponseBytes = limit
  options.redactor = Redactor(secrets: [testKey])
  var retry = RetryPolicy()
  retry.attempts = 3
  retry.baseDelay = 0.01
  retry.sleep = sleep
  let client = try HTTPClient(options: options)
  var sink: @Sendable (String) -> Void = { _ in }
  if let log { sink = log.sink }
  return ProviderContext(client: client, retry: retry, log: sink)
}

/// The Flickr photos the page fixtures describe, with a location: ids in first-seen order.
let expectedFlickrIDs = ["53001", "53002", "53005", "53007"]

/// A Flickr-compatible server that plays the three fixture pages in JSON or XML.
func flickrServer(format: FlickrProvider.Format) throws -> FixtureHTTPServer {
  try FixtureHTTPServer { request in
    let page = request.query["page"] ?? "1"
    if format == .xml { return Fixture.response("flickr-page\(page).xml") }
    return Fixture.response(page == "2" ? "flickr-page2.jsonp" : "flickr-page\(page).json")
  }
}

final class TemporaryIndex {
  let url: URL
  let store: any PhotoStore
  init(_ kind: StoreKind = .sqlite) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-remote-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    store = try makeScratchStore(kind, in: url)
  }
  deinit { try? FileManager.default.removeItem(at: url) }
}
