import Foundation
import GeoPhotoCore
import GeoPhotoStore
internal import Glibc
import Synchronization

/// `sync --watch`: a normal sync of the roots, then the index kept in line with them as they
/// change, until `stop()`.
///
/// - Roots are followed with inotify, one watch per folder (folders made later are watched as
///   they appear). A change marks its folder (its own files; a folder made, moved or deleted,
///   that folder with everything under it); once changes stop for `settle` seconds, or the
///   first is `maximumDelay` old, the marked folders are synced in one run of the sync engine
///   (so a file moved from one folder to another keeps its id, and a burst of thousands of
///   files is a few transactions). A file still being written is left until it is closed, or
///   until it has not changed for `stableFor` seconds; its folder waits with it.
/// - Roots on filesystems that do not report changes made elsewhere (NFS, SMB/CIFS, FUSE; from
///   the mount table), roots under `pollPaths`, and roots beyond the kernel's watch limit are
///   synced again every `pollInterval` instead.
/// - A root that goes away (unmounted, deleted, renamed) or suddenly looks empty changes
///   nothing: the watcher says so once, looks for it every `awayCheck` seconds, and catches up
///   with a normal sync of it when it is back.
///
/// `run` keeps its state to itself on the thread that calls it (which may be another than the
/// one that made the watcher); `stop()` and `stopper` may be used from any thread.
public final class FolderWatch: @unchecked Sendable {
  public struct Options: Sendable {
    public var pollInterval: Double = 300
    public var pollPaths: [String] = []
    public var settle: Double = 0.5
    public var maximumDelay: Double = 1.5
    public var stableFor: Double = 2
    public var awayCheck: Double = 5

    public init() {}
  }

  /// What the watcher tells its caller.
  public enum Note {
    /// The first sync of the roots it can reach.
    case started(SyncSummary)
    /// A batch that changed the index.
    case batch(SyncSummary)
    /// One line about the watch itself (a root polled, away or back, a failed batch).
    case message(String)
  }

  /// How a root is followed.
  enum Mode: Equatable {
    /// By inotify, while its folder is the one watched (device and inode).
    case watched(device: UInt64, inode: UInt64)
    case polled(next: Date)
    /// Gone or empty; looked for again at `next`.
    case away(next: Date, polled: Bool)
  }

  private var engine: SyncEngine
  private var store: any PhotoStore
  public let roots: [String]
  let options: Options
  let note: (Note) -> Void
  private let inotify: Inotify
  /// Stops `run` from any thread (a signal handler's).
  public let stopper: Stopper

  private var modes: [String: Mode] = [:]
  /// Folders to sync, and whether with everything under them.
  private var dirty: [String: Bool] = [:]
  private var firstChange: Date?
  private var lastChange: Date?
  /// Files being written, with the time of their last change.
  private var writing: [String: Date] = [:]
  /// A failed batch is tried again from then on; its message is said once.
  private var retryAt: Date?
  private var lastFailure: String?

  /// Makes the engine (on a connection of its own to the index) the watcher syncs with; asked
  /// again after a whole sync, so what it left mapped or cached goes.
  public typealias EngineMaker = () throws -> SyncEngine
  private let makeEngine: EngineMaker

  /// A watcher of `roots` (folders, canonical or not) syncing with the engines `makeEngine` makes.
  public init(
    roots: [String], options: Options = Options(), engine makeEngine: @escaping EngineMaker,
    note: @escaping (Note) -> Void
  ) throws {
    self.makeEngine = makeEngine
    engine = try makeEngine()
    store = engine.store
    self.roots = SyncEngine.uniqueRoots(roots.map(SyncEngine.canonicalRoot))
    self.options = options
    self.note = note
    do {
      inotify = try Inotify()
    } catch {
      throw SyncRefusal(description: "cannot watch folders: inotify is not available (\(error))")
    }
    stopper = Stopper(inotify.wakePipe)
  }

  /// Makes `run` return once the batch in flight (if any) is written.
  public final class Stopper: Sendable {
    private let stopping = Mutex(false)
    private let pipe: WakePipe

    init(_ pipe: WakePipe) { self.pipe = pipe }

    public func stop() {
      stopping.withLock { $0 = true }
      pipe.wake()
    }

    var isStopped: Bool { stopping.withLock { $0 } }
  }

  public func stop() { stopper.stop() }

  private var stopped: Bool { stopper.isStopped }

  /// How each root is followed now, for messages and tests: "watched", "polled" or "away".
  public var modeNames: [String: String] {
    modes.mapValues {
      switch $0 {
      case .watched: "watched"
      case .polled: "polled"
      case .away: "away"
      }
    }
  }

  /// Syncs the roots, then follows them until `stop()`. A root that does not exist while
  /// the index holds nothing under it is a mistake (a typo), not a disk away: an error.
  public func run() throws {
    for root in roots where !FileManager.default.fileExists(atPath: root) {
      if try store.knownFiles(under: root).isEmpty {
        throw SyncRefusal(description: "\(root) does not exist (and the index holds no photos under it)")
      }
    }
    let mounts = MountTable.mounts()
    let polledPaths = options.pollPaths.map(SyncEngine.canonicalRoot)
    for root in roots {
      if let path = polledPaths.first(where: { root == $0 || root.hasPrefix(directoryPrefix($0)) }) {
        modes[root] = .polled(next: .distantPast)
        note(.message("\(root): polled every \(Self.describe(options.pollInterval)) (it is under \(path))"))
      } else if let mount = MountTable.mount(of: root, in: mounts), MountTable.isRemote(type: mount.type) {
        modes[root] = .polled(next: .distantPast)
        note(
          .message(
            "\(root): on \(mount.type) (\(mount.point)), which does not report changes made elsewhere: synced again "
              + "every \(Self.describe(options.pollInterval)) (--poll)"))
      } else {
        watch(root)
      }
    }
    // Changes during the first sync are kept for after it.
    inotify.startReading()
    defer { inotify.stopReading() }
    // The first sync, of every root that is there; the others wait.
    var first = SyncSummary()
    for root in roots {
      guard let summary = syncWhole(root, first: true) else { continue }
      first = Self.adding(summary, to: first)
      if case .polled = modes[root] { modes[root] = .polled(next: Date().addingTimeInterval(options.pollInterval)) }
    }
    note(.started(first))
    freshConnection()

    while !stopped {
      let (events, overflowed) = inotify.take(timeout: timeout())
      let now = Date()
      if overflowed {
        // Events were dropped: everything watched is synced again.
        note(.message("more changes at once than inotify's queue holds: every watched folder is synced again"))
        for (root, mode) in modes {
          if case .watched = mode { mark(root, recursive: true, at: now) }
        }
      }
      for event in events { handle(event, at: now) }
      settleWriting(at: now)
      if stopped { break }
      runBatchIfDue(at: now)
      for (root, mode) in modes {
        switch mode {
        case .polled(let next) where next <= now:
          if let summary = syncWhole(root) {
            modes[root] = .polled(next: Date().addingTimeInterval(options.pollInterval))
            report(summary)
          }
        case .away(let next, let polled) where next <= now:
          guard let summary = syncWhole(root, quietly: true) else {
            modes[root] = .away(next: Date().addingTimeInterval(options.awayCheck), polled: polled)
            continue
          }
          note(.message("\(root) is back; caught up"))
          if polled {
            modes[root] = .polled(next: Date().addingTimeInterval(options.pollInterval))
          } else {
            watch(root)
          }
          report(summary)
        default: continue
        }
      }
    }
  }

  // MARK: Watching

  /// Watches `root`'s tree; at the kernel's limit, polls it instead (and says how to raise it).
  private func watch(_ root: String) {
    var info = stat()
    guard stat(root, &info) == 0 else {
      modes[root] = .away(next: Date().addingTimeInterval(options.awayCheck), polled: false)
      return
    }
    do {
      try inotify.watchTree(root)
      modes[root] = .watched(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    } catch {
      inotify.unwatchTree(root)
      modes[root] = .polled(next: Date().addingTimeInterval(options.pollInterval))
      switch error {
      case .limit:
        let limit = Inotify.userWatchLimit.map { " (\($0))" } ?? ""
        note(
          .message(
            "\(root): more folders than the kernel's inotify watch limit\(limit) allows: synced again every "
              + "\(Self.describe(options.pollInterval)) instead; raise it with "
              + "'sudo sysctl fs.inotify.max_user_watches=1048576' (and in /etc/sysctl.d to keep it)"))
      case .failed(let why):
        note(.message("\(root): cannot be watched (\(why)): synced again every \(Self.describe(options.pollInterval))"))
      }
    }
  }

  /// The root `path` lies in.
  private func root(of path: String) -> String? {
    roots.filter { path == $0 || path.hasPrefix(directoryPrefix($0)) }.max { $0.count < $1.count }
  }

  private func mark(_ folder: String, recursive: Bool, at now: Date) {
    dirty[folder] = recursive || (dirty[folder] ?? false)
    if firstChange == nil { firstChange = now }
    lastChange = now
  }

  private func handle(_ event: Inotify.Event, at now: Date) {
    if event.name.isEmpty {
      // The folder itself went (deleted, moved, unmounted): a root is away; a folder inside
      // one is seen by its parent's watch.
      guard event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_UNMOUNT),
        roots.contains(event.folder)
      else { return }
      goAway(event.folder, because: event.has(IN_UNMOUNT) ? "was unmounted" : "went away")
      return
    }
    if event.name.hasPrefix(".") { return }
    let path = event.path
    if event.isDirectory {
      if event.has(IN_CREATE) || event.has(IN_MOVED_TO) {
        if let root = root(of: path), case .watched = modes[root] {
          do {
            try inotify.watchTree(path)
          } catch {
            inotify.unwatchTree(root)
            watch(root)  // says why, and polls it
          }
        }
        mark(path, recursive: true, at: now)
      } else if event.has(IN_DELETE) || event.has(IN_MOVED_FROM) {
        inotify.unwatchTree(path)
        mark(path, recursive: true, at: now)
      }
      return
    }
    let lower = event.name.lowercased()
    guard FolderWalker.isPhotoName(Substring(event.name)) || lower.hasSuffix(".xmp") || lower.hasSuffix(".json")
    else { return }
    if event.has(IN_CLOSE_WRITE) {
      writing[path] = nil
      mark(event.folder, recursive: false, at: now)
    } else if event.has(IN_CREATE) || event.has(IN_MODIFY) {
      writing[path] = now
    } else {
      // Moved in or out, deleted, or its attributes (a touch) changed.
      if event.has(IN_DELETE) || event.has(IN_MOVED_FROM) { writing[path] = nil }
      mark(event.folder, recursive: false, at: now)
    }
  }

  /// Files unchanged for `stableFor` seconds are written: their folders are synced.
  private func settleWriting(at now: Date) {
    for (path, last) in writing where now.timeIntervalSince(last) >= options.stableFor {
      writing[path] = nil
      mark(String(ShotGrouping.folder(of: path)), recursive: false, at: now)
    }
  }

  /// Whether a file of `scope` is still being written.
  private func isWriting(in folder: String, recursive: Bool) -> Bool {
    writing.keys.contains { path in
      let parent = ShotGrouping.folder(of: path)
      return parent == Substring(folder) || (recursive && path.hasPrefix(directoryPrefix(folder)))
    }
  }

  // MARK: Syncing

  private func runBatchIfDue(at now: Date) {
    guard let first = firstChange, let last = lastChange, !dirty.isEmpty else { return }
    if let retryAt, now < retryAt { return }
    guard now.timeIntervalSince(last) >= options.settle || now.timeIntervalSince(first) >= options.maximumDelay
    else { return }
    // Folders with a file still being written wait for it.
    let ready = dirty.filter { !isWriting(in: $0.key, recursive: $0.value) }
    guard !ready.isEmpty else { return }
    var scopes: [SyncScope] = []
    var involved = Set<String>()
    for (folder, recursive) in ready {
      dirty[folder] = nil
      guard let root = root(of: folder), isHere(root) else { continue }
      scopes.append(SyncScope(folder, recursive: recursive))
      involved.insert(root)
    }
    firstChange = dirty.isEmpty ? nil : now
    lastChange = dirty.isEmpty ? nil : lastChange
    guard !scopes.isEmpty else { return }
    do {
      report(try engine.sync(scopes: scopes, recording: involved.sorted()))
      retryAt = nil
      lastFailure = nil
      freshConnection()
    } catch {
      // Nothing of the batch is lost: its folders are tried again in a few seconds.
      for scope in scopes { mark(scope.path, recursive: scope.recursive, at: now) }
      retryAt = now.addingTimeInterval(options.awayCheck)
      let message = "changes could not be written (tried again in \(Self.describe(options.awayCheck))): \(error)"
      if message != lastFailure { note(.message(message)) }
      lastFailure = message
    }
  }

  /// Whether a watched root is still the folder that was watched; one that is not (unmounted,
  /// replaced) goes away.
  private func isHere(_ root: String) -> Bool {
    guard case .watched(let device, let inode) = modes[root] else { return false }
    var info = stat()
    if stat(root, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode { return true }
    goAway(root, because: "is no longer the folder that was watched (unmounted or replaced)")
    return false
  }

  private func goAway(_ root: String, because why: String) {
    if case .away = modes[root] { return }
    var polled = false
    if case .polled = modes[root] { polled = true }
    inotify.unwatchTree(root)
    modes[root] = .away(next: Date().addingTimeInterval(options.awayCheck), polled: polled)
    let prefix = directoryPrefix(root)
    dirty = dirty.filter { $0.key != root && !$0.key.hasPrefix(prefix) }
    writing = writing.filter { !$0.key.hasPrefix(prefix) }
    note(.message("\(root) \(why): nothing is changed; waiting for it to come back"))
  }

  /// After a whole sync: a new connection to the index (the old one's mapped pages of the
  /// index file go with it) and the freed memory back to the system, so a watcher that has
  /// read every row once holds only what its batches need.
  private func freshConnection() {
    if let fresh = try? makeEngine() {
      engine = fresh
      store = fresh.store
    }
    ProcessMemory.releaseFreed()
  }

  /// A normal sync of `root` (its checks included); nil when it refused (the root is away,
  /// said once unless `quietly`).
  private func syncWhole(_ root: String, first: Bool = false, quietly: Bool = false) -> SyncSummary? {
    do {
      defer { if !first { freshConnection() } }
      return try engine.sync(roots: [root])
    } catch let refusal as SyncRefusal {
      if case .away = modes[root] {
      } else {
        var polled = false
        if case .polled = modes[root] { polled = true }
        inotify.unwatchTree(root)
        modes[root] = .away(next: Date().addingTimeInterval(options.awayCheck), polled: polled)
        if !quietly { note(.message("\(refusal.description) Waiting for it to come back.")) }
      }
      return nil
    } catch {
      note(.message("\(root) could not be synced (tried again later): \(error)"))
      if !first, case .polled = modes[root] {
      } else if case .watched = modes[root] {
        mark(root, recursive: true, at: Date())
      }
      return nil
    }
  }

  private func report(_ summary: SyncSummary) {
    if summary.added + summary.updated + summary.removed + summary.moved + summary.warnings > 0 {
      note(.batch(summary))
    }
  }

  /// How long `read` may wait: until the next batch, settled file, poll or look for an away
  /// root is due (a minute at most when nothing is).
  private func timeout() -> Double {
    let now = Date()
    var wait = 60.0
    if let first = firstChange, let last = lastChange, !dirty.isEmpty {
      let due = min(last.addingTimeInterval(options.settle), first.addingTimeInterval(options.maximumDelay))
      wait = min(wait, max(retryAt.map { $0.timeIntervalSince(now) } ?? 0, due.timeIntervalSince(now)))
    }
    if let oldest = writing.values.min() {
      wait = min(wait, oldest.addingTimeInterval(options.stableFor).timeIntervalSince(now))
    }
    for mode in modes.values {
      switch mode {
      case .polled(let next), .away(let next, _): wait = min(wait, next.timeIntervalSince(now))
      case .watched: continue
      }
    }
    return max(0.01, wait)
  }

  static func adding(_ a: SyncSummary, to b: SyncSummary) -> SyncSummary {
    var sum = b
    sum.scanned += a.scanned
    sum.unchanged += a.unchanged
    sum.added += a.added
    sum.updated += a.updated
    sum.moved += a.moved
    sum.removed += a.removed
    sum.withoutLocation += a.withoutLocation
    sum.warnings += a.warnings
    sum.elapsed += a.elapsed
    return sum
  }

  /// `300` as "5m", `90` as "90s".
  static func describe(_ seconds: Double) -> String {
    if seconds >= 3_600, seconds.truncatingRemainder(dividingBy: 3_600) == 0 { return "\(Int(seconds / 3_600))h" }
    if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60))m" }
    return seconds == seconds.rounded() ? "\(Int(seconds))s" : String(format: "%.1fs", seconds)
  }
}
