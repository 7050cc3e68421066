#if canImport(Glibc)
  public import Glibc
#endif

/// A file opened the way geophoto opens every file it did not write (photos, sidecars,
/// tracks): without blocking and without following a symbolic link swapped in for the last
/// component, and read only when the descriptor is a regular file. A FIFO or a device put where
/// a photo was after the folder walk can neither hang a sync nor be read.
public final class ReadableFile: @unchecked Sendable {
  public let fd: Int32
  /// The size when opened.
  public let size: Int
  /// `fstat` of the open descriptor.
  public let status: stat

  /// Why a file could not be opened or read, as one line.
  public struct Failure: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  /// Opens `path` for reading. `followingLinks` lets a symbolic link at `path` itself be
  /// followed (the folder walk hands over links it chose to follow).
  public init(path: String, followingLinks: Bool = true) throws(Failure) {
    let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW)
    let fd = open(path, flags)
    guard fd >= 0 else { throw Failure(Self.errnoText()) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let failure = Failure(Self.errnoText())
      close(fd)
      throw failure
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw Failure("not a regular file (\(Self.kind(status.st_mode)))")
    }
    self.fd = fd
    self.status = status
    size = Int(status.st_size)
  }

  deinit { close(fd) }

  /// Exactly `count` bytes at `offset` (both already inside the file), read with pread.
  public func read(at offset: Int, count: Int) throws(Failure) -> [UInt8] {
    guard count > 0 else { return [] }
    guard offset >= 0, count <= Int.max - offset else { throw Failure("no bytes at \(offset)") }
    var done = 0
    var failed: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      while done < count {
        let n = pread(fd, base + done, count - done, off_t(offset + done))
        if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        if n < 0 { failed = errno }
        if n <= 0 { break }
        done += n
      }
      initialized = done
    }
    guard bytes.count == count else {
      if failed != 0 { throw Failure(String(cString: strerror(failed))) }
      throw Failure("the file shrank while it was read")
    }
    return bytes
  }

  /// The whole file, when it is at most `limit` bytes; nil when larger (never read to find out).
  public func readAll(limit: Int) throws(Failure) -> [UInt8]? {
    guard size <= limit else { return nil }
    return try read(at: 0, count: size)
  }

  static func errnoText() -> String { String(cString: strerror(errno)) }

  static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "not a plain file"
    }
  }
}
