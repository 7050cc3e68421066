import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoThumbnails
import Synchronization
import Testing

@testable import GeoPhotoServer

/// `/v1/photos/{id}/thumbnail` over files written for the test and a real camera file.
@Suite struct ThumbnailEndpointTests {
  final class Warnings: Sendable {
    let lines = Mutex<[String]>([])
  }

  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-thumb-api-\(UUID().uuidString)")
  static let camera = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/corpora/photoprism-testdata/altitude.jpg").path

  func served(_ files: [(String, [UInt8])], camera: Bool, warnings: Warnings) throws -> APIRouter {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var photos: [Photo] = []
    for (i, (name, bytes)) in files.enumerated() {
      let path = folder.appendingPathComponent(name).path
      if !bytes.isEmpty { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
      photos.append(
        Photo(
          id: Int64(i + 1), source: .local, sourceID: path,
          coordinate: Coordinate(latitude: 35, longitude: 139), title: name))
    }
    if camera {
      photos.append(
        Photo(
          id: 100, source: .local, sourceID: Self.camera,
          coordinate: Coordinate(latitude: 35, longitude: 139), title: "altitude", orientation: 6))
    }
    var configuration = APIConfiguration()
    configuration.thumbnailCache = ThumbnailCache(directory: folder.appendingPathComponent("thumbnails"))
    configuration.warnings = { line in warnings.lines.withLock { $0.append(line) } }
    let snapshot = LoadedIndex(generation: 1, photos: photos, privacyZones: [])
    return APIRouter(holder: LoadedIndexHolder(initial: snapshot) { nil }, configuration: configuration)
  }

  @Test func everyKindOfFileGetsItsAnswer() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let warnings = Warnings()
    let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Array(repeating: 0, count: 16)
    let api = try served(
      [("bomb.png", SamplePNG.header(width: 50_000, height: 50_000)), ("scan.tif", tiff), ("gone.jpg", [])],
      camera: false, warnings: warnings)

    // A decompression bomb: a placeholder, and one log line naming the file and why.
    let bomb = get(api, "/v1/photos/1/thumbnail")
    #expect(bomb.status == 200 && bomb.header("Content-Type") == "image/jpeg")
    #expect(LiveTests.jpegSize(bomb.body).map { [$0.0, $0.1] } == [256, 256])
    let lines = warnings.lines.withLock { $0 }
    #expect(
      lines.count == 1 && lines.first?.contains("bomb.png") == true && lines.first?.contains("50000 × 50000") == true)
    // Kept: asked again, the placeholder comes from the cache without another warning.
    #expect(get(api, "/v1/photos/1/thumbnail").body == bomb.body)
    #expect(warnings.lines.withLock { $0.count } == 1)

    // A format with no decoder here and no embedded thumbnail; a file that is gone.
    #expect(get(api, "/v1/photos/2/thumbnail").status == 404)
    #expect(get(api, "/v1/photos/3/thumbnail").status == 404)
    #expect(get(api, "/v1/photos/1/thumbnail?size=300").status == 400)

  }

  /// A 2112 × 1584 camera JPEG held upright by its orientation (6, a quarter turn): portrait.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: ThumbnailEndpointTests.camera), "needs ../shared/corpora"))
  func aCameraFileIsTurnedUprightAtEitherSize() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let api = try served([], camera: true, warnings: Warnings())
    let small = get(api, "/v1/photos/100/thumbnail")
    #expect(LiveTests.jpegSize(small.body).map { [$0.0, $0.1] } == [192, 256])
    let large = get(api, "/v1/photos/100/thumbnail?size=1024")
    #expect(LiveTests.jpegSize(large.body).map { [$0.0, $0.1] } == [768, 1024])
    let tag = try #require(small.header("ETag"))
    #expect(get(api, "/v1/photos/100/thumbnail", headers: ["if-none-match": tag]).status == 304)
    #expect(large.header("ETag") != tag)
  }
}
