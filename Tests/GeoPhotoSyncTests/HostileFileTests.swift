import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

@testable import GeoPhotoSync

/// Files whose size, offset and count fields hold extreme values (2⁶³ − 1 offsets, 2³² − 1
/// lengths, `largesize` boxes): a sync of a folder of them ends, indexes each with what could
/// be read, and warns once for each, naming the file and what is wrong with it.
@Suite struct HostileFileTests {
  @Test func aFolderOfDamagedFilesIsSyncedWithOneWarningEach() throws {
    let w = try Workspace()
    for file in HostileFiles.all {
      try Data(file.bytes).write(to: w.photos.appendingPathComponent(file.name))
    }
    try w.photo("good.jpg", 35.68, 139.76, title: "Good")
    let summary = try w.sync()
    #expect(summary.scanned == HostileFiles.all.count + 1)
    #expect(summary.added == HostileFiles.all.count + 1)
    for file in HostileFiles.all {
      let path = w.canonical(file.name)
      let warnings = w.warnings.filter { $0.0 == path }.map(\.1)
      #expect(warnings.count == 1, "\(file.name) (\(file.field)): \(warnings)")
      // The warning says what kind of file and what is wrong, in one line.
      #expect(warnings.allSatisfy { !$0.contains("\n") && $0.count > 20 }, "\(file.name): \(warnings)")
    }
    #expect(w.warnings.filter { $0.0 == w.canonical("good.jpg") }.isEmpty)
    // The damaged files are in the index by their names; the good one keeps its position.
    let photos = try w.all()
    #expect(photos[w.canonical("good.jpg")]?.coordinate != nil)
    #expect(photos[w.canonical("heic-iloc-base-offset.heic")]?.title == "heic-iloc-base-offset")
  }

  /// A file's name cannot forge a warning line: control characters in it are escaped.
  @Test func aFileNameCannotForgeAWarningLine() throws {
    let w = try Workspace()
    let file = try #require(HostileFiles.all.first { $0.name.hasSuffix(".tif") })
    let name = "x\nwarning: forged\u{1B}[2J.tif"
    try Data(file.bytes).write(to: w.photos.appendingPathComponent(name))
    _ = try w.sync()
    let warning = try #require(w.warnings.first)
    #expect(warning.0.hasSuffix("/x\\nwarning: forged\\x1B[2J.tif"), "\(warning.0)")
    #expect(!warning.0.contains("\n") && !warning.1.contains("\n") && !warning.0.contains("\u{1B}"))
  }

  /// A FIFO or a device put where a photo was after the folder walk is neither read nor waited
  /// on: the file is opened without blocking and read only when it is a regular file.
  @Test func aFIFOSwappedInForAPhotoIsRefusedAtOnce() throws {
    let w = try Workspace()
    let path = w.photos.appendingPathComponent("swapped.jpg").path
    #expect(mkfifo(path, 0o644) == 0)
    let read = PhotoFileReader.read(FoundFile(path: path, size: 1_000, modifiedNanoseconds: 0))
    #expect(read.record.problem == "cannot read: not a regular file (a FIFO)")
    let device = PhotoFileReader.read(FoundFile(path: "/dev/zero", size: 1_000, modifiedNanoseconds: 0))
    #expect(device.record.problem == "cannot read: not a regular file (a character device)")
    // A sidecar that is a FIFO is not waited on either: the sync ends and takes the photo.
    try SampleJPEG.write(to: w.photos.appendingPathComponent("real.jpg")) { $0.imageDescription = "Real" }
    #expect(mkfifo(w.photos.appendingPathComponent("real.xmp").path, 0o644) == 0)
    _ = try w.sync()
    #expect(try w.all()[w.canonical("real.jpg")]?.title == "Real")
  }

  /// The warnings name the field and the value as it was in the file.
  @Test func warningsSayWhatAndWhere() throws {
    func damage(_ name: String) throws -> String {
      let file = try #require(HostileFiles.all.first { $0.name == name })
      let format = try #require(PhotoFormat(signature: Array(file.bytes.prefix(PhotoFormat.signatureLength))))
      let outcome = file.bytes.withUnsafeBytes {
        MetadataReader.read(head: $0, file: MemoryBytes(file.bytes), format: format)
      }
      guard case .metadata(let m) = outcome else { return "\(outcome)" }
      return m.damage?.description ?? "no damage"
    }
    #expect(try damage("heic-iloc-base-offset.heic").contains("base offset 9223372036854775807"))
    #expect(try damage("tiff-ifd0-offset.tif") == "bad IFD0 offset 4294967280 past the end (58 bytes)")
    #expect(try damage("png-exif-length.png").contains("'eXIf'") == true)
    #expect(try damage("png-exif-length.png").contains("length 4294967295 past the end"))
    #expect(try damage("mp4-largesize.mp4").contains("size 18446744073709551615 past the end"))
    #expect(try damage("dng-exif-ifd-offset.dng").contains("bad Exif IFD offset 4294967288"))
  }

  /// exiftool, read as an independent judge, finds something wrong with every one of them:
  /// none is damaged only in geophoto's eyes.
  static let exiftoolSilent: Set<String> = [
    "heic-iloc-base-offset.heic", "avif-iloc-base-offset.avif", "heic-iloc-extent-offset.heic",
    "heic-iloc-extent-length.heic", "jxl-brob.jxl", "mov-keys-count.mov",
  ]

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool"), "exiftool is not installed"))
  func exiftoolAgreesTheyAreDamaged() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for file in HostileFiles.all { try Data(file.bytes).write(to: folder.appendingPathComponent(file.name)) }
    let run = try ToolRun("/usr/bin/exiftool", ["-j", "-q", "-Warning", "-Error", folder.path])
    let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    for file in HostileFiles.all {
      let entry = entries.first { ($0["SourceFile"] as? String)?.hasSuffix("/" + file.name) == true }
      let said = (entry?["Warning"] ?? entry?["Error"]) as? String
      // exiftool does not follow a HEIF's iloc to its Exif item's extents (it finds the
      // Exif another way), nor decompress a JPEG XL brob box it is not asked for, nor read
      // a movie's keys beyond the first: it passes these in silence.
      if Self.exiftoolSilent.contains(file.name) { continue }
      #expect(said != nil, "\(file.name) (\(file.field)): exiftool says nothing")
    }
  }
}
