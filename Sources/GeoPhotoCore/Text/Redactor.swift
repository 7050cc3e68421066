/// Removes secrets from text before it is printed or logged.
///
/// Query parameters with secret-sounding names lose their values, and every known secret value
/// is replaced wherever it appears (an error message can quote a URL in any form).
public struct Redactor: Sendable {
  public static let secretParameters: Set<String> = [
    "api_key", "apikey", "key", "token", "access_token", "password", "secret", "auth", "sig", "share",
  ]
  public var secrets: [String]

  public init(secrets: [String] = []) {
    self.secrets = secrets.filter { $0.count >= 4 }
  }

  public func redact(_ text: String) -> String {
    var result = Self.redactingParameters(text)
    for secret in secrets {
      result = result.replacing(secret, with: "REDACTED")
      let escaped = QueryString.escape(secret)
      if escaped != secret { result = result.replacing(escaped, with: "REDACTED") }
    }
    return result
  }

  /// `text` with the values of secret query parameters replaced: `name=value` up to the next
  /// `&`, whitespace or quote. Read as UTF-8 bytes (every access log line passes here); a name is
  /// the run of ASCII letters, digits, `_` and non-ASCII characters before an `=`, matched
  /// without regard to ASCII case.
  static func redactingParameters(_ text: String) -> String {
    var text = text
    return text.withUTF8 { bytes -> String in
      guard bytes.contains(UInt8(ascii: "=")) else { return String(decoding: bytes, as: UTF8.self) }
      var result: [UInt8] = []
      result.reserveCapacity(bytes.count + 16)
      var copied = 0
      var i = 0
      while i < bytes.count {
        guard bytes[i] == UInt8(ascii: "=") else {
          i += 1
          continue
        }
        var nameStart = i
        while nameStart > 0, isNameByte(bytes[nameStart - 1]) { nameStart -= 1 }
        var valueEnd = i + 1
        while valueEnd < bytes.count, !endsValue(bytes[valueEnd]) { valueEnd += 1 }
        if valueEnd > i + 1, isSecretName(UnsafeBufferPointer(rebasing: bytes[nameStart..<i])) {
          result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...i]))
          result.append(contentsOf: "REDACTED".utf8)
          copied = valueEnd
          i = valueEnd
        } else {
          i += 1
        }
      }
      result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
      return String(decoding: result, as: UTF8.self)
    }
  }

  private static func isNameByte(_ b: UInt8) -> Bool {
    b >= 0x80 || b == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20)
  }

  private static func endsValue(_ b: UInt8) -> Bool {
    b == UInt8(ascii: "&") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") || b == 0x20
      || (0x09...0x0D).contains(b)
  }

  private static let longestSecretName = secretParameters.map(\.utf8.count).max() ?? 0

  private static func isSecretName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !name.isEmpty, name.count <= longestSecretName, !name.contains(where: { $0 >= 0x80 }) else { return false }
    let lowercased = name.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    return secretParameters.contains(String(decoding: lowercased, as: UTF8.self))
  }
}
