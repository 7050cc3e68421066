public import Foundation
import GeoPhotoCore
public import GeoPhotoStore

/// A fresh directory per test, removed afterwards.
public final class TemporaryDirectory {
  public let url: URL

  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// A local photo's record as a sync writes it: a path, a position (or none), a title and a
/// content hash, with a small file state.
public func record(_ path: String, _ lat: Double?, _ lon: Double?, title: String = "t", hash: String = "h")
  -> PhotoRecord
{
  let coordinate = lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } }
  return PhotoRecord(
    photo: Photo(id: 0, source: .local, sourceID: path, coordinate: coordinate, title: title),
    file: FileState(size: 10, changedNanoseconds: 5, contentHash: hash))
}

/// The photo the text-migration tests put in an older index ('Kyōto temple' at 35, 135, in
/// `/p/IMG_7.jpg`, placed in Higashiyama, JP, with the keyword `gardens`), and the words
/// that must each find it once the index is upgraded: one from every searched field.
public enum OlderIndexPhoto {
  public static let words = ["kyoto", "temp", "higashi", "jp", "gardens", "img_7"]

  /// How many photos each of `words` finds near the photo in `store`.
  public static func matches(in store: any PhotoStore) throws -> [String: Int] {
    var found: [String: Int] = [:]
    for word in words {
      let query = NearQuery(
        center: Coordinate(latitude: 35, longitude: 135), limit: 5, filter: PhotoFilter(text: try TextQuery(word)))
      found[word] = try store.nearest(query).count
    }
    return found
  }
}
