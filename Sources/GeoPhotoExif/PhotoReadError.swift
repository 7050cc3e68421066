public import GeoPhotoCore

/// Why a file's metadata could not be read; the text is the warning a sync prints.
public enum PhotoReadError: Error, Equatable, Sendable, CustomStringConvertible {
  case emptyFile
  /// The file's bytes are not the format its name says (nor any other geophoto reads).
  case notA(PhotoFormat)
  case truncated
  case malformed(String)
  case unreadable(String)

  public var description: String {
    switch self {
    case .emptyFile: return "empty file"
    case .notA(let format): return "not a \(format.name) file"
    case .truncated: return "truncated JPEG (file ends inside its headers)"
    case .malformed(let why): return "malformed JPEG: \(why)"
    case .unreadable(let why): return "cannot read: \(why)"
    }
  }
}
