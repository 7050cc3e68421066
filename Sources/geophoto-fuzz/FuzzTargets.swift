import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoFixtures
import GeoPhotoSnapshot
import GeoPhotoStreetMap
import GeoPhotoThumbnails
import GeoPhotoTracks
import GeoPhotoVectorTiles

/// A reader, decoder or renderer under test, the corpus files that seed it, and whether its
/// input is a file (whose size and offset fields `ExtremeFields` rewrites) or parameters read
/// from the bytes. None may crash, hang or read out of bounds, whatever the bytes.
struct FuzzTarget: Sendable {
  var name: String
  var seedExtensions: [String]
  /// Whether the input is a file of some format (its fields found and set to extremes by the
  /// mutator) rather than numbers drawn from the bytes.
  var isFile = true
  var exercise: @Sendable ([UInt8]) -> Void
}

let allTargets: [FuzzTarget] =
  PhotoFormat.allCases.map { format in
    FuzzTarget(name: format.fuzzTarget, seedExtensions: format.fuzzSeedExtensions) { bytes in
      _ = bytes.withUnsafeBytes { MetadataReader.read(head: $0, file: MemoryBytes(bytes), format: format) }
      if format == .jpeg { _ = bytes.withUnsafeBytes { MetadataReader.thumbnail($0, fileSize: bytes.count) } }
    }
  } + [
    FuzzTarget(name: "exif", seedExtensions: ["exv"]) { bytes in
      let block = Array("Exif\0\0".utf8) + bytes
      _ = block.withUnsafeBytes { ExifReader.read(exifBlock: $0) }
      _ = block.withUnsafeBytes { ExifReader.thumbnail(exifBlock: $0) }
    },
    FuzzTarget(name: "xmp", seedExtensions: ["xmp"]) { _ = XMPReader.read($0) },
    FuzzTarget(name: "xmp-merge", seedExtensions: ["xmp"], exercise: XMPMergeFuzzing.exercise),
  ] + thumbnailTargets + [
    FuzzTarget(name: "previews", seedExtensions: ["nef", "cr2", "dng", "raf", "rw2", "orf", "arw", "tif", "jpg"]) {
      _ = EmbeddedPreviews.jpegs(in: MemoryBytes($0))
    },
    FuzzTarget(name: "tracks", seedExtensions: ["gpx", "kml", "kmz", "tcx", "igc", "log", "nmea"]) { bytes in
      _ = try? TrackLibrary.read(bytes, name: "fuzz")
    },
    FuzzTarget(name: "track-csv", seedExtensions: ["csv"]) { bytes in
      _ = CSVTrackReader.looksLikeTrack(head: Array(bytes.prefix(4_096)))
      // A DJI log's name (its times count from the start the name gives), in a zone from the bytes.
      let zone = Int(bytes.last ?? 0) % 40 * 3_600 - 20 * 3_600
      _ = try? CSVTrackReader.read(bytes, name: "Track_2020-12-02_[07-50-31].csv", zoneOffsetSeconds: zone)
    },
    FuzzTarget(name: "google-history", seedExtensions: ["json"], exercise: TrackFuzzing.google),
    FuzzTarget(name: "geojson-track", seedExtensions: ["geojson", "json"], exercise: TrackFuzzing.geoJSON),
    FuzzTarget(name: "mvt", seedExtensions: ["mvt", "pbf"], exercise: VectorTileFuzzing.tile),
    FuzzTarget(name: "pmtiles", seedExtensions: ["pmtiles"], exercise: VectorTileFuzzing.archive),
    FuzzTarget(name: "tile", seedExtensions: [], isFile: false, exercise: TileFuzzing.exercise),
    FuzzTarget(name: "snapshot", seedExtensions: [], isFile: false, exercise: SnapshotFuzzing.exercise),
  ]

/// Vector tiles and PMTiles archives of any bytes: refused, or decoded with every feature's
/// geometry, never a crash or a loop.
enum VectorTileFuzzing {
  @Sendable static func tile(_ bytes: [UInt8]) {
    let decoded: [UInt8]
    if Gzip.isCompressed(bytes) {
      guard let inflated = try? Gzip.inflate(bytes[...], limit: 1 << 22, "tile") else { return }
      decoded = inflated
    } else {
      decoded = bytes
    }
    guard let tile = try? VectorTile(decoding: decoded, label: "tile") else { return }
    for layer in tile.layers {
      for feature in layer.features {
        _ = TileGeometry(feature, in: tile)
        _ = layer.value("class", of: feature)
      }
    }
    draw(bytes, schema: bytes.count % 2 == 0 ? openMapTiles : protomaps)
  }

  static let openMapTiles = Array(
    #"{"vector_layers": [{"id": "transportation"}, {"id": "place"}, {"id": "water"}]}"#.utf8)
  static let protomaps = Array(
    #"{"vector_layers": [{"id": "earth"}, {"id": "roads"}, {"id": "places"}, {"id": "water"}]}"#.utf8)

  /// The tile drawn as a street map's only tile (0/0/0), in a schema, at its zoom and deeper.
  static func draw(_ bytes: [UInt8], schema: [UInt8]) {
    let file = HostileFiles.pmtiles(tiles: [(0, bytes)], metadata: schema, zooms: 0...0)
    guard let archive = try? PMTilesArchive(MappedBytes(Data(file)), path: "fuzz.pmtiles") else { return }
    let map = MapTileRenderer(basemap: nil, streets: StreetMap(archives: [archive]))
    _ = try? map.tile(zoom: 0, x: 0, y: 0, scale: 1, style: .light)
    _ = try? map.tile(zoom: 3, x: 2, y: 5, scale: 1, style: .dark)
  }

  @Sendable static func archive(_ bytes: [UInt8]) {
    guard let archive = try? PMTilesArchive(MappedBytes(Data(bytes)), path: "fuzz.pmtiles") else { return }
    // The tiles the root names, and a few it may not.
    var ids = archive.root.entries.prefix(8).map(\.tileID)
    ids += [0, 1, 5, 21, 319_433_622]
    for id in ids {
      guard let address = TileAddress(hilbertID: id) else { continue }
      if let stored = try? archive.storedTile(address) { tile(stored) }
    }
  }
}

/// A position merged into any bytes as into an existing sidecar: refused or merged, never a
/// crash; a merged sidecar reads back as the position and takes a second merge.
enum XMPMergeFuzzing {
  static let positions = [
    XMPPosition(
      coordinate: Coordinate(latitude: 38.7110200, longitude: -9.1425100), altitude: 61, instant: 1_714_639_270),
    XMPPosition(coordinate: Coordinate(latitude: -33.8567844, longitude: 179.9999999)),
    XMPPosition(coordinate: Coordinate(latitude: 64.1466, longitude: -21.9426), altitude: -3.25),
  ]

  static let exercise: @Sendable ([UInt8]) -> Void = { bytes in
    let position = positions[bytes.count % positions.count]
    guard let merged = try? XMPSidecarWriter.merge(existing: bytes, position: position) else { return }
    guard let read = XMPReader.read(merged)?.coordinate,
      abs(read.latitude - position.coordinate.latitude) <= 1e-7,
      abs(abs(read.longitude - position.coordinate.longitude).remainder(dividingBy: 360)) <= 1e-7
    else { fatalError("a merged sidecar does not read back as the position") }
    guard (try? XMPSidecarWriter.merge(existing: merged, position: position)) != nil else {
      fatalError("a merged sidecar cannot be merged into again")
    }
  }
}

/// One target per image decoder a thumbnail is made with, seeded by its own files.
let thumbnailTargets: [FuzzTarget] = [
  ("thumbnail-jpeg", ["jpg", "jpeg"]), ("thumbnail-png", ["png"]), ("thumbnail-webp", ["webp"]),
  ("thumbnail-heif", ["heic", "heif", "avif", "hif"]), ("thumbnail-jxl", ["jxl"]),
].map { name, extensions in
  FuzzTarget(name: name, seedExtensions: extensions) { bytes in
    var maker = ThumbnailMaker()
    // Small enough that a fuzzing run decodes many inputs a second.
    maker.maximumPixels = 4_000_000
    _ = bytes.withUnsafeBytes { try? maker.thumbnail(of: $0, orientation: Int(bytes.first ?? 1) % 9, longestSide: 64) }
  }
}

/// Numbers drawn from the input's bytes, each as the width it names: the fuzzer's bytes steer
/// parameters that come from requests and files (a tile's z/x/y, a snapshot's size).
struct ByteDraws {
  var bytes: [UInt8]
  var at = 0

  mutating func int64() -> Int64 {
    var v: UInt64 = 0
    for _ in 0..<8 {
      v = v << 8 | UInt64(at < bytes.count ? bytes[at] : 0)
      at += 1
    }
    return Int64(bitPattern: v)
  }

  mutating func double() -> Double { Double(bitPattern: UInt64(bitPattern: int64())) }

  mutating func small(_ bound: Int) -> Int { Int(UInt64(bitPattern: int64()) % UInt64(max(1, bound))) }
}

/// The basemap the tile and snapshot targets draw (shipped beside geophoto).
let fuzzBasemap: Basemap? = Basemap.shippedURL.flatMap { try? Basemap(contentsOf: $0) }

enum TileFuzzing {
  /// Any zoom, column and row, as a request could name them, drawn by the tile renderer.
  static let exercise: @Sendable ([UInt8]) -> Void = { bytes in
    guard let basemap = fuzzBasemap else { return }
    var draws = ByteDraws(bytes: bytes)
    let zoom = Int(truncatingIfNeeded: draws.int64() % 24)
    let x = Int(truncatingIfNeeded: draws.int64())
    let y = Int(truncatingIfNeeded: draws.int64())
    let scale = draws.small(3) + 1
    let style: BasemapStyle = draws.small(2) == 0 ? .light : .dark
    _ = try? BasemapRenderer(basemap: basemap).tile(zoom: zoom, x: x, y: y, scale: scale, style: style)
  }
}

enum SnapshotFuzzing {
  static let output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
    "geophoto-fuzz-snapshot-\(getpid()).png")

  /// A snapshot of pins and a route anywhere (coordinates from the bytes, extremes included)
  /// at a size and scale from the bytes, drawn over the built-in basemap.
  static let exercise: @Sendable ([UInt8]) -> Void = { bytes in
    var draws = ByteDraws(bytes: bytes)
    var style = SnapshotStyle()
    style.width = draws.small(300) - 20
    style.height = draws.small(300) - 20
    style.scale = draws.small(4)
    style.padding = draws.double()
    style.labels = draws.small(2) == 0
    style.basemap = fuzzBasemap.map(BasemapRenderer.init)
    var content = SnapshotContent()
    for _ in 0..<draws.small(6) {
      guard let c = Coordinate(validatingLatitude: draws.double(), longitude: draws.double()) else { continue }
      content.pins.append((c, "pin"))
    }
    for _ in 0..<draws.small(6) {
      guard let c = Coordinate(validatingLatitude: draws.double(), longitude: draws.double()) else { continue }
      content.route.append(c)
    }
    if draws.small(3) == 0 {
      content.bounds = BoundingBox(
        west: draws.double(), south: draws.double(), east: draws.double(), north: draws.double())
    }
    try? SnapshotRenderer(style: style).render(content, format: .png, to: output)
  }
}

/// The JSON track readers, fed in chunks whose size the input's length chooses (so tokens are
/// cut at varying places), once whole and once through a retention filter keeping every other
/// second.
enum TrackFuzzing {
  static func chunk(_ bytes: [UInt8]) -> Int { max(1, bytes.count / 3) }
  static func keeping(_ span: ClosedRange<Double>) -> Bool {
    span.lowerBound.magnitude.truncatingRemainder(dividingBy: 2) < 1
  }

  static let google: @Sendable ([UInt8]) -> Void = { bytes in
    _ = GoogleHistoryReader.sniff(head: Array(bytes.prefix(4_096)))
    _ = try? GoogleHistoryReader.read(bytes, name: "fuzz.json", chunkSize: chunk(bytes))
    _ = try? GoogleHistoryReader.read(bytes, name: "fuzz.json", keeping: keeping, chunkSize: 1 + bytes.count / 2)
  }

  static let geoJSON: @Sendable ([UInt8]) -> Void = { bytes in
    _ = GeoJSONTrackReader.sniff(head: Array(bytes.prefix(4_096)))
    _ = try? GeoJSONTrackReader.read(bytes, name: "fuzz.geojson", chunkSize: chunk(bytes))
    _ = try? GeoJSONTrackReader.read(bytes, name: "fuzz.geojson", keeping: keeping, chunkSize: 1 + bytes.count / 2)
  }
}
