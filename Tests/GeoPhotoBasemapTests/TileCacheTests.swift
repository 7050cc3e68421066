import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

/// The disk cache of drawn tiles holds no more than its bound, however many distinct tiles
/// clients ask for; the least recently used go first.
@Suite struct TileCacheTests {
  /// The bytes of every file under `folder`, from the file system itself.
  static func bytesOnDisk(_ folder: URL) -> Int {
    var total = 0
    let walk = FileManager.default.enumerator(
      at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
    while let file = walk?.nextObject() as? URL {
      guard let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]),
        values.isRegularFile == true
      else { continue }
      total += values.fileSize ?? 0
    }
    return total
  }

  @Test(.enabled(if: shippedBasemap != nil, "the shipped basemap is not built"))
  func distinctTilesCannotFillTheDisk() throws {
    let dir = try TemporaryDirectory()
    let limit = 250_000
    let tiles = BuiltInTiles(cacheDirectory: dir.url, maximumCacheBytes: limit) { try #require(shippedBasemap) }
    var drawn = 0
    for y in 40..<52 {
      for x in 100..<125 {
        drawn += try tiles.tile(zoom: 8, x: x, y: y, scale: 1, style: .light).count
      }
    }
    #expect(drawn > 2 * limit, "the test draws more than the bound holds (\(drawn) bytes)")
    let onDisk = Self.bytesOnDisk(dir.url)
    #expect(onDisk <= limit, "\(onDisk) bytes kept")
    #expect(tiles.cachedBytes == onDisk)
    // The last tile drawn is still kept; the first ones went.
    let kept = dir.url.appendingPathComponent(
      "\(String(try #require(shippedBasemap).identity, radix: 16))/light/8/124/51.png")
    #expect(FileManager.default.fileExists(atPath: kept.path))
    #expect(
      !FileManager.default.fileExists(
        atPath: kept.deletingLastPathComponent().deletingLastPathComponent()
          .appendingPathComponent("100/40.png").path))
  }

  @Test func theLeastRecentlyUsedGoFirstAndEarlierFilesAreCounted() throws {
    let dir = try TemporaryDirectory()
    func write(_ name: String, _ bytes: Int, modified: Double) throws -> URL {
      let url = dir.url.appendingPathComponent(name)
      try Data(repeating: 1, count: bytes).write(to: url)
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: modified)], ofItemAtPath: url.path)
      return url
    }
    // An earlier run's files: the oldest by modification time counts as least recently used.
    let old = try write("old", 400, modified: 1_000)
    let newer = try write("newer", 400, modified: 2_000)
    let budget = DiskCacheBudget(directory: dir.url, maximumBytes: 1_000)
    budget.used(old)  // read again: now the most recent
    let added = try write("added", 400, modified: 3_000)
    budget.added(added, bytes: 400)
    // 1,200 bytes > 1,000: the least recently used ('newer') went, down to 900 at most.
    #expect(FileManager.default.fileExists(atPath: old.path))
    #expect(!FileManager.default.fileExists(atPath: newer.path))
    #expect(FileManager.default.fileExists(atPath: added.path))
    #expect(budget.totalBytes == 800)
  }
}
