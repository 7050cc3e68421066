/// Removes secrets from text before it is printed or logged.
///
/// Query parameters with secret-sounding names lose their values, and every known secret value
/// is replaced wherever it appears (an error message can quote a URL in any form).
public struct Redactor: Sendable {
  public static let secretParameters: Set<String> = [
    "api_key", "apikey", "key", "token", "access_token", "password", "secret", "auth", "sig",
  ]
  public var secrets: [String]

  public init(secrets: [String] = []) {
    self.secrets = secrets.filter { $0.count >= 4 }
  }

  public func redact(_ text: String) -> String {
    var result = ""
    // Query values of secret parameters: name=value up to the next & or whitespace.
    var rest = Substring(text)
    while let eq = rest.firstIndex(of: "=") {
      let name = rest[..<eq].reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let key = String(name.reversed()).lowercased()
      result += rest[...eq]
      rest = rest[rest.index(after: eq)...]
      if Self.secretParameters.contains(key) {
        let value = rest.prefix { $0 != "&" && !$0.isWhitespace && $0 != "\"" && $0 != "'" }
        if !value.isEmpty { result += "REDACTED" }
        rest = rest.dropFirst(value.count)
      }
    }
    result += rest
    for secret in secrets {
      result = result.replacing(secret, with: "REDACTED")
      let escaped = QueryString.escape(secret)
      if escaped != secret { result = result.replacing(escaped, with: "REDACTED") }
    }
    return result
  }
}
