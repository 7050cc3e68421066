import CGeoPhotoCrypto
import Foundation

/// A share link's secret: 32 random bytes, written base64url (43 characters). The index
/// keeps only its SHA-256 (`hash`), so a copy of the index gives nobody a working link.
public enum ShareToken {
  /// A new token, from the system's random source.
  public static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_")
      .replacing("=", with: "")
  }

  /// A short id for lists and revoking: 8 letters and digits.
  public static func makeID() -> String {
    let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
    var generator = SystemRandomNumberGenerator()
    return String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
  }

  /// The token's SHA-256 in lower-case hex, as the index keeps it.
  public static func hash(_ token: String) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    let bytes = Array(token.utf8)
    let ok = bytes.withUnsafeBytes { input in
      digest.withUnsafeMutableBufferPointer { gp_sha256(input.baseAddress, input.count, $0.baseAddress) }
    }
    precondition(ok == 1, "libcrypto's SHA-256 failed")
    return digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
      .joined()
  }

  /// Whether `text` could be a token (what a request's bearer must look like before it is
  /// hashed): 43 base64url characters.
  public static func looksLikeToken(_ text: String) -> Bool {
    text.utf8.count == 43
      && text.utf8.allSatisfy {
        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D
          || $0 == 0x5F
      }
  }
}
