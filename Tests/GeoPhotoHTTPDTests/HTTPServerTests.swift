import Foundation
import GeoPhotoHTTP
import Testing

@testable import GeoPhotoHTTPD

/// Answers every request with its path.
struct EchoResponder: Responder {
  func respond(to request: ServerRequest) -> ServerResponse {
    ServerResponse(status: 200, headers: [("Content-Type", "text/plain")], body: Array(request.path.utf8))
  }
}

/// The addresses the system resolver gives for `host`, from `getent ahosts` (outside geophoto).
func systemAddresses(_ host: String) throws -> Set<String> {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/getent")
  process.arguments = ["ahosts", host]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return Set(output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
}

func get(_ url: String) throws -> (Int, String) {
  var options = HTTPClientOptions(userAgent: "geophoto-tests")
  options.timeout = 5
  let response = try HTTPClient(options: options).get(url)
  return (response.status, String(decoding: response.body, as: UTF8.self))
}

func server(host: String, port: Int = 0) throws -> HTTPServer {
  var options = HTTPServerOptions()
  options.host = host
  options.port = port
  options.threads = 1
  return try HTTPServer(options: options, responder: EchoResponder())
}

@Suite struct HTTPServerTests {
  @Test func aHostNameListensOnEveryAddressItResolvesTo() throws {
    let expected = try systemAddresses("localhost")
    let s = try server(host: "localhost")
    defer { s.stop() }
    #expect(Set(s.addresses) == expected)
    #expect(s.addresses.count == expected.count)
    #expect(s.isLoopbackOnly)
    for address in s.addresses {
      let host = address.contains(":") ? "[\(address)]" : address
      #expect(try get("http://\(host):\(s.port)/hello") == (200, "/hello"))
    }
  }

  @Test func addressesAreTakenAsTheyAre() throws {
    let v4 = try server(host: "127.0.0.1")
    defer { v4.stop() }
    #expect(v4.addresses == ["127.0.0.1"])
    #expect(try get("http://127.0.0.1:\(v4.port)/a") == (200, "/a"))
    let v6 = try server(host: "::1")
    defer { v6.stop() }
    #expect(v6.addresses == ["::1"])
    #expect(try get("http://[::1]:\(v6.port)/b") == (200, "/b"))
    let any = try server(host: "0.0.0.0")
    defer { any.stop() }
    #expect(!any.isLoopbackOnly)
  }

  @Test func aNameThatDoesNotResolveIsOneClearError() {
    #expect(throws: HTTPServer.StartError.self) { try server(host: "no-such-host.invalid") }
    do {
      _ = try server(host: "no-such-host.invalid")
    } catch {
      #expect("\(error)".hasPrefix("cannot resolve 'no-such-host.invalid': "))
    }
  }

  @Test func aPortInUseSaysWhichAddressAndPort() throws {
    let first = try server(host: "127.0.0.1")
    defer { first.stop() }
    do {
      _ = try server(host: "localhost", port: first.port)
      Issue.record("two servers on one port")
    } catch {
      #expect("\(error)" == "cannot listen on 127.0.0.1:\(first.port) (localhost) (Address already in use)")
    }
  }
}
