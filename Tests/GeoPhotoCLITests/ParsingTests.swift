import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTPD
import GeoPhotoPlaces
import GeoPhotoServer
import Testing

@testable import GeoPhotoCLI

@Suite struct ArgumentParserTests {
  let spec = NearCommand.spec

  @Test func optionForms() throws {
    let p = try ArgumentParser.parse(["--limit=5", "-f", "json", "-r2km", "1,2"], spec: spec)
    #expect(p.values["limit"] == ["5"])
    #expect(p.values["format"] == ["json"])
    #expect(p.values["radius"] == ["2km"])
    #expect(p.positionals == ["1,2"])
  }

  /// Typed options: the value in its type, the default when absent, one error naming the
  /// option and what it takes.
  @Test func declaredOptionsReadTyped() throws {
    let snapshot = SnapshotCommand.spec
    let p = try ArgumentParser.parse(
      ["--size", "800x600", "--limit", "7", "--near", "1,2", "-o", "a.png"], spec: snapshot)
    #expect(try p.value(SnapshotCommand.size) == (800, 600))
    #expect(try p.value(SnapshotCommand.limit) == 7)
    #expect(try p.value(SnapshotCommand.scale) == 1)
    #expect(try p.value(SnapshotCommand.within) == RouteSearch.defaultWithin)
    #expect(!p.has(SnapshotCommand.labels))
    let bad = try ArgumentParser.parse(["--scale", "9"], spec: snapshot)
    #expect(throws: UsageError("The value '9' is invalid for '--scale <n>': expected a whole number from 1 to 4")) {
      try bad.value(SnapshotCommand.scale)
    }
    // The help shows each default as the declaration has it.
    let help = HelpGenerator.help(for: snapshot)
    #expect(help.contains("(default: 400x400)") && help.contains("(default: 50)") && help.contains("(default: 200m)"))
    let export = try ArgumentParser.parse(["--format", "KML"], spec: ExportCommand.spec)
    #expect(try export.value(ExportCommand.format) == .kml)
    #expect(HelpGenerator.help(for: ExportCommand.spec).contains("geojson, kml, gpx or csv."))
  }

  @Test func negativeNumbersArePositionals() throws {
    #expect(try ArgumentParser.parse(["-33.8,151.2"], spec: spec).positionals == ["-33.8,151.2"])
    #expect(try ArgumentParser.parse(["-.5,3"], spec: spec).positionals == ["-.5,3"])
    #expect(try ArgumentParser.parse(["--", "--limit"], spec: spec).positionals == ["--limit"])
  }

  @Test func errors() {
    #expect(throws: UsageError("Unknown option '--nope'")) { try ArgumentParser.parse(["--nope"], spec: spec) }
    #expect(throws: UsageError("Unknown option '-z'")) { try ArgumentParser.parse(["-z"], spec: spec) }
    #expect(throws: UsageError("Missing value for '--limit <n>'")) { try ArgumentParser.parse(["--limit"], spec: spec) }
    #expect(throws: UsageError("The flag '--help' does not take a value")) {
      try ArgumentParser.parse(["--help=yes"], spec: spec)
    }
  }

  /// Every command that lists photos takes the six filters as FilterField declares them.
  @Test func theFiltersAreTheFilterTable() {
    for command in GeoPhotoCommand.commands where command.spec.options.contains(where: { $0.long == "since" }) {
      for field in FilterField.allCases {
        let option = command.spec.options.first { $0.long == field.rawValue }
        #expect(option?.valueName == field.valueName, "\(command.spec.name) --\(field.rawValue)")
        #expect(option?.help == field.help + ".", "\(command.spec.name) --\(field.rawValue)")
      }
    }
  }

  @Test func helpListsEveryOptionTheParserAccepts() {
    let help = HelpGenerator.help(for: spec)
    for option in spec.allOptions { #expect(help.contains("--\(option.long)")) }
    #expect(help.contains("USAGE: geophoto near <lat,lon> [--limit <n>] [--radius <distance>] [--format <format>]"))
  }
}

@Suite struct ConfigurationTests {
  @Test func defaultsFollowXDG() throws {
    let parsed = ParsedArguments()
    let c = try Configuration.resolve(parsed, environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/nonexistent"])
    #expect(c.databasePath == "/home/ann/.local/share/geophoto/index.sqlite")
    #expect(c.near.limit == 20 && c.near.format == .table && c.near.radius == nil)
    let x = try Configuration.resolve(
      parsed, environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/nonexistent"])
    #expect(x.databasePath == "/data/geophoto/index.sqlite")
  }

  @Test func theIndexIsAFileOrAPostgresURL() throws {
    let base = ["HOME": "/h", "XDG_CONFIG_HOME": "/nonexistent"]
    func resolve(_ db: String) throws -> String {
      try Configuration.resolve(ParsedArguments(), environment: base.merging(["GEOPHOTO_DB": db]) { $1 }).databasePath
    }
    #expect(try resolve("postgres://ann:pw@db.example/photos") == "postgres://ann:pw@db.example/photos")
    #expect(try resolve("postgresql:///photos?host=/run/pg") == "postgresql:///photos?host=/run/pg")
    #expect(try resolve("sqlite:~/trip.sqlite") == "/h/trip.sqlite")
    #expect(try resolve("./odd://name.sqlite") == "./odd://name.sqlite")
    do {
      _ = try resolve("mysql://ann@db/photos")
      Issue.record("accepted a MySQL URL")
    } catch {
      #expect("\(error)".contains("GEOPHOTO_DB") && "\(error)".contains("'mysql://…' is not an index geophoto knows"))
    }
  }

  @Test func environmentBeatsDefaultsAndFlagsBeatEnvironment() throws {
    var parsed = ParsedArguments()
    let env = ["HOME": "/h", "XDG_CONFIG_HOME": "/nonexistent", "GEOPHOTO_DB": "~/x.sqlite", "GEOPHOTO_RADIUS": "2km"]
    #expect(try Configuration.resolve(parsed, environment: env).databasePath == "/h/x.sqlite")
    #expect(try Configuration.resolve(parsed, environment: env).near.radius == 2000)
    parsed.values["radius"] = ["300m"]
    parsed.values["db"] = ["/tmp/y.sqlite"]
    let c = try Configuration.resolve(parsed, spec: NearCommand.spec, environment: env)
    #expect(c.near.radius == 300 && c.databasePath == "/tmp/y.sqlite")
  }

  @Test func badEnvironmentValuesNameTheVariable() {
    let env = ["HOME": "/h", "XDG_CONFIG_HOME": "/nonexistent", "GEOPHOTO_FORMAT": "yaml"]
    #expect(throws: RuntimeError.self) { try Configuration.resolve(ParsedArguments(), environment: env) }
    do {
      _ = try Configuration.resolve(ParsedArguments(), environment: env)
    } catch {
      #expect("\(error)".hasPrefix("GEOPHOTO_FORMAT: format must be one of"))
    }
  }
}

@Suite struct ExampleConfigurationTests {
  /// Every setting the example file shows, commented out or not, is one geophoto accepts.
  @Test func everyExampleSettingIsValid() throws {
    let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Config/geophoto.conf.example")
    let text = try String(contentsOf: example, encoding: .utf8)
    // `# key = value` is a setting shown commented out; other comments are prose.
    func setting(_ line: Substring) -> String? {
      guard line.hasPrefix("# ") else { return nil }
      let body = line.dropFirst(2)
      guard let eq = body.range(of: " = "), !body[..<eq.lowerBound].contains(" ") else { return nil }
      return String(body)
    }
    let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { setting($0) ?? String($0) }.joined(separator: "\n")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-example-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try uncommented.write(to: file, atomically: true, encoding: .utf8)
    var parsed = ParsedArguments()
    parsed.values["config"] = [file.path]
    let entries = try ConfigurationFile.read(file.path)
    #expect(entries.count >= 15)
    // The token file the example names, in a home of its own (readable by its owner only).
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-home-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let tokenFile = home.appendingPathComponent(".config/geophoto/token")
    try FileManager.default.createDirectory(
      at: tokenFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    try "token-from-the-file\n".write(to: tokenFile, atomically: true, encoding: .utf8)
    chmod(tokenFile.path, 0o600)
    let config = try Configuration.resolve(parsed, environment: ["HOME": home.path])
    #expect(config.serve.tokenFile == tokenFile.path)
    #expect(try SettingValue.tokenFile(tokenFile.path) == ("token-from-the-file", nil))
    #expect(config.serve.api.allowedOrigins == ["https://maps.example.org"])
    #expect(config.tiles.cacheMax == 512_000_000)
    #expect(config.flickr.apiKey == "0123456789abcdef0123456789abcdef")
    #expect(config.http.client.maximumResponseBytes == 20 * 1_048_576)
    #expect(config.near.maxAge == 86_400)
  }
}

@Suite struct ConfigurationFileTests {
  func value(_ line: String) throws -> String? {
    try ConfigurationFile.parseLine(Substring(line), number: 7)?.value
  }

  @Test func aHashInsideATokenIsPartOfIt() throws {
    #expect(try value("flickr.api_key = abc#123") == "abc#123")
    #expect(try value("commons.endpoint = https://example.org/w/api.php#top") == "https://example.org/w/api.php#top")
    #expect(
      try value(#"serve.attribution = &copy; <a href="https://example.org/#c">OSM</a>"#)
        == #"&copy; <a href="https://example.org/#c">OSM</a>"#)
  }

  @Test func aHashAtTheStartOrAfterWhitespaceStartsAComment() throws {
    #expect(try value("# near.limit = 5") == nil)
    #expect(try value("   #indented comment") == nil)
    #expect(try value("near.limit = 5 # the default is 20") == "5")
    #expect(try value("near.limit = 5\t# tab before the comment") == "5")
    #expect(try value("near.limit = 5\r") == "5")
  }

  @Test func quotedValuesKeepSpacesAndHashes() throws {
    #expect(try value(#"serve.attribution = "a # b""#) == "a # b")
    #expect(try value(#"serve.attribution = "  padded  "  # comment"#) == "  padded  ")
    #expect(try value("serve.attribution = 'single # quoted'") == "single # quoted")
    #expect(try value(#"serve.attribution = "say \"hi\" \\ bye""#) == #"say "hi" \ bye"#)
    #expect(try value(#"serve.attribution = """#) == "")
  }

  @Test func badLinesNameTheLine() {
    #expect(throws: ConfigurationFile.SyntaxError(line: 7, message: "the quoted value has no closing \"")) {
      try value(#"serve.attribution = "open"#)
    }
    #expect(throws: ConfigurationFile.SyntaxError(line: 7, message: "unexpected 'b' after the quoted value")) {
      try value(#"serve.attribution = "a" b"#)
    }
    #expect(throws: ConfigurationFile.SyntaxError(line: 7, message: "expected 'key = value', found 'near.limit'")) {
      try value("near.limit")
    }
  }

  @Test func aFileWithHashesInValuesResolves() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-conf-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try """
    # a key with a hash in it
    flickr.api_key = 0123#abcdef  # not part of the key
    serve.tiles = "https://tiles.example.org/{z}/{x}/{y}.png#v2"
    near.limit = "oops
    """.write(to: file, atomically: true, encoding: .utf8)
    var parsed = ParsedArguments()
    parsed.values["config"] = [file.path]
    do {
      _ = try Configuration.resolve(parsed, environment: ["HOME": "/h"])
      Issue.record("an unterminated quote was accepted")
    } catch {
      #expect("\(error)" == "\(file.path):4: the quoted value has no closing \"")
    }
    try String(try String(contentsOf: file, encoding: .utf8).dropLast(#"near.limit = "oops"#.count))
      .write(to: file, atomically: true, encoding: .utf8)
    let config = try Configuration.resolve(parsed, environment: ["HOME": "/h"])
    #expect(config.flickr.apiKey == "0123#abcdef")
    #expect(config.serve.api.map.basemap == .template("https://tiles.example.org/{z}/{x}/{y}.png#v2"))
  }
}

/// README's configuration table and the example file say what `Setting.all` says.
@Suite struct SettingsDocumentationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The README table as the settings describe it.
  static var expectedTable: String {
    var lines = ["| key | environment | flag | default | meaning |", "|---|---|---|---|---|"]
    for s in Setting.all {
      var flag = ""
      if let f = s.flag {
        flag = "`" + (f.command.map { "\($0) " } ?? "") + "--\(f.long)`"
        if let short = f.short { flag += ", `-\(short)`" }
        if f.repeating { flag += " (repeatable)" }
      }
      let meaning = s.help.replacingOccurrences(of: "|", with: "\\|")
      lines.append("| `\(s.key)` | `\(s.environment)` | \(flag) | \(s.defaultText) | \(meaning) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func theReadmeTableListsEverySetting() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains(Self.expectedTable), "README's configuration table should read:\n\(Self.expectedTable)")
  }

  @Test func theExampleFileShowsEverySetting() throws {
    let text = try String(
      contentsOf: Self.root.appendingPathComponent("Config/geophoto.conf.example"), encoding: .utf8)
    var shown: [String] = []
    for line in text.split(separator: "\n") {
      let body = line.hasPrefix("# ") ? line.dropFirst(2) : line
      guard let eq = body.range(of: " = "), !body[..<eq.lowerBound].contains(" ") else { continue }
      shown.append(String(body[..<eq.lowerBound]))
    }
    #expect(Set(shown) == Set(Setting.all.map(\.key)))
  }

  /// A default shown as a value is one the setting takes, and taking it changes nothing a
  /// command sees (the text is made from the value in `Configuration.defaults`).
  @Test func everyDefaultShownIsAValueItsSettingTakes() throws {
    let words = ["none", "unlimited", "one per core", "auto", "all"]
    for setting in Setting.all where !words.contains(setting.defaultText) && !setting.defaultText.contains(" ") {
      var config = Configuration.defaults
      #expect(throws: Never.self, "\(setting.key) = \(setting.defaultText)") {
        try setting.apply(&config, setting.defaultText, SettingEnvironment(variables: ["HOME": "/home/x"]))
      }
    }
    // The texts of the figures that used to be typed out beside the real defaults.
    #expect(Setting.servePort.defaultText == String(HTTPServerOptions().port))
    #expect(Setting.serveMaxConnections.defaultText == String(HTTPServerOptions().connectionLimit))
    #expect(Setting.serveMaxFeatures.defaultText == String(APIConfiguration().maximumFeatures))
    #expect(SettingText.duration(86_400) == "1d" && SettingText.duration(0.5) == "0.5s")
    #expect(SettingText.byteCount(512_000_000) == "512MB" && SettingText.byteCount(20 << 20) == "20MiB")
  }

  @Test func keysAndVariablesAreUnique() {
    #expect(Set(Setting.all.map(\.key)).count == Setting.all.count)
    #expect(Set(Setting.all.map(\.environment)).count == Setting.all.count)
    #expect(Setting.all.allSatisfy { $0.environment.hasPrefix("GEOPHOTO_") })
  }
}

@Suite struct ReadmeTests {
  /// The table of contents lists every section and command, in order, with GitHub's anchors.
  @Test func theContentsListEverySection() throws {
    let readme = try String(
      contentsOf: SettingsDocumentationTests.root.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
    let headings = lines.filter { $0.hasPrefix("## ") || $0.hasPrefix("### ") }.filter { $0 != "## Contents" }
    func anchor(_ title: Substring) -> String {
      String(
        title.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
          .map { $0 == " " ? "-" : $0 })
    }
    let expected = headings.map { h -> String in
      let nested = h.hasPrefix("### ")
      let title = h.drop { $0 == "#" }.dropFirst()
      return (nested ? "  " : "") + "- [\(title)](#\(anchor(title)))"
    }
    let start = try #require(lines.firstIndex(of: "## Contents"))
    let listed = lines[(start + 2)...].prefix { !$0.isEmpty }.map(String.init)
    #expect(listed == expected)
    // Every command has its section.
    for command in GeoPhotoCommand.commands {
      #expect(headings.contains { $0.hasPrefix("### `geophoto \(command.spec.name)") }, "\(command.spec.name)")
    }
  }

  /// Development's layout names every module under Sources/, in backticks.
  @Test func theLayoutNamesEveryModule() throws {
    let root = SettingsDocumentationTests.root
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let start = try #require(readme.range(of: "\n## Development\n"))
    let section = readme[start.upperBound...]
    let development = section.range(of: "\n## ").map { section[..<$0.lowerBound] } ?? section
    let modules = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
    #expect(modules.count > 30)
    for module in modules where !module.hasPrefix(".") {
      #expect(development.contains("`\(module)`"), "README's Development section does not name \(module)")
    }
  }

  /// The module graph in Architecture is what Scripts/module-graph.sh makes of Package.swift now.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/python3"), "needs python3"))
  func theModuleGraphIsCurrent() throws {
    let root = SettingsDocumentationTests.root
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let begin = try #require(readme.range(of: "<!-- module-graph:begin -->\n"))
    let end = try #require(readme.range(of: "<!-- module-graph:end -->", range: begin.upperBound..<readme.endIndex))
    let script = root.appendingPathComponent("Scripts/module-graph.sh").path
    let made = try ToolRun("/bin/bash", [script, root.appendingPathComponent("Package.swift").path])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(
      String(readme[begin.upperBound..<end.lowerBound]) == made.stdout,
      "README's module graph is stale: run Scripts/module-graph.sh and put its output between the markers")
  }

  /// The data's credit is one sentence, printed by `--version` and found word for word in
  /// NOTICE and README; LICENSE is the Apache License 2.0.
  @Test func theLicenceAndTheCreditAreWhereUsersLook() throws {
    let root = SettingsDocumentationTests.root
    let notice = try String(contentsOf: root.appendingPathComponent("NOTICE"), encoding: .utf8)
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let licence = try String(contentsOf: root.appendingPathComponent("LICENSE"), encoding: .utf8)
    #expect(notice.contains(Gazetteer.shippedCredit))
    #expect(readme.contains(Gazetteer.shippedCredit))
    #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
    let recorder = RecordingConsole()
    #expect(GeoPhotoCommand.run(["--version"], environment: [:], console: recorder.console(terminal: false)) == 0)
    #expect(recorder.out.withLock { $0 }.contains(Gazetteer.shippedCredit))
  }
}
