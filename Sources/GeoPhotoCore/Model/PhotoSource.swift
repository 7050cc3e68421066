/// Where a photo in the index came from.
///
/// A struct rather than an enum so an index written by a newer geophoto (with more providers)
/// still opens: unknown sources survive as their raw text.
public struct PhotoSource: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Photos indexed from local folders by `geophoto sync`.
  public static let local = PhotoSource(rawValue: "local")

  public var description: String { rawValue }
}
