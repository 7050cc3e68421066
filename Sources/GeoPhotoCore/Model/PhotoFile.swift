/// What a file is to the photo it belongs to. One shot is often several files: a RAW and the
/// camera's JPEG, a Live Photo's still and its video, XMP or Takeout sidecars.
public enum FileRole: String, Hashable, Sendable, CaseIterable {
  /// The file the photo's metadata comes from (the one with a position, then the still image).
  case primary
  /// A camera RAW file of the same shot.
  case raw
  /// The video half of a Live Photo (or a motion photo) beside its still.
  case liveVideo = "live-video"
  /// Another still or video of the same shot (the same name in another format).
  case alternate
  /// An XMP or Google Takeout JSON sidecar.
  case sidecar
}

/// One file of a photo, as answers list them.
public struct PhotoFile: Hashable, Sendable {
  public var path: String
  public var role: FileRole

  public init(path: String, role: FileRole) {
    self.path = path
    self.role = role
  }

  /// The file's name without its folder.
  public var name: Substring {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return Substring(path) }
    return path[path.utf8.index(after: slash)...]
  }
}
