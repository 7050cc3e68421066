import Foundation
public import GeoPhotoCore
import Synchronization

/// A PMTiles (v3) archive, memory-mapped: opening it reads the header, the root directory and
/// the metadata, nothing else, so a planet file of a hundred gigabytes opens at once. A tile
/// is found through the root and at most three levels of leaf directories, which are kept once
/// read (up to a bound), and its bytes are copied from the map.
public final class PMTilesArchive: TileArchive, @unchecked Sendable {
  public let info: ArchiveInfo
  public let header: PMTilesHeader
  public let root: PMTilesDirectory
  private let bytes: MappedBytes
  private let leaves = Mutex<LeafCache>(LeafCache())

  /// Leaf directories read, by their offset in the leaf section; emptied when they hold more
  /// entries than `maximumEntries` (about 100 MB).
  struct LeafCache {
    var directories: [UInt64: PMTilesDirectory] = [:]
    var entries = 0
    static let maximumEntries = 4_000_000
  }

  /// The largest directory or metadata inflated.
  static let maximumDirectorySize = 32 << 20

  /// Opens the archive at `path`, mapped; damage names what is wrong with it.
  public convenience init(path: String) throws(DataDamage) {
    let bytes: MappedBytes
    do {
      bytes = try MappedBytes(contentsOf: URL(fileURLWithPath: path), populate: false, readAhead: false)
    } catch {
      throw DataDamage("cannot read \(path): \(error.localizedDescription)")
    }
    try self.init(bytes, path: path)
  }

  /// Opens the archive whose bytes are `bytes` (a file mapped, or bytes in memory).
  public init(_ bytes: MappedBytes, path: String) throws(DataDamage) {
    self.bytes = bytes
    let all = bytes.bytes
    header = try PMTilesHeader(UnsafeRawBufferPointer(rebasing: all.prefix(PMTilesHeader.size)), fileSize: all.count)
    let rootBytes = try Self.section(all, header.rootDirectory, header.internalCompression, "the root directory")
    root = try PMTilesDirectory(decoding: rootBytes, label: "the root directory")
    var info = ArchiveInfo(
      path: path, kind: .pmtiles, format: header.format, minZoom: header.minZoom, maxZoom: header.maxZoom,
      bounds: header.bounds, name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent,
      fileSize: all.count)
    if !header.metadata.isEmpty {
      let text = try Self.section(all, header.metadata, header.internalCompression, "the metadata")
      guard let object = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any] else {
        throw DataDamage("the metadata is not a JSON object")
      }
      ArchiveMetadata.apply(object, to: &info)
      // The header's zooms and bounds are the archive's; metadata may repeat them as text.
      info.minZoom = header.minZoom
      info.maxZoom = header.maxZoom
      info.bounds = header.bounds ?? info.bounds
    }
    if header.centerZoom <= TileAddress.maximumZoom, header.centerE7 != [0, 0] {
      info.center = (Double(header.centerE7[0]) / 1e7, Double(header.centerE7[1]) / 1e7, header.centerZoom)
    }
    info.tileCount = header.addressedTiles > 0 ? Int(exactly: header.addressedTiles) : nil
    if info.bounds == nil, let found = try Self.boundsOfTiles(root, header: header, in: all) {
      info.bounds = found
      info.boundsFromTiles = true
    }
    info.schema = info.format == .vector ? TileSchema.detect(layers: Set(info.vectorLayers.map(\.id))) : .generic
    self.info = info
  }

  public func storedTile(_ address: TileAddress) throws(DataDamage) -> [UInt8]? {
    guard address.zoom >= header.minZoom, address.zoom <= header.maxZoom else { return nil }
    let id = address.hilbertID
    var directory = root
    for _ in 0..<4 {
      guard let entry = directory.find(id) else { return nil }
      guard entry.isLeaf else {
        let range = try Bounds.check(
          offset: entry.offset, length: entry.length, within: header.tileData.count, "tile \(address)")
        guard range.count <= Self.maximumTileSize else {
          throw DataDamage("tile \(address) is \(range.count) bytes (at most \(Self.maximumTileSize >> 20) MiB)")
        }
        let start = header.tileData.lowerBound + range.lowerBound
        return [UInt8](UnsafeRawBufferPointer(rebasing: bytes.bytes[start..<(start + range.count)]))
      }
      directory = try leaf(entry)
    }
    throw DataDamage("tile \(address): leaf directories nested more than three deep")
  }

  /// The leaf directory `entry` points to, read once.
  private func leaf(_ entry: PMTilesDirectory.Entry) throws(DataDamage) -> PMTilesDirectory {
    if let kept = leaves.withLock({ $0.directories[entry.offset] }) { return kept }
    let range = try Bounds.check(
      offset: entry.offset, length: entry.length, within: header.leafDirectories.count, "a leaf directory")
    let start = header.leafDirectories.lowerBound + range.lowerBound
    let label = "the leaf directory at \(entry.offset)"
    let directory = try PMTilesDirectory(
      decoding: try Self.section(bytes.bytes, start..<(start + range.count), header.internalCompression, label),
      label: label)
    leaves.withLock { cache in
      if cache.entries + directory.entries.count > LeafCache.maximumEntries { cache = LeafCache() }
      cache.directories[entry.offset] = directory
      cache.entries += directory.entries.count
    }
    return directory
  }

  /// A section's bytes, inflated when the archive's directories are compressed.
  static func section(
    _ all: UnsafeRawBufferPointer, _ range: Range<Int>, _ compression: PMTilesHeader.Compression, _ what: String
  ) throws(DataDamage) -> [UInt8] {
    guard range.count <= maximumDirectorySize else {
      throw DataDamage("\(what) is \(range.count) bytes (at most \(maximumDirectorySize >> 20) MiB are read)")
    }
    let stored = [UInt8](UnsafeRawBufferPointer(rebasing: all[range]))
    guard compression == .gzip else { return stored }
    return try Gzip.inflate(stored[...], limit: maximumDirectorySize, what)
  }

  /// Where the tiles of the deepest zoom lie, from the directories (for an archive whose header
  /// has no bounds); nil when the directories are too many to walk at open.
  static func boundsOfTiles(_ root: PMTilesDirectory, header: PMTilesHeader, in all: UnsafeRawBufferPointer)
    throws(DataDamage) -> BoundingBox?
  {
    var (minX, maxX, minY, maxY) = (Int.max, Int.min, Int.max, Int.min)
    var found = false
    var pending = [root]
    // At most 1,000 directories and 4,000,000 entries or tiles looked at: a larger archive
    // without bounds has them unknown.
    var queued = 1
    var budget = 4_000_000
    var seen: Set<UInt64> = []
    while let directory = pending.popLast() {
      budget -= directory.entries.count
      guard budget >= 0 else { return nil }
      for entry in directory.entries {
        if entry.isLeaf {
          guard seen.insert(entry.offset).inserted else { continue }
          queued += 1
          guard queued <= 1_000,
            let range = Bounds.range(offset: entry.offset, length: entry.length, within: header.leafDirectories.count)
          else { return nil }
          let start = header.leafDirectories.lowerBound + range.lowerBound
          pending.append(
            try PMTilesDirectory(
              decoding: try section(all, start..<(start + range.count), header.internalCompression, "a leaf directory"),
              label: "a leaf directory"))
          continue
        }
        // A long run (the same sea tile many times) counts by its ends and every 4,096th tile.
        let run = UInt64(entry.runLength)
        let step = run <= 4_096 ? 1 : 4_096
        budget -= Int(run) / step
        guard budget >= 0 else { return nil }
        var ids = Array(stride(from: entry.tileID, to: entry.tileID + run, by: step))
        if run > 0 { ids.append(entry.tileID + run - 1) }
        for id in ids {
          guard let tile = TileAddress(hilbertID: id), tile.zoom == header.maxZoom else { continue }
          (minX, maxX) = (min(minX, tile.x), max(maxX, tile.x))
          (minY, maxY) = (min(minY, tile.y), max(maxY, tile.y))
          found = true
        }
      }
    }
    return found ? ArchiveMetadata.bounds(zoom: header.maxZoom, x: minX...maxX, y: minY...maxY) : nil
  }
}
