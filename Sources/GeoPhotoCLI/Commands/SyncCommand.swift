import Foundation
import GeoPhotoExif
import GeoPhotoStore
import GeoPhotoSync

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
      Setting.syncJobs.option
    ],
    examples: [
      "geophoto sync ~/Pictures", "geophoto sync /mnt/photos/2023 /mnt/photos/2024 --db trip.sqlite",
      "geophoto sync ~/Downloads/Takeout",
    ])

  static func run(_ context: CommandContext) throws {
    let roots = context.parsed.positionals
    guard !roots.isEmpty else { throw UsageError("Missing expected argument '<dir> ...'") }
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
  }

  static func describe(_ s: SyncSummary) -> String {
    let seconds = String(format: "%.2f s", s.elapsed)
    return "scanned \(s.scanned), added \(s.added), updated \(s.updated), moved \(s.moved), "
      + "removed \(s.removed), unchanged \(s.unchanged), without location \(s.withoutLocation), "
      + "warnings \(s.warnings), elapsed \(seconds)"
  }
}
