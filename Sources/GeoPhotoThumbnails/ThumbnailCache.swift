public import Foundation

/// Thumbnails kept on disk beside the index: `<directory>/<size>/<id % 1000>/<id>-<stamp>.jpg`,
/// where the stamp changes with the file (its size and modification time), so an edited photo
/// gets a new thumbnail and the old one is removed when the new one is written.
public struct ThumbnailCache: Sendable {
  public let directory: URL

  public init(directory: URL) { self.directory = directory }

  /// What identifies the file's version: its size and modification time; nil when it is gone.
  public static func stamp(ofFile path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    // Seconds and nanoseconds apart: a time far from now (a file touched to the year 2300)
    // cannot overflow their sum.
    return [
      UInt64(bitPattern: Int64(info.st_size)), UInt64(bitPattern: Int64(info.st_mtim.tv_sec)),
      UInt64(bitPattern: Int64(info.st_mtim.tv_nsec)),
    ].map { String($0, radix: 36) }.joined(separator: "-")
  }

  func folder(id: Int64, size: Int) -> URL {
    directory.appendingPathComponent(String(size)).appendingPathComponent(String(id % 1000))
  }

  func file(id: Int64, size: Int, stamp: String) -> URL {
    folder(id: id, size: size).appendingPathComponent("\(id)-\(stamp).jpg")
  }

  /// The kept thumbnail, or `make`'s, kept for next time (written beside its name and renamed
  /// into place, so a reader never sees half of one). A cache that cannot be written is
  /// passed over: the thumbnail is still answered.
  public func thumbnail(
    id: Int64, size: Int, stamp: String, make: () throws(ThumbnailError) -> [UInt8]
  ) throws(ThumbnailError) -> [UInt8] {
    let url = file(id: id, size: size, stamp: stamp)
    if let kept = FileManager.default.contents(atPath: url.path), !kept.isEmpty { return [UInt8](kept) }
    let bytes = try make()
    keep(bytes, at: url, id: id)
    return bytes
  }

  /// Whether a thumbnail of this version is kept.
  public func has(id: Int64, size: Int, stamp: String) -> Bool {
    FileManager.default.fileExists(atPath: file(id: id, size: size, stamp: stamp).path)
  }

  private func keep(_ bytes: [UInt8], at url: URL, id: Int64) {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let temporary = folder.appendingPathComponent(
        ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
      try Data(bytes).write(to: temporary)
      guard rename(temporary.path, url.path) == 0 else {
        try? FileManager.default.removeItem(at: temporary)
        return
      }
      // Earlier versions of the photo's thumbnail.
      let prefix = "\(id)-"
      for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      where name.hasPrefix(prefix) && name != url.lastPathComponent && !name.hasPrefix(".") {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
      }
    } catch {
      return
    }
  }
}
