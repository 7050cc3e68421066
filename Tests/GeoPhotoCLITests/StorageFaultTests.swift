import Foundation
import GeoPhotoFixtures
import Testing

/// `sync` on a filesystem that fills up or turns read-only under it: one clear error, the
/// index as it was (or consistent), and the next run after the fault is cleared completes.
/// Needs root to mount a small tmpfs; elsewhere it says it skipped.
@Suite(.serialized) struct StorageFaultTests {
  static let canMount = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")

  /// A tmpfs of `megabytes` mounted for the test, unmounted after.
  final class SmallDisk {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-disk-\(UUID().uuidString)")
    init(megabytes: Int) throws {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Self.mount(["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", folder.path])
    }
    static func mount(_ arguments: [String]) throws {
      let run = try ToolRun("/bin/mount", arguments)
      guard run.status == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: run.stderr])
      }
    }
    /// Fills the disk but for `kilobytes`; returns the filler to remove.
    func fill(leaving kilobytes: Int) throws -> URL {
      let filler = folder.appendingPathComponent("filler")
      let attributes = try FileManager.default.attributesOfFileSystem(forPath: folder.path)
      let free = (attributes[.systemFreeSize] as? Int) ?? 0
      try Data(count: max(0, free - kilobytes * 1024)).write(to: filler)
      return filler
    }
    deinit {
      _ = try? ToolRun("/bin/umount", [folder.path])
      try? FileManager.default.removeItem(at: folder)
    }
  }

  @Test(.enabled(if: canMount, "needs root to mount a tmpfs"))
  func aFullDiskStopsSyncCleanlyAndTheNextRunCompletes() throws {
    let disk = try SmallDisk(megabytes: 16)
    let photos = disk.folder.deletingLastPathComponent().appendingPathComponent("photos-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: photos) }
    try SyntheticLibrary.writeFolder(to: photos.appendingPathComponent("first"), count: 300)
    try SyntheticLibrary.writeFolder(to: photos.appendingPathComponent("second"), count: 3_000)
    let env = ["GEOPHOTO_DB": disk.folder.appendingPathComponent("index.sqlite").path]
    let first = try Binary.run(["sync", photos.appendingPathComponent("first").path], environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    let filler = try disk.fill(leaving: 200)
    let full = try Binary.run(["sync", photos.appendingPathComponent("second").path], environment: env)
    #expect(full.status != 0)
    #expect(full.stderr.contains("the disk holding the index is full"), "\(full.stderr)")
    #expect(full.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }.count == 1)
    // The index is sound, with the first folder's photos at least.
    let checked = try Binary.run(["check"], environment: env)
    #expect(!checked.stdout.contains("index.sqlite: "), "\(checked.stdout)")
    let info = try Binary.run(["info"], environment: env)
    let photosLine = info.stdout.split(separator: "\n").first { $0.hasPrefix("photos: ") } ?? ""
    let count = Int(photosLine.dropFirst(8).prefix { $0.isNumber }) ?? -1
    #expect(count >= 300, "\(info.stdout)")
    // Space again: the next sync completes and everything is there.
    try FileManager.default.removeItem(at: filler)
    let again = try Binary.run(["sync", photos.appendingPathComponent("second").path], environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    let after = try Binary.run(["check"], environment: env)
    #expect(after.status == 0, "\(after.stdout)")
    #expect(try Binary.run(["info"], environment: env).stdout.contains("photos: 3300"))
  }

  @Test(.enabled(if: canMount, "needs root to mount a tmpfs"))
  func aReadOnlyIndexFolderIsOneClearError() throws {
    let disk = try SmallDisk(megabytes: 8)
    let photos = disk.folder.deletingLastPathComponent().appendingPathComponent("photos-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: photos) }
    try ExamplePhotos.write(to: photos)
    let env = ["GEOPHOTO_DB": disk.folder.appendingPathComponent("index.sqlite").path]
    _ = try Binary.run(["sync", photos.path], environment: env)
    let extra = photos.appendingPathComponent("extra.jpg")
    try SampleJPEG.write(to: extra) { $0.coordinate = .init(latitude: 35.0, longitude: 135.7) }
    try SmallDisk.mount(["-o", "remount,ro", disk.folder.path])
    let refused = try Binary.run(["sync", photos.path], environment: env)
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("its folder is on a read-only filesystem"), "\(refused.stderr)")
    #expect(refused.stderr.split(separator: "\n").filter { $0.hasPrefix("Error:") }.count == 1)
    // Reading commands say why too, and nothing crashes.
    let near = try Binary.run(["near", "35.68,139.76", "--limit", "1"], environment: env)
    #expect(near.status != 0 && near.stderr.contains("read-only filesystem"), "\(near.stderr)")
    try SmallDisk.mount(["-o", "remount,rw", disk.folder.path])
    let again = try Binary.run(["sync", photos.path], environment: env)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("added 1"), "\(again.stdout)")
  }
}
