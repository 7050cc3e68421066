public import Foundation
import GeoPhotoCore
import Synchronization

/// A map that draws tiles: the Natural Earth basemap (`BasemapRenderer`), or it with a street
/// map over it. Its identity names the tiles it drew in a cache: another basemap or another
/// set of archives is another identity.
public protocol TileDrawing: Sendable {
  var identity: String { get }
  func tile(zoom: Int, x: Int, y: Int, scale: Int, style: BasemapStyle) throws(TileError) -> [UInt8]
}

extension BasemapRenderer: TileDrawing {
  public var identity: String { String(basemap.identity, radix: 16) }
}

/// geophoto's own map tiles: the shipped basemap (with the street map of the archives the
/// server was given, when it was) drawn on request (loaded on the first tile, so a server
/// nobody asks for tiles never reads the files) and kept in a folder beside the index, one
/// file per tile, under the drawing's identity (tiles of another are removed when the cache is
/// first used), at most `maximumCacheBytes` of them (the least recently used go first: clients
/// asking for many distinct tiles cannot fill the disk).
public final class BuiltInTiles: Sendable {
  private let load: @Sendable () throws -> any TileDrawing
  private let loaded = Mutex<(any TileDrawing)?>(nil)
  private let cacheDirectory: URL?
  private let budget: DiskCacheBudget?
  private let cleaned = Mutex(false)

  /// The cache's default bound.
  public static let defaultCacheBytes = 512_000_000

  /// Tiles up to this zoom are kept on disk; deeper ones (19 zooms would be billions of files)
  /// are drawn each time.
  public static let cachedZooms = 0...16

  /// `load` answers the map; `cacheDirectory` (nil: none) is where drawn tiles are kept,
  /// `maximumCacheBytes` of them at most.
  public init(
    cacheDirectory: URL?, maximumCacheBytes: Int = defaultCacheBytes,
    drawing load: @escaping @Sendable () throws -> any TileDrawing
  ) {
    self.load = load
    self.cacheDirectory = cacheDirectory
    budget = cacheDirectory.map { DiskCacheBudget(directory: $0, maximumBytes: maximumCacheBytes) }
  }

  /// Tiles of the Natural Earth basemap alone, which `load` answers.
  public convenience init(
    cacheDirectory: URL?, maximumCacheBytes: Int = defaultCacheBytes, load: @escaping @Sendable () throws -> Basemap
  ) {
    self.init(cacheDirectory: cacheDirectory, maximumCacheBytes: maximumCacheBytes) {
      BasemapRenderer(basemap: try load())
    }
  }

  public convenience init(basemap: Basemap, cacheDirectory: URL? = nil, maximumCacheBytes: Int = defaultCacheBytes) {
    self.init(cacheDirectory: cacheDirectory, maximumCacheBytes: maximumCacheBytes) { basemap }
  }

  /// The bytes the kept tiles take now.
  public var cachedBytes: Int { budget?.totalBytes ?? 0 }

  public func renderer() throws -> any TileDrawing {
    try loaded.withLock { renderer in
      if let renderer { return renderer }
      let made = try load()
      renderer = made
      return made
    }
  }

  /// A tile's identity: the map, the style and the tile (the ETag of its answers).
  public func tag(zoom: Int, x: Int, y: Int, scale: Int, style: BasemapStyle) throws -> String {
    "\"b\(try renderer().identity)-\(style.rawValue)-\(zoom)-\(x)-\(y)-\(scale)\""
  }

  /// The tile's PNG: from the folder, else drawn (and kept there).
  public func tile(zoom: Int, x: Int, y: Int, scale: Int, style: BasemapStyle) throws -> [UInt8] {
    let renderer = try renderer()
    let file = cacheFile(zoom: zoom, x: x, y: y, scale: scale, style: style, identity: renderer.identity)
    if file != nil { removeOtherBasemaps(keeping: renderer.identity) }
    if let file, let data = FileManager.default.contents(atPath: file.path), data.starts(with: [0x89, 0x50]) {
      budget?.used(file)
      return [UInt8](data)
    }
    let png = try renderer.tile(zoom: zoom, x: x, y: y, scale: scale, style: style)
    if let file { keep(png, at: file) }
    return png
  }

  private func cacheFile(zoom: Int, x: Int, y: Int, scale: Int, style: BasemapStyle, identity: String) -> URL? {
    guard let cacheDirectory, Self.cachedZooms.contains(zoom) else { return nil }
    return cacheDirectory.appendingPathComponent(
      "\(identity)/\(style.rawValue)/\(zoom)/\(x)/\(y)\(scale == 2 ? "@2x" : "").png")
  }

  /// Written whole under a temporary name and renamed, so a reader never sees half a tile; a
  /// folder that cannot be written only means the tile is drawn again next time.
  /// Removes the tiles of other basemaps, once, before the cache is first read or counted.
  private func removeOtherBasemaps(keeping current: String) {
    cleaned.withLock { done in
      guard !done, let cacheDirectory else { return }
      done = true
      let fm = FileManager.default
      for old in (try? fm.contentsOfDirectory(atPath: cacheDirectory.path)) ?? [] where old != current {
        try? fm.removeItem(at: cacheDirectory.appendingPathComponent(old))
      }
    }
  }

  private func keep(_ png: [UInt8], at file: URL) {
    let fm = FileManager.default
    let folder = file.deletingLastPathComponent()
    try? fm.createDirectory(at: folder, withIntermediateDirectories: true)
    let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
    guard fm.createFile(atPath: temporary.path, contents: Data(png)) else { return }
    if rename(temporary.path, file.path) != 0 {
      try? fm.removeItem(at: temporary)
      return
    }
    budget?.added(file, bytes: png.count)
  }
}
