public import GeoPhotoCore
public import GeoPhotoStore

/// How a server writes edits: the index opened for writing, the place names that name an
/// edited photo's place, and, with `serve.write_xmp`, the sidecar writer. Given only when
/// `serve.allow_edits` is on.
public struct PhotoEdits: Sendable {
  /// Opens the index for writing.
  public var open: @Sendable () throws -> any PhotoStore
  /// Names places (nil: photos keep none until a sync names them).
  public var namer: @Sendable () -> (any PlaceNamer)?
  /// Writes an edit into the photo's XMP sidecar (the new position, or nil for none) and
  /// says which file it wrote (nil: none needed writing); nil leaves sidecars alone.
  public var sidecars: (@Sendable (_ photo: String, _ position: Coordinate?) throws -> String?)?

  public init(
    open: @escaping @Sendable () throws -> any PhotoStore, namer: @escaping @Sendable () -> (any PlaceNamer)? = { nil },
    sidecars: (@Sendable (_ photo: String, _ position: Coordinate?) throws -> String?)? = nil
  ) {
    self.open = open
    self.namer = namer
    self.sidecars = sidecars
  }
}
