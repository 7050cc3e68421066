import Dispatch
import Foundation
import GeoPhotoExif
import GeoPhotoServer
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

      Formats: \(PhotoFormat.summary).
      Extensions (any case): \(PhotoFormat.allExtensions.map { "." + $0 }.joined(separator: " ")).
      """,
    arguments: [.init(name: "dir", help: "A folder of photos.", repeating: true, completion: .directory)],
    options: [
      Setting.syncJobs.option,
      .init(
        long: "thumbnails", short: nil, valueName: nil,
        help: "Then make the thumbnails 'serve' answers with, ahead of time, on every core (kept beside the index)."),
    ],
    examples: [
      "geophoto sync ~/Pictures", "geophoto sync /mnt/photos/2023 /mnt/photos/2024 --db trip.sqlite",
      "geophoto sync ~/Downloads/Takeout", "geophoto sync ~/Pictures --thumbnails",
    ])

  static func run(_ context: CommandContext) throws {
    let roots = context.parsed.positionals
    guard !roots.isEmpty else { throw UsageError("Missing expected argument '<dir> ...'") }
    if context.parsed.has("thumbnails")
      && CommandContext.stores.localDirectory(context.configuration.databasePath) == nil
    {
      throw UsageError("'--thumbnails' keeps thumbnails beside a local index; a PostgreSQL index keeps none")
    }
    let console = context.console
    let store = try context.openOrCreateStore()
    let engine = SyncEngine(
      store: store, jobs: context.configuration.sync.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    engine.batchSize = context.configuration.sync.batchSize
    engine.namer = PlaceNames.namer(context)
    engine.warn = { path, reason in
      if console.errIsTerminal { console.err("\r\u{1B}[K") }
      console.err("warning: \(path): \(reason)\n")
    }
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
    console.out(describe(summary) + "\n")
    if context.parsed.has("thumbnails") { try makeThumbnails(context, store) }
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
