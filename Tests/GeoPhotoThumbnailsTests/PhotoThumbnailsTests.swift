import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoThumbnails

/// Thumbnails of camera RAW files (from their embedded preview JPEG), of JPEGs carrying
/// previews (from one at least as large as asked), and of videos (a placeholder), through `PhotoThumbnails` as the endpoint and `sync --thumbnails` use it.
@Suite struct PhotoThumbnailsTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-raw-\(UUID().uuidString)")

  func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
  func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }

  /// A TIFF-based RAW: IFD0 (with a SubIFD) holding a 160 × 120 blue thumbnail, the SubIFD a
  /// 2000 × 1500 red preview, then "sensor data".
  func rawFile() throws -> String {
    let preview = try JPEGCodec.encode(Raster(width: 2000, height: 1500, red: 220, green: 20, blue: 20))
    let thumbnail = try JPEGCodec.encode(Raster(width: 160, height: 120, red: 20, green: 20, blue: 220))
    func entry(_ tag: UInt16, _ value: Int) -> [UInt8] { le16(tag) + le16(4) + le32(1) + le32(UInt32(value)) }
    let previewAt = 80
    let thumbnailAt = previewAt + preview.count
    var file: [UInt8] = Array("II".utf8) + [42, 0] + le32(8)
    // IFD0 at 8: the thumbnail and the SubIFD pointer, 42 bytes.
    file += le16(3) + entry(0x0201, thumbnailAt) + entry(0x0202, thumbnail.count) + entry(0x014A, 50) + le32(0)
    // The SubIFD at 50: the preview, 30 bytes.
    file += le16(2) + entry(0x0201, previewAt) + entry(0x0202, preview.count) + le32(0)
    file += preview + thumbnail + [UInt8](repeating: 0x5A, count: 100_000)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("shot.nef").path
    try Data(file).write(to: URL(fileURLWithPath: path))
    return path
  }

  func decoded(_ outcome: PhotoThumbnails.Outcome) throws -> Raster {
    guard case .thumbnail(let jpeg) = outcome else {
      Issue.record("no thumbnail: \(outcome)")
      throw CocoaError(.fileReadUnknown)
    }
    return try jpeg.withUnsafeBytes { try JPEGCodec.decode($0, atLeast: Int.max) }
  }

  func pixel(_ r: Raster, _ x: Int, _ y: Int) -> (Int, Int, Int) {
    let i = (y * r.width + x) * 3
    return (Int(r.pixels[i]), Int(r.pixels[i + 1]), Int(r.pixels[i + 2]))
  }

  @Test func aRawFileIsThumbnailedFromItsPreviewTurnedUpright() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try rawFile()
    let photo = Photo(
      id: 1, source: .local, sourceID: path, coordinate: Coordinate(latitude: 35, longitude: 139),
      title: "shot", orientation: 6)
    let stamp = try #require(PhotoThumbnails.stamp(of: photo))
    for size in ThumbnailMaker.sizes {
      let image = try decoded(PhotoThumbnails(cache: nil).thumbnail(of: photo, size: size, stamp: stamp))
      // The large red preview (not the small blue thumbnail), its longest side the size asked
      // for, turned a quarter (orientation 6): portrait.
      #expect(image.height == size && image.width == size * 3 / 4, "\(image.width)×\(image.height)")
      let (r, g, b) = pixel(image, image.width / 2, image.height / 2)
      #expect(r > 180 && g < 60 && b < 60, "\(r),\(g),\(b)")
    }
  }

  /// A 2400 × 1800 red JPEG carrying previews of other colours, so the thumbnail's colour
  /// tells which image it was made from.
  func jpegWithPreviews(exifThumbnail: Raster?, images: [(MultiPictureJPEG.ImageType, Raster)]) throws -> Photo {
    var exif = ExifBlockBuilder()
    exif.thumbnail = try exifThumbnail.map { try JPEGCodec.encode($0) }
    let file = MultiPictureJPEG.make(
      primary: try JPEGCodec.encode(Raster(width: 2400, height: 1800, red: 220, green: 20, blue: 20)),
      exif: exif.build(), images: try images.map { ($0.0, try JPEGCodec.encode($0.1)) })
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("shot-\(UUID().uuidString).jpg").path
    try Data(file).write(to: URL(fileURLWithPath: path))
    return Photo(
      id: 3, source: .local, sourceID: path, coordinate: Coordinate(latitude: 35, longitude: 139),
      title: "shot", orientation: 1)
  }

  func colour(of photo: Photo, size: Int) throws -> (Int, Int, Int) {
    let stamp = try #require(PhotoThumbnails.stamp(of: photo))
    let image = try decoded(PhotoThumbnails(cache: nil).thumbnail(of: photo, size: size, stamp: stamp))
    #expect(max(image.width, image.height) == size, "\(image.width)×\(image.height)")
    return pixel(image, image.width / 2, image.height / 2)
  }

  @Test func aJPEGIsThumbnailedFromAnEmbeddedPreviewAtLeastAsLarge() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    // A blue VGA large thumbnail and a green gain map (an MPF image of undefined type).
    let camera = try jpegWithPreviews(
      exifThumbnail: Raster(width: 160, height: 120, red: 220, green: 220, blue: 20),
      images: [
        (.largeThumbnailVGA, Raster(width: 640, height: 480, red: 20, green: 20, blue: 220)),
        (.undefined, Raster(width: 1200, height: 900, red: 20, green: 220, blue: 20)),
      ])
    // 256: the VGA preview (not the 160-pixel EXIF thumbnail, too small).
    let (r, g, b) = try colour(of: camera, size: 256)
    #expect(b > 180 && r < 60 && g < 60, "\(r),\(g),\(b)")
    // 1024: no preview is that large (a gain map is no preview): the image itself.
    let (r2, g2, b2) = try colour(of: camera, size: 1024)
    #expect(r2 > 180 && g2 < 60 && b2 < 60, "\(r2),\(g2),\(b2)")
    // An EXIF thumbnail of 320 pixels serves 256.
    let large = try jpegWithPreviews(
      exifThumbnail: Raster(width: 320, height: 240, red: 220, green: 220, blue: 20), images: [])
    let (r3, g3, b3) = try colour(of: large, size: 256)
    #expect(r3 > 180 && g3 > 180 && b3 < 60, "\(r3),\(g3),\(b3)")
  }

  @Test func aVideoHasAPlaySignPlaceholder() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("clip.mp4").path
    try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 100)).write(
      to: URL(fileURLWithPath: path))
    var photo = Photo(
      id: 2, source: .local, sourceID: path, coordinate: Coordinate(latitude: 35, longitude: 139),
      title: "clip")
    photo.mediaType = .video
    let stamp = try #require(PhotoThumbnails.stamp(of: photo))
    let image = try decoded(PhotoThumbnails(cache: nil).thumbnail(of: photo, size: 256, stamp: stamp))
    #expect(image.width == 256 && image.height == 144)
    let corner = pixel(image, 4, 4)
    let middle = pixel(image, 128, 72)
    #expect(corner.0 < 60 && corner.1 < 60 && corner.2 < 60, "a dark frame: \(corner)")
    #expect(middle.0 > 200 && middle.1 > 200 && middle.2 > 200, "a light play sign: \(middle)")
  }
}
