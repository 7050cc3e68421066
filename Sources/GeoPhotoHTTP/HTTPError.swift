/// A failed HTTP exchange, worded for the user, with what a retry loop needs to know.
public struct HTTPError: Error, CustomStringConvertible, Sendable {
  public enum Kind: Equatable, Sendable {
    /// No answer: DNS, connection, TLS or a timeout (`code` is libcurl's).
    case transport(code: Int)
    case timeout
    /// An answer with a status that is not a success.
    case status(Int)
    /// The body went past the size cap.
    case tooLarge(limit: Int)
    /// The body was cut short.
    case truncated
    /// A body the caller could not use (HTML where JSON was asked for, a bad document).
    case unusableBody
  }

  public var kind: Kind
  /// One line, with secrets already removed.
  public var message: String
  /// Seconds the server asked us to wait (`Retry-After`), if it said.
  public var retryAfter: Double?

  public init(_ kind: Kind, _ message: String, retryAfter: Double? = nil) {
    self.kind = kind
    self.message = message
    self.retryAfter = retryAfter
  }

  /// Worth another try: timeouts, connection failures, cut-off bodies, 429 and 5xx.
  public var isRetryable: Bool {
    switch kind {
    case .transport, .timeout, .truncated, .unusableBody: return true
    case .status(let s): return s == 429 || (500...599).contains(s)
    case .tooLarge: return false
    }
  }

  public var description: String { message }
}
