import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoSnapshot
import Testing

@Suite("Snapshots over the built-in basemap", .enabled(if: shippedBasemap != nil, "the basemap is not built"))
struct SnapshotBasemapTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-snap-\(UUID().uuidString)")

  func render(_ box: BoundingBox, format: SnapshotRenderer.Format = .png) throws -> URL {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var style = SnapshotStyle()
    style.basemap = BasemapRenderer(basemap: shippedBasemap!)
    style.attribution = Basemap.attribution
    style.padding = 1
    var content = SnapshotContent()
    content.bounds = box
    let url = folder.appendingPathComponent("map.\(format.rawValue)")
    try SnapshotRenderer(style: style).render(content, format: format, to: url)
    return url
  }

  @Test func tokyoBayIsWaterAndTheLandAroundItLand() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let box = BoundingBox(west: 139.5, south: 35.1, east: 140.2, north: 35.8)
    let image = try PNGImage(contentsOf: try render(box))
    var style = SnapshotStyle()
    style.padding = 1
    let renderer = SnapshotRenderer(style: style)
    var content = SnapshotContent()
    content.bounds = box
    let (projection, origin) = try renderer.frame(for: content)
    func surface(_ c: Coordinate) -> Surface? {
      let p = renderer.position(of: c, projection: projection, origin: origin)
      let around = (-3...3).flatMap { dy in (-3...3).compactMap { dx in image.rgb(x: Int(p.x) + dx, y: Int(p.y) + dy) }
      }
      let surfaces = around.compactMap(Surface.init)
      return surfaces.count < 20 ? nil : surfaces.filter { $0 == .water }.count * 2 > surfaces.count ? .water : .land
    }
    #expect(surface(Coordinate(latitude: 35.45, longitude: 139.85)) == .water)
    #expect(surface(Coordinate(latitude: 35.75, longitude: 140.1)) == .land)  // Chiba
  }

  @Test func aSnapshotAcrossTheAntimeridianAndAnSVGAreDrawn() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let fiji = BoundingBox(west: 177, south: -19, east: -178, north: -15)
    let image = try PNGImage(contentsOf: try render(fiji))
    var land = 0
    for y in 0..<image.height { for x in 0..<image.width where Surface(image.rgb(x: x, y: y)!) == .land { land += 1 } }
    #expect(land > 200, "Fiji's islands on both sides of ±180°")
    let svg = try String(contentsOf: try render(fiji, format: .svg), encoding: .utf8)
    #expect(svg.contains("<path") && svg.contains("</svg>"))
  }
}
