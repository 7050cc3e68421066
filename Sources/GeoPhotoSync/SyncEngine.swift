public import Foundation
public import GeoPhotoCore
public import GeoPhotoStore
internal import Glibc

/// What a sync did, for its closing summary.
public struct SyncSummary: Equatable, Sendable {
  public var scanned = 0
  public var unchanged = 0
  public var added = 0
  public var updated = 0
  public var moved = 0
  public var removed = 0
  /// Files read in this sync that carry no usable location.
  public var withoutLocation = 0
  public var warnings = 0
  public var elapsed: Double = 0

  public init() {}
}

/// Progress of the reading phase.
public struct SyncProgress: Sendable {
  public var done: Int
  public var total: Int
  public var elapsed: Double
}

/// A sync that could not run; nothing in the index was changed.
public struct SyncRefusal: Error, CustomStringConvertible {
  public var description: String
}

/// Brings the index in line with photo folders.
///
/// - Unchanged files (same path, size and modification time) are not opened.
/// - New and changed files are read on all cores; writes go in batches, each its own
///   transaction, so a killed sync leaves a consistent index that the next sync completes.
/// - A new path whose content hash equals that of a file gone from the disk is a move: the
///   photo keeps its id.
/// - A missing, unreadable or suddenly empty root that the index holds photos under stops the
///   sync before anything changes: an unmounted disk must never empty the index.
/// - With a `namer`, each photo's place is named as it is written, in the same transaction;
///   the last transaction names whatever else needs it (a new gazetteer), and the spatial
///   index is brought up to date once, at the end.
public final class SyncEngine {
  let store: any PhotoStore
  public var jobs: Int
  public var batchSize = 1_000
  /// Called with one line per warning: the path and the reason.
  public var warn: (String, String) -> Void = { _, _ in }
  public var progress: ((SyncProgress) -> Void)?
  /// Names photos' places as they are written; nil leaves places as they are.
  public var namer: (any PlaceNamer)?

  public init(store: any PhotoStore, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.store = store
    self.jobs = max(1, jobs)
  }

  /// The absolute, symlink-free form of a root, as the index records it.
  public static func canonicalRoot(_ path: String) -> String {
    let absolute =
      path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    guard let resolved = realpath(absolute, nil) else {
      return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  public func sync(roots: [String]) throws -> SyncSummary {
    let started = DispatchTime.now()
    var summary = SyncSummary()
    let canonical = Self.uniqueRoots(roots.map(Self.canonicalRoot))

    // 1. Check every root before touching anything.
    var plans: [(root: String, walk: FolderWalker.Result, known: [KnownFile])] = []
    for root in canonical {
      let known = try store.knownFiles(under: root)
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory)
      let holding = known.isEmpty ? "" : "; the index holds \(known.count) photos under it"
      guard exists else {
        throw SyncRefusal(
          description:
            "\(root) does not exist (is the disk mounted?)\(holding). Nothing was changed.")
      }
      guard isDirectory.boolValue else {
        throw SyncRefusal(description: "\(root) is not a directory. Nothing was changed.")
      }
      guard access(root, R_OK | X_OK) == 0, let dir = opendir(root) else {
        throw SyncRefusal(
          description: "\(root) cannot be read (\(errnoText()))\(holding). Nothing was changed.")
      }
      closedir(dir)
      let walk = FolderWalker.walk(root)
      if walk.files.isEmpty && !known.isEmpty {
        throw SyncRefusal(
          description:
            "\(root) holds no photos now\(holding) (is the disk mounted?). Nothing was changed. "
            + "If the photos were really deleted, remove them with 'geophoto forget \(root)'.")
      }
      plans.append((root, walk, known))
    }

    // 2. Compare disk and index.
    var toRead: [FoundFile] = []
    var existingIDs: [String: Int64] = [:]
    var missing: [String: KnownFile] = [:]
    for plan in plans {
      for w in plan.walk.warnings { report(w.path, w.reason, &summary) }
      summary.scanned += plan.walk.files.count
      var knownByPath = Dictionary(plan.known.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
      for file in plan.walk.files {
        if let known = knownByPath.removeValue(forKey: file.path) {
          if known.state.size == file.size
            && known.state.changedNanoseconds == file.changeNanoseconds
          {
            summary.unchanged += 1
          } else {
            existingIDs[file.path] = known.id
            toRead.append(file)
          }
        } else {
          toRead.append(file)
        }
      }
      // What is left was not found; keep what sits in an unreadable folder.
      let shielded = plan.walk.unreadable
      for (path, known) in knownByPath
      where !shielded.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) {
        missing[path] = known
      }
    }
    var missingByHash: [String: [KnownFile]] = [:]
    for known in missing.values.sorted(by: { $0.path < $1.path }) {
      missingByHash[known.state.contentHash, default: []].append(known)
    }

    // 3. Read new and changed files in parallel, write them batch by batch.
    let now = indexTimestamp()
    var done = 0
    for batchStart in stride(from: 0, to: toRead.count, by: batchSize) {
      let batch = Array(toRead[batchStart..<min(toRead.count, batchStart + batchSize)])
      let reads = readInParallel(batch)
      for read in reads { if let w = read.warning { report(read.record.photo.sourceID, w, &summary) } }
      var records = reads.map(\.record)
      for i in records.indices { try records[i].name(with: namer) }
      try store.write {
        var fresh: [PhotoRecord] = []
        for record in records {
          let path = record.photo.sourceID
          if let id = existingIDs[path] {
            try store.update(id: id, with: record, now: now)
            summary.updated += 1
          } else if let hash = record.file?.contentHash, !hash.isEmpty,
            var candidates = missingByHash[hash], let origin = candidates.first,
            origin.state.size == record.file?.size
          {
            candidates.removeFirst()
            missingByHash[hash] = candidates
            missing[origin.path] = nil
            try store.update(id: origin.id, with: record, now: now)
            summary.moved += 1
          } else {
            fresh.append(record)
          }
          if record.photo.coordinate == nil { summary.withoutLocation += 1 }
          if let problem = record.problem { report(path, problem, &summary) }
        }
        // New files go together; one another sync of the same folder wrote first is an update.
        for result in try store.upsert(fresh, now: now) {
          if result.inserted { summary.added += 1 } else { summary.updated += 1 }
        }
      }
      done += batch.count
      progress?(SyncProgress(done: done, total: toRead.count, elapsed: seconds(since: started)))
    }

    // 4. Remove what is gone, record the roots, name what is left to name, refresh the
    // spatial index.
    let gone = missing.values.map(\.id).sorted()
    try store.write {
      for id in gone { try store.delete(id: id) }
      for root in canonical { try store.recordSyncRoot(root, now: now) }
      if let namer, try store.hasPhotosToPlace(gazetteer: namer.identity) { _ = try store.assignPlaces(with: namer) }
    }
    summary.removed = gone.count
    try store.refreshDerivedIndexes()
    summary.elapsed = seconds(since: started)
    return summary
  }

  private func report(_ path: String, _ reason: String, _ summary: inout SyncSummary) {
    summary.warnings += 1
    warn(path, reason)
  }

  private func readInParallel(_ files: [FoundFile]) -> [PhotoFileReader.Read] {
    let placeholder = PhotoFileReader.Read(
      record: PhotoRecord(photo: Photo(id: 0, source: .local, sourceID: "", title: "")))
    var records = [PhotoFileReader.Read](repeating: placeholder, count: files.count)
    records.withUnsafeMutableBufferPointer { buffer in
      nonisolated(unsafe) let out = buffer
      let workers = min(jobs, files.count)
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        // Interleaved assignment: each worker takes every `workers`-th file.
        var i = worker
        while i < files.count {
          out[i] = PhotoFileReader.read(files[i])
          i += workers
        }
      }
    }
    return records
  }

  private func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }

  /// Drops roots that sit inside another root of the same sync.
  static func uniqueRoots(_ roots: [String]) -> [String] {
    let sorted = Set(roots).sorted()
    var result: [String] = []
    for root in sorted
    where !result.contains(where: { root == $0 || root.hasPrefix($0 == "/" ? "/" : $0 + "/") }) {
      result.append(root)
    }
    return result
  }
}
