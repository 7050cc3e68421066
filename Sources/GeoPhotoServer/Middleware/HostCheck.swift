import GeoPhotoHTTPD

/// Answers only the host names the server is for (421 Misdirected Request otherwise), so a
/// page on another site cannot reach a loopback server through a name of its own that it
/// points at 127.0.0.1 (DNS rebinding). Loopback names and addresses are always the server's;
/// `--host`'s name and `serve.hostnames` are added to them. The name is the absolute-form
/// target's authority when there is one, else the `Host` header's (a request without one,
/// from an HTTP/1.0 client, is no browser's).
struct HostCheck: Middleware {
  /// Names in lower case, without ports or brackets.
  let allowed: Set<String>

  static let loopback: Set<String> = ["localhost", "127.0.0.1", "::1"]

  init(hostnames: [String]) {
    allowed = Self.loopback.union(hostnames.compactMap { Self.name(of: $0) })
  }

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    let asked: String?
    if case .absolute(let authority) = request.form { asked = authority } else { asked = request.headers["host"] }
    if let asked {
      guard let name = Self.name(of: asked), allowed.contains(name) else {
        throw APIError(
          421, "misdirected_request",
          "this server does not answer for the host '\(asked)' (see serve.hostnames)")
      }
    }
    return try next(request)
  }

  /// The host name of a `Host` value or authority: lower case, without the port, an IPv6
  /// address without its brackets; nil when malformed.
  static func name(of authority: String) -> String? {
    let text = authority.lowercased()
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      let rest = text[text.index(after: close)...]
      guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCII)) else { return nil }
      return String(text[text.index(after: text.startIndex)..<close])
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count <= 2, let host = parts.first, !host.isEmpty else { return nil }
    if parts.count == 2 { guard parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil } }
    return String(host)
  }
}
