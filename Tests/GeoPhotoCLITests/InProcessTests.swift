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
