import Foundation
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoCLI

func completionScript(_ shell: String) throws -> URL {
  let recorder = RecordingConsole()
  let status = GeoPhotoCommand.run(
    ["--generate-completion-script", shell], environment: [:], console: recorder.console(terminal: false))
  #expect(status == 0)
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-completion-\(UUID().uuidString)")
  try recorder.out.withLock { $0 }.write(to: file, atomically: true, encoding: .utf8)
  return file
}

@Suite struct CompletionTests {
  /// The bash completion, driven as bash drives it (COMP_WORDS, COMP_CWORD): candidates come
  /// from the same specs as --help.
  @Test func bashOffersWhatTheParserAccepts() throws {
    let script = try completionScript("bash")
    defer { try? FileManager.default.removeItem(at: script) }
    #expect(try ToolRun("/bin/bash", ["-n", script.path]).status == 0)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-compl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
    try Data().write(to: folder.appendingPathComponent("walk.gpx"))
    defer { try? FileManager.default.removeItem(at: folder) }
    func complete(_ words: [String]) throws -> [String] {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let program = """
        source '\(script.path)'; cd '\(folder.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
        _geophoto; printf '%s\\n' "${COMPREPLY[@]}"
        """
      return try ToolRun("/bin/bash", ["-c", program]).stdout.split(separator: "\n").map(String.init).sorted()
    }
    #expect(try complete(["geophoto", "ne"]) == ["near"])
    #expect(try complete(["geophoto", "s"]) == ["serve", "share", "snapshot", "sync"])
    #expect(try complete(["geophoto", "near", "--fo"]) == ["--format"])
    #expect(try complete(["geophoto", "near", "--format", ""]) == ["csv", "geojson", "json", "table"])
    #expect(try complete(["geophoto", "near", "-s", ""]) == ["commons", "flickr", "local"])
    #expect(try complete(["geophoto", "directions", "1,2", "3,4", "--profile", "c"]) == ["cycling"])
    #expect(try complete(["geophoto", "route", ""]) == ["show"])
    #expect(try complete(["geophoto", "route", "show", "wa"]) == ["walk.gpx"])
    #expect(try complete(["geophoto", "sync", "ph"]) == ["photos"])
    #expect(try complete(["geophoto", "geotag", "--track", "w"]) == ["walk.gpx"])
    #expect(try complete(["geophoto", "help", "mi"]) == ["migrate"])
    // Every option of every command is offered.
    for spec in GeoPhotoCommand.specs {
      let offered = try complete(["geophoto", spec.name, "--"])
      #expect(Set(offered) == Set(spec.allOptions.map { "--\($0.long)" }), "\(spec.name)")
    }
  }

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "needs zsh (make test installs it)"))
  func zshReadsItsScript() throws {
    let script = try completionScript("zsh")
    defer { try? FileManager.default.removeItem(at: script) }
    #expect(try ToolRun("/usr/bin/zsh", ["-n", script.path]).status == 0)
  }

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "needs fish (make test installs it)"))
  func fishOffersWhatTheParserAccepts() throws {
    let script = try completionScript("fish")
    defer { try? FileManager.default.removeItem(at: script) }
    #expect(try ToolRun("/usr/bin/fish", ["--no-execute", script.path]).status == 0)
    let out = try ToolRun(
      "/usr/bin/fish", ["-c", "source '\(script.path)'; complete -C 'geophoto near --format '"]
    ).stdout
    #expect(
      Set(out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }) == [
        "table", "json", "geojson", "csv",
      ])
  }

  @Test func anUnknownShellIsAUsageError() {
    let recorder = RecordingConsole()
    let status = GeoPhotoCommand.run(
      ["--generate-completion-script", "tcsh"], environment: [:], console: recorder.console(terminal: false))
    #expect(status == 64)
    #expect(recorder.err.withLock { $0 }.hasPrefix("Error: The value 'tcsh' is invalid"))
  }
}

@Suite struct ManualPageTests {
  static let page = SettingsDocumentationTests.root.appendingPathComponent("man/geophoto.1")

  /// man/geophoto.1 is what the specs make now: 'make man' was run after the last change.
  @Test func theManualIsCurrent() throws {
    let recorder = RecordingConsole()
    #expect(
      GeoPhotoCommand.run(["--generate-manual"], environment: [:], console: recorder.console(terminal: false)) == 0)
    let committed = try String(contentsOf: Self.page, encoding: .utf8)
    #expect(recorder.out.withLock { $0 } == committed, "man/geophoto.1 is stale: run 'make man'")
    for spec in GeoPhotoCommand.specs {
      #expect(committed.contains(".SS \"geophoto \(spec.name)"), "\(spec.name)")
    }
    for setting in Setting.all { #expect(committed.contains(setting.environment)) }
  }

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "needs groff (make test installs it)"))
  func groffReadsItWithoutAWarning() throws {
    let groff = try ToolRun("/usr/bin/groff", ["-man", "-ww", "-z", Self.page.path])
    #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff.stderr)")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "needs man (make test installs it)"))
  func manRendersIt() throws {
    // The plainest terminal: the C locale, ASCII only.
    let man = try ToolRun(
      "/usr/bin/man", ["-l", Self.page.path], environment: ["MANWIDTH": "100", "PATH": "/usr/bin:/bin", "LANG": "C"])
    #expect(man.status == 0 && man.stderr.isEmpty, "\(man.stderr)")
    // Justified text spreads spaces: compare words.
    let words = man.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("EXIT STATUS") && words.contains("geophoto near <lat,lon>"))
  }
}
