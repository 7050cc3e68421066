import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoFixtures
import GeoPhotoThumbnails

// MARK: - Thumbnails from 12-megapixel JPEGs

/// Thumbnails of 12-megapixel JPEGs on one core, as `/v1/photos/{id}/thumbnail` makes them,
/// beside the same work without the decoder's DCT scaling (every pixel decoded, then shrunk).
func benchThumbnails() throws {
  print("Thumbnails: 4000 × 3000 JPEGs (quality 90, photo-like detail), one core")
  let folder = workDirectory.appendingPathComponent("thumbnails-12mp")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  // Four different images: gradients, edges and noise, so the entropy decoder has real work.
  var files: [String] = []
  var rng = SeededGenerator(seed: 4_000)
  for n in 0..<4 {
    let file = folder.appendingPathComponent("photo-\(n).jpg")
    files.append(file.path)
    if FileManager.default.fileExists(atPath: file.path) { continue }
    var raster = Raster(width: 4000, height: 3000, red: 0, green: 0, blue: 0)
    raster.pixels.withUnsafeMutableBufferPointer { p in
      for y in 0..<3000 {
        for x in 0..<4000 {
          let i = (y * 4000 + x) * 3
          let noise = Int(UInt8.random(in: 0...40, using: &rng))
          let stripe = ((x / (40 + 17 * n)) + (y / 60)) % 2 == 0 ? 60 : 0
          p[i] = UInt8(min(255, x * 200 / 4000 + noise + stripe))
          p[i + 1] = UInt8(min(255, y * 200 / 3000 + noise))
          p[i + 2] = UInt8(min(255, (x + y) * 120 / 7000 + noise + (n * 30)))
        }
      }
    }
    try Data(try JPEGCodec.encode(raster, quality: 90)).write(to: file)
  }
  let sizes = files.compactMap { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? nil }
  let maker = ThumbnailMaker()
  for longestSide in ThumbnailMaker.sizes {
    _ = try maker.thumbnail(ofFile: files[0], orientation: 1, longestSide: longestSide)
    let count = 40
    let (_, t) = try timed { () throws -> Int in
      var bytes = 0
      for i in 0..<count {
        bytes += try maker.thumbnail(ofFile: files[i % files.count], orientation: 6, longestSide: longestSide).count
      }
      return bytes
    }
    let perSecond = Double(count) / (Double(t) / 1e9)
    row(
      "\(longestSide) px thumbnails, file read to JPEG written", String(format: "%.0f /s", perSecond),
      longestSide == 256
        ? "files of \(sizes.map { $0 / 1_000_000 }.map(String.init).joined(separator: ", ")) MB"
        : "")
    // The anchor: every pixel decoded (no DCT scaling), shrunk and encoded the same way.
    let (_, full) = try timed { () throws -> Int in
      var bytes = 0
      for i in 0..<8 {
        let data = try Data(contentsOf: URL(fileURLWithPath: files[i % files.count]))
        let raster = try data.withUnsafeBytes { try JPEGCodec.decode($0, atLeast: Int.max) }
        let fit = raster.fitted(longestSide: longestSide)
        bytes += try JPEGCodec.encode(raster.shrunk(toWidth: fit.width, height: fit.height).uprighted(orientation: 6))
          .count
      }
      return bytes
    }
    let fullPerSecond = 8 / (Double(full) / 1e9)
    row(
      "  the same, decoding every pixel (anchor)", String(format: "%.1f /s", fullPerSecond),
      String(format: "%.1f× slower", perSecond / fullPerSecond))
    // The floor: libjpeg-turbo's own decoder at 1/8 scale, nothing else (no resize, no encode).
    if longestSide == 256, FileManager.default.isExecutableFile(atPath: "/usr/bin/djpeg") {
      let (_, djpeg) = try timed { () throws -> Int in
        for i in 0..<8 {
          _ = try runProcess("/usr/bin/djpeg", ["-scale", "1/8", "-outfile", "/dev/null", files[i % 4]])
        }
        return 0
      }
      let djpegPerSecond = 8 / (Double(djpeg) / 1e9)
      row(
        "  djpeg -scale 1/8 alone (anchor: the decoder's floor)", String(format: "%.1f /s", djpegPerSecond),
        String(format: "geophoto at %.2f× its rate (goal ≥ 0.9×)", perSecond / djpegPerSecond))
    }
  }
  try benchPreviewThumbnails(from: files, in: folder)
}

/// The same 12-megapixel JPEGs as cameras write them with previews — a 160 × 120 EXIF
/// thumbnail and MPF large thumbnails of 640 × 480 and 1920 × 1440 — through `PhotoThumbnails`
/// as the endpoint calls it (file opened, previews found, the smallest large enough decoded).
func benchPreviewThumbnails(from files: [String], in folder: URL) throws {
  var photos: [Photo] = []
  for (n, file) in files.enumerated() {
    let path = folder.appendingPathComponent("camera-\(n).jpg").path
    photos.append(
      Photo(
        id: Int64(n + 1), source: .local, sourceID: path,
        coordinate: Coordinate(latitude: 35, longitude: 139), title: "camera \(n)", orientation: 6))
    if FileManager.default.fileExists(atPath: path) { continue }
    let primary = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
    let full = try primary.withUnsafeBytes { try JPEGCodec.decode($0, atLeast: Int.max) }
    func preview(_ width: Int, _ height: Int) throws -> [UInt8] {
      try JPEGCodec.encode(full.shrunk(toWidth: width, height: height), quality: 85)
    }
    var exif = ExifBlockBuilder()
    exif.orientation = 6
    exif.thumbnail = try preview(160, 120)
    let file = MultiPictureJPEG.make(
      primary: primary, exif: exif.build(),
      images: [(.largeThumbnailVGA, try preview(640, 480)), (.largeThumbnailFullHD, try preview(1920, 1440))])
    try Data(file).write(to: URL(fileURLWithPath: path))
  }
  let thumbnails = PhotoThumbnails(cache: nil)
  let stamps = photos.map { PhotoThumbnails.stamp(of: $0) ?? "" }
  for longestSide in ThumbnailMaker.sizes {
    // The best of three rounds: on a shared machine, one round that met another process says
    // little.
    let count = longestSide == 256 ? 300 : 60
    var best = 0.0
    for _ in 0..<3 {
      let (made, t) = try timed { () throws -> Int in
        var made = 0
        for i in 0..<count {
          let photo = photos[i % photos.count]
          if case .thumbnail = thumbnails.thumbnail(of: photo, size: longestSide, stamp: stamps[i % photos.count]) {
            made += 1
          }
        }
        return made
      }
      guard made == count else { throw BenchError("\(count - made) preview thumbnails were not made") }
      best = max(best, Double(count) / (Double(t) / 1e9))
    }
    row(
      "\(longestSide) px from a camera JPEG's embedded preview", String(format: "%.0f /s", best),
      longestSide == 256
        ? "goal ≥ 500 /s per core (640 × 480 MPF preview; best of 3)" : "the 1920 × 1440 MPF preview; best of 3")
  }
}
