public import GeoPhotoCore

/// The 127 bytes at the start of a PMTiles (v3) archive: where its sections are, how they are
/// compressed, what its tiles are, its zooms and bounds. Every section is checked to lie within
/// the file; compressions and tile types geophoto cannot read are refused here, at open, not
/// tile by tile.
public struct PMTilesHeader: Sendable, Equatable {
  public static let size = 127

  public enum Compression: UInt8, Sendable {
    case unknown = 0
    case none = 1
    case gzip = 2
    case brotli = 3
    case zstd = 4
  }

  public var rootDirectory: Range<Int>
  public var metadata: Range<Int>
  public var leafDirectories: Range<Int>
  public var tileData: Range<Int>
  public var addressedTiles: UInt64
  public var tileEntries: UInt64
  public var tileContents: UInt64
  public var clustered: Bool
  public var internalCompression: Compression
  public var tileCompression: Compression
  public var format: TileFormat
  public var minZoom: Int
  public var maxZoom: Int
  /// West, south, east, north, in degrees × 10⁷ as stored.
  public var boundsE7: [Int32]
  public var centerZoom: Int
  public var centerE7: [Int32]

  /// Reads the header from the first bytes of a file of `fileSize` bytes.
  public init(_ bytes: UnsafeRawBufferPointer, fileSize: Int) throws(DataDamage) {
    guard bytes.count >= Self.size else {
      throw DataDamage("not a PMTiles archive: \(bytes.count) bytes, shorter than its 127-byte header")
    }
    guard bytes.prefix(7).elementsEqual("PMTiles".utf8) else { throw DataDamage("not a PMTiles archive") }
    guard bytes[7] == 3 else { throw DataDamage("PMTiles version \(bytes[7]) (geophoto reads version 3)") }
    func u64(_ at: Int) -> UInt64 {
      var value: UInt64 = 0
      for k in 0..<8 { value |= UInt64(bytes[at + k]) << (8 * k) }
      return value
    }
    func i32(_ at: Int) -> Int32 {
      var value: UInt32 = 0
      for k in 0..<4 { value |= UInt32(bytes[at + k]) << (8 * k) }
      return Int32(bitPattern: value)
    }
    func section(_ at: Int, _ what: String) throws(DataDamage) -> Range<Int> {
      try Bounds.check(offset: u64(at), length: u64(at + 8), within: fileSize, "the \(what)")
    }
    rootDirectory = try section(8, "root directory")
    metadata = try section(24, "metadata")
    leafDirectories = try section(40, "leaf directories")
    tileData = try section(56, "tile data")
    guard !rootDirectory.isEmpty else { throw DataDamage("the root directory is empty") }
    addressedTiles = u64(72)
    tileEntries = u64(80)
    tileContents = u64(88)
    clustered = bytes[96] == 1
    guard let internalCompression = Compression(rawValue: bytes[97]),
      internalCompression == .none || internalCompression == .gzip
    else { throw DataDamage("directories compressed with method \(bytes[97]) (geophoto reads gzip or none)") }
    self.internalCompression = internalCompression
    guard let tileCompression = Compression(rawValue: bytes[98]),
      [.unknown, .none, .gzip].contains(tileCompression)
    else { throw DataDamage("tiles compressed with method \(bytes[98]) (geophoto reads gzip or none)") }
    self.tileCompression = tileCompression
    switch bytes[99] {
    case 1: format = .vector
    case 2: format = .png
    case 3: format = .jpeg
    case 4: format = .webp
    case 5: format = .avif
    case 6: throw DataDamage("MapLibre tiles (MLT), which geophoto does not read")
    default: throw DataDamage("tiles of unknown type \(bytes[99])")
    }
    minZoom = Int(bytes[100])
    maxZoom = Int(bytes[101])
    guard minZoom <= maxZoom, maxZoom <= TileAddress.maximumZoom else {
      throw DataDamage("zooms \(minZoom) to \(maxZoom)")
    }
    boundsE7 = [i32(102), i32(106), i32(110), i32(114)]
    centerZoom = Int(bytes[118])
    centerE7 = [i32(119), i32(123)]
  }

  /// The header's bounds in degrees; nil when unknown (all zero) or not a box.
  public var bounds: BoundingBox? {
    ArchiveMetadata.bounds(boundsE7.map { Double($0) / 1e7 })
  }
}
