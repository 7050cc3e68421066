import Foundation
public import GeoPhotoCore

/// What an archive's tiles are.
public enum TileFormat: String, Sendable, CaseIterable {
  case vector = "mvt"
  case png
  case jpeg
  case webp
  case avif

  /// The media type to serve a tile with.
  public var mediaType: String {
    switch self {
    case .vector: "application/vnd.mapbox-vector-tile"
    case .png: "image/png"
    case .jpeg: "image/jpeg"
    case .webp: "image/webp"
    case .avif: "image/avif"
    }
  }
}

/// A file of map tiles geophoto reads: PMTiles or MBTiles.
public protocol TileArchive: AnyObject, Sendable {
  var info: ArchiveInfo { get }
  /// The tile's bytes as stored (vector tiles usually gzip), nil when the archive has none there.
  func storedTile(_ address: TileAddress) throws(DataDamage) -> [UInt8]?
}

extension TileArchive {
  /// The largest tile inflated: real ones are a few hundred kB.
  public static var maximumTileSize: Int { 16 << 20 }

  /// The tile's bytes, inflated when they are gzip or zlib.
  public func tile(_ address: TileAddress) throws(DataDamage) -> [UInt8]? {
    guard let stored = try storedTile(address) else { return nil }
    guard Gzip.isCompressed(stored) else { return stored }
    let inflated = try Gzip.inflate(stored[...], limit: Self.maximumTileSize, "tile \(address)")
    guard !Gzip.isCompressed(inflated) || info.format != .vector else {
      throw DataDamage("tile \(address) is compressed twice")
    }
    return inflated
  }

  /// The vector tile at `address`, decoded; nil where the archive has none.
  public func vectorTile(_ address: TileAddress) throws(DataDamage) -> VectorTile? {
    guard info.format == .vector else { throw DataDamage("\(info.name) holds \(info.format.rawValue) tiles") }
    guard let bytes = try tile(address) else { return nil }
    return try VectorTile(decoding: bytes, label: "tile \(address)")
  }
}

/// An archive's description: from its header (PMTiles) and its metadata (both).
public struct ArchiveInfo: Sendable {
  public enum Kind: String, Sendable {
    case pmtiles = "PMTiles"
    case mbtiles = "MBTiles"
  }

  /// A vector layer the archive declares (`vector_layers`).
  public struct VectorLayer: Sendable, Equatable {
    public var id: String
    public var fields: [String: String]
    public var minZoom: Int?
    public var maxZoom: Int?
  }

  public var path: String
  public var kind: Kind
  public var format: TileFormat
  public var minZoom: Int
  public var maxZoom: Int
  /// Where the archive has tiles; from its metadata, or worked out from the tiles at its
  /// deepest zoom when the metadata has none (tilemaker writes 0,0,0,0 without a bounding box).
  public var bounds: BoundingBox?
  public var boundsFromTiles = false
  public var center: (longitude: Double, latitude: Double, zoom: Int)?
  public var name: String
  public var description: String?
  /// As the archive states it (often HTML).
  public var attribution: String?
  public var vectorLayers: [VectorLayer] = []
  /// Every metadata key and its value as text (numbers and objects as JSON).
  public var metadata: [String: String] = [:]
  public var schema: TileSchema = .generic
  /// Addressed tiles, when the archive says.
  public var tileCount: Int?
  public var fileSize: Int

  /// The attribution as text to draw: tags removed, entities decoded; the credit OpenStreetMap's
  /// licence requires when the archive states none.
  public var attributionText: String {
    let stated = attribution.map(HTMLText.plain) ?? ""
    return stated.isEmpty ? "© OpenStreetMap contributors" : stated
  }
}

/// Opening an archive by what its bytes are, whatever its name ends with.
public enum TileArchives {
  /// The archive at `path`: PMTiles (its magic) or MBTiles (a SQLite file); damage naming the
  /// file otherwise.
  public static func open(_ path: String) throws(DataDamage) -> any TileArchive {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw DataDamage(
        FileManager.default.fileExists(atPath: path) ? "cannot read \(path)" : "\(path): no such file")
    }
    let head = (try? handle.read(upToCount: 16)) ?? Data()
    try? handle.close()
    if head.starts(with: Array("PMTiles".utf8)) {
      do {
        return try PMTilesArchive(path: path)
      } catch {
        throw DataDamage("\(path): \(error)")
      }
    }
    if head.starts(with: Array("SQLite format 3\0".utf8)) { return try MBTilesArchive(path: path) }
    throw DataDamage("\(path) is neither a PMTiles nor an MBTiles archive")
  }
}
