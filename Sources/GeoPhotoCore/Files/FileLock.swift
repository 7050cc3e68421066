#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive `flock` on a lock file, held until the lock goes: across processes and across
/// threads alike (each lock opens the file anew, and flock locks belong to the open file).
/// Rebuilds of a spatial index file take the one beside it, so two never read and write it at
/// once and the file in place is always the newest.
public final class FileLock {
  private let fd: Int32

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Waits until the lock at `path` is free and takes it (the file is made when missing; a
  /// symbolic link there is refused).
  public init(path: String) throws(Failure) {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else {
      throw Failure(description: "cannot open the lock \(path): \(String(cString: strerror(errno)))")
    }
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let reason = String(cString: strerror(errno))
        close(fd)
        throw Failure(description: "cannot lock \(path): \(reason)")
      }
    }
    self.fd = fd
  }

  deinit {
    flock(fd, LOCK_UN)
    close(fd)
  }
}
