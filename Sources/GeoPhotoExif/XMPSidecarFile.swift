import Foundation
import GeoPhotoCore

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a photo's position into its XMP sidecar on disk: the sidecar it already has
/// (`SidecarNames`' rule), else a new one named in the chosen style. The photo itself is never
/// opened.
///
/// An existing sidecar is read without following a symbolic link, at most `maximumSize` bytes,
/// merged by `XMPSidecarWriter`, and replaced atomically (`AtomicFile`: a temporary file renamed
/// over it) keeping its permission bits and, where allowed, its owner. A symbolic link where the
/// sidecar goes is never written through: the photo is left alone. So is a sidecar that already
/// holds a position (unless `overwrite`), one the writer refuses, or one that changes while it
/// is being written.
public enum XMPSidecarFile {
  public enum Outcome: Equatable, Sendable {
    case created(String)
    case updated(String)
    /// The sidecar (or where it would go) and why nothing was written.
    case leftAlone(String, reason: String)
  }

  /// The largest sidecar read: by the sync, and by this writer, which refuses larger ones (a
  /// position written there would never be read back). Real ones are a few kB; darktable's
  /// with long histories some hundred kB.
  public static let maximumSize = 4 << 20

  static let holdsPosition = "already holds a position"
  /// Why a removal wrote nothing: there is nothing to remove.
  public static let holdsNoPosition = "holds no position"
  public static let noSidecar = "has no sidecar"

  /// Writes `position` for the photo at `photo` (a path). `folder` is the photo's folder's
  /// listing when the caller has one (`listing(ofFolder:)`, for many photos of one folder);
  /// without it the folder is listed. Throws for a position that cannot be written and when
  /// writing fails; what is left alone is an outcome.
  public static func write(
    position: XMPPosition, forPhoto photo: String, naming: SidecarNames.Style = .full, overwrite: Bool = false,
    folder: SidecarListing<String>? = nil
  ) throws -> Outcome {
    _ = try XMPSidecarWriter.properties(of: position)
    let (directory, name) = split(photo)
    guard !name.isEmpty else { return .leftAlone(photo, reason: "is not a photo's path") }
    var info = stat()
    guard lstat(photo, &info) == 0 else { return .leftAlone(photo, reason: "the photo is not there") }
    let listing = try folder ?? listing(ofFolder: directory)
    let path =
      listing.sidecar(forPhotoNamed: name)?.value
      ?? join(directory, SidecarNames.newName(forPhotoNamed: name, style: naming))
    guard lstat(path, &info) == 0 else {
      guard errno == ENOENT else { return .leftAlone(path, reason: "cannot be checked: \(errnoText())") }
      try replace(path, with: XMPSidecarWriter.merge(existing: nil, position: position), keeping: nil)
      return .created(path)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFLNK: return .leftAlone(path, reason: "is a symbolic link, which geophoto does not write through")
    default: return .leftAlone(path, reason: "is not a regular file")
    }
    let file: ReadableFile
    let bytes: [UInt8]
    do {
      file = try ReadableFile(path: path, followingLinks: false)
      guard let read = try file.readAll(limit: maximumSize) else {
        return .leftAlone(path, reason: "is larger than \(maximumSize >> 20) MiB")
      }
      bytes = read
    } catch {
      return .leftAlone(path, reason: "cannot be read: \(error)")
    }
    if !overwrite && XMPSidecarWriter.holdsPosition(bytes) { return .leftAlone(path, reason: holdsPosition) }
    let merged: [UInt8]
    do {
      merged = try XMPSidecarWriter.merge(existing: bytes, position: position)
    } catch {
      if case .badPosition = error { throw error }
      return .leftAlone(path, reason: error.description)
    }
    guard try replace(path, with: merged, keeping: file.status) else {
      return .leftAlone(path, reason: "changed while geophoto was writing it")
    }
    return .updated(path)
  }

  /// Removes the position from the sidecar the photo at `photo` has (every other property
  /// kept), with the same care as `write`: nothing written through a link, nothing written
  /// when there is no sidecar or it holds no position.
  public static func removePosition(forPhoto photo: String) throws -> Outcome {
    guard let path = existingSidecar(forPhoto: photo) else { return .leftAlone(photo, reason: noSidecar) }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      return .leftAlone(path, reason: "is not a regular file, which geophoto does not write through")
    }
    let file = try ReadableFile(path: path, followingLinks: false)
    guard let bytes = try file.readAll(limit: maximumSize) else {
      return .leftAlone(path, reason: "is larger than \(maximumSize >> 20) MiB")
    }
    guard XMPSidecarWriter.holdsPosition(bytes) else { return .leftAlone(path, reason: holdsNoPosition) }
    let removed: [UInt8]
    do {
      removed = try XMPSidecarWriter.removingPosition(from: bytes)
    } catch {
      return .leftAlone(path, reason: error.description)
    }
    guard try replace(path, with: removed, keeping: file.status) else {
      return .leftAlone(path, reason: "changed while geophoto was writing it")
    }
    return .updated(path)
  }

  /// The sidecars in `directory` (not hidden, regular files or links to them, as the folder walk
  /// pairs them), each with its path.
  public static func listing(ofFolder directory: String) throws -> SidecarListing<String> {
    var listing = SidecarListing<String>()
    for name in try FileManager.default.contentsOfDirectory(atPath: directory)
    where !name.hasPrefix(".") && SidecarNames.key(ofSidecarNamed: name) != nil {
      let path = join(directory, name)
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      listing.add(fileNamed: name, path)
    }
    return listing
  }

  /// The path of the sidecar the photo at `photo` already has, if any.
  public static func existingSidecar(forPhoto photo: String) -> String? {
    let (directory, name) = split(photo)
    return (try? listing(ofFolder: directory))?.sidecar(forPhotoNamed: name)?.value
  }

  /// Writes `bytes` to a temporary file beside `path` and renames it over `path`. When `old` (the
  /// file read) is given, the new file gets its permission bits and owner, and nothing is renamed
  /// (false) if the file at `path` is no longer that one, unchanged.
  @discardableResult
  static func replace(_ path: String, with bytes: [UInt8], keeping old: stat?) throws -> Bool {
    let file = try AtomicFile(writingTo: URL(fileURLWithPath: path))
    try bytes.withUnsafeBytes { try file.write($0) }
    if let old {
      if old.st_uid != geteuid() || old.st_gid != getegid() { file.setOwner(user: old.st_uid, group: old.st_gid) }
      try file.setPermissions(UInt32(old.st_mode))
      var now = stat()
      guard lstat(path, &now) == 0, now.st_dev == old.st_dev, now.st_ino == old.st_ino, now.st_size == old.st_size,
        now.st_mtim.tv_sec == old.st_mtim.tv_sec, now.st_mtim.tv_nsec == old.st_mtim.tv_nsec
      else { return false }
    }
    try file.commit()
    return true
  }

  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  static func errnoText() -> String { String(cString: strerror(errno)) }
}
