import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

@testable import GeoPhotoSync

/// A sync of one sample of every format and layout (Scripts/make-format-samples.sh): each
/// reaches the index with its position, videos as videos with their length.
@Suite(.enabled(if: FormatSamples.unavailable == nil, "format samples: \(FormatSamples.unavailable ?? "")"))
struct LibraryFormatsTests {
  @Test(arguments: StoreKind.available)
  func everyFormatReachesTheIndex(kind: StoreKind) throws {
    let w = try Workspace(kind)
    let samples = try FormatSamples.make(in: w.photos)
    let names = try FileManager.default.contentsOfDirectory(atPath: samples.path)
    let summary = try w.sync()
    #expect(w.warnings.isEmpty, "\(w.warnings)")
    #expect(summary.scanned == names.count && summary.added == names.count)
    // Only the bare JPEG XL codestream carries no metadata.
    #expect(summary.withoutLocation == 1)
    let photos = try w.all()
    let tokyo = Coordinate(latitude: 35.6812, longitude: 139.7671)
    for name in names {
      let photo = try #require(photos[w.canonical(samples.lastPathComponent + "/" + name)], "\(name)")
      if name == "bare.jxl" {
        #expect(photo.coordinate == nil)
        continue
      }
      let c = try #require(photo.coordinate, "\(name): no position")
      let expected =
        name == "north-east.cr3"
        ? tokyo : Coordinate(latitude: FormatSamples.latitude, longitude: FormatSamples.longitude)
      // ffmpeg keeps 4 decimals.
      #expect(
        abs(c.latitude - expected.latitude) < 1e-4 && abs(c.longitude - expected.longitude) < 1e-4, "\(name): \(c)")
      let video = ["mov", "mp4", "m4v", "3gp", "3g2"].contains((name as NSString).pathExtension)
      #expect(photo.mediaType == (video ? .video : .photo), "\(name)")
      if video {
        #expect(photo.duration.map { $0 >= 2 && $0 <= 3 } == true, "\(name): \(String(describing: photo.duration))")
      }
    }
    let again = try w.sync()
    #expect(again.unchanged == names.count && again.added == 0 && again.updated == 0)
  }
}
