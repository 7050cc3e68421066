import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Headless Chromium driven over its DevTools pipe (`--remote-debugging-pipe`: JSON messages
/// ending in NUL on file descriptors 3 and 4), for tests that must click and drag: one page,
/// scripts evaluated in it, and waits for what the page says in its `data-` attributes.
final class DevToolsPage {
  private var pid: pid_t = 0
  private let toBrowser: Int32
  private let fromBrowser: Int32
  private var nextID = 0
  private var session = ""
  private var pending: [UInt8] = []
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-devtools-\(UUID().uuidString)")

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(chromium: String) throws {
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    guard pipe(&input) == 0, pipe(&output) == 0 else { throw Failure(description: "no pipes") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 3)
    posix_spawn_file_actions_adddup2(&actions, output[1], 4)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments = [
      chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
      "--remote-debugging-pipe", "--user-data-dir=\(scratch.path)", "--window-size=1280,800", "about:blank",
    ]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    guard posix_spawn(&pid, chromium, &actions, nil, argv, environ) == 0 else {
      throw Failure(description: "cannot start \(chromium)")
    }
    close(input[0])
    close(output[1])
    toBrowser = input[1]
    fromBrowser = output[0]
    let target = try command("Target.createTarget", ["url": "about:blank"])
    let id = (target["targetId"] as? String) ?? ""
    let attached = try command("Target.attachToTarget", ["targetId": id, "flatten": true])
    session = (attached["sessionId"] as? String) ?? ""
    _ = try command("Page.enable", [:], inSession: true)
    // The page's size, whatever the window's: what pixel positions in tests are measured in.
    _ = try command(
      "Emulation.setDeviceMetricsOverride", ["width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false],
      inSession: true)
  }

  deinit {
    close(toBrowser)
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    close(fromBrowser)
    try? FileManager.default.removeItem(at: scratch)
  }

  /// Sends a command and waits (at most 20 s) for its answer's result.
  @discardableResult
  func command(_ method: String, _ params: [String: Any], inSession: Bool = false) throws -> [String: Any] {
    nextID += 1
    var message: [String: Any] = ["id": nextID, "method": method, "params": params]
    if inSession { message["sessionId"] = session }
    var bytes = Array(try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
      guard n > 0 else { throw Failure(description: "the browser closed its pipe") }
      sent += n
    }
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      while let end = pending.firstIndex(of: 0) {
        let message = Array(pending[..<end])
        pending.removeFirst(end + 1)
        guard let object = try? JSONSerialization.jsonObject(with: Data(message)) as? [String: Any],
          object["id"] as? Int == nextID
        else { continue }
        if let error = object["error"] { throw Failure(description: "\(method): \(error)") }
        return object["result"] as? [String: Any] ?? [:]
      }
      var poller = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 200) == 1 else { continue }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let n = read(fromBrowser, &buffer, buffer.count)
      guard n > 0 else { throw Failure(description: "the browser closed its pipe") }
      pending += buffer[0..<n]
    }
    throw Failure(description: "\(method) had no answer in 20 s")
  }

  /// The value of `expression` in the page (awaited when it is a promise).
  func evaluate(_ expression: String) throws -> Any? {
    let result = try command(
      "Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true], inSession: true)
    if let exception = result["exceptionDetails"] { throw Failure(description: "\(expression): \(exception)") }
    return (result["result"] as? [String: Any])?["value"]
  }

  func navigate(_ url: String) throws { try command("Page.navigate", ["url": url], inSession: true) }

  /// The page as a PNG, written to `url`.
  func screenshot(to url: URL) throws {
    let shot = try command("Page.captureScreenshot", ["format": "png"], inSession: true)
    guard let text = shot["data"] as? String, let png = Data(base64Encoded: text) else {
      throw Failure(description: "no screenshot")
    }
    try png.write(to: url)
  }

  /// Waits (at most `seconds`) until `condition` is true in the page.
  func waitFor(_ condition: String, seconds: Double = 15) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if (try? evaluate("Boolean(\(condition))")) as? Bool == true { return }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw Failure(description: "the page never had \(condition)")
  }
}
