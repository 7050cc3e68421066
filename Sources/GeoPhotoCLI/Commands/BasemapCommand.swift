import Foundation
import GeoPhotoCore
import GeoPhotoStreetMap
import GeoPhotoVectorTiles

enum BasemapCommand: Subcommand {
  static let spec = CommandSpec(
    name: "basemap",
    abstract: "Add, remove and list the OpenStreetMap archives geophoto draws its street map from.",
    discussion: """
      A street-level map needs data the shipped Natural Earth basemap does not have: a vector-tile
      archive of your region, in PMTiles (a Protomaps extract: 'pmtiles extract') or MBTiles
      (tilemaker or planetiler from a Geofabrik .osm.pbf, or MapTiler's files). 'basemap add'
      checks the archive opens and records its path as a 'tiles.vector' line in the
      configuration file, without copying it; 'serve' and 'snapshot' then draw streets,
      buildings, parks and names where it has data (an archive of PNG, JPEG or WebP tiles is drawn
      as it is), and Natural Earth elsewhere. 'basemap
      remove' takes the line out again (the file stays), and 'basemap list' shows every archive
      in use (the configuration's, GEOPHOTO_TILES_VECTOR's and --basemap's) with its bounds,
      zooms, schema and size.
      """,
    arguments: [
      .init(name: "add|remove|list", help: "The action.", completion: .values(["add", "remove", "list"])),
      .init(name: "file", help: "A PMTiles or MBTiles archive (add, remove).", optional: true, completion: .file),
    ],
    options: [Setting.tilesVector.option],
    examples: [
      "geophoto basemap add ~/maps/kanto.pmtiles", "geophoto basemap list",
      "geophoto basemap remove ~/maps/kanto.pmtiles",
    ])

  static func run(_ context: CommandContext) throws {
    let p = context.parsed.positionals
    switch p.first {
    case "list":
      guard p.count == 1 else { throw UsageError("'basemap list' takes no file") }
      try list(context)
    case "add", "remove":
      guard p.count == 2 else { throw UsageError("'basemap \(p[0])' takes one archive file") }
      let path = URL(fileURLWithPath: p[1]).standardizedFileURL.path
      let file = configurationFile(context)
      if p[0] == "add" {
        let archive: any TileArchive
        do {
          archive = try TileArchives.open(path)
        } catch {
          throw RuntimeError("cannot add the map archive: \(error)")
        }
        guard try !recorded(in: file).contains(path) else {
          context.console.out("\(path) is already in \(file)\n")
          return
        }
        try ConfigurationEditor.append(key: Setting.tilesVector.key, value: path, to: file)
        context.console.out("added \(StreetMaps.describe(archive.info))\nin \(file)\n")
      } else {
        let removed = try ConfigurationEditor.remove(
          key: Setting.tilesVector.key,
          where: { value in
            URL(fileURLWithPath: value).standardizedFileURL.path == path
          }, from: file)
        guard removed > 0 else { throw RuntimeError("\(path) is not a map archive in \(file)") }
        context.console.out("removed \(path) from \(file) (the archive itself is kept)\n")
      }
    case nil: throw UsageError("Missing expected argument '<add|remove|list>'")
    case let other?: throw UsageError("Unknown action '\(other)'; expected 'add', 'remove' or 'list'")
    }
  }

  /// The configuration file in use: --config's, GEOPHOTO_CONFIG's, or the default one.
  static func configurationFile(_ context: CommandContext) -> String {
    let explicit = (try? context.parsed.value(CommandSpec.config)) ?? context.environment[CommandSpec.configEnvironment]
    return Configuration.expandTilde(
      explicit ?? Configuration.defaultConfigPath(environment: context.environment), environment: context.environment)
  }

  /// The archive paths the file's `tiles.vector` lines name.
  static func recorded(in file: String) throws -> [String] {
    guard FileManager.default.fileExists(atPath: file) else { return [] }
    return try ConfigurationFile.read(file).filter { $0.key == Setting.tilesVector.key }.map {
      URL(fileURLWithPath: $0.value).standardizedFileURL.path
    }
  }

  static func list(_ context: CommandContext) throws {
    let archives = try StreetMaps.archives(context)
    guard !archives.isEmpty else {
      context.console.out("no map archive: the map is Natural Earth's alone ('geophoto basemap add FILE' adds one)\n")
      return
    }
    var rows: [[String]] = [["archive", "kind", "zooms", "schema", "bounds (south,west to north,east)", "size"]]
    for archive in archives {
      let info = archive.info
      let bounds = info.bounds.map {
        String(format: "%.4f,%.4f to %.4f,%.4f", $0.south, $0.west, $0.north, $0.east)
          + (info.boundsFromTiles ? " (from its tiles)" : "")
      }
      rows.append([
        info.path, "\(info.kind.rawValue) (\(info.format.rawValue))", "\(info.minZoom)–\(info.maxZoom)",
        info.schema.rawValue, bounds ?? "unknown",
        ByteCountFormatter.string(fromByteCount: Int64(info.fileSize), countStyle: .file),
      ])
    }
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    let text = rows.map { row in
      row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
        .trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
    context.console.out(text + "\n")
  }
}
