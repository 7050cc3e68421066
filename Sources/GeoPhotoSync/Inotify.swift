internal import Foundation
internal import Glibc
import Synchronization

/// The kernel's inotify over folder trees: one watch per folder (inotify does not watch a
/// tree), its events as paths, and a way to wake a waiting reader from another thread.
///
/// A thread of its own reads the kernel's queue as events arrive (`startReading`), so a long
/// sync does not let it overflow; `take` hands them over.
final class Inotify: @unchecked Sendable {
  /// One change the kernel reported.
  struct Event {
    /// The folder the watch is on.
    var folder: String
    /// The entry's name in it ("" for an event about the folder itself).
    var name: String
    var mask: UInt32
    var cookie: UInt32

    var path: String { name.isEmpty ? folder : (folder == "/" ? "/" + name : folder + "/" + name) }
    var isDirectory: Bool { mask & UInt32(IN_ISDIR) != 0 }
    func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
  }

  /// Why a tree could not be watched whole.
  enum WatchError: Error {
    /// `fs.inotify.max_user_watches` is reached.
    case limit
    case failed(String)
  }

  /// What a folder's watch reports: entries made, written and closed, moved in and out,
  /// deleted, their attributes, and the folder itself going away or unmounted.
  static let mask: UInt32 =
    UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_ATTRIB)
    | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)

  private let fd: Int32
  /// Wakes `take` early: events arrived, or another thread wants the taker's attention.
  let wakePipe: WakePipe
  private struct Watches {
    var folders: [Int32: String] = [:]
    var descriptors: [String: Int32] = [:]
  }
  private let watches = Mutex(Watches())
  private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  /// Events read and not taken yet; past `queueLimit` they are dropped and `overflowed` set.
  private let queue = Mutex<(events: [Event], overflowed: Bool)>(([], false))
  static let queueLimit = 500_000
  private let reading = Mutex(false)
  private let readerDone = DispatchSemaphore(value: 0)
  /// Wakes the reading thread to stop (it waits for the kernel with no timeout otherwise).
  private let readerWake: WakePipe

  init() throws(WatchError) {
    fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { throw .failed(String(cString: strerror(errno))) }
    guard let pipe = WakePipe(), let readerPipe = WakePipe() else {
      close(fd)
      throw .failed(String(cString: strerror(errno)))
    }
    wakePipe = pipe
    readerWake = readerPipe
  }

  deinit {
    stopReading()
    close(fd)
  }

  var watchCount: Int { watches.withLock { $0.folders.count } }

  /// The kernel's limit on watches per user.
  static var userWatchLimit: Int? {
    (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8))
      .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// Watches `root` and every folder under it (hidden ones left out, as a sync leaves them);
  /// on `.limit` the watches it added stay (the caller removes the tree).
  func watchTree(_ root: String) throws(WatchError) {
    var pending = [root]
    while let folder = pending.popLast() {
      let wd = inotify_add_watch(fd, folder, Self.mask)
      if wd < 0 {
        switch errno {
        case ENOSPC: throw .limit
        case ENOENT, ENOTDIR, EACCES: continue  // gone meanwhile, or not ours to read: a sync says so
        default: throw .failed("\(folder): \(String(cString: strerror(errno)))")
        }
      }
      watches.withLock {
        $0.folders[wd] = folder
        $0.descriptors[folder] = wd
      }
      guard let dir = opendir(folder) else { continue }
      defer { closedir(dir) }
      while let entry = readdir(dir) {
        guard entry.pointee.d_type == DT_DIR || entry.pointee.d_type == DT_UNKNOWN else { continue }
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasPrefix(".") { continue }
        let path = folder == "/" ? "/" + name : folder + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
        pending.append(path)
      }
    }
  }

  /// Stops watching `root` and every folder under it.
  func unwatchTree(_ root: String) {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    watches.withLock { watches in
      for (folder, wd) in watches.descriptors where folder == root || folder.hasPrefix(prefix) {
        inotify_rm_watch(fd, wd)
        watches.descriptors[folder] = nil
        watches.folders[wd] = nil
      }
    }
  }

  /// Whether `folder` is watched.
  func isWatched(_ folder: String) -> Bool { watches.withLock { $0.descriptors[folder] != nil } }

  /// Starts the thread that reads the kernel's queue.
  func startReading() {
    let started = reading.withLock { running in
      defer { running = true }
      return !running
    }
    guard started else { return }
    let thread = Thread { [self] in
      while reading.withLock({ $0 }) {
        let (events, overflowed) = readKernel()
        guard !events.isEmpty || overflowed else { continue }
        queue.withLock { queue in
          if overflowed || queue.events.count + events.count > Self.queueLimit {
            queue.events.removeAll()
            queue.overflowed = true
          } else {
            queue.events += events
          }
        }
        wakePipe.wake()
      }
      readerDone.signal()
    }
    thread.start()
  }

  /// Stops the reading thread and waits for it.
  func stopReading() {
    let wasRunning = reading.withLock { running in
      defer { running = false }
      return running
    }
    guard wasRunning else { return }
    readerWake.wake()
    readerDone.wait()
  }

  /// Waits up to `timeout` seconds for events (or `wakePipe.wake()`), then returns what
  /// arrived; an empty list when none did. `overflowed` says events were dropped (a queue
  /// was full): everything watched is to be synced again.
  func take(timeout: Double) -> (events: [Event], overflowed: Bool) {
    var pending = queue.withLock { queue in
      defer { queue = ([], false) }
      return queue
    }
    guard pending.events.isEmpty && !pending.overflowed else { return pending }
    var waiter = pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0)
    if poll(&waiter, 1, Int32(max(0, min(timeout, 3_600)) * 1000)) > 0 { wakePipe.drain() }
    pending = queue.withLock { queue in
      defer { queue = ([], false) }
      return queue
    }
    return pending
  }

  /// Reads what the kernel has, waiting for it (or for `stopReading`) as long as it takes:
  /// nothing runs while nothing changes.
  private func readKernel() -> (events: [Event], overflowed: Bool) {
    var waiters = [
      pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
      pollfd(fd: readerWake.readFD, events: Int16(POLLIN), revents: 0),
    ]
    guard poll(&waiters, 2, -1) > 0 else { return ([], false) }
    if waiters[1].revents != 0 { readerWake.drain() }
    guard waiters[0].revents != 0 else { return ([], false) }
    var events: [Event] = []
    var overflowed = false
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { break }
      buffer.withUnsafeBytes { raw in
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= n {
          let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
          let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
          let cookie = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
          let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          guard offset + header + length <= n else { break }
          let nameBytes = UnsafeRawBufferPointer(rebasing: raw[(offset + header)..<(offset + header + length)])
          let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
          offset += header + length
          if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            overflowed = true
            continue
          }
          if mask & UInt32(IN_IGNORED) != 0 {
            // The watch is gone (its folder deleted or unmounted, or removed by us).
            watches.withLock { watches in
              if let folder = watches.folders[wd] {
                watches.folders[wd] = nil
                if watches.descriptors[folder] == wd { watches.descriptors[folder] = nil }
              }
            }
            continue
          }
          guard let folder = watches.withLock({ $0.folders[wd] }) else { continue }
          events.append(Event(folder: folder, name: name, mask: mask, cookie: cookie))
        }
      }
    }
    return (events, overflowed)
  }

}

/// A pipe another thread writes a byte to, to wake a `poll` that waits on its read end.
final class WakePipe: Sendable {
  let readFD: Int32
  let writeFD: Int32

  init?() {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    readFD = ends[0]
    writeFD = ends[1]
  }

  deinit {
    close(readFD)
    close(writeFD)
  }

  /// Makes a `poll` in progress (or the next one) return at once.
  func wake() {
    var one: UInt8 = 1
    _ = write(writeFD, &one, 1)
  }

  func drain() {
    var drained = [UInt8](repeating: 0, count: 64)
    while drained.withUnsafeMutableBytes({ Glibc.read(readFD, $0.baseAddress, $0.count) }) > 0 {}
  }
}
