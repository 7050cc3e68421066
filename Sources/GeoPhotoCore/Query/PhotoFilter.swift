/// Which photos a query takes: from some sources only (and, later, from a time range or
/// matching a text). One value from the parser to the stores and the server, judged by one
/// `includes(_:)`.
public struct PhotoFilter: Hashable, Sendable {
  /// Only photos from these sources; nil for every source.
  public var sources: Set<PhotoSource>?

  public init(sources: Set<PhotoSource>? = nil) { self.sources = sources }

  /// Every photo.
  public static let all = PhotoFilter()

  /// Whether the filter lets every photo through.
  public var isEmpty: Bool { sources == nil }

  /// Whether `photo` passes.
  public func includes(_ photo: some FilterablePhoto) -> Bool {
    sources.map { $0.contains(photo.source) } ?? true
  }

  /// The filter as a table over source codes (`PhotoSource.code`), for indexes that keep a
  /// photo's source as one byte: entry `c` says whether a photo with code `c` passes.
  public var sourceCodeTable: [Bool] {
    (0...255).map { includes(SourcedPoint(source: PhotoSource(code: UInt8($0)))) }
  }
}

/// What a filter looks at in a photo.
public protocol FilterablePhoto {
  var source: PhotoSource { get }
}

extension Photo: FilterablePhoto {}

/// A point an index knows only by its source.
struct SourcedPoint: FilterablePhoto {
  var source: PhotoSource
}
