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
  /// The Live Photo identifier the file carries (Apple's MakerNote media group UUID, or a
  /// video's `com.apple.quicktime.content.identifier`): a still and a video with the same
  /// one are one shot, whatever their names.
  public var contentID: String?

  public init(size: Int64, changedNanoseconds: Int64, contentHash: String, contentID: String? = nil) {
    self.size = size
    self.changedNanoseconds = changedNanoseconds
    self.contentHash = contentHash
    self.contentID = contentID
  }
}

/// A file of a photo besides the one its row describes (`FileRole.primary`): its role and
/// what the sync needs to follow it.
public struct MemberFile: Hashable, Sendable {
  public var path: String
  public var role: FileRole
  public var state: FileState

  public init(path: String, role: FileRole, state: FileState) {
    self.path = path
    self.role = role
    self.state = state
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

/// A local file the index knows, as the sync compares it with the disk: a photo's primary
/// file (its row) or another of its files (sidecars are not listed: they follow their photo).
public struct KnownFile: Hashable, Sendable {
  /// The photo the file belongs to.
  public var id: Int64
  public var path: String
  public var state: FileState
  public var role: FileRole

  public init(id: Int64, path: String, state: FileState, role: FileRole = .primary) {
    self.id = id
    self.path = path
    self.state = state
    self.role = role
  }
}
