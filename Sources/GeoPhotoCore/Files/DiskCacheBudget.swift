public import Foundation
import Synchronization

/// The files of a cache folder held to a total size: each file kept or read is counted, and
/// when the total passes `maximumBytes` the least recently used go until it is a tenth under.
/// What the folder held before (an earlier run's files) is counted on first use, oldest by
/// modification time first. However many distinct things clients ask for, the folder never
/// grows past its bound by more than the file being added.
public final class DiskCacheBudget: Sendable {
  public let directory: URL
  public let maximumBytes: Int

  private struct State {
    /// Whether the folder's earlier files were counted (or are being counted).
    var scanned = false
    var files: [String: (bytes: Int, used: UInt64)] = [:]
    var total = 0
    var clock: UInt64 = 0
  }

  private let state = Mutex(State())

  public init(directory: URL, maximumBytes: Int) {
    self.directory = directory
    self.maximumBytes = max(1, maximumBytes)
  }

  /// The bytes the folder's files take, as counted.
  public var totalBytes: Int { state.withLock { $0.total } }

  /// A file of the cache was read: it is the most recently used.
  public func used(_ file: URL) {
    scanOnce()
    state.withLock { state in
      state.clock += 1
      state.files[file.path]?.used = state.clock
    }
  }

  /// A file of `bytes` was written into the cache: counted, and the least recently used
  /// removed while the total is over the bound.
  public func added(_ file: URL, bytes: Int) {
    scanOnce()
    let evicted = state.withLock { state -> [String] in
      state.clock += 1
      state.total -= state.files[file.path]?.bytes ?? 0
      state.files[file.path] = (bytes, state.clock)
      state.total += bytes
      guard state.total > maximumBytes else { return [] }
      var gone: [String] = []
      let target = maximumBytes - maximumBytes / 10
      for (path, entry) in state.files.sorted(by: { $0.value.used < $1.value.used }) where path != file.path {
        guard state.total > target else { break }
        state.total -= entry.bytes
        state.files[path] = nil
        gone.append(path)
      }
      return gone
    }
    for path in evicted { unlink(path) }
  }

  /// Counts what the folder held before, once: walked outside the lock (a large folder does
  /// not hold up the requests meanwhile), then merged under it, older than anything counted
  /// since.
  private func scanOnce() {
    let first = state.withLock { state -> Bool in
      defer { state.scanned = true }
      return !state.scanned
    }
    guard first else { return }
    let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
    var found: [(path: String, bytes: Int, modified: Date)] = []
    if let walk = FileManager.default.enumerator(
      at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    {
      for case let url as URL in walk {
        guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
        found.append((url.path, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
      }
    }
    state.withLock { state in
      // Files counted meanwhile keep their place; the earlier ones go before them all.
      var clock: UInt64 = 0
      let earliest = state.files.values.map(\.used).min() ?? state.clock
      for entry in found.sorted(by: { $0.modified < $1.modified }) where state.files[entry.path] == nil {
        clock += 1
        state.files[entry.path] = (entry.bytes, min(clock, earliest &- 1))
        state.total += entry.bytes
      }
      state.clock = max(state.clock, clock)
    }
  }
}
