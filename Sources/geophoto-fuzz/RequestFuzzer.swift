import Foundation
import GeoPhotoFixtures

#if canImport(Glibc)
  import Glibc
#endif

/// `geophoto-fuzz requests`: a live `geophoto serve` on loopback, sent random requests made from
/// its own route table (its `/openapi.json`, and the page, asset and tile paths) with extreme
/// values where numbers go, every form a target can take, odd headers and bodies. No answer
/// may be a 5xx and the server must live through all of them; a failure prints the request.
struct RequestFuzzer {
  let port: Int
  let token: String?
  var random: SeededRandom

  /// A route as the fuzzer knows it: its path pattern and its parameters.
  struct RouteShape {
    var path: String
    var parameters: [(name: String, kind: String)]
  }

  struct Outcome {
    var sent = 0
    var answered = 0
    var byStatus: [Int: Int] = [:]
    var failures: [String] = []
    /// The slowest exchange: its milliseconds and its request line.
    var slowest: (milliseconds: Int, request: String) = (0, "")
  }

  /// The routes from the server's OpenAPI document, and the undocumented ones.
  func routes() throws -> [RouteShape] {
    let answer = LoopbackClient.exchange(
      "GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
    guard let start = answer.range(of: "\r\n\r\n")?.upperBound,
      let document = try JSONSerialization.jsonObject(with: Data(answer[start...].utf8)) as? [String: Any],
      let paths = document["paths"] as? [String: Any]
    else { throw FuzzFailure("the server's /openapi.json cannot be read") }
    var shapes: [RouteShape] = []
    for (path, item) in paths {
      let operation = (item as? [String: Any])?["get"] as? [String: Any]
      let parameters = (operation?["parameters"] as? [[String: Any]] ?? []).map { p in
        let schema = p["schema"] as? [String: Any]
        return (p["name"] as? String ?? "x", schema?["type"] as? String ?? "string")
      }
      shapes.append(RouteShape(path: path, parameters: parameters))
    }
    shapes += [
      RouteShape(
        path: "/", parameters: [("since", "string"), ("until", "string"), ("place", "string"), ("photo", "integer")]),
      RouteShape(path: "/tiles/{z}/{x}/{y}", parameters: [("style", "string")]),
      RouteShape(path: "/assets/{name}", parameters: []),
      RouteShape(path: "/assets/leaflet/{file}", parameters: []),
    ]
    return shapes.sorted { $0.path < $1.path }
  }

  // MARK: Values

  static let integers = [
    "0", "1", "-1", "2", "20", "1000", "1001", "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296",
    "9223372036854775807", "-9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "18446744073709551616", "99999999999999999999999999999999", "00000000000000000001", "+1", "1e3", "0x10", " 1",
    "1 ", "", "-0", "١٢", "1.5",
  ]
  static let numbers = [
    "0", "-0", "35.68", "139.76", "-90", "90", "90.0000001", "-180", "180", "180.0000001", "540", "-541", "1e308",
    "-1e308", "1e309", "1e-400", "NaN", "nan", "inf", "-inf", "Infinity", "1e", "--1", ".", "1..2", "0x1p3",
    "123456789012345678901234567890", "2.2250738585072014e-308",
  ]
  static let words = [
    "", "a", "Kyoto, JP", "東京", "\u{0}", "%00", "%2F", "%ZZ", "%", "%%", "+", "%0D%0AX-Injected: 1", "%1B[31m",
    "..", "../../etc/passwd", "<script>", "\"quoted phrase", "local,flickr,commons", "nowhere", "geojson", "json",
    "light", "dark", "256", "1024", "distance", "time",
  ]
  static let dates = [
    "2024", "2024-05", "2024-05-03", "2024-05-03T14:30", "2024-05-03T14:30:00+09:00", "2024-13", "2024-02-30",
    "0000-00-00", "9999-12-31T23:59:59+14:00", "99999", "2024-05-03T25:61", "2024-05-03T14:30+99:99", "-2024",
  ]

  mutating func pick<T>(_ values: [T]) -> T { values[random.next(values.count)] }

  mutating func longText() -> String {
    String(repeating: pick(["x", "%41", "é", "+"]), count: pick([100, 1_000, 9_000]))
  }

  mutating func value(for name: String, kind: String) -> String {
    if random.next(20) == 0 { return longText() }
    if random.next(10) == 0 { return pick(Self.words) }
    switch (name, kind) {
    case ("bbox", _):
      return (0..<pick([3, 4, 4, 4, 5])).map { _ in pick(Self.numbers) }.joined(separator: ",")
    case ("since", _), ("until", _), ("on", _): return pick(Self.dates)
    case ("radius", _): return pick(Self.numbers) + pick(["", "m", "km", "mi", "parsec"])
    case (_, "integer"): return pick(Self.integers)
    case (_, "number"): return pick(Self.numbers)
    default: return pick(Self.words)
    }
  }

  mutating func pathValue(_ name: String) -> String {
    switch name {
    case "y": return pick(Self.integers) + pick([".png", "@2x.png", ".jpg", ""])
    case "name": return pick(["geophoto.js", "geophoto.css", "../x", "%2e%2e", "nope"])
    case "file": return pick(["leaflet.js", "leaflet.css", "images/x.png", "..%2Fsecret"])
    default: return pick(Self.integers)
    }
  }

  /// A request target for `route`: its path with values, a query of its parameters (and
  /// sometimes unknown or repeated ones), in one of the forms a target can take.
  mutating func target(for route: RouteShape) -> String {
    var path = ""
    for segment in route.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      path += "/"
      if segment.hasPrefix("{") {
        path +=
          pathValue(String(segment.dropFirst().dropLast())).addingPercentEncoding(
            withAllowedCharacters: .urlPathAllowed) ?? "0"
      } else {
        path += segment
      }
    }
    if path.isEmpty { path = "/" }
    var pairs: [String] = []
    for (name, kind) in route.parameters where random.next(3) != 0 {
      let raw = value(for: name, kind: kind)
      // Mostly encoded as a client would; sometimes as it is, escapes and all.
      let encoded = random.next(4) == 0 ? raw : raw.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? raw
      pairs.append("\(name)=\(encoded)")
      if random.next(15) == 0 { pairs.append("\(name)=\(encoded)") }
    }
    if random.next(12) == 0 { pairs.append("unknown=\(pick(Self.integers))") }
    let query = pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    switch random.next(14) {
    case 0: return "x" + path + query
    case 1: return "/" + path + query
    case 2: return "/." + path + query
    case 3: return path + "/.." + path + query
    case 4: return path.replacingOccurrences(of: "/", with: "%2F") + query
    case 5: return "http://127.0.0.1:\(port)" + path + query
    case 6: return "http://evil.example" + path + query
    case 7: return "*"
    default: return path + query
    }
  }

  /// A whole request for `route`, with odd headers and, sometimes, a body.
  mutating func request(for route: RouteShape) -> String {
    let method = pick(["GET", "GET", "GET", "GET", "GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"])
    var lines = ["\(method) \(target(for: route)) HTTP/1.1"]
    lines.append("Host: " + pick(["127.0.0.1", "localhost:\(port)", "[::1]", "evil.example", "127.0.0.1:\(port)"]))
    if let token, random.next(3) != 0 {
      lines.append("Authorization: Bearer " + (random.next(8) == 0 ? "wrong" : token))
    }
    if random.next(6) == 0 { lines.append("If-None-Match: " + pick(["*", "\"g1-x\"", "garbage", ""])) }
    if random.next(6) == 0 { lines.append("Accept: " + pick(["application/geo+json", "*/*", "text/html"])) }
    if random.next(8) == 0 { lines.append("Origin: " + pick(["https://evil.example", "null", "http://localhost"])) }
    var body = ""
    switch random.next(12) {
    case 0:
      body = String(repeating: "x", count: pick([1, 100, 5_000]))
      lines.append("Content-Length: \(body.utf8.count)")
    case 1: lines.append("Content-Length: " + pick(["0", "100000000", "-1", "x", "18446744073709551616"]))
    case 2:
      lines.append("Transfer-Encoding: chunked")
      body = "5\r\nhello\r\n0\r\n\r\n"
    default: break
    }
    lines.append("Connection: close")
    return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
  }

  /// Sends requests until `seconds` are up.
  mutating func run(seconds: Double) throws -> Outcome {
    let shapes = try routes()
    var outcome = Outcome()
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
      let raw = request(for: pick(shapes))
      outcome.sent += 1
      let started = DispatchTime.now().uptimeNanoseconds
      let answer = LoopbackClient.exchange(raw, port: port)
      let milliseconds = Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
      if milliseconds > 1_000, ProcessInfo.processInfo.environment["GEOPHOTO_FUZZ_DEBUG"] != nil {
        FileHandle.standardError.write(
          Data("SLOW \(milliseconds) ms, \(raw.utf8.count) bytes: \(raw.prefix(120)) … \(raw.suffix(300))\n---\n".utf8))
      }
      if milliseconds > outcome.slowest.milliseconds {
        outcome.slowest = (milliseconds, String(raw.prefix(300)).replacingOccurrences(of: "\r\n", with: " | "))
      }
      guard answer.hasPrefix("HTTP/1.1 "), let status = Int(answer.dropFirst(9).prefix(3)) else { continue }
      outcome.answered += 1
      outcome.byStatus[status, default: 0] += 1
      if status >= 500 {
        outcome.failures.append("\(status) for:\n\(raw.prefix(600))\n--- answer:\n\(answer.prefix(600))")
      }
    }
    let health = LoopbackClient.exchange(
      "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
    if !health.hasPrefix("HTTP/1.1 200") { outcome.failures.append("the server no longer answers /healthz") }
    return outcome
  }
}

/// xorshift64*: a seeded generator, so a failing run can be repeated with its seed.
struct SeededRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

  mutating func next(_ bound: Int) -> Int {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return Int((state &* 0x2545_F491_4F6C_DD1D) % UInt64(max(1, bound)))
  }
}

struct FuzzFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `geophoto-fuzz requests --port N [--seconds S] [--seed N]`, the token from
/// GEOPHOTO_FUZZ_TOKEN; exits 1 on any 5xx or when the server stops answering.
func runRequestFuzzer(_ arguments: [String]) -> Int32 {
  var options: [String: String] = [:]
  var i = 0
  while i + 1 < arguments.count {
    options[arguments[i]] = arguments[i + 1]
    i += 2
  }
  guard let port = options["--port"].flatMap(Int.init) else {
    FileHandle.standardError.write(Data("usage: geophoto-fuzz requests --port N [--seconds S] [--seed N]\n".utf8))
    return 64
  }
  let seconds = options["--seconds"].flatMap(Double.init).map { $0.isFinite ? min(max($0, 1), 86_400) : 30 } ?? 30
  let seed = options["--seed"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970 * 1000)
  let token = ProcessInfo.processInfo.environment["GEOPHOTO_FUZZ_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
  var fuzzer = RequestFuzzer(port: port, token: token, random: SeededRandom(seed: seed))
  do {
    let outcome = try fuzzer.run(seconds: seconds)
    let statuses = outcome.byStatus.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
    print(
      "request fuzzing (seed \(seed)): \(outcome.sent) requests in \(Int(seconds)) s, \(outcome.answered) answered: "
        + statuses + "; slowest \(outcome.slowest.milliseconds) ms: \(outcome.slowest.request)")
    guard outcome.failures.isEmpty else {
      for failure in outcome.failures.prefix(10) { FileHandle.standardError.write(Data((failure + "\n\n").utf8)) }
      FileHandle.standardError.write(Data("request fuzzing found \(outcome.failures.count) failures\n".utf8))
      return 1
    }
    return 0
  } catch {
    FileHandle.standardError.write(Data("request fuzzing: \(error)\n".utf8))
    return 1
  }
}
