import Foundation
import GeoPhotoFixtures
import Testing

/// `geophoto basemap add|remove|list`, run as the binary: the configuration file's lines, and
/// what serve and snapshot then draw.
@Suite struct BasemapCommandTests {
  /// A workspace whose home holds the configuration file (`~/.config/geophoto/config`, not
  /// there yet), and a one-tile archive.
  func workspace() throws -> (ExampleWorkspace, config: URL, archive: String, env: [String: String]) {
    let w = try ExampleWorkspace(withPhotos: false)
    let config = w.root.appendingPathComponent(".config/geophoto/config")
    let archive = w.root.appendingPathComponent("maps/street.pmtiles")
    try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
    let file = try #require(HostileFiles.tileArchives.first { $0.name == "one-tile.pmtiles" })
    try Data(file.bytes).write(to: archive)
    var env = w.env
    env["HOME"] = w.root.path
    return (w, config, archive.path, env)
  }

  @Test func addRecordsTheArchiveAndRemoveTakesItOut() throws {
    let (w, config, archive, env) = try workspace()
    _ = w
    // A configuration that has other lines and comments keeps them.
    try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
    try "# mine\nserve.port = 9000\n".write(to: config, atomically: true, encoding: .utf8)
    let add = try Binary.run(["basemap", "add", archive], environment: env)
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.hasPrefix("added \(archive): PMTiles, zooms 0–14, generic"))
    #expect(try String(contentsOf: config, encoding: .utf8) == "# mine\nserve.port = 9000\ntiles.vector = \(archive)\n")
    // Twice is once.
    let again = try Binary.run(["basemap", "add", archive], environment: env)
    #expect(again.status == 0 && again.stdout == "\(archive) is already in \(config.path)\n")
    let list = try Binary.run(["basemap", "list"], environment: env)
    #expect(list.status == 0)
    #expect(list.stdout.contains(archive) && list.stdout.contains("PMTiles (mvt)"))
    let remove = try Binary.run(["basemap", "remove", archive], environment: env)
    #expect(remove.status == 0, "\(remove.stderr)")
    #expect(try String(contentsOf: config, encoding: .utf8) == "# mine\nserve.port = 9000\n")
    #expect(FileManager.default.fileExists(atPath: archive))
    let none = try Binary.run(["basemap", "list"], environment: env)
    #expect(none.stdout.hasPrefix("no map archive"))
  }

  @Test func aNewConfigurationIsTheOwnersAlone() throws {
    let (w, config, archive, env) = try workspace()
    _ = w
    #expect(try Binary.run(["basemap", "add", archive], environment: env).status == 0)
    let mode = try FileManager.default.attributesOfItem(atPath: config.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func badArchivesAndActionsAreRefused() throws {
    let (w, config, _, env) = try workspace()
    let text = w.root.appendingPathComponent("notes.pmtiles")
    try "not a map".write(to: text, atomically: true, encoding: .utf8)
    let refused = try Binary.run(["basemap", "add", text.path], environment: env)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("\(text.path) is neither a PMTiles nor an MBTiles archive"))
    #expect(!FileManager.default.fileExists(atPath: config.path))
    let missing = try Binary.run(["basemap", "add", w.root.path + "/nope.pmtiles"], environment: env)
    #expect(missing.status == 1 && missing.stderr.contains("no such file"))
    let unknown = try Binary.run(["basemap", "remove", w.root.path + "/nope.pmtiles"], environment: env)
    #expect(unknown.status == 1 && unknown.stderr.contains("is not a map archive in"))
    #expect(try Binary.run(["basemap", "frob"], environment: env).status == 64)
    #expect(try Binary.run(["basemap"], environment: env).status == 64)
    // A damaged archive named on the command line stops serve with what is wrong.
    let serve = try Binary.run(["serve", "--port", "0", "--basemap", text.path], environment: env)
    #expect(serve.status == 1 && serve.stderr.contains("cannot use the map archive"))
  }
}
