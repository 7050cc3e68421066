/// Where a photo in the index came from.
///
/// A struct rather than an enum so an index written by a newer geophoto (with more providers)
/// still opens: unknown sources survive as their raw text.
public struct PhotoSource: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Photos indexed from local folders by `geophoto sync`.
  public static let local = PhotoSource(rawValue: "local")
  /// Public photos from Flickr's `flickr.photos.search`.
  public static let flickr = PhotoSource(rawValue: "flickr")
  /// Files from Wikimedia Commons' geosearch.
  public static let commons = PhotoSource(rawValue: "commons")

  /// Every source this geophoto knows.
  public static let known: [PhotoSource] = [.local, .flickr, .commons]

  public var description: String { rawValue }
}
