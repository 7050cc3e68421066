/// One `geophoto` subcommand: its description (which drives parsing, validation and help) and
/// what it does. `GeoPhotoCommand.commands` lists them; dispatch looks the name up there.
protocol Subcommand: Sendable {
  static var spec: CommandSpec { get }
  /// Runs the command. Throwing `ExitCode` ends it with that status and no message; a
  /// `UsageError` prints the usage line (64); any other error one `Error:` line (1).
  static func run(_ context: CommandContext) throws
}

/// An exit status, as sysexits(3) and swift-argument-parser use them; thrown to end a
/// command with that status.
public struct ExitCode: Error, RawRepresentable, Hashable, Sendable {
  public var rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let success = ExitCode(rawValue: 0)
  /// The command ran and failed (its message already printed).
  public static let failure = ExitCode(rawValue: 1)
  /// The command was called wrongly (EX_USAGE).
  public static let usage = ExitCode(rawValue: 64)
}
