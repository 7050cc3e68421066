public import Foundation
import GeoPhotoCore
public import GeoPhotoPlaces

/// Builds the basemap file from Natural Earth's GeoJSON layers (`../shared/data/basemap`) and
/// the gazetteer's places (`make basemap`): each band's shapes simplified for its highest zoom
/// and cut into its grid, and the labels of every zoom placed.
public enum BasemapBuilder {
  public static func build(sources: URL, gazetteer: Gazetteer) throws -> [UInt8] {
    var sections: [BasemapFile.Section: [UInt8]] = [:]
    var shapes = ShapeTables()
    var loaded: [String: GeoJSONShapes] = [:]
    for (b, band) in BasemapBand.all.enumerated() {
      for layer in BasemapLayer.allCases {
        var paths: [[SIMD2<Double>]] = []
        if let name = layer.source(in: band) {
          if loaded[name] == nil {
            loaded[name] = try GeoJSONShapes(
              contentsOf: sources.appendingPathComponent(name + ".geojson"), areas: layer.isArea)
          }
          paths = loaded[name]?.paths ?? []
        }
        shapes.addGrid(band: b, layer: layer, paths: paths)
      }
    }
    typealias Layout = SectionedFile
    sections[.grids] = Layout.bytes(shapes.grids)
    sections[.cellStarts] = Layout.bytes(shapes.cellStarts)
    sections[.partStarts] = Layout.bytes(shapes.partStarts + [UInt32(shapes.points.count / 2)])
    sections[.partBoxes] = Layout.bytes(shapes.partBoxes)
    sections[.points] = Layout.bytes(shapes.points)

    let countries = try GeoJSONShapes(
      contentsOf: sources.appendingPathComponent("ne50_country_labels.geojson"), areas: false)
    let labels = Labels(countries: countries, gazetteer: gazetteer)
    sections[.labelPoints] = Layout.bytes(labels.points)
    sections[.labelNames] = Layout.bytes(labels.names)
    sections[.labelKinds] = labels.kinds.map(\.rawValue)
    sections[.labelWidths] = Layout.bytes(labels.widths)
    sections[.zoomStarts] = Layout.bytes(labels.zoomStarts)
    sections[.entryTiles] = Layout.bytes(labels.entryTiles)
    sections[.entryLabels] = Layout.bytes(labels.entryLabels)
    sections[.strings] = labels.strings
    return BasemapFile.layout.assemble(sections)
  }

  /// The shapes' columns as they are filled, band by band and layer by layer.
  struct ShapeTables {
    var grids: [UInt32] = []
    var cellStarts: [UInt32] = []
    var partStarts: [UInt32] = []
    var partBoxes: [Float] = []
    var points: [Float] = []

    mutating func addGrid(band b: Int, layer: BasemapLayer, paths: [[SIMD2<Double>]]) {
      let band = BasemapBand.all[b]
      let n = band.gridSize
      // Half a pixel at the band's highest zoom: no drawn difference there, far fewer points.
      let pixel = 1 / (256 * Double(1 << band.maximumZoom))
      let tolerance = 0.5 * pixel
      let margin = layer.isArea ? 0 : BasemapFile.lineMarginPixels / (256 * Double(1 << band.minimumZoom))
      var cells = [[[SIMD2<Double>]]](repeating: [], count: n * n)
      for path in paths {
        let simple =
          layer.isArea
          ? Simplification.simplifyRing(path, tolerance: tolerance)
          : Simplification.simplify(path, tolerance: tolerance)
        guard simple.count >= (layer.isArea ? 3 : 2) else { continue }
        var box = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for p in simple { box = (min(box.0, p.x), min(box.1, p.y), max(box.2, p.x), max(box.3, p.y)) }
        // Specks smaller than a pixel at the band's highest zoom are not drawn.
        if layer.isArea && Simplification.area(simple) < pixel * pixel { continue }
        if !layer.isArea && box.2 - box.0 < pixel && box.3 - box.1 < pixel { continue }
        func cell(_ v: Double) -> Int { max(0, min(n - 1, Int((v * Double(n)).rounded(.down)))) }
        for cy in cell(box.1 - margin)...cell(box.3 + margin) {
          for cx in cell(box.0 - margin)...cell(box.2 + margin) {
            let rect = RectangleClipping(
              west: Double(cx) / Double(n) - margin, north: Double(cy) / Double(n) - margin,
              east: Double(cx + 1) / Double(n) + margin, south: Double(cy + 1) / Double(n) + margin)
            let inside = rect.contains(SIMD2(box.0, box.1)) && rect.contains(SIMD2(box.2, box.3))
            if layer.isArea {
              let ring = inside ? simple : rect.clipRing(simple)
              if !ring.isEmpty { cells[cy * n + cx].append(ring) }
            } else {
              cells[cy * n + cx] += inside ? [simple] : rect.clipLine(simple)
            }
          }
        }
      }
      grids.append(UInt32(cellStarts.count))
      for cell in cells {
        cellStarts.append(UInt32(partStarts.count))
        for part in cell {
          partStarts.append(UInt32(points.count / 2))
          var box = (Float.infinity, Float.infinity, -Float.infinity, -Float.infinity)
          for p in part {
            let (x, y) = (Float(p.x), Float(p.y))
            points += [x, y]
            box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
          }
          partBoxes += [box.0, box.1, box.2, box.3]
        }
      }
      cellStarts.append(UInt32(partStarts.count))
    }
  }

  /// Every label and where it is placed at each zoom.
  struct Labels {
    var points: [Float] = []
    var names: [UInt32] = []
    var kinds: [LabelKind] = []
    var widths: [Float] = []
    var zoomStarts: [UInt32] = []
    var entryTiles: [UInt32] = []
    var entryLabels: [UInt32] = []
    var strings: [UInt8] = []

    init(countries: GeoJSONShapes, gazetteer: Gazetteer) {
      // Countries by the zoom Natural Earth shows them from and their rank, then places by
      // population: the order labels claim space in.
      var candidates: [(position: SIMD2<Double>, name: String, kind: LabelKind, minimumZoom: Int)] = []
      let ranked = countries.points.compactMap { point -> (SIMD2<Double>, String, Int, Double)? in
        guard let name = point.properties["name"] as? String, !name.isEmpty else { return nil }
        let minimumZoom = (point.properties["minzoom"] as? Double).map { Int($0) } ?? 5
        return (point.position, name, minimumZoom, point.properties["labelrank"] as? Double ?? 10)
      }.sorted { ($0.2, $0.3, $0.1) < ($1.2, $1.3, $1.1) }
      for (position, name, minimumZoom, _) in ranked {
        candidates.append((position, name, .country, max(1, minimumZoom)))
      }
      let least = LabelKind.minimumPopulation(atZoom: BasemapBand.detailZoom) ?? 0
      let places = (0..<gazetteer.count).filter { gazetteer.population($0) >= least }.sorted {
        (gazetteer.population($0), $1) > (gazetteer.population($1), $0)
      }
      for i in places {
        let place = gazetteer.place(i)
        let position = GeoJSONShapes.project([place.coordinate.longitude, place.coordinate.latitude])
        let minimumZoom = (0...BasemapBand.detailZoom).first { zoom in
          LabelKind.minimumPopulation(atZoom: zoom).map { place.population >= $0 } ?? false
        }
        candidates.append(
          (position, place.name, .place(population: place.population), minimumZoom ?? BasemapBand.detailZoom))
      }
      var stringOffsets: [String: UInt32] = [:]
      for c in candidates {
        points += [Float(c.position.x), Float(c.position.y)]
        if let offset = stringOffsets[c.name] {
          names.append(offset)
        } else {
          let offset = UInt32(strings.count)
          stringOffsets[c.name] = offset
          names.append(offset)
          strings += Array(c.name.utf8) + [0]
        }
        kinds.append(c.kind)
        widths.append(Float(TextMetrics.width(of: c.name, kind: c.kind)))
      }
      if strings.isEmpty { strings = [0] }
      for zoom in 0...BasemapBand.detailZoom {
        zoomStarts.append(UInt32(entryTiles.count))
        var placement = LabelPlacement(zoom: zoom)
        var placed: [(tile: UInt32, label: UInt32)] = []
        let n = Double(1 << zoom)
        for (i, c) in candidates.enumerated() where c.minimumZoom <= zoom {
          let candidate = LabelPlacement.Candidate(position: c.position, kind: c.kind, width: Double(widths[i]))
          guard let onLeft = placement.place(candidate) else { continue }
          let tx = min(n - 1, (c.position.x * n).rounded(.down))
          let ty = min(n - 1, (c.position.y * n).rounded(.down))
          placed.append((UInt32(ty * n + tx), UInt32(i) << 1 | (onLeft ? 1 : 0)))
        }
        // Stable: within a tile, the more important label stays first.
        let order = placed.indices.sorted { (placed[$0].tile, $0) < (placed[$1].tile, $1) }
        entryTiles += order.map { placed[$0].tile }
        entryLabels += order.map { placed[$0].label }
      }
      zoomStarts.append(UInt32(entryTiles.count))
    }
  }
}
