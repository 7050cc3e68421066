import Foundation
import GeoPhotoFixtures
import Testing

/// Runs the built `geophoto` binary, as a user would.
struct Binary {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let url: URL = {
    // The test bundle sits in the build directory next to the executables.
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [
      bundleDirectory.appendingPathComponent("geophoto"),
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/geophoto"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
  }()

  /// Starts `geophoto serve --port 0 arguments...` and waits for the address it prints: the
  /// running server and its base URL.
  static func serve(_ arguments: [String], environment: [String: String] = [:]) throws -> (Running, String) {
    let running = try start(["serve", "--port", "0"] + arguments, environment: environment)
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let out = (try? String(contentsOf: running.out, encoding: .utf8)) ?? ""
      if let range = out.range(of: "http://127.0.0.1:"), let end = out[range.upperBound...].firstIndex(of: "/") {
        return (running, "http://127.0.0.1:" + out[range.upperBound..<end])
      }
      if !running.process.isRunning { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    running.process.terminate()
    running.process.waitUntilExit()
    let result = running.result()
    throw ServeDidNotStart(stderr: result.stderr)
  }

  struct ServeDidNotStart: Error, CustomStringConvertible {
    var stderr: String
    var description: String { "geophoto serve printed no address: \(stderr)" }
  }

  /// Runs `geophoto arguments...` with a clean environment plus `environment`.
  static func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws -> Result
  {
    let process = try start(arguments, environment: environment, in: directory)
    process.process.waitUntilExit()
    return process.result()
  }

  final class Running {
    let process = Process()
    let out: URL
    let err: URL
    init(out: URL, err: URL) {
      self.out = out
      self.err = err
    }
    /// Ends the server (SIGTERM) and waits for it.
    func stop() {
      guard process.isRunning else { return }
      process.terminate()
      process.waitUntilExit()
    }

    func result() -> Result {
      defer {
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
      }
      return Result(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
  }

  static func start(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) throws
    -> Running
  {
    try #require(FileManager.default.isExecutableFile(atPath: url.path), "build geophoto first: swift build")
    let tmp = FileManager.default.temporaryDirectory
    let running = Running(
      out: tmp.appendingPathComponent("gp-out-\(UUID().uuidString)"),
      err: tmp.appendingPathComponent("gp-err-\(UUID().uuidString)"))
    _ = FileManager.default.createFile(atPath: running.out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: running.err.path, contents: nil)
    let p = running.process
    p.executableURL = url
    p.arguments = arguments
    // HOME points into a scratch folder so no real configuration or index is touched.
    var env = [
      "PATH": "/usr/bin:/bin",
      "HOME": FileManager.default.temporaryDirectory.appendingPathComponent("gp-home-none").path,
    ]
    env.merge(environment) { _, new in new }
    p.environment = env
    if let directory { p.currentDirectoryURL = directory }
    p.standardOutput = try FileHandle(forWritingTo: running.out)
    p.standardError = try FileHandle(forWritingTo: running.err)
    p.standardInput = FileHandle.nullDevice
    try p.run()
    return running
  }
}

/// A scratch folder with a copy of the bundled example photos and an index path.
final class ExampleWorkspace {
  let root: URL
  let photos: URL
  let db: URL

  /// What GEOPHOTO_DB names: the SQLite file `db`, or an empty PostgreSQL schema.
  let database: String

  init(_ kind: StoreKind = .sqlite, withPhotos: Bool = true) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-cli-\(UUID().uuidString)")
    photos = root.appendingPathComponent("tokyo")
    db = root.appendingPathComponent("index/index.sqlite")
    database = kind == .sqlite ? db.path : try scratchPostgresURL()
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    if withPhotos { try ExamplePhotos.write(to: photos) }
  }
  deinit { try? FileManager.default.removeItem(at: root) }

  var env: [String: String] { ["GEOPHOTO_DB": database] }
}
