import Foundation
import GeoPhotoCore
import GeoPhotoGeotag
import GeoPhotoRoutes
import GeoPhotoStore
import GeoPhotoSync

enum GeotagCommand: Subcommand {
  static let spec = CommandSpec(
    name: "geotag",
    abstract: "Place photos without a location on a GPS track, by the time they were taken.",
    discussion: """
      Each photo's capture time is turned into UTC with its OffsetTimeOriginal, or with --tz
      for cameras that record none (geophoto never assumes this machine's zone), corrected by
      --offset for a camera clock that was wrong, and placed between the two track points
      around it. No position is guessed before the track starts, after it ends, or across a
      gap longer than --max-gap. Positions are stored in the index as estimated; the photo
      files are never modified.
      """,
    arguments: [
      .init(name: "dir", help: "Only photos under this folder (or --all).", optional: true, completion: .directory)
    ],
    options: [track.spec, offset.spec, maxGap.spec, zone.spec, all.spec, dryRun.spec],
    examples: [
      "geophoto geotag --track day1.gpx ~/Pictures/2024-05-03",
      "geophoto geotag --track ride.gpx --tz +02:00 --offset -00:00:45 --all --dry-run",
    ])

  static let track = ValueOption.text(
    "track", short: "t", valueName: "file", help: "A GPX track with times.", completion: .file)
  static let offset = ValueOption<Double>(
    long: "offset", valueName: "±HH:MM:SS", help: "Added to camera times (a camera 2 min slow: +00:02:00)."
  ) { text throws(InputParser.Failure) in
    guard let seconds = parseClockOffset(text) else { throw InputParser.Failure("expected such as +00:02:00") }
    return seconds
  }.defaulting(to: 0) { _ in "0" }
  static let maxGap = ValueOption.duration(
    "max-gap", help: "The longest gap between track points to interpolate across."
  ).defaulting(to: TrackCorrelator.defaultMaximumGap) { "\(Int($0) / 60)m" }
  static let zone = ValueOption<Int>(
    long: "tz", valueName: "±HH:MM", help: "The camera's zone, for photos without OffsetTimeOriginal."
  ) { text throws(InputParser.Failure) in
    guard let minutes = CaptureDate.parseOffset(text) else { throw InputParser.Failure("expected such as +09:00") }
    return minutes
  }
  static let all = FlagOption(long: "all", help: "Every photo without a location in the index.")
  static let dryRun = FlagOption(long: "dry-run", short: "n", help: "List what would change; change nothing.")

  static func run(_ context: CommandContext) throws {
    let parsed = context.parsed
    let trackPath = try parsed.required(Self.track)
    let all = parsed.has(Self.all)
    guard all != !parsed.positionals.isEmpty else {
      throw UsageError(all ? "Give either a folder or --all, not both" : "Missing expected argument '<dir>' (or --all)")
    }
    guard parsed.positionals.count <= 1 else { throw UsageError("Unexpected argument '\(parsed.positionals[1])'") }
    let offset = try parsed.value(Self.offset)
    let maxGap = try parsed.value(Self.maxGap)
    let zone = try parsed.value(Self.zone)
    let track = try readRoute(trackPath)
    let correlator: TrackCorrelator
    do {
      correlator = try TrackCorrelator(
        track: track, maximumGap: maxGap, clockOffset: offset, defaultUTCOffsetMinutes: zone)
    } catch {
      throw RuntimeError("\(trackPath): \(error.description)")
    }
    let store = try context.openExistingStore()
    let root = parsed.positionals.first.map(SyncEngine.canonicalRoot)
    let dryRun = parsed.has(Self.dryRun)
    let report = try GeotagEngine(store: store, namer: PlaceNames.namer(context))
      .geotag(under: root, with: correlator, dryRun: dryRun)
    var lines = ""
    for (photo, c) in report.placed {
      let name = photo.path.map { ($0 as NSString).lastPathComponent } ?? photo.title
      lines += "\(name): \(String(format: "%.6f,%.6f", c.latitude, c.longitude))\n"
    }
    let verb = dryRun ? "would place" : "placed"
    var summary = "\(verb) \(report.placed.count) of \(report.considered) photos without a recorded location"
    if !report.skipped.isEmpty {
      summary +=
        "; not placed: "
        + GeotagEngine.SkipReason.allCases.compactMap { reason in report.skipped[reason].map { "\($0) \(reason)" } }
        .joined(separator: ", ")
    }
    context.console.out(lines + summary + "\n")
  }

  /// `+00:02:00`, `-00:00:45`, `90` (seconds).
  static func parseClockOffset(_ text: String) -> Double? {
    if let seconds = InputParser.number(text) { return seconds }
    guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
    let parts = text.dropFirst().split(separator: ":").map { Int($0) }
    guard parts.count == 3, parts.allSatisfy({ $0 != nil }), let h = parts[0], let m = parts[1], let s = parts[2],
      m < 60,
      s < 60
    else { return nil }
    return Double(h * 3600 + m * 60 + s) * (sign == "-" ? -1 : 1)
  }
}
