internal import CGeoPhotoCairo
public import Foundation
import GeoPhotoCore
public import GeoPhotoHTTP
import Synchronization

/// XYZ raster tiles from a URL template (`https://tile.example.org/{z}/{x}/{y}.png`), fetched
/// with geophoto's HTTP client (and its User-Agent) and cached on disk for at least 7 days,
/// as the OpenStreetMap tile policy asks. Only the tiles one snapshot needs are fetched.
public final class TileSource: Sendable {
  public let template: String
  public let attribution: String
  let client: HTTPClient
  let cacheDirectory: URL
  public static let cacheLifetime: TimeInterval = 7 * 86_400
  private let failures = Mutex(0)
  private let downloads = Mutex(0)

  public init(template: String, attribution: String, client: HTTPClient, cacheDirectory: URL) {
    self.template = template
    self.attribution = attribution
    self.client = client
    // One folder per template, so two tile services never share files.
    let slug = template.map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(80)
    self.cacheDirectory = cacheDirectory.appendingPathComponent(String(slug))
  }

  /// Tiles that could not be had in the last snapshot (the background shows there).
  public var failedTiles: Int { failures.withLock { $0 } }
  /// Tiles fetched over the network (not from the cache) so far.
  public var downloadedTiles: Int { downloads.withLock { $0 } }

  func url(z: Int, x: Int, y: Int) -> String {
    template.replacingOccurrences(of: "{z}", with: String(z)).replacingOccurrences(of: "{x}", with: String(x))
      .replacingOccurrences(of: "{y}", with: String(y))
  }

  /// The tile's PNG file, from the cache or fetched into it.
  func file(z: Int, x: Int, y: Int) -> URL? {
    let file = cacheDirectory.appendingPathComponent("\(z)/\(x)/\(y).png")
    if let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
      let modified = attributes[.modificationDate] as? Date, Date().timeIntervalSince(modified) < Self.cacheLifetime
    {
      return file
    }
    guard let response = try? client.get(url(z: z, x: x, y: y)), response.status == 200,
      response.body.starts(with: [0x89, 0x50, 0x4E, 0x47])
    else { return nil }
    downloads.withLock { $0 += 1 }
    try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard (try? Data(response.body).write(to: file, options: .atomic)) != nil else { return nil }
    return file
  }

  func draw(
    _ cr: OpaquePointer, projection: WebMercator, origin: (x: Double, y: Double), width: Int, height: Int, scale: Int
  ) {
    // At scale 2 the tiles of the next zoom are drawn at half size, for sharp HiDPI images.
    let tileZoom = min(19, projection.zoom + (scale >= 2 ? 1 : 0))
    let factor = pow(2, Double(tileZoom - projection.zoom))
    let n = Int(pow(2, Double(tileZoom)))
    let left = origin.x * factor
    let top = origin.y * factor
    let firstX = Int((left / 256).rounded(.down))
    let lastX = Int(((left + Double(width) * factor - 1) / 256).rounded(.down))
    let firstY = max(0, Int((top / 256).rounded(.down)))
    let lastY = min(n - 1, Int(((top + Double(height) * factor - 1) / 256).rounded(.down)))
    guard firstY <= lastY else { return }
    failures.withLock { $0 = 0 }
    for ty in firstY...lastY {
      for tx in firstX...lastX {
        let wrapped = ((tx % n) + n) % n
        // A tile is 256 or 512 pixels square: a file that says otherwise (a hostile tile server,
        // a planted cache file) is not decoded.
        guard let file = file(z: tileZoom, x: wrapped, y: ty), Self.isTileSized(pngAt: file.path),
          let tile = cairo_image_surface_create_from_png(file.path),
          cairo_surface_status(tile) == CAIRO_STATUS_SUCCESS
        else {
          failures.withLock { $0 += 1 }
          continue
        }
        cairo_save(cr)
        cairo_scale(cr, 1 / factor, 1 / factor)
        cairo_set_source_surface(cr, tile, Double(tx) * 256 - left, Double(ty) * 256 - top)
        cairo_paint(cr)
        cairo_restore(cr)
        cairo_surface_destroy(tile)
      }
    }
  }

  /// The largest side a tile PNG may have.
  static let maximumTileSide: UInt32 = 1_024

  /// Whether the PNG at `path` declares a size a tile can have (its IHDR, read before cairo
  /// decodes it).
  static func isTileSized(pngAt path: String) -> Bool {
    guard let file = try? ReadableFile(path: path), let head = try? file.read(at: 0, count: min(file.size, 24)),
      head.count == 24, head[12..<16].elementsEqual("IHDR".utf8),
      let width = ByteCursor.number(head, at: 16, size: 4, bigEndian: true),
      let height = ByteCursor.number(head, at: 20, size: 4, bigEndian: true)
    else { return false }
    return (1...UInt64(maximumTileSide)).contains(width) && (1...UInt64(maximumTileSide)).contains(height)
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    components(separatedBy: target).joined(separator: replacement)
  }
}
