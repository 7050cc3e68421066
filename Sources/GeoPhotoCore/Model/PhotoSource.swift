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

  /// One byte for indexes that keep a photo's source beside its position: 1, 2, 3… for the
  /// known sources in order, 0 for a source this geophoto does not know.
  public var code: UInt8 {
    guard let i = Self.known.firstIndex(of: self), i < 255 else { return 0 }
    return UInt8(i + 1)
  }

  /// The source with `code`; an unknown source for 0 and codes past the known ones.
  public init(code: UInt8) {
    let i = Int(code) - 1
    self = i >= 0 && i < Self.known.count ? Self.known[i] : PhotoSource(rawValue: "")
  }
}
