import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import GeoPhotoHTTPD
import GeoPhotoStore
import Synchronization
import Testing

@testable import GeoPhotoServer

/// A real index (the example photos, written by the fixtures) served on an ephemeral loopback
/// port, spoken to with geophoto's own libcurl client.
final class LiveServer {
  let directory: URL
  let store: any PhotoStore
  let holder: LoadedIndexHolder
  let server: HTTPServer
  let log = AccessLines()
  var base: String { "http://127.0.0.1:\(server.port)" }

  init(_ kind: StoreKind = .sqlite, configure: (inout APIConfiguration) -> Void = { _ in }) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-live-\(UUID().uuidString)")
    let photos = directory.appendingPathComponent("photos")
    try ExamplePhotos.write(to: photos)
    store = try makeScratchStore(kind, in: directory)
    try Self.index(photos, into: store)
    holder = LoadedIndexHolder(open: reopener(for: store))
    try holder.refresh()
    var configuration = APIConfiguration()
    configure(&configuration)
    let log = self.log
    configuration.accessLog = { line in log.lines.withLock { $0.append(line) } }
    var options = HTTPServerOptions()
    options.port = 0
    options.threads = 2
    server = try HTTPServer(options: options, responder: APIRouter(holder: holder, configuration: configuration))
  }

  deinit {
    server.stop()
    holder.stopWatching()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Indexes the example JPEGs the way `sync` stores them (path as source id).
  static func index(_ folder: URL, into store: any PhotoStore) throws {
    try store.write {
      for spec in ExamplePhotos.all {
        let path = folder.appendingPathComponent(spec.fileName).path
        let photo = Photo(
          id: 0, source: .local, sourceID: path, coordinate: spec.coordinate, takenAt: spec.takenAt,
          title: spec.title ?? spec.fileName)
        try store.upsert(PhotoRecord(photo: photo), now: IndexTime.now())
      }
    }
  }

  func client() throws -> HTTPClient {
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = 5
    return try HTTPClient(options: options)
  }
}

/// Access-log lines collected from the server's threads.
final class AccessLines: Sendable {
  let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
}

@Suite(.serialized) struct LiveTests {
  /// A baseline or progressive JPEG's width and height, from its frame header (SOF0–SOF2).
  static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
    var i = 2
    while i + 9 < bytes.count, bytes[i] == 0xFF {
      let marker = bytes[i + 1]
      let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
      if (0xC0...0xC2).contains(marker) {
        return (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]))
      }
      i += 2 + length
    }
    return nil
  }

  @Test(arguments: StoreKind.available)
  func answersOverRealSockets(kind: StoreKind) throws {
    let live = try LiveServer(kind)
    let client = try live.client()
    let near = try client.get(live.base + "/v1/near?lat=35.68&lon=139.76&limit=3")
    #expect(near.status == 200)
    #expect(near.headers["content-type"] == "application/json")
    // Other sites' pages may not read it: no CORS unless configured.
    #expect(near.headers["access-control-allow-origin"] == nil)
    let object = try JSONSerialization.jsonObject(with: Data(near.body)) as? [String: Any]
    #expect((object?["annotations"] as? [Any])?.count == 3)
    let tag = try #require(near.headers["etag"])
    let revalidated = try client.get(
      live.base + "/v1/near?lat=35.68&lon=139.76&limit=3", headers: ["If-None-Match": tag])
    #expect(revalidated.status == 304 && revalidated.body.isEmpty)
    let bad = try client.get(live.base + "/v1/near?lat=100&lon=0")
    #expect(bad.status == 400)
    // A local photo's thumbnail, made from the file the index names (never a request path):
    // the example is 16 × 16 pixels, so the thumbnail is too (never enlarged).
    let thumbnail = try client.get(live.base + "/v1/photos/1/thumbnail")
    #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/jpeg")
    #expect(Self.jpegSize(thumbnail.body).map { [$0.0, $0.1] } == [16, 16])
    let thumbnailTag = try #require(thumbnail.headers["etag"])
    let again = try client.get(live.base + "/v1/photos/1/thumbnail", headers: ["If-None-Match": thumbnailTag])
    #expect(again.status == 304)
    #expect(try client.get(live.base + "/v1/photos/1/thumbnail?size=64").status == 400)
    let log = live.log.all
    #expect(log.contains { $0.hasPrefix("GET /v1/near?lat=35.68&lon=139.76&limit=3 200 ") && $0.hasSuffix("µs") })
  }

  @Test func concurrentClientsGetConsistentAnswers() throws {
    let live = try LiveServer()
    let expected = try live.client().get(live.base + "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=12").body
    let failures = Mutex(0)
    let url = live.base + "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=12"
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      var options = HTTPClientOptions(userAgent: "geophoto-tests")
      options.timeout = 5
      guard let client = try? HTTPClient(options: options) else { return }
      for _ in 0..<40 {
        let r = try? client.get(url)
        if r?.status != 200 || r?.body != expected { failures.withLock { $0 += 1 } }
      }
    }
    #expect(failures.withLock { $0 } == 0)
  }

  @Test(arguments: StoreKind.available)
  func picksUpIndexChangesWithoutRestart(kind: StoreKind) throws {
    let live = try LiveServer(kind)
    let client = try live.client()
    func health() throws -> (Int, Int) {
      let object =
        try JSONSerialization.jsonObject(with: Data(try client.get(live.base + "/v1/status").body)) as? [String: Any]
      return (object?["generation"] as? Int ?? -1, object?["photos"] as? Int ?? -1)
    }
    let (generation, photos) = try health()
    #expect(photos == 12)
    live.holder.watch(interval: 0.05) { _ in }
    try live.store.write {
      try live.store.upsert(
        PhotoRecord(
          photo: Photo(
            id: 0, source: .local, sourceID: "/new.jpg",
            coordinate: Coordinate(latitude: 1, longitude: 2),
            title: "new")), now: IndexTime.now())
    }
    let deadline = Date().addingTimeInterval(10)
    var seen = (generation, photos)
    while Date() < deadline {
      seen = try health()
      if seen.1 == 13 { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(seen.1 == 13 && seen.0 > generation)
  }

  @Test func tokenOverTheWire() throws {
    let live = try LiveServer { $0.token = "correct-horse-battery" }
    let client = try live.client()
    #expect(try client.get(live.base + "/v1/near?lat=1&lon=1").status == 401)
    let ok = try client.get(
      live.base + "/v1/near?lat=1&lon=1", headers: ["Authorization": "Bearer correct-horse-battery"])
    #expect(ok.status == 200)
    #expect(live.log.all.allSatisfy { !$0.contains("correct-horse-battery") })
  }
}
