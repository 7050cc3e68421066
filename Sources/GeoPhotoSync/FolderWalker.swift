import GeoPhotoCore
import GeoPhotoExif
internal import Glibc

/// A photo found on disk, with its sidecars when there are any.
public struct FoundFile: Hashable, Sendable {
  public var path: String
  public var size: Int64
  public var modifiedNanoseconds: Int64
  /// `photo.xmp` or `photo.jpg.xmp` beside the photo (any case).
  public var sidecar: String?
  /// A Google Takeout JSON sidecar (`photo.jpg.json`, `…supplemental-metadata.json`, …).
  public var takeoutSidecar: String?
  /// The latest of the photo's and its sidecars' modification times: editing any of them
  /// makes the next sync read the photo again.
  public var changeNanoseconds: Int64
  /// Whether the walk found a symbolic link to the photo (followed on purpose); a photo found
  /// as a file is opened without following a link put in its place since.
  public var isLink: Bool

  public init(
    path: String, size: Int64, modifiedNanoseconds: Int64, sidecar: String? = nil, sidecarModified: Int64 = 0,
    takeoutSidecar: String? = nil, takeoutModified: Int64 = 0, isLink: Bool = false
  ) {
    self.isLink = isLink
    self.path = path
    self.size = size
    self.modifiedNanoseconds = modifiedNanoseconds
    self.sidecar = sidecar
    self.takeoutSidecar = takeoutSidecar
    changeNanoseconds = max(modifiedNanoseconds, sidecarModified, takeoutModified)
  }
}

/// A recursive walk that lists photos under a directory, by the extensions of every
/// `PhotoFormat` (any case), each with its XMP sidecar and its Google Takeout sidecar
/// (`TakeoutNames`).
///
/// Follows symbolic links, remembers every directory by (device, inode) so link cycles end,
/// and skips hidden entries (names starting with `.`: caches, trash, editors' folders). Each
/// entry it cannot use becomes one warning; the walk goes on.
public struct FolderWalker {
  public struct Result: Sendable {
    public var files: [FoundFile] = []
    /// Entries that could not be read; a sync must not treat what they hold as deleted.
    public var unreadable: [String] = []
    public var warnings: [(path: String, reason: String)] = []
  }

  public static func isPhotoName(_ name: Substring) -> Bool { PhotoFormat(fileName: name) != nil }

  /// Walks `root`, an absolute path of a readable directory: the folders under it too, or
  /// with `recursive` false its own files only. A `root` that does not exist holds nothing.
  public static func walk(_ root: String, recursive: Bool = true) -> Result {
    var result = Result()
    var visited = Set<[UInt64]>()
    var pending = [root]
    var rootInfo = stat()
    if stat(root, &rootInfo) == 0 {
      visited.insert([UInt64(rootInfo.st_dev), UInt64(rootInfo.st_ino)])
    } else if errno == ENOENT || errno == ENOTDIR {
      return result
    }
    while let directory = pending.popLast() {
      guard let dir = opendir(directory) else {
        result.unreadable.append(directory)
        result.warnings.append((directory, "cannot open directory: \(errnoText())"))
        continue
      }
      defer { closedir(dir) }
      var photos: [(name: String, file: FoundFile)] = []
      var sidecars = SidecarListing<(path: String, modified: Int64)>()
      var takeout: [(name: String, sidecar: TakeoutNames.Sidecar)] = []
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasPrefix(".") { continue }
        let path = directory == "/" ? "/" + name : directory + "/" + name
        var info = stat()
        // Relative to the open folder: the kernel does not walk the whole path again.
        guard fstatat(dirfd(dir), name, &info, 0) == 0 else {
          let code = errno
          var linkInfo = stat()
          let isLink = lstat(path, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK
          if code == ELOOP {
            result.warnings.append((path, "symbolic link loop"))
          } else if isLink && code == ENOENT {
            result.warnings.append((path, "broken symbolic link"))
          } else {
            result.unreadable.append(path)
            result.warnings.append((path, "cannot read: \(String(cString: strerror(code)))"))
          }
          continue
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
          guard recursive else { continue }
          let key = [UInt64(info.st_dev), UInt64(info.st_ino)]
          if visited.contains(key) {
            result.warnings.append((path, "directory already visited (symbolic link loop)"))
          } else {
            visited.insert(key)
            pending.append(path)
          }
        case S_IFREG:
          let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
          let lower = name.lowercased()
          if sidecars.add(fileNamed: name, (path, mtime)) { continue }
          if lower.hasSuffix(".json") {
            takeout.append((name, TakeoutNames.Sidecar(path: path, modified: mtime)))
            continue
          }
          guard isPhotoName(Substring(name)) else { continue }
          // The directory entry's own type (not stat's, which follows links): DT_UNKNOWN on
          // file systems that do not say counts as a link, so nothing that works is refused.
          let isLink = entry.pointee.d_type != UInt8(DT_REG)
          photos.append(
            (lower, FoundFile(path: path, size: Int64(info.st_size), modifiedNanoseconds: mtime, isLink: isLink)))
        default:
          continue
        }
      }
      // Pair sidecars by SidecarNames' rule ("IMG_1.JPG.xmp", then "IMG_1.xmp"); Takeout's by its.
      let takeoutNames = TakeoutNames(takeout)
      for (name, photo) in photos {
        let xmp = sidecars.sidecar(forPhotoNamed: name)?.value
        let json = takeoutNames.sidecar(for: name)
        result.files.append(
          FoundFile(
            path: photo.path, size: photo.size, modifiedNanoseconds: photo.modifiedNanoseconds, sidecar: xmp?.path,
            sidecarModified: xmp?.modified ?? 0, takeoutSidecar: json?.path, takeoutModified: json?.modified ?? 0,
            isLink: photo.isLink))
      }
    }
    result.files.sort { $0.path < $1.path }
    return result
  }
}

func errnoText() -> String { String(cString: strerror(errno)) }
