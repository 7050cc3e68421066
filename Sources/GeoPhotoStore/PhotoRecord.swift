public import GeoPhotoCore

/// What the index keeps about a local file so the next sync can skip, update or follow it.
public struct FileState: Hashable, Sendable {
  public var size: Int64
  /// When the photo last changed, in nanoseconds since the Unix epoch: the later of the file's
  /// and its XMP sidecar's modification times (`FoundFile.changeNanoseconds`), so editing
  /// either one makes the next sync read the photo again. Kept in the `modified_ns` column.
  public var changedNanoseconds: Int64
  /// `ContentHash` of the file, used to recognise a moved or renamed file.
  public var contentHash: String

  public init(size: Int64, changedNanoseconds: Int64, contentHash: String) {
    self.size = size
    self.changedNanoseconds = changedNanoseconds
    self.contentHash = contentHash
  }
}

/// A photo row as written by a sync: the photo, its file state, and why it could not be read
/// (a warning the sync printed), if it could not.
public struct PhotoRecord: Hashable, Sendable {
  public var photo: Photo
  public var file: FileState?
  public var problem: String?
  /// The identity of the gazetteer that named `photo.place`, as an index keeps it; writes
  /// from a sync or fetch leave it nil (their places are named afterwards), a copy of a
  /// whole index carries it so nothing is named twice.
  public var placedWith: Int64?

  public init(photo: Photo, file: FileState? = nil, problem: String? = nil, placedWith: Int64? = nil) {
    self.photo = photo
    self.file = file
    self.problem = problem
    self.placedWith = placedWith
  }
}

/// A local file the index knows, as the sync compares it with the disk.
public struct KnownFile: Hashable, Sendable {
  public var id: Int64
  public var path: String
  public var state: FileState

  public init(id: Int64, path: String, state: FileState) {
    self.id = id
    self.path = path
    self.state = state
  }
}
