import Foundation

/// What an outside program did: its exit status and everything it wrote.
public struct ToolRun: Sendable {
  public let status: Int32
  public let stdout: String
  public let stderr: String

  /// Runs the program at `path` to completion. Output goes to scratch files, not pipes, so a
  /// tool that writes much to both streams cannot stall on a full pipe.
  public init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
    let scratch = FileManager.default.temporaryDirectory
    let out = scratch.appendingPathComponent("gp-tool-\(UUID().uuidString).out")
    let err = scratch.appendingPathComponent("gp-tool-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: out)
      try? FileManager.default.removeItem(at: err)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    process.waitUntilExit()
    status = process.terminationStatus
    stdout = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
  }
}
