import Foundation
import GeoPhotoFixtures
import Synchronization
import Testing

@testable import GeoPhotoCLI

/// A console that records what a command writes.
final class RecordingConsole: Sendable {
  let out = Mutex("")
  let err = Mutex("")

  func console(terminal: Bool) -> Console {
    Console(
      out: { text in self.out.withLock { $0 += text } }, err: { text in self.err.withLock { $0 += text } },
      errIsTerminal: terminal)
  }
}

@Suite struct InProcessTests {
  @Test func progressAndWarningsOnATerminal() throws {
    let w = try ExampleWorkspace()
    try Data("not a photo".utf8).write(to: w.photos.appendingPathComponent("broken.jpg"))
    let recorder = RecordingConsole()
    let status = GeoPhotoCommand.run(
      ["sync", w.photos.path, "--db", w.db.path], environment: ["HOME": w.root.path],
      console: recorder.console(terminal: true))
    #expect(status == 0)
    let err = recorder.err.withLock { $0 }
    #expect(err.contains("reading 14/14 files ("))
    #expect(err.contains("files/s)"))
    #expect(err.contains("warning: \(w.photos.path)/broken.jpg: not a JPEG file\n"))
    #expect(recorder.out.withLock { $0 }.contains("added 14"))
    #expect(recorder.out.withLock { $0 }.contains("warnings 1"))
  }

  @Test func noProgressWhenNotATerminal() throws {
    let w = try ExampleWorkspace()
    let recorder = RecordingConsole()
    _ = GeoPhotoCommand.run(
      ["sync", w.photos.path, "--db", w.db.path], environment: ["HOME": w.root.path],
      console: recorder.console(terminal: false))
    #expect(recorder.err.withLock { $0 }.isEmpty)
  }
}

@Suite struct DispatchTests {
  /// Runs `arguments` in-process with an index in a fresh folder; returns status, out, err.
  func run(_ arguments: [String]) -> (Int32, String, String) {
    let recorder = RecordingConsole()
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("gp-dispatch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let status = GeoPhotoCommand.run(
      arguments, environment: ["HOME": home.path], console: recorder.console(terminal: false))
    return (status, recorder.out.withLock { $0 }, recorder.err.withLock { $0 })
  }

  @Test func everyCommandIsReachedByItsOwnName() {
    let names = GeoPhotoCommand.commands.map { $0.spec.name }
    #expect(Set(names).count == names.count)
    #expect(
      names == [
        "sync", "fetch", "near", "export", "serve", "route", "along", "directions", "snapshot", "geotag", "trips",
        "share", "basemap",
        "places", "migrate", "info", "check", "forget",
      ])
    for command in GeoPhotoCommand.commands {
      let spec = command.spec
      let (status, out, _) = run([spec.name, "--help"])
      #expect(status == 0)
      #expect(out.hasPrefix("OVERVIEW: \(spec.abstract)\n"), "\(spec.name)")
      #expect(out.contains("USAGE: geophoto \(spec.name)"), "\(spec.name)")
      #expect(run(["help", spec.name]).1 == out)
    }
  }

  @Test func exitCodesFollowSysexits() {
    #expect(run(["frobnicate"]).0 == ExitCode.usage.rawValue)
    #expect(run(["frobnicate"]).2.hasPrefix("Error: Unknown subcommand 'frobnicate'\n"))
    #expect(run(["near"]).0 == 64)
    // A command that runs and fails: one Error line, status 1.
    let (status, out, err) = run(["forget", "/nonexistent-\(UUID().uuidString)"])
    #expect(status == 1 && out.isEmpty)
    #expect(err.hasPrefix("Error: no index at "))
    #expect(err.split(separator: "\n").count == 1)
  }
}
