import Foundation
import GeoPhotoFixtures

/// The OpenStreetMap archives `Scripts/osm-test-archives.sh` builds from central Helsinki with
/// tilemaker and pmtiles-convert, and the Python `pmtiles` package that made the second, used
/// as the oracle here.
enum OSMArchives {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/osm", isDirectory: true)
  static let mbtiles = folder.appendingPathComponent("helsinki.mbtiles").path
  static let pmtiles = folder.appendingPathComponent("helsinki.pmtiles").path
  static let pythonPMTiles = folder.appendingPathComponent("work/pmtiles").path

  static var areBuilt: Bool {
    FileManager.default.fileExists(atPath: mbtiles) && FileManager.default.fileExists(atPath: pmtiles)
  }

  /// Runs a Python program with the `pmtiles` package on its path; its standard output.
  static func python(_ program: String, _ arguments: [String] = []) throws -> String {
    let run = try ToolRun(
      "/usr/bin/python3", ["-c", program] + arguments,
      environment: ["PYTHONPATH": pythonPMTiles, "PATH": "/usr/bin:/bin"])
    guard run.status == 0 else { throw ToolFailure(description: "python: \(run.stderr)") }
    return run.stdout
  }

  struct ToolFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// Every tile of an archive as Python reads it: "z x y hex" per line (XYZ rows).
  static func tilesReadByPython(_ path: String) throws -> [String: String] {
    let program = """
      import sqlite3, sys
      path = sys.argv[1]
      if path.endswith(".mbtiles"):
          for z, c, r, d in sqlite3.connect(path).execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
              print(z, c, (1 << z) - 1 - r, bytes(d).hex())
      else:
          from pmtiles.reader import MmapSource, all_tiles
          with open(path, "rb") as f:
              for (z, x, y), d in all_tiles(MmapSource(f)):
                  print(z, x, y, d.hex())
      """
    var tiles: [String: String] = [:]
    for line in try python(program, [path]).split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 4 else { continue }
      tiles["\(parts[0])/\(parts[1])/\(parts[2])"] = String(parts[3])
    }
    return tiles
  }
}

extension Array where Element == UInt8 {
  var hex: String { map { String(format: "%02x", $0) }.joined() }
}
