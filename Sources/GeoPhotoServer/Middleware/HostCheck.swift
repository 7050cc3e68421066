import GeoPhotoHTTPD

/// Answers only the host names the server is for (421 Misdirected Request otherwise), so a
/// page on another site cannot reach a loopback server through a name of its own that it
/// points at 127.0.0.1 (DNS rebinding). Loopback names and addresses are always the server's;
/// `--host`'s name and `serve.hostnames` are added to them. The name is the absolute-form
/// target's authority when there is one, else the `Host` header's (a request without one,
/// from an HTTP/1.0 client, is no browser's).
struct HostCheck: Middleware {
  /// Names in lower case, without ports, brackets or a final dot.
  let allowed: Set<String>

  static let loopback: Set<String> = ["localhost", "127.0.0.1", "::1", "::ffff:127.0.0.1"]

  /// `hostnames` as configured: names, IPv4 addresses, IPv6 addresses with or without brackets.
  init(hostnames: [String]) {
    allowed = Self.loopback.union(
      hostnames.compactMap { host in
        // An IPv6 address as configured (`--host 2001:db8::5`) has no brackets.
        host.filter { $0 == ":" }.count >= 2 && !host.hasPrefix("[") ? host.lowercased() : Self.name(of: host)
      })
  }

  /// The host a request asks for: its absolute-form target's, else its `Host` header's.
  static func asked(_ request: ServerRequest) -> String? {
    if case .absolute(let authority) = request.form { return authority }
    return request.headers["host"]
  }

  /// Whether the request is for one of the server's names (or names none).
  func admits(_ request: ServerRequest) -> Bool {
    guard let asked = Self.asked(request) else { return true }
    return Self.name(of: asked).map(allowed.contains) ?? false
  }

  func handle(_ request: ServerRequest, next: APIHandler) throws -> ServerResponse {
    guard admits(request) else {
      throw APIError(
        421, "misdirected_request",
        "this server does not answer for the host '\(Self.asked(request) ?? "")' (see serve.hostnames)")
    }
    return try next(request)
  }

  /// The host name of a `Host` value or authority: lower case, without the port or a final
  /// dot, an IPv6 address without its brackets; nil when malformed.
  static func name(of authority: String) -> String? {
    var text = authority.lowercased()
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      let rest = text[text.index(after: close)...]
      guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCII)) else { return nil }
      return String(text[text.index(after: text.startIndex)..<close])
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count <= 2, var host = parts.first, !host.isEmpty else { return nil }
    if parts.count == 2 { guard parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil } }
    // `localhost.` is `localhost`, fully qualified.
    if host.hasSuffix("."), host.count > 1 { host = host.dropLast() }
    text = String(host)
    return text
  }
}
