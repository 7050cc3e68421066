import Foundation
import GeoPhotoCore
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
          id: Int64(i + 1), source: .local, sourceID: path, path: path,
          coordinate: Coordinate(latitude: 35, longitude: 139), title: name))
    }
    if camera {
      photos.append(
        Photo(
          id: 100, source: .local, sourceID: Self.camera, path: Self.camera,
          coordinate: Coordinate(latitude: 35, longitude: 139), title: "altitude", orientation: 6))
    }
    var configuration = APIConfiguration()
    configuration.thumbnailCache = ThumbnailCache(directory: folder.appendingPathComponent("thumbnails"))
    configuration.warnings = { line in warnings.lines.withLock { $0.append(line) } }
    let snapshot = IndexSnapshot(generation: 1, photos: photos, privacyZones: [])
    return APIRouter(holder: SnapshotHolder(initial: snapshot) { nil }, configuration: configuration)
  }

  /// A PNG header for `width × height` RGB pixels, and no pixels.
  static func bombPNG() -> [UInt8] {
    func bigEndian(_ v: UInt32) -> [UInt8] {
      [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in body {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      }
      return bigEndian(UInt32(data.count)) + body + bigEndian(~crc)
    }
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      + chunk("IHDR", bigEndian(50_000) + bigEndian(50_000) + [8, 2, 0, 0, 0]) + chunk("IDAT", []) + chunk("IEND", [])
  }

  @Test func everyKindOfFileGetsItsAnswer() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let warnings = Warnings()
    let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Array(repeating: 0, count: 16)
    let camera = FileManager.default.fileExists(atPath: Self.camera)
    let api = try served(
      [("bomb.png", Self.bombPNG()), ("scan.tif", tiff), ("gone.jpg", [])], camera: camera, warnings: warnings)

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

    guard camera else {
      print("skipped: the camera sample is not in the corpora")
      return
    }
    // A 2112 × 1584 camera JPEG held upright by its orientation (6, a quarter turn): portrait.
    let small = get(api, "/v1/photos/100/thumbnail")
    #expect(LiveTests.jpegSize(small.body).map { [$0.0, $0.1] } == [192, 256])
    let large = get(api, "/v1/photos/100/thumbnail?size=1024")
    #expect(LiveTests.jpegSize(large.body).map { [$0.0, $0.1] } == [768, 1024])
    let tag = try #require(small.header("ETag"))
    #expect(get(api, "/v1/photos/100/thumbnail", headers: ["if-none-match": tag]).status == 304)
    #expect(large.header("ETag") != tag)
  }
}
