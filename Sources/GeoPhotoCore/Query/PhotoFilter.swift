/// Which photos a query takes: from some sources only, from a time range, by a camera, by
/// words in their text. One
/// value from the parser to the stores and the server, judged by one `includes(_:)`.
public struct PhotoFilter: Hashable, Sendable {
  /// Only photos from these sources; nil for every source.
  public var sources: Set<PhotoSource>?
  /// Only photos taken in this range (`TimeRange`); nil for any time, or none.
  public var time: TimeRange?
  /// Only photos whose camera make or model contains this text, compared without case
  /// (`fuji` finds `FUJIFILM X100V`, `x100` too); nil for any camera, or none.
  public var camera: String?
  /// Only photos whose searched text (`SearchText.document(of:)`) holds these words; nil for
  /// any text.
  public var text: TextQuery?
  /// Only photos taken in this place; nil for anywhere.
  public var place: PlaceFilter?
  /// Only these photos: a shared link's scope, set by the server from the link's token,
  /// never from a request's parameters; nil for any.
  public var ids: PhotoIDSet?

  public init(
    sources: Set<PhotoSource>? = nil, time: TimeRange? = nil, camera: String? = nil, text: TextQuery? = nil,
    place: PlaceFilter? = nil, ids: PhotoIDSet? = nil
  ) {
    self.sources = sources
    self.time = time
    self.camera = camera.map { $0.lowercased() }
    self.text = text
    self.place = place
    self.ids = ids
  }

  /// Every photo.
  public static let all = PhotoFilter()

  /// Whether the filter lets every photo through.
  public var isEmpty: Bool {
    sources == nil && time == nil && camera == nil && text == nil && ids == nil && place == nil
  }

  /// The same filter without its text part, for indexes that answer the text part themselves.
  public var withoutText: PhotoFilter {
    var copy = self
    copy.text = nil
    return copy
  }

  /// Whether `photo` passes.
  @inlinable
  public func includes(_ photo: some FilterablePhoto) -> Bool {
    if let ids, !ids.contains(photo.id) { return false }
    if let sources, !sources.contains(photo.source) { return false }
    if let time, !time.matches(photo.takenAt) { return false }
    if let camera, !Self.camera(photo.cameraMake, photo.cameraModel, contains: camera) { return false }
    if let text, !text.matches(document: photo.searchDocument) { return false }
    if let place, !place.contains(photo.place) { return false }
    return true
  }

  /// Whether `make model` contains `text` (already lower case), ignoring case.
  public static func camera(_ make: String?, _ model: String?, contains text: String) -> Bool {
    ((make ?? "") + " " + (model ?? "")).lowercased().contains(text)
  }

  /// The source part as a table over source codes (`PhotoSource.code`), for indexes that keep
  /// a photo's source as one byte: entry `c` says whether a photo with code `c` passes.
  public var sourceCodeTable: [Bool] {
    (0...255).map { code in sources.map { $0.contains(PhotoSource(code: UInt8(code))) } ?? true }
  }
}

/// What a filter looks at in a photo.
public protocol FilterablePhoto {
  var id: Int64 { get }
  var place: PlaceName? { get }
  var source: PhotoSource { get }
  var takenAt: CaptureDate? { get }
  var cameraMake: String? { get }
  var cameraModel: String? { get }
  /// Everything a text filter searches, as `SearchText` folds it.
  var searchDocument: String { get }
}

extension Photo: FilterablePhoto {
  public var searchDocument: String { SearchText.document(of: self) }
}
