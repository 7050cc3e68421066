import Foundation
import GeoPhotoFixtures
import Testing

/// `geophoto check` on a real index, before and after the faults it should find.
@Suite struct CheckCommandTests {
  @Test(arguments: StoreKind.available)
  func aFreshIndexIsOK(kind: StoreKind) throws {
    let w = try ExampleWorkspace(kind)
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let r = try Binary.run(["check"], environment: w.env)
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("index ok: ") && !r.stdout.contains("problem:"), "\(r.stdout)")
  }

  @Test func vanishedFilesAndADamagedSpatialIndexAreFoundAndRepaired() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let gone = try #require(try FileManager.default.contentsOfDirectory(atPath: w.photos.path).sorted().first)
    try FileManager.default.removeItem(at: w.photos.appendingPathComponent(gone))
    let tree = URL(fileURLWithPath: w.db.path + ".spatial")
    #expect(FileManager.default.fileExists(atPath: tree.path))
    try Data("not a tree".utf8).write(to: tree)
    let found = try Binary.run(["check"], environment: w.env)
    #expect(found.status == 1)
    let problems = found.stdout.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
    #expect(problems.count == 2, "\(found.stdout)")
    #expect(found.stdout.contains("index.sqlite.spatial: not a geophoto spatial index"))
    #expect(found.stdout.contains("1 files under \(w.photos.path) are gone (\(w.photos.path)/\(gone))"))
    // --repair rebuilds the tree from the rows; the file stays gone until a sync.
    let repaired = try Binary.run(["check", "--repair"], environment: w.env)
    #expect(repaired.status == 1 && repaired.stdout.contains("repaired:"))
    #expect(!repaired.stdout.contains("spatial") && repaired.stdout.contains("are gone"), "\(repaired.stdout)")
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let clean = try Binary.run(["check"], environment: w.env)
    #expect(clean.status == 0, "\(clean.stdout)")
  }

  @Test func aMissingFolderIsOneLineAndNothingIsLost() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let away = w.root.appendingPathComponent("away")
    try FileManager.default.moveItem(at: w.photos, to: away)
    let r = try Binary.run(["check"], environment: w.env)
    #expect(r.status == 1)
    #expect(r.stdout.contains("the synced folder \(w.photos.path) is not there (unmounted?)"), "\(r.stdout)")
    #expect(r.stdout.split(separator: "\n").filter { $0.hasPrefix("problem: ") }.count == 1)
  }

  @Test func aDamagedIndexIsOneClearError() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let bytes = try Data(contentsOf: w.db)
    // Cut short: it cannot be opened.
    try bytes.prefix(5_000).write(to: w.db)
    let truncated = try Binary.run(["check"], environment: w.env)
    #expect(truncated.status == 1 && truncated.stderr.contains("the index cannot be opened"), "\(truncated.stderr)")
    // Garbage over pages past the first: opened, and the consistency check says what is wrong
    // (or, where the schema's own pages are hit, it cannot be opened); never a crash.
    var damaged = bytes
    for i in stride(from: 8_192, to: min(damaged.count, 40_000), by: 7) { damaged[i] = 0xA5 }
    try damaged.write(to: w.db)
    let garbage = try Binary.run(["check"], environment: w.env)
    #expect(garbage.status == 1, "\(garbage.stdout)\(garbage.stderr)")
    #expect(garbage.stdout.contains("problem: index.sqlite: ") || garbage.stderr.contains("cannot be opened"))
  }
}
