import Dispatch
import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoStore
import GeoPhotoSync
import GeoPhotoThumbnails
import Synchronization

enum SyncCommand: Subcommand {
  static let spec = CommandSpec(
    name: "sync",
    abstract: "Index the photos in local folders (recursively, incrementally).",
    discussion: """
      Reads GPS position, capture date, title, camera and size from the EXIF and XMP of every
      photo and video under each folder, from the XMP sidecars beside them, and from Google
      Takeout JSON sidecars (which fill what a file lacks: position, capture time, title).
      Files of one shot are one photo: the same name in one folder (a RAW and its JPEG, a
      HEIC and its MOV), Pixel RAW-01.COVER/RAW-02.ORIGINAL pairs, and Live Photos paired by
      their content identifier. Files whose size and modification time are unchanged are
      not read again; a moved or renamed file keeps its id; deleted files leave the index.
      Hidden files and folders (names starting with '.') are skipped. If a folder is
      missing, unreadable or suddenly empty while the index holds photos under it, the sync
      stops and changes nothing.

      With --watch it then keeps the index in line as files change, until SIGINT or SIGTERM
      (the batch in flight is finished; exit 0): inotify follows local folders (new folders
      as they appear); folders on network shares and FUSE (from the mount table), under a
      --poll-path, or beyond the kernel's watch limit are synced again every --poll. Changes
      are gathered for half a second (at most 1.5 s) and written together, one line per
      batch ('+3 ~1 -0 moved 2': added, updated, removed, moved); a file still being written
      waits until it is closed or has not changed for 2 s. A folder that goes away or
      suddenly looks empty (an unmounted disk) changes nothing: the watcher says so and
      catches up when it is back.

      Formats: \(PhotoFormat.summary).
      Extensions (any case): \(PhotoFormat.allExtensions.map { "." + $0 }.joined(separator: " ")).
      """,
    arguments: [.init(name: "dir", help: "A folder of photos.", repeating: true, completion: .directory)],
    options: [
      Setting.syncJobs.option,
      thumbnails.spec, watchFlag.spec,
      Setting.watchPoll.option,
      Setting.watchPollPaths.option,
      quiet.spec,
    ],
    examples: [
      "geophoto sync ~/Pictures", "geophoto sync /mnt/photos/2023 /mnt/photos/2024 --db trip.sqlite",
      "geophoto sync ~/Downloads/Takeout", "geophoto sync ~/Pictures --thumbnails",
      "geophoto sync --watch ~/Pictures /mnt/nas/photos", "geophoto sync --watch /mnt/smb/photos --poll 10m",
    ])

  static let thumbnails = FlagOption(
    long: "thumbnails",
    help: "Then make the thumbnails 'serve' answers with, ahead of time, on every core (kept beside the index).")
  static let watchFlag = FlagOption(
    long: "watch", short: "w", help: "Then keep syncing as files change, until stopped.")
  static let quiet = FlagOption(
    long: "quiet", short: "q", help: "No summary lines (warnings and errors still go to stderr).")

  static func run(_ context: CommandContext) throws {
    let roots = context.parsed.positionals
    guard !roots.isEmpty else { throw UsageError("Missing expected argument '<dir> ...'") }
    if context.parsed.has(thumbnails)
      && CommandContext.stores.localDirectory(context.configuration.databasePath) == nil
    {
      throw UsageError("'--thumbnails' keeps thumbnails beside a local index; a PostgreSQL index keeps none")
    }
    let console = context.console
    let quiet = context.parsed.has(Self.quiet)
    if context.parsed.has(watchFlag) {
      if context.parsed.has(thumbnails) { throw UsageError("'--thumbnails' and '--watch' do not go together") }
      try watch(roots, context: context, quiet: quiet)
      return
    }
    let store = try context.openOrCreateStore()
    let engine = try makeEngine(context, store: store)
    if console.errIsTerminal {
      engine.progress = { p in
        let rate = p.elapsed > 0 ? Int(Double(p.done) / p.elapsed) : 0
        console.err("\r\u{1B}[Kreading \(p.done)/\(p.total) files (\(rate) files/s)")
      }
    }
    let summary: SyncSummary
    do {
      summary = try engine.sync(roots: roots)
    } catch let refusal as SyncRefusal {
      throw RuntimeError(refusal.description)
    }
    if console.errIsTerminal && engine.progress != nil { console.err("\r\u{1B}[K") }
    if !quiet { console.out(describe(summary) + "\n") }
    if context.parsed.has(thumbnails) { try makeThumbnails(context, store) }
  }

  /// A sync engine on `store` (a new connection to the index when nil) with the configured
  /// jobs, batch size and place names, its warnings on stderr.
  static func makeEngine(_ context: CommandContext, store: (any PhotoStore)? = nil) throws -> SyncEngine {
    let console = context.console
    let engine = SyncEngine(
      store: try store ?? context.openOrCreateStore(),
      jobs: context.configuration.sync.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    engine.batchSize = context.configuration.sync.batchSize
    engine.namer = PlaceNames.namer(context)
    engine.warn = { path, reason in
      if console.errIsTerminal { console.err("\r\u{1B}[K") }
      console.err("warning: \(path): \(reason)\n")
    }
    return engine
  }

  /// `sync --watch`: the first sync's summary, then a line per batch, until SIGINT or SIGTERM.
  static func watch(_ roots: [String], context: CommandContext, quiet: Bool) throws {
    let console = context.console
    let watcher = try FolderWatch(
      roots: roots, options: watchOptions(context), engine: { try makeEngine(context) },
      note: { note in
        switch note {
        case .started(let summary): if !quiet { console.out(describe(summary) + "\n") }
        case .batch(let summary): if !quiet { console.out(batchLine(summary) + "\n") }
        case .message(let text): console.err("watch: \(text)\n")
        }
      })
    let stopper = watcher.stopper
    let signals = StopSignals { stopper.stop() }
    defer { signals.cancel() }
    do {
      try watcher.run()
    } catch let refusal as SyncRefusal {
      throw RuntimeError(refusal.description)
    }
  }

  /// The watch settings of the configuration.
  static func watchOptions(_ context: CommandContext) -> FolderWatch.Options {
    var options = FolderWatch.Options()
    options.pollInterval = context.configuration.watch.pollInterval
    options.pollPaths = context.configuration.watch.pollPaths
    return options
  }

  /// One batch of a watch: `+3 ~1 -0 moved 2` (added, updated, removed, moved).
  static func batchLine(_ s: SyncSummary) -> String {
    "+\(s.added) ~\(s.updated) -\(s.removed) moved \(s.moved)" + (s.warnings > 0 ? ", \(s.warnings) warnings" : "")
  }

  /// The thumbnails of every located local photo not kept yet, in every size the server
  /// answers, made on every core.
  static func makeThumbnails(_ context: CommandContext, _ store: any PhotoStore) throws {
    let console = context.console
    let thumbnails = PhotoThumbnails(
      cache: ThumbnailCache(directory: context.indexDirectory.appendingPathComponent("thumbnails")),
      warn: { console.err("warning: \($0)\n") })
    let photos = try store.locatedPhotos().photos.filter { $0.source == .local }
    let started = Date()
    let counts = Mutex<(made: Int, kept: Int, none: Int)>((0, 0, 0))
    let jobs = max(1, context.configuration.sync.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    DispatchQueue.concurrentPerform(iterations: jobs) { job in
      for i in stride(from: job, to: photos.count, by: jobs) {
        // The file's version, read once for every size.
        guard let stamp = PhotoThumbnails.stamp(of: photos[i]) else {
          counts.withLock { $0.none += ThumbnailMaker.sizes.count }
          continue
        }
        for size in ThumbnailMaker.sizes {
          if thumbnails.cache?.has(id: photos[i].id, size: size, stamp: stamp) == true {
            counts.withLock { $0.kept += 1 }
            continue
          }
          switch thumbnails.thumbnail(of: photos[i], size: size, stamp: stamp) {
          case .thumbnail: counts.withLock { $0.made += 1 }
          case .none: counts.withLock { $0.none += 1 }
          }
        }
      }
    }
    let (made, kept, none) = counts.withLock { $0 }
    console.out(
      "thumbnails: made \(made), already kept \(kept), none to make \(none) (formats without a decoder or an "
        + "embedded one, or files gone), elapsed \(String(format: "%.2f s", Date().timeIntervalSince(started)))\n")
  }

  static func describe(_ s: SyncSummary) -> String {
    let seconds = String(format: "%.2f s", s.elapsed)
    return "scanned \(s.scanned), added \(s.added), updated \(s.updated), moved \(s.moved), "
      + "removed \(s.removed), unchanged \(s.unchanged), without location \(s.withoutLocation), "
      + "warnings \(s.warnings), elapsed \(seconds)"
  }
}
