internal import CGeoPhotoCairo
import Foundation
import GeoPhotoThumbnails
import GeoPhotoVectorTiles

/// A raster archive's tiles drawn as they are: each image decoded (PNG, JPEG, WebP; at most
/// 1,024 pixels a side), scaled to the tile it covers (above the archive's deepest zoom, its
/// deepest tile's part, enlarged). A tile that cannot be decoded is left out.
struct RasterLayer {
  let archive: any TileArchive

  func draw(
    in cr: OpaquePointer, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double,
    cache: (TileAddress) -> Raster?
  ) {
    let sourceZoom = min(zoom, archive.info.maxZoom)
    let k = 256 * pow(2, Double(zoom - sourceZoom))
    let n = 1 << sourceZoom
    let xs = Int((origin.x / k).rounded(.down))...Int(((origin.x + width) / k).rounded(.down))
    let ys = max(0, Int((origin.y / k).rounded(.down)))...min(n - 1, Int(((origin.y + height) / k).rounded(.down)))
    guard !ys.isEmpty, xs.count <= 16, ys.count <= 16 else { return }
    for y in ys {
      for x in xs {
        let wrapped = ((x % n) + n) % n
        guard let address = TileAddress(zoom: sourceZoom, x: wrapped, y: y), let raster = cache(address),
          let surface = Self.surface(raster)
        else { continue }
        defer { cairo_surface_destroy(surface) }
        cairo_save(cr)
        cairo_rectangle(cr, Double(x) * k - origin.x, Double(y) * k - origin.y, k, k)
        cairo_clip(cr)
        cairo_translate(cr, Double(x) * k - origin.x, Double(y) * k - origin.y)
        cairo_scale(cr, k / Double(raster.width), k / Double(raster.height))
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint(cr)
        cairo_restore(cr)
      }
    }
  }

  /// The tile's image, decoded; nil where the archive has none or it cannot be decoded.
  static func decode(_ archive: any TileArchive, _ address: TileAddress) -> Raster? {
    guard let bytes = try? archive.tile(address) else { return nil }
    return try? bytes.withUnsafeBytes { (buffer) throws(ThumbnailError) -> Raster in try TileImage.decode(buffer) }
  }

  /// An RGB24 surface of the raster's pixels.
  private static func surface(_ raster: Raster) -> OpaquePointer? {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(raster.width), Int32(raster.height)),
      let data = cairo_image_surface_get_data(surface)
    else { return nil }
    let stride = Int(cairo_image_surface_get_stride(surface))
    raster.pixels.withUnsafeBufferPointer { rgb in
      for row in 0..<raster.height {
        let line = UnsafeMutableRawPointer(data + row * stride)
        for column in 0..<raster.width {
          let i = 3 * (row * raster.width + column)
          let pixel = UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2])
          line.storeBytes(of: pixel, toByteOffset: 4 * column, as: UInt32.self)
        }
      }
    }
    cairo_surface_mark_dirty(surface)
    return surface
  }
}
