import Foundation
import GeoPhotoFixtures
import Testing

/// `geophoto sync --thumbnails`: every located local photo's thumbnails made ahead of time,
/// beside the index, and made again only when the file changes.
@Suite struct ThumbnailEndToEndTests {
  func keptFiles(_ w: ExampleWorkspace) -> [String] {
    let folder = w.db.deletingLastPathComponent().appendingPathComponent("thumbnails")
    let found = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    return found.filter { $0.hasSuffix(".jpg") }.sorted()
  }

  @Test func syncMakesTheThumbnailsAheadOfTime() throws {
    let w = try ExampleWorkspace()
    let located = ExamplePhotos.all.filter { $0.coordinate != nil }.count
    let first = try Binary.run(["sync", w.photos.path, "--thumbnails"], environment: w.env)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("thumbnails: made \(2 * located), already kept 0, none to make 0"), "\(first.stdout)")
    let kept = keptFiles(w)
    #expect(kept.count == 2 * located)
    #expect(
      kept.filter { $0.hasPrefix("256/") }.count == located && kept.filter { $0.hasPrefix("1024/") }.count == located)

    // Nothing changed: nothing made.
    let again = try Binary.run(["sync", w.photos.path, "--thumbnails"], environment: w.env)
    #expect(again.stdout.contains("thumbnails: made 0, already kept \(2 * located)"), "\(again.stdout)")

    // One photo edited: its two thumbnails are made again, and the old ones let go.
    let edited = w.photos.appendingPathComponent(ExamplePhotos.all[0].fileName)
    var bytes = try Data(contentsOf: edited)
    bytes.append(contentsOf: [0, 0])  // after the end of the JPEG: still the same picture
    try bytes.write(to: edited)
    let third = try Binary.run(["sync", w.photos.path, "--thumbnails"], environment: w.env)
    #expect(third.stdout.contains("thumbnails: made 2, already kept \(2 * located - 2)"), "\(third.stdout)")
    #expect(keptFiles(w).count == 2 * located)
  }

  @Test(.enabled(if: StoreKind.available.contains(.postgres), "needs PostgreSQL (Scripts/with-postgres.sh)"))
  func aPostgreSQLIndexKeepsNone() throws {
    let w = try ExampleWorkspace(.postgres)
    let r = try Binary.run(["sync", w.photos.path, "--thumbnails"], environment: w.env)
    #expect(r.status != 0)
    #expect(r.stderr.contains("'--thumbnails' keeps thumbnails beside a local index"))
  }
}
