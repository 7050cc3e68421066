public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A file written beside its destination and renamed over it when complete: rename(2)
/// replaces the old file atomically, so a reader sees the old file or the new one, never a
/// part, and a file someone has mapped is never written in place. Bytes are buffered and
/// written with write(2); `commit()` renames, and a writer dropped before it (an error on the
/// way) removes what it wrote.
///
/// The temporary file's name is unique (the process, a random number) and it is made with
/// `O_EXCL | O_NOFOLLOW`: two writers, in one process or two, never share one, and a link
/// planted under the name is never followed.
public final class AtomicFile {
  public let destination: URL
  private let temporary: URL
  private var fd: Int32
  private var buffer: [UInt8] = []
  private static let bufferSize = 1 << 20
  /// Bytes handed to `write` so far: the offset of the next one.
  public private(set) var offset = 0

  /// What went wrong writing `path`, as one line.
  public struct WriteError: Error, CustomStringConvertible {
    public var description: String
  }

  public init(writingTo destination: URL) throws {
    self.destination = destination
    var attempt = 0
    while true {
      let name = ".\(destination.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
      let candidate = destination.deletingLastPathComponent().appendingPathComponent(name)
      let opened = open(candidate.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      if opened >= 0 {
        temporary = candidate
        fd = opened
        break
      }
      attempt += 1
      guard errno == EEXIST, attempt < 8 else { throw Self.failure("cannot write", destination) }
    }
    buffer.reserveCapacity(Self.bufferSize)
  }

  deinit {
    if fd >= 0 {
      close(fd)
      unlink(temporary.path)
    }
  }

  private static func failure(_ what: String, _ url: URL) -> WriteError {
    let reason = errno == ENOSPC ? "the disk is full" : String(cString: strerror(errno))
    return WriteError(description: "\(what) \(url.path): \(reason)")
  }

  /// Appends `bytes`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    offset += bytes.count
    if buffer.count + bytes.count > Self.bufferSize { try flush() }
    if bytes.count >= Self.bufferSize {
      try writeAll(bytes)
    } else {
      buffer.append(contentsOf: bytes)
    }
  }

  /// Appends `count` zero bytes.
  public func pad(_ count: Int) throws {
    guard count > 0 else { return }
    try [UInt8](repeating: 0, count: count).withUnsafeBytes { try write($0) }
  }

  private func flush() throws {
    try buffer.withUnsafeBytes { try writeAll($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress else { return }
    var done = 0
    while done < bytes.count {
      let n = Glibc.write(fd, base + done, bytes.count - done)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw Self.failure("cannot write", destination) }
      done += n
    }
  }

  /// Overwrites bytes already written at `offset` (a header filled in last).
  public func overwrite(_ bytes: [UInt8], at position: Int) throws {
    try flush()
    let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(position)) }
    guard n == bytes.count else { throw Self.failure("cannot write", destination) }
  }

  /// Sets the new file's permission bits (the low 12 bits of `bits`), as a file it replaces had.
  public func setPermissions(_ bits: UInt32) throws {
    guard fd >= 0, fchmod(fd, mode_t(bits & 0o7777)) == 0 else {
      throw Self.failure("cannot set the permissions of", destination)
    }
  }

  /// Gives the new file an owner and group, as a file it replaces had; false when not allowed
  /// (only root may give a file away).
  @discardableResult
  public func setOwner(user: UInt32, group: UInt32) -> Bool {
    fd >= 0 && fchown(fd, uid_t(user), gid_t(group)) == 0
  }

  /// Writes what is buffered and renames the file over its destination.
  public func commit() throws {
    try flush()
    guard close(fd) == 0 else {
      fd = -1
      unlink(temporary.path)
      throw Self.failure("cannot write", destination)
    }
    fd = -1
    guard rename(temporary.path, destination.path) == 0 else {
      let error = Self.failure("cannot replace", destination)
      unlink(temporary.path)
      throw error
    }
  }
}
