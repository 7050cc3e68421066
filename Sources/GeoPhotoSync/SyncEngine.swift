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

/// A part of a synced root to bring in line: a folder with everything under it, or with
/// `recursive` false the folder's own files (a folder's shots: photos, their pairs and
/// sidecars, always lie in one folder).
public struct SyncScope: Hashable, Sendable, Comparable {
  public var path: String
  public var recursive: Bool

  public init(_ path: String, recursive: Bool) {
    self.path = path
    self.recursive = recursive
  }

  public static func < (a: SyncScope, b: SyncScope) -> Bool {
    (a.path, a.recursive ? 0 : 1) < (b.path, b.recursive ? 0 : 1)
  }

  /// Whether this scope holds the file or folder at `path`.
  func covers(_ other: SyncScope) -> Bool {
    if other.path == path { return recursive || !other.recursive }
    guard recursive, other.path.hasPrefix(directoryPrefix(path)) else { return false }
    return true
  }

  /// `scopes` without those another one covers, in path order.
  static func unique(_ scopes: [SyncScope]) -> [SyncScope] {
    var result: [SyncScope] = []
    for scope in Set(scopes).sorted() where !result.contains(where: { $0.covers(scope) }) {
      result.append(scope)
    }
    return result
  }
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
  /// Called with one line per warning: the path and the reason, control characters escaped.
  public var warn: (String, String) -> Void = { _, _ in }
  public var progress: ((SyncProgress) -> Void)?
  /// Names photos' places as they are written; nil leaves places as they are.
  public var namer: (any PlaceNamer)?
  private var placesPrepared = false

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
    let canonical = Self.uniqueRoots(roots.map(Self.canonicalRoot))

    // 1. Check every root before touching anything.
    var plans: [(root: String, walk: FolderWalker.Result, known: [KnownFile])] = []
    for root in canonical {
      let known = try store.knownFiles(under: root)
      // Nothing known under the root: whatever the walk finds is new, and will be named.
      if known.isEmpty { preparePlaces() }
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory)
      let photos = Set(known.map(\.id)).count
      let holding = known.isEmpty ? "" : "; the index holds \(photos) photos under it"
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
    return try reconcile(plans.map { ($0.walk, $0.known) }, recording: canonical, started: started)
  }

  /// Brings the index in line with some folders of synced roots (what a watcher saw change):
  /// each scope's folder with everything under it, or its own files only. Unlike
  /// `sync(roots:)` it does not refuse a scope that is gone or empty (a folder deleted or
  /// emptied under a root that is there): the caller has checked the roots. A file that moved
  /// from one scope to another keeps its id. `roots` (those the scopes lie in) are recorded
  /// as synced.
  public func sync(scopes: [SyncScope], recording roots: [String]) throws -> SyncSummary {
    let started = DispatchTime.now()
    var plans: [(walk: FolderWalker.Result, known: [KnownFile])] = []
    for scope in SyncScope.unique(scopes) {
      var known = try store.knownFiles(under: scope.path)
      if !scope.recursive {
        let prefix = directoryPrefix(scope.path)
        known.removeAll { $0.path.dropFirst(prefix.count).contains("/") }
      }
      plans.append((FolderWalker.walk(scope.path, recursive: scope.recursive), known))
    }
    return try reconcile(plans, recording: roots, started: started)
  }

  /// Steps 2 to 4 of a sync, over the walked folders and the files the index knows there.
  private func reconcile(
    _ plans: [(walk: FolderWalker.Result, known: [KnownFile])], recording canonical: [String],
    started: DispatchTime
  ) throws -> SyncSummary {
    var pass = Pass(engine: self, started: started)
    pass.compare(plans)
    if pass.total > 0 { preparePlaces() }
    try pass.readAndWrite()
    try pass.finish(recording: canonical)
    return pass.summary
  }

  /// One reconciliation's state: what is known and read, what is decided and not written yet,
  /// and the summary so far.
  private struct Pass {
    let engine: SyncEngine
    let started: DispatchTime
    /// When this sync writes its rows.
    let now = IndexTime.now()
    var run = SyncRun()
    var summary = SyncSummary()
    /// Files to read in this sync (unchanged ones are not).
    var total = 0
    /// Files read so far.
    var done = 0
    /// What was decided and not written yet: written in transactions of about `batchSize`
    /// files, whatever the folders (a transaction a folder made a sync of small folders pay a
    /// commit, and the word index a segment, for each).
    var unwritten: (decisions: [SyncRun.Decision], absorbed: [Int64], files: Int) = ([], [], 0)

    init(engine: SyncEngine, started: DispatchTime) {
      self.engine = engine
      self.started = started
    }

    /// 2. Compare disk and index: what each known file belongs to, which files are new or
    /// changed, what was not found, and the walked files as shots (`ShotGrouping`).
    mutating func compare(_ plans: [(walk: FolderWalker.Result, known: [KnownFile])]) {
      for plan in plans {
        for w in plan.walk.warnings { engine.report(w.path, w.reason, &summary) }
        summary.scanned += plan.walk.files.count
        run.know(plan.known, walked: plan.walk.files, unreadable: plan.walk.unreadable)
        run.shots += ShotGrouping.groups(plan.walk.files)
      }
      total = run.shots.reduce(0) { $0 + $1.filter { !run.isUnchanged($0) }.count }
    }

    /// 3. Folder by folder, in batches of about `batchSize` files to read: read what changed,
    /// join Live Photos and decide each changed shot's photo; the photos of about `batchSize`
    /// files are written in one transaction. A still or video whose Live Photo partner is not
    /// in its batch waits for the end of its folder, where the folder's waiting shots are
    /// joined and decided. Each batch's files are read on the other cores while the batch
    /// before it is decided and written.
    mutating func readAndWrite() throws {
      let batches = SyncEngine.batches(run.shots, size: engine.batchSize, isUnchanged: run.isUnchanged)
      var reading = ReadAhead(batches.first?.toRead ?? [], jobs: engine.jobs, naming: engine.namer)
      var waiting: [[FoundFile]] = []
      for (i, batch) in batches.enumerated() {
        let read = try reading.wait()
        if i + 1 < batches.count { reading = ReadAhead(batches[i + 1].toRead, jobs: engine.jobs, naming: engine.namer) }
        absorb(read, of: batch.toRead)
        var ready: [[FoundFile]] = []
        for shot in ShotGrouping.joiningLivePhotos(batch.shots, identifier: run.contentID(of:)) {
          if run.awaitsLivePartner(shot) { waiting.append(shot) } else { ready.append(shot) }
        }
        try settle(ready)
        reportProgress()
        guard batch.endsFolder else { continue }
        let joined = ShotGrouping.joiningLivePhotos(waiting, identifier: run.contentID(of:))
        waiting = []
        for start in stride(from: 0, to: joined.count, by: engine.batchSize) {
          try settle(Array(joined[start..<min(joined.count, start + engine.batchSize)]))
          reportProgress()
        }
      }
      try flush()
    }

    /// Files read: their records kept for deciding, their problems and warnings reported.
    mutating func absorb(_ results: [PhotoFileReader.Read], of files: [FoundFile]) {
      guard !files.isEmpty else { return }
      for result in results {
        let path = result.record.photo.sourceID
        if let problem = result.record.problem { engine.report(path, problem, &summary) }
        if let warning = result.warning { engine.report(path, warning, &summary) }
        run.records[path] = result.record
      }
      done += files.count
    }

    /// Shots whose files are all known: the unchanged claimed, the changed read (what is not
    /// yet) and decided, and written once about `batchSize` files wait.
    mutating func settle(_ shots: [[FoundFile]]) throws {
      var changed: [[FoundFile]] = []
      for shot in shots {
        if let ids = run.unchangedPhotos(shot) {
          run.claimed.formUnion(ids)
          summary.unchanged += shot.count
        } else {
          changed.append(shot)
        }
      }
      // A changed shot is decided from all its files, as the photos they are (files of one
      // name taken apart are photos of their own).
      let unread = changed.flatMap { $0.filter { run.records[$0.path] == nil } }
      absorb(try SyncEngine.readInParallel(unread, jobs: engine.jobs, naming: engine.namer), of: unread)
      let photos = changed.flatMap { shot in
        ShotGrouping.splitting(shot, records: shot.map { run.record(of: $0) })
      }
      let decisions = run.decide(photos)
      unwritten.absorbed += run.absorbed(by: decisions)
      unwritten.decisions += decisions
      unwritten.files += changed.reduce(0) { $0 + $1.count }
      if unwritten.files >= engine.batchSize { try flush() }
      for shot in shots { for file in shot { run.records[file.path] = nil } }
    }

    /// Writes what was decided, in one transaction.
    mutating func flush() throws {
      guard !unwritten.decisions.isEmpty || !unwritten.absorbed.isEmpty else { return }
      try engine.write(
        unwritten.decisions, absorbed: unwritten.absorbed, primaryOf: run.primaryOf, now: now, summary: &summary)
      unwritten = ([], [], 0)
    }

    func reportProgress() {
      engine.progress?(SyncProgress(done: done, total: max(total, done), elapsed: engine.seconds(since: started)))
    }

    /// 4. Remove photos with no file left, record the roots, name what is left to name,
    /// refresh the spatial index.
    mutating func finish(recording canonical: [String]) throws {
      let gone = run.unclaimed()
      let (store, namer, now) = (engine.store, engine.namer, now)
      try store.write {
        for id in gone { try store.delete(id: id) }
        for root in canonical { try store.recordSyncRoot(root, now: now) }
        if let namer, try store.hasPhotosToPlace(gazetteer: namer.identity) { _ = try store.assignPlaces(with: namer) }
      }
      summary.removed += gone.count
      // Every place is named: the gazetteer's pages are not held while the spatial index is built.
      namer?.rest()
      try store.refreshDerivedIndexes()
      summary.elapsed = engine.seconds(since: started)
    }
  }

  /// Has the namer make its gazetteer ready on another thread, once, when photos to name may
  /// come: it loads while the folders are walked and the first files read. (A failure is
  /// reported when a place is first named.)
  private func preparePlaces() {
    guard let namer, !placesPrepared else { return }
    placesPrepared = true
    DispatchQueue.global().async { try? namer.prepare() }
  }

  /// Writes decided shots (and deletes the photos they `absorbed`) in one transaction.
  private func write(
    _ decisions: [SyncRun.Decision], absorbed: [Int64], primaryOf: [Int64: String], now: IndexTime,
    summary: inout SyncSummary
  ) throws {
    try store.write {
      // Photos whose files all joined another shot are merged away, freeing their paths.
      for id in absorbed { try store.delete(id: id) }
      // No two rows may hold one path, even for a moment: rows whose primary file changes
      // step aside first.
      for d in decisions {
        guard let id = d.id, primaryOf[id] != d.record.photo.sourceID else { continue }
        var parked = d.record
        parked.photo.sourceID = "\u{1}parked/\(id)"
        try store.update(id: id, with: parked, now: now)
      }
      var fresh: [SyncRun.Decision] = []
      for d in decisions {
        guard let id = d.id else {
          fresh.append(d)
          continue
        }
        try store.update(id: id, with: d.record, now: now)
        try store.setMembers(of: id, d.members)
      }
      // New shots go together; one another sync of the same folder wrote first is an update.
      for (d, result) in zip(fresh, try store.upsert(fresh.map(\.record), now: now)) {
        if !d.members.isEmpty || !result.inserted { try store.setMembers(of: result.id, d.members) }
        if result.inserted { summary.added += 1 } else { summary.updated += 1 }
      }
    }
    summary.removed += absorbed.count
    for d in decisions {
      if d.record.photo.coordinate == nil { summary.withoutLocation += 1 }
      if d.id != nil {
        if d.moved { summary.moved += 1 } else { summary.updated += 1 }
      }
    }
  }

  /// One warning line's parts, control characters escaped: a file's name (or what a damaged
  /// file says of itself) cannot end the line or forge another.
  private func report(_ path: String, _ reason: String, _ summary: inout SyncSummary) {
    summary.warnings += 1
    warn(LogText.escaped(path), LogText.escaped(reason))
  }

  /// A batch of shots of one folder, the files of them to read, and whether it is its
  /// folder's last.
  struct Batch {
    var shots: [[FoundFile]] = []
    var toRead: [FoundFile] = []
    var endsFolder = false
  }

  /// `shots` (folder by folder) in batches of about `size` files to read, never across folders.
  static func batches(_ shots: [[FoundFile]], size: Int, isUnchanged: (FoundFile) -> Bool) -> [Batch] {
    var batches: [Batch] = []
    var next = 0
    while next < shots.count {
      let folder = ShotGrouping.folder(of: shots[next][0].path)
      while next < shots.count, ShotGrouping.folder(of: shots[next][0].path) == folder {
        var batch = Batch()
        while next < shots.count, ShotGrouping.folder(of: shots[next][0].path) == folder, batch.toRead.count < size {
          batch.toRead += shots[next].filter { !isUnchanged($0) }
          batch.shots.append(shots[next])
          next += 1
        }
        batches.append(batch)
      }
      batches[batches.count - 1].endsFolder = true
    }
    return batches
  }

  /// Files being read on every core (`jobs` at once) while the engine goes on: `wait()`
  /// gives what was read, in the files' order.
  final class ReadAhead: @unchecked Sendable {
    private var results: Result<[PhotoFileReader.Read], any Error> = .success([])
    private let finished = DispatchSemaphore(value: 0)

    init(_ files: [FoundFile], jobs: Int, naming namer: (any PlaceNamer)?) {
      guard !files.isEmpty else {
        finished.signal()
        return
      }
      DispatchQueue.global().async {
        self.results = Result { try SyncEngine.readInParallel(files, jobs: jobs, naming: namer) }
        self.finished.signal()
      }
    }

    /// What was read; waits for it. Called once.
    func wait() throws -> [PhotoFileReader.Read] {
      finished.wait()
      return try results.get()
    }
  }

  /// `files` read on `jobs` threads, in their order, each located photo's place named with
  /// `namer` as it is read (naming is most of what a photo costs besides its file, and the
  /// threads that write the index are one); the first naming failure is thrown.
  static func readInParallel(_ files: [FoundFile], jobs: Int, naming namer: (any PlaceNamer)?) throws
    -> [PhotoFileReader.Read]
  {
    guard !files.isEmpty else { return [] }
    let placeholder = PhotoFileReader.Read(
      record: PhotoRecord(photo: Photo(id: 0, source: .local, sourceID: "", title: "")))
    var records = [PhotoFileReader.Read](repeating: placeholder, count: files.count)
    var failures = [(any Error)?](repeating: nil, count: files.count)
    records.withUnsafeMutableBufferPointer { buffer in
      failures.withUnsafeMutableBufferPointer { failed in
        nonisolated(unsafe) let out = buffer
        nonisolated(unsafe) let errors = failed
        let workers = min(jobs, files.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
          // Interleaved assignment: each worker takes every `workers`-th file.
          var i = worker
          while i < files.count {
            out[i] = PhotoFileReader.read(files[i])
            do {
              try out[i].record.name(with: namer)
            } catch {
              errors[i] = error
            }
            i += workers
          }
        }
      }
    }
    if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
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
