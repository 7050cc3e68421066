public import Foundation
import GeoPhotoCore
import GeoPhotoPlaces

/// Where a command writes: stdout for results, stderr for warnings, progress and errors.
public struct Console: Sendable {
  public var out: @Sendable (String) -> Void
  public var err: @Sendable (String) -> Void
  /// Whether stderr is a terminal (progress lines are drawn only there).
  public var errIsTerminal: Bool

  public init(
    out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
    errIsTerminal: Bool
  ) {
    self.out = out
    self.err = err
    self.errIsTerminal = errIsTerminal
  }

  /// The process's standard streams.
  public static var standard: Console {
    Console(
      out: { FileHandle.standardOutput.write(Data($0.utf8)) },
      err: { FileHandle.standardError.write(Data($0.utf8)) },
      errIsTerminal: isatty(2) == 1)
  }
}

/// The `geophoto` command line.
public enum GeoPhotoCommand {
  public static let version = GeoPhotoVersion.current

  /// Every subcommand, in the order `geophoto --help` lists them.
  static let commands: [any Subcommand.Type] = [
    SyncCommand.self, FetchCommand.self, NearCommand.self, ExportCommand.self, ServeCommand.self, RouteCommand.self,
    AlongCommand.self,
    DirectionsCommand.self, SnapshotCommand.self, GeotagCommand.self, TripsCommand.self, ShareCommand.self,
    BasemapCommand.self,
    PlacesCommand.self,
    MigrateCommand.self,
    InfoCommand.self, CheckCommand.self, ForgetCommand.self,
  ]

  static var specs: [CommandSpec] { commands.map { $0.spec } }

  /// Runs one invocation and returns its exit status.
  public static func run(
    _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
    console: Console = .standard
  ) -> Int32 {
    guard let first = arguments.first else {
      console.out(HelpGenerator.mainHelp(commands: specs))
      return ExitCode.success.rawValue
    }
    switch first {
    case "-h", "--help":
      console.out(HelpGenerator.mainHelp(commands: specs))
      return ExitCode.success.rawValue
    case "--version":
      console.out("geophoto \(version)\n\(Gazetteer.shippedCredit)\nLicence: Apache-2.0 (see LICENSE and NOTICE)\n")
      return ExitCode.success.rawValue
    case "--generate-manual":
      console.out(ManualPage.roff(commands: specs))
      return ExitCode.success.rawValue
    case "--generate-completion-script":
      let name = arguments.dropFirst().first ?? ""
      guard let shell = CompletionScript.Shell(rawValue: name) else {
        return usageError(
          name.isEmpty
            ? "Missing value for '--generate-completion-script <shell>'"
            : "The value '\(name)' is invalid for '--generate-completion-script <shell>': expected bash, zsh or fish",
          usage: "geophoto --generate-completion-script <bash|zsh|fish>", console: console)
      }
      console.out(CompletionScript.script(for: shell, commands: specs))
      return ExitCode.success.rawValue
    case "help":
      guard let name = arguments.dropFirst().first else {
        console.out(HelpGenerator.mainHelp(commands: specs))
        return ExitCode.success.rawValue
      }
      guard let spec = specs.first(where: { $0.name == name }) else {
        return usageError("Unknown subcommand '\(name)'", usage: "geophoto <subcommand>", console: console)
      }
      console.out(HelpGenerator.help(for: spec))
      return ExitCode.success.rawValue
    default:
      break
    }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
      let message =
        first.hasPrefix("-") ? "Unknown option '\(first)'" : "Unknown subcommand '\(first)'"
      return usageError(message, usage: "geophoto <subcommand>", console: console)
    }
    let spec = command.spec
    let rest = Array(arguments.dropFirst())
    do {
      let parsed = try ArgumentParser.parse(rest, spec: spec)
      if parsed.has(CommandSpec.help) {
        console.out(HelpGenerator.help(for: spec))
        return ExitCode.success.rawValue
      }
      let configuration = try Configuration.resolve(parsed, spec: spec, environment: environment)
      for warning in configuration.warnings { console.err("warning: \(warning)\n") }
      let context = CommandContext(
        command: spec.name, parsed: parsed, configuration: configuration, environment: environment, console: console)
      try command.run(context)
      return ExitCode.success.rawValue
    } catch let code as ExitCode {
      return code.rawValue
    } catch let error as UsageError {
      return usageError(error.description, usage: spec.usage, command: spec.name, console: console)
    } catch let error as InputParser.Failure {
      return usageError(error.description, usage: spec.usage, command: spec.name, console: console)
    } catch {
      console.err("Error: \(error)\n")
      return ExitCode.failure.rawValue
    }
  }

  static func usageError(
    _ message: String, usage: String, command: String? = nil, console: Console
  ) -> Int32 {
    let helpCommand = command.map { "geophoto \($0) --help" } ?? "geophoto --help"
    console.err("Error: \(message)\nUsage: \(usage)\n  See '\(helpCommand)' for more information.\n")
    return ExitCode.usage.rawValue
  }
}
