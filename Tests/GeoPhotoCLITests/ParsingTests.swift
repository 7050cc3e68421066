import Foundation
import Testing

@testable import GeoPhotoCLI

@Suite struct ArgumentParserTests {
  let spec = NearCommand.spec

  @Test func optionForms() throws {
    let p = try ArgumentParser.parse(["--limit=5", "-f", "json", "-r2km", "1,2"], spec: spec)
    #expect(p.value("limit") == "5")
    #expect(p.value("format") == "json")
    #expect(p.value("radius") == "2km")
    #expect(p.positionals == ["1,2"])
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
    #expect(c.limit == 20 && c.format == .table && c.radius == nil)
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
    #expect(try Configuration.resolve(parsed, environment: env).radius == 2000)
    parsed.values["radius"] = ["300m"]
    parsed.values["db"] = ["/tmp/y.sqlite"]
    let c = try Configuration.resolve(parsed, spec: NearCommand.spec, environment: env)
    #expect(c.radius == 300 && c.databasePath == "/tmp/y.sqlite")
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
    let entries = try Configuration.readFile(file.path)
    #expect(entries.count >= 15)
    let config = try Configuration.resolve(parsed, environment: ["HOME": "/home/ann"])
    #expect(config.flickrAPIKey == "0123456789abcdef0123456789abcdef")
    #expect(config.maximumResponseBytes == 20 * 1_048_576)
    #expect(config.maxAge == 86_400)
  }
}
