internal import CGeoPhotoCairo
import Foundation
public import GeoPhotoBasemap
public import GeoPhotoCore
import GeoPhotoThumbnails
public import GeoPhotoVectorTiles
import Synchronization

/// The street map drawn from vector-tile archives (OpenStreetMap cut to the user's region):
/// water, land cover and use, parks, buildings from zoom 15, roads by class with casings,
/// bridges and tunnels, railways, borders, and the names of places, roads and water, placed
/// without seams (`LabelPlacement`). Above an archive's deepest zoom its deepest tiles are
/// clipped and scaled (to zoom 18 and beyond); where no archive has data the caller's base map
/// shows, and the street map is clipped to each archive's bounds so the two meet there.
///
/// Source tiles are decoded once into `PreparedTile`s and kept (up to `preparedLimit`), as are
/// each tile's placed labels.
public final class StreetMap: Sendable {
  public let archives: [any TileArchive]
  private let tables: [SchemaTable]
  private let prepared = Mutex<LRU<TileKey, PreparedTile?>>(LRU(limit: 256))
  private let placements = Mutex<LRU<PlacementKey, [PlacedLabel]>>(LRU(limit: 2_048))

  struct TileKey: Hashable {
    var archive: Int
    var tile: TileAddress
  }

  struct PlacementKey: Hashable {
    var archive: Int
    var tile: TileAddress
    var zoom: Int
  }

  private let rasters = Mutex<LRU<TileKey, Raster?>>(LRU(limit: 128))

  /// The archives, drawn in this order (the first on top): vector tiles as the street map,
  /// raster tiles (PNG, JPEG, WebP) as they are.
  public init(archives: [any TileArchive]) {
    self.archives = archives
    tables = archives.map { SchemaTable(schema: $0.info.schema) }
  }

  /// The highest zoom drawn.
  public static let maximumZoom = 19

  /// The credit for the archives that have data in the area of `width` × `height` pixels at
  /// `origin` of `zoom`'s world: each archive's own, or OpenStreetMap's; nil when none has.
  public func attribution(zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double) -> String? {
    let credits = archives.indices.filter {
      covers($0, zoom: zoom, origin: origin, width: width, height: height) != nil
    }
    .map { archives[$0].info.attributionText }
    guard !credits.isEmpty else { return nil }
    return credits.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: " · ")
  }

  /// The archive's bounds in pixels of the area when it has data there at `zoom`.
  private func covers(_ index: Int, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double)
    -> (x0: Double, y0: Double, x1: Double, y1: Double)?
  {
    let info = archives[index].info
    guard zoom >= info.minZoom, zoom <= Self.maximumZoom else { return nil }
    let world = 256 * pow(2, Double(zoom))
    let bounds = info.bounds ?? BoundingBox(west: -180, south: -85.0511, east: 180, north: 85.0511)
    let x0 = (bounds.west + 180) / 360 * world - origin.x
    let x1 = (bounds.east + 180) / 360 * world - origin.x
    func y(_ latitude: Double) -> Double {
      let l = max(-85.0511, min(85.0511, latitude)) * .pi / 180
      return (1 - log(tan(l) + 1 / cos(l)) / .pi) / 2 * world - origin.y
    }
    let y0 = y(bounds.north)
    let y1 = y(bounds.south)
    guard x1 > 0, x0 < width, y1 > 0, y0 < height else { return nil }
    return (x0, y0, x1, y1)
  }

  /// Draws the street map of the area of `width` × `height` pixels whose top-left corner is
  /// pixel `origin` of the world at `zoom`, over what `context` holds; whether any archive had
  /// data there (the caller's base map shows elsewhere).
  @discardableResult
  public func draw(
    in context: OpaquePointer, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double,
    style: BasemapStyle
  ) -> Bool {
    guard (0...Self.maximumZoom).contains(zoom), origin.x.isFinite, origin.y.isFinite, width > 0, height > 0,
      width.isFinite, height.isFinite
    else { return false }
    let palette = StreetPalette(style: style)
    var drew = false
    for index in archives.indices.reversed() {
      guard let clip = covers(index, zoom: zoom, origin: origin, width: width, height: height) else { continue }
      if archives[index].info.format != .vector {
        drew = true
        RasterLayer(archive: archives[index]).draw(
          in: context, zoom: zoom, origin: origin, width: width, height: height
        ) { address in
          let key = TileKey(archive: index, tile: address)
          if let kept = rasters.withLock({ $0[key] }) { return kept }
          let raster = RasterLayer.decode(archives[index], address)
          rasters.withLock { $0[key] = .some(raster) }
          return raster
        }
        continue
      }
      let sourceZoom = min(zoom, archives[index].info.maxZoom)
      let tiles = sourceTiles(index, zoom: zoom, sourceZoom: sourceZoom, origin: origin, width: width, height: height)
      guard !tiles.isEmpty else { continue }
      drew = true
      let cr = context
      cairo_save(cr)
      cairo_rectangle(cr, clip.x0, clip.y0, clip.x1 - clip.x0, clip.y1 - clip.y0)
      cairo_clip(cr)
      cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
      if tables[index].paintsWaterFirst, let water = palette.fill(.water) {
        set(cr, water)
        cairo_paint(cr)
      }
      let painter = Painter(cr: cr, zoom: zoom, origin: origin, width: width, height: height, palette: palette)
      painter.draw(tiles)
      cairo_restore(cr)
      drawLabels(index, zoom: zoom, origin: origin, width: width, height: height, palette: palette, in: cr)
    }
    return drew
  }

  /// The prepared source tiles under the area (and a stroke's width around it).
  private func sourceTiles(
    _ index: Int, zoom: Int, sourceZoom: Int, origin: (x: Double, y: Double), width: Double, height: Double
  ) -> [PreparedTile] {
    let k = 256 * pow(2, Double(zoom - sourceZoom))
    let n = 1 << sourceZoom
    let margin = 24.0
    let xs = Int(((origin.x - margin) / k).rounded(.down))...Int(((origin.x + width + margin) / k).rounded(.down))
    let ys =
      max(
        0, Int(((origin.y - margin) / k).rounded(.down)))...min(
        n - 1, Int(((origin.y + height + margin) / k).rounded(.down)))
    guard !ys.isEmpty, xs.count <= 16, ys.count <= 16 else { return [] }
    var tiles: [PreparedTile] = []
    for y in ys {
      for x in xs {
        // The map repeats east and west.
        let wrapped = ((x % n) + n) % n
        guard let address = TileAddress(zoom: sourceZoom, x: wrapped, y: y), var tile = prepare(index, address)
        else { continue }
        if wrapped != x { tile.shift(columns: x - wrapped) }
        tiles.append(tile)
      }
    }
    return tiles
  }

  /// The tile decoded and prepared, kept; nil where the archive has none or it is damaged.
  func prepare(_ index: Int, _ address: TileAddress) -> PreparedTile? {
    let key = TileKey(archive: index, tile: address)
    if let kept = prepared.withLock({ $0[key] }) { return kept }
    let tile = (try? archives[index].vectorTile(address)).flatMap { $0 }.map {
      PreparedTile($0, at: address, table: tables[index])
    }
    prepared.withLock { $0[key] = .some(tile) }
    return tile
  }

  private func drawLabels(
    _ index: Int, zoom: Int, origin: (x: Double, y: Double), width: Double, height: Double, palette: StreetPalette,
    in cr: OpaquePointer
  ) {
    let sourceZoom = min(zoom, archives[index].info.maxZoom)
    let k = 256 * pow(2, Double(zoom - sourceZoom))
    let n = 1 << sourceZoom
    // Labels reach at most this far from their anchors.
    let reach = 200.0
    let xs = Int(((origin.x - reach) / k).rounded(.down))...Int(((origin.x + width + reach) / k).rounded(.down))
    let ys =
      max(
        0, Int(((origin.y - reach) / k).rounded(.down)))...min(
        n - 1, Int(((origin.y + height + reach) / k).rounded(.down)))
    guard !ys.isEmpty, xs.count <= 16, ys.count <= 16 else { return }
    var labels: [PlacedLabel] = []
    for y in ys {
      for x in xs {
        let wrapped = ((x % n) + n) % n
        guard let address = TileAddress(zoom: sourceZoom, x: wrapped, y: y) else { continue }
        let shift = Double(x - wrapped) * k
        labels += placed(index, address, zoom: zoom).map { label in
          var moved = label
          moved.x += shift
          return moved
        }
      }
    }
    let bounds = archives[index].info.bounds
    LabelPainter(cr: cr, origin: origin, palette: palette).draw(
      labels.filter { label in
        // Only names whose anchor lies where the archive has data, drawn whole.
        guard let bounds else { return true }
        let world = 256 * pow(2, Double(zoom))
        let longitude = label.x / world * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * label.y / world))) * 180 / .pi
        return bounds.contains(Coordinate(latitude: latitude, longitude: longitude))
      }, width: width, height: height)
  }

  /// The labels source tile `address` keeps at `zoom`, placed once.
  private func placed(_ index: Int, _ address: TileAddress, zoom: Int) -> [PlacedLabel] {
    let key = PlacementKey(archive: index, tile: address, zoom: zoom)
    if let kept = placements.withLock({ $0[key] }) { return kept }
    let n = 1 << address.zoom
    var tiles: [PreparedTile] = []
    for dy in -1...1 {
      for dx in -1...1 {
        let x = address.x + dx
        let wrapped = ((x % n) + n) % n
        guard let neighbour = TileAddress(zoom: address.zoom, x: wrapped, y: address.y + dy),
          var tile = prepare(index, neighbour)
        else { continue }
        if wrapped != x { tile.shift(columns: x - wrapped) }
        tiles.append(tile)
      }
    }
    let labels = LabelPlacement.place(own: address, tiles: tiles, zoom: zoom)
    placements.withLock { $0[key] = labels }
    return labels
  }

  private func set(_ cr: OpaquePointer, _ c: StreetPalette.Colour) { cairo_set_source_rgb(cr, c.r, c.g, c.b) }
}

extension PreparedTile {
  /// The same tile drawn `columns` worlds' tiles east (the map repeating across the antimeridian).
  mutating func shift(columns: Int) { column += columns }
}

/// A small least-recently-used table: the oldest entry goes when it holds `limit`.
struct LRU<Key: Hashable, Value> {
  private var values: [Key: (value: Value, used: UInt64)] = [:]
  private var clock: UInt64 = 0
  let limit: Int

  init(limit: Int) { self.limit = limit }

  subscript(key: Key) -> Value? {
    mutating get {
      guard let entry = values[key] else { return nil }
      clock += 1
      values[key] = (entry.value, clock)
      return entry.value
    }
    set {
      clock += 1
      guard let newValue else {
        values[key] = nil
        return
      }
      if values[key] == nil && values.count >= limit {
        // The least recently used eighth goes at once: eviction costs a sort, not one per insert.
        let old = values.sorted { $0.value.used < $1.value.used }.prefix(max(1, limit / 8)).map(\.key)
        for key in old { values[key] = nil }
      }
      values[key] = (newValue, clock)
    }
  }
}
