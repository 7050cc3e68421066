public import Foundation
public import GeoPhotoCore

/// The world basemap geophoto ships: Natural Earth's land, water, borders and built-up areas,
/// simplified per band of zooms and cut into grids of cells, and labels placed once per zoom
/// for the whole world, read from one mapped file (`BasemapFile`) without parsing or copies.
/// Immutable, so safe to share across threads.
public final class Basemap: MappedDataFile, @unchecked Sendable {
  /// A fingerprint of the data: tiles cached from another basemap are drawn again.
  public let identity: UInt32
  let storage: MappedBytes
  let grids: UnsafeBufferPointer<UInt32>
  let cellStarts: UnsafeBufferPointer<UInt32>
  let partStarts: UnsafeBufferPointer<UInt32>
  let partBoxes: UnsafeBufferPointer<Float>
  let points: UnsafeBufferPointer<Float>
  let labelPoints: UnsafeBufferPointer<Float>
  let labelNames: UnsafeBufferPointer<UInt32>
  let labelKinds: UnsafeBufferPointer<UInt8>
  let labelWidths: UnsafeBufferPointer<Float>
  let zoomStarts: UnsafeBufferPointer<UInt32>
  let entryTiles: UnsafeBufferPointer<UInt32>
  let entryLabels: UnsafeBufferPointer<UInt32>
  let strings: UnsafeBufferPointer<UInt8>

  public typealias FormatError = DataFileError
  public static let kind = "basemap"

  public init(storage: MappedBytes, name: String) throws {
    func fail(_ why: String) -> FormatError { FormatError(description: "\(name): \(why)") }
    let file: BasemapFile.Layout.Reader
    do {
      file = try BasemapFile.Layout.Reader(storage, layout: BasemapFile.layout, name: name)
    } catch {
      throw FormatError(description: error.description)
    }
    guard let grids = file.column(.grids, of: UInt32.self), let cellStarts = file.column(.cellStarts, of: UInt32.self),
      let partStarts = file.column(.partStarts, of: UInt32.self),
      let partBoxes = file.column(.partBoxes, of: Float.self),
      let points = file.column(.points, of: Float.self), let labelPoints = file.column(.labelPoints, of: Float.self),
      let labelNames = file.column(.labelNames, of: UInt32.self),
      let labelKinds = file.column(.labelKinds, of: UInt8.self),
      let labelWidths = file.column(.labelWidths, of: Float.self),
      let zoomStarts = file.column(.zoomStarts, of: UInt32.self),
      let entryTiles = file.column(.entryTiles, of: UInt32.self),
      let entryLabels = file.column(.entryLabels, of: UInt32.self), let strings = file.column(.strings, of: UInt8.self)
    else { throw fail("damaged (a section is cut short)") }
    // Every index is checked once here, so drawing reads without checks and a damaged file
    // is refused rather than read out of bounds.
    let parts = partBoxes.count / 4
    let labels = labelNames.count
    func ascending(_ a: UnsafeBufferPointer<UInt32>, from: Int, count: Int, upTo limit: Int) -> Bool {
      guard from >= 0, count >= 1, from + count <= a.count else { return false }
      var previous: UInt32 = 0
      for v in a[from..<(from + count)] {
        guard v >= previous, Int(v) <= limit else { return false }
        previous = v
      }
      return true
    }
    let layers = BasemapLayer.allCases.count
    var gridsFit = grids.count == BasemapBand.all.count * layers
    if gridsFit {
      for (b, band) in BasemapBand.all.enumerated() {
        for layer in 0..<layers {
          let cells = band.gridSize * band.gridSize
          gridsFit =
            gridsFit && ascending(cellStarts, from: Int(grids[b * layers + layer]), count: cells + 1, upTo: parts)
        }
      }
    }
    let finite =
      points.allSatisfy { $0.isFinite } && partBoxes.allSatisfy { $0.isFinite }
      && labelPoints.allSatisfy { $0.isFinite }
    guard gridsFit, partBoxes.count == 4 * parts, partStarts.count == parts + 1,
      ascending(partStarts, from: 0, count: parts + 1, upTo: points.count / 2), finite,
      labelPoints.count == 2 * labels, labelKinds.count == labels, labelWidths.count == labels,
      labelKinds.allSatisfy({ LabelKind(rawValue: $0) != nil }), strings.last == 0,
      labelNames.allSatisfy({ Int($0) < strings.count }), zoomStarts.count == BasemapBand.detailZoom + 2,
      ascending(zoomStarts, from: 0, count: zoomStarts.count, upTo: entryTiles.count),
      entryLabels.count == entryTiles.count, entryLabels.allSatisfy({ Int($0 >> 1) < labels })
    else { throw fail("damaged (its sections do not add up)") }
    identity = file.identity
    self.storage = storage
    self.grids = grids
    self.cellStarts = cellStarts
    self.partStarts = partStarts
    self.partBoxes = partBoxes
    self.points = points
    self.labelPoints = labelPoints
    self.labelNames = labelNames
    self.labelKinds = labelKinds
    self.labelWidths = labelWidths
    self.zoomStarts = zoomStarts
    self.entryTiles = entryTiles
    self.entryLabels = entryLabels
    self.strings = strings
  }

  /// The identity in a basemap file's head, read without loading the file.
  public static func identity(at url: URL) -> UInt32? { BasemapFile.layout.identity(at: url) }

  // MARK: - Shapes

  /// A box in world units: west, north, east, south (y grows southwards).
  struct Box {
    var west, north, east, south: Double

    func intersects(_ b: UnsafeBufferPointer<Float>, at i: Int) -> Bool {
      Double(b[i]) <= east && Double(b[i + 2]) >= west && Double(b[i + 1]) <= south && Double(b[i + 3]) >= north
    }
  }

  /// Calls `body` with the points (x, y pairs) of every part of `layer` in `band` whose box
  /// meets `box`.
  func forEachPart(
    band: Int, layer: BasemapLayer, in box: Box, _ body: (UnsafeBufferPointer<Float>) -> Void
  ) {
    let grid = BasemapBand.all[band]
    let n = grid.gridSize
    let base = Int(grids[band * BasemapLayer.allCases.count + layer.rawValue])
    func cell(_ v: Double) -> Int { Int(max(0, min(Double(n - 1), (v * Double(n)).rounded(.down)))) }
    let (x0, x1, y0, y1) = (cell(box.west), cell(box.east), cell(box.north), cell(box.south))
    guard box.east >= 0, box.west <= 1, box.south >= 0, box.north <= 1 else { return }
    for cy in y0...y1 {
      for cx in x0...x1 {
        let c = base + cy * n + cx
        for part in Int(cellStarts[c])..<Int(cellStarts[c + 1]) where box.intersects(partBoxes, at: 4 * part) {
          let start = Int(partStarts[part])
          let end = Int(partStarts[part + 1])
          body(UnsafeBufferPointer(rebasing: points[(2 * start)..<(2 * end)]))
        }
      }
    }
  }

  // MARK: - Labels

  /// A label as placed at a zoom.
  struct PlacedLabel {
    var x: Double
    var y: Double
    var name: UnsafeBufferPointer<UInt8>
    var kind: LabelKind
    var width: Double
    /// Written left of the dot (else right of it, or centred for countries).
    var onLeft: Bool
  }

  /// Calls `body` with the labels placed at `zoom` (0…detailZoom) whose anchors lie in the
  /// tiles `xs` × `ys` of that zoom.
  func forEachLabel(zoom: Int, xs: ClosedRange<Int>, ys: ClosedRange<Int>, _ body: (PlacedLabel) -> Void) {
    guard zoom >= 0, zoom <= BasemapBand.detailZoom else { return }
    let n = 1 << zoom
    let lower = Int(zoomStarts[zoom])
    let upper = Int(zoomStarts[zoom + 1])
    guard xs.upperBound >= 0, xs.lowerBound < n, ys.upperBound >= 0, ys.lowerBound < n else { return }
    for ty in max(0, ys.lowerBound)...min(n - 1, ys.upperBound) {
      let first = UInt32(ty * n + max(0, xs.lowerBound))
      let last = UInt32(ty * n + min(n - 1, xs.upperBound))
      // The first entry at or after `first`.
      var lo = lower
      var hi = upper
      while lo < hi {
        let mid = (lo + hi) / 2
        if entryTiles[mid] < first { lo = mid + 1 } else { hi = mid }
      }
      var e = lo
      while e < upper, entryTiles[e] <= last {
        let packed = Int(entryLabels[e])
        let label = packed >> 1
        let offset = Int(labelNames[label])
        let end = strings[offset...].firstIndex(of: 0) ?? strings.count
        body(
          PlacedLabel(
            x: Double(labelPoints[2 * label]), y: Double(labelPoints[2 * label + 1]),
            name: UnsafeBufferPointer(rebasing: strings[offset..<end]),
            kind: LabelKind(rawValue: labelKinds[label]) ?? .village, width: Double(labelWidths[label]),
            onLeft: packed & 1 == 1))
        e += 1
      }
    }
  }

  /// The labels placed at `zoom`, as (name, longitude, latitude), for checks and tools.
  public func labels(atZoom zoom: Int) -> [(name: String, coordinate: Coordinate)] {
    guard zoom >= 0, zoom <= BasemapBand.detailZoom else { return [] }
    let n = 1 << zoom
    var out: [(String, Coordinate)] = []
    forEachLabel(zoom: zoom, xs: 0...(n - 1), ys: 0...(n - 1)) { label in
      let unit = WebMercator(zoom: 0)
      out.append((String(decoding: label.name, as: UTF8.self), unit.coordinate(x: label.x * 256, y: label.y * 256)))
    }
    return out
  }
}

extension Basemap {
  /// The shipped basemap's file name inside geophoto's resources.
  public static let bundledName = "world.basemap"

  /// The credit drawn on built-in tiles and snapshots.
  public static let attribution = "Natural Earth · GeoNames"

  /// The shipped basemap beside the running executable (SwiftPM's resource folder) or in
  /// `share/geophoto` of the prefix it is installed in, if it is there.
  public static var shippedURL: URL? { ShippedFile.url(named: bundledName, module: "GeoPhotoBasemap") }
}
