import Foundation
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

/// A token kept out of `ps`, secrets kept out of messages, and files that hold them kept to
/// their owner.
@Suite struct SecretsEndToEndTests {
  static let token = "kept-out-of-ps-0123456789"

  func status(_ url: String, token: String? = nil) throws -> Int {
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = 5
    let headers = token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
    return try HTTPClient(options: options).get(url, headers: headers).status
  }

  /// What `ps` shows of a process: its command line as the kernel keeps it.
  func commandLine(_ pid: Int32) throws -> String {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
    return String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
  }

  @Test func theTokenFromAFileOrTheEnvironmentIsNeverOnTheCommandLine() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let file = w.root.appendingPathComponent("token")
    try (Self.token + "\n").write(to: file, atomically: true, encoding: .utf8)
    chmod(file.path, 0o600)
    for (arguments, environment) in [
      (["--token-file", file.path], w.env), ([], w.env.merging(["GEOPHOTO_TOKEN": Self.token]) { _, new in new }),
    ] {
      let (running, base) = try Binary.serve(arguments, environment: environment)
      #expect(try status(base + "/v1/status") == 401)
      #expect(try status(base + "/v1/status", token: Self.token) == 200)
      #expect(!(try commandLine(running.process.processIdentifier)).contains(Self.token))
      running.process.terminate()
      running.process.waitUntilExit()
      let result = running.result()
      #expect(!result.stderr.contains(Self.token) && !result.stdout.contains(Self.token))
    }
  }

  /// A configuration file holding a secret that others may read is warned of, once, with
  /// what to do; the secret itself is never printed.
  @Test func aSecretInAFileOthersCanReadIsWarnedOf() throws {
    let w = try ExampleWorkspace()
    let config = w.root.appendingPathComponent("config")
    try "serve.token = \(Self.token)\nflickr.api_key = also-a-secret-key\n".write(
      to: config, atomically: true, encoding: .utf8)
    chmod(config.path, 0o644)
    let open = try Binary.run(["info", "--config", config.path], environment: w.env)
    #expect(open.status == 0)
    #expect(
      open.stderr
        == "warning: \(config.path) holds serve.token, flickr.api_key and can be read by others (mode 644); "
        + "run 'chmod 600 \(config.path)'\n")
    #expect(!open.stderr.contains(Self.token) && !open.stdout.contains(Self.token))
    chmod(config.path, 0o600)
    #expect(try Binary.run(["info", "--config", config.path], environment: w.env).stderr.isEmpty)
    // A token file named in the configuration is read by 'serve' alone: other commands run
    // whether or not they could read it.
    let config2 = w.root.appendingPathComponent("config2")
    try "serve.token_file = \(w.root.path)/no-such-token\n".write(to: config2, atomically: true, encoding: .utf8)
    let info = try Binary.run(["info", "--config", config2.path], environment: w.env)
    #expect(info.status == 0 && info.stderr.isEmpty)
    let serve = try Binary.run(["serve", "--config", config2.path, "--port", "0"], environment: w.env)
    #expect(serve.status == 1 && serve.stderr.contains("cannot read the token file \(w.root.path)/no-such-token"))
    // A token file others can read is warned of when the server reads it.
    let file = w.root.appendingPathComponent("token")
    try Self.token.write(to: file, atomically: true, encoding: .utf8)
    chmod(file.path, 0o640)
    let (running, _) = try Binary.serve(["--token-file", file.path], environment: w.env)
    running.process.terminate()
    running.process.waitUntilExit()
    #expect(running.result().stderr.contains("\(file.path) holds a token and can be read by others (mode 640)"))
  }

  /// A bad secret is refused without being repeated, and a PostgreSQL URL's password is never
  /// shown, whatever goes wrong.
  @Test func secretsAreNeverRepeatedInMessages() throws {
    let short = try Binary.run(["serve", "--token", "abc"], environment: [:])
    #expect(short.status == 64 && short.stderr.contains("a token needs at least 8 characters"))
    #expect(!short.stderr.contains("'abc'"))
    let spaced = try Binary.run(["serve", "--token", "has a space inside"], environment: [:])
    #expect(spaced.status == 64 && !spaced.stderr.contains("has a space inside"))
    for command in [["info"], ["near", "35.68,139.76"]] {
      let result = try Binary.run(command + ["--db", "postgres://geophoto:hunter2-secret@127.0.0.1:1/photos"])
      #expect(result.status != 0 || !result.stdout.isEmpty)
      #expect(!result.stderr.contains("hunter2-secret") && !result.stdout.contains("hunter2-secret"), "\(command)")
    }
  }
}
