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
    photo: Photo(id: 0, source: .local, sourceID: path, path: path, coordinate: coordinate, title: title),
    file: FileState(size: 10, changedNanoseconds: 5, contentHash: hash))
}
