import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoStreetMap
import GeoPhotoVectorTiles

/// The street map for the commands that draw maps (`serve`, `snapshot`): the vector-tile
/// archives the configuration names (`tiles.vector`, `--basemap`), opened once, over the shipped
/// Natural Earth basemap.
enum StreetMaps {
  /// The archives of the configuration, opened (a planet file too: only its directories are
  /// read); one that cannot be is an error naming it.
  static func archives(_ context: CommandContext) throws -> [any TileArchive] {
    try context.configuration.tiles.vector.map { path in
      do {
        return try TileArchives.open(path)
      } catch let damage as DataDamage {
        throw RuntimeError("cannot use the map archive: \(damage)")
      }
    }
  }

  /// The map to draw: the basemap at `url` (nil: none) and the archives over it.
  static func renderer(basemap url: URL?, archives: [any TileArchive]) throws -> MapTileRenderer {
    MapTileRenderer(
      basemap: try url.map { BasemapRenderer(basemap: try Basemap(contentsOf: $0)) },
      streets: archives.isEmpty ? nil : StreetMap(archives: archives))
  }

  /// One line about an archive: its name, kind, zooms, schema and bounds.
  static func describe(_ info: ArchiveInfo) -> String {
    var text = "\(info.path): \(info.kind.rawValue), zooms \(info.minZoom)–\(info.maxZoom), \(info.schema.rawValue)"
    if let b = info.bounds {
      text += String(format: ", %.4f,%.4f to %.4f,%.4f", b.south, b.west, b.north, b.east)
      if info.boundsFromTiles { text += " (from its tiles)" }
    }
    return text
  }
}
