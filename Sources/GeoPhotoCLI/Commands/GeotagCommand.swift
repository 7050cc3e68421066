import Foundation
import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoGeotag
import GeoPhotoSnapshot
import GeoPhotoStore
import GeoPhotoSync
import GeoPhotoTracks

enum GeotagCommand: Subcommand {
  static let spec = CommandSpec(
    name: "geotag",
    abstract: "Place photos without a location on tracks, by the time they were taken.",
    discussion: """
      Tracks are files or folders of them, each told by its content: GPX, KML and KMZ, Garmin
      TCX, NMEA 0183 logs, IGC flight logs, CSV files whose header names latitude, longitude
      and time columns (DJI flight logs too: their start, in the file name, is read in the --tz
      offset), GeoJSON, and Google location history in all its shapes (Takeout's Records.json
      and Semantic Location History, the phone's Timeline export from Android or iOS), read as
      it streams by. A visit places photos at its place for its whole stay. A file that is none of these, or is damaged, is named with the line
      where it went wrong; the other tracks are still used.

      A photo's instant is its capture time with its OffsetTimeOriginal, or read in the
      camera's zone given with --tz (a fixed offset, or a named zone with its daylight saving
      time; geophoto never assumes this machine's zone), corrected by --offset for a camera
      clock that was wrong. It is placed as exiftool places it: linearly between the two
      track points around it when they are at most --max-gap apart; never across a longer gap,
      and before a track's first point or after its last only within --max-extrapolation.

      --from-photos takes the index's photos whose files recorded a position (a phone's,
      taken beside the camera) as a track; estimated positions never feed other estimates.
      --at places photos by hand. Positions are stored in the index as estimated, with the
      track, photo or hand they came from; the photo files are never modified. --write-xmp also
      writes each position into the photo's XMP sidecar (updating the one it has, keeping
      everything else in it, or making NAME.EXT.xmp), where other photo tools and the next sync
      read it. --clear removes estimated positions again.
      """,
    arguments: [
      .init(
        name: "dir|file", help: "The photos under this folder, or these photo files (or --all).", repeating: true,
        optional: true, completion: .file)
    ],
    options: [
      track.spec, fromPhotos.spec, from.spec, at.spec, clear.spec, zone.spec, offset.spec, sync.spec, maxGap.spec,
      maxExtrapolation.spec, preview.spec, writeXMP.spec, xmpName.spec, overwrite.spec, all.spec, dryRun.spec,
    ],
    examples: [
      "geophoto geotag --track day1.gpx ~/Pictures/2024-05-03",
      "geophoto geotag --track ~/tracks --tz Europe/Lisbon --offset -00:00:45 --all --dry-run",
      "geophoto geotag --from-photos --from ~/Pictures/Phone ~/Pictures/Camera",
      "geophoto geotag --at \"Kyoto, JP\" IMG_0412.JPG IMG_0413.JPG",
      "geophoto geotag --track day1.gpx --sync IMG_0042.JPG=10:41:00 --all",
      "geophoto geotag --track day1.gpx --sync \"IMG_0050.JPG@Praça do Comércio\" --all",
      "geophoto geotag --track day1.gpx --write-xmp ~/Pictures/2024-05-03",
      "geophoto geotag --write-xmp --xmp-name base --all",
      "geophoto geotag --clear --all",
    ])

  static let track = ValueOption.text(
    "track", short: "t", valueName: "file|dir",
    help: "A track, or a folder of tracks, in any format geophoto reads (repeatable).", completion: .file,
    repeating: true)
  static let zone = ValueOption<CameraZone>(
    long: "tz", valueName: "±HH:MM|Area/City|auto",
    help:
      "The camera's zone, for photos without OffsetTimeOriginal: an offset, a named zone (with its daylight saving "
      + "time), or auto (the zone where the track was)."
  ) { text throws(InputParser.Failure) in
    do throws(CameraZone.Unknown) { return try CameraZone(parsing: text) } catch {
      throw InputParser.Failure(error.description)
    }
  }
  static let offset = ValueOption<Double>(
    long: "offset", valueName: "±[D ]HH:MM:SS",
    help: "Added to camera times to get true times (a camera 2 min slow: +00:02:00)."
  ) { text throws(InputParser.Failure) in
    guard let seconds = ClockCorrection.parse(text) else {
      throw InputParser.Failure("expected such as +00:02:00 or -1 02:00:00")
    }
    return seconds
  }.defaulting(to: 0) { _ in "0" }
  static let sync = ValueOption<SyncPoint>(
    long: "sync", valueName: "photo=time|photo@lat,lon",
    help:
      "Correct the camera clock from a photo: the true time it shows, or where it was taken (repeatable: two or "
      + "more correct a drifting clock).",
    repeating: true
  ) { text throws(InputParser.Failure) in
    do throws(SyncPoint.Unknown) { return try SyncPoint(parsing: text) } catch {
      throw InputParser.Failure(error.description)
    }
  }
  static let maxGap = ValueOption.duration(
    "max-gap", help: "The longest gap between track points to interpolate across."
  ).defaulting(to: GapRules().maxGap) { "\(Int($0) / 60)m" }
  static let maxExtrapolation = ValueOption.duration(
    "max-extrapolation", help: "How far before a track's first point or after its last that point is used."
  ).defaulting(to: GapRules().maxExtrapolation) { _ in "0 (never)" }
  static let fromPhotos = FlagOption(
    long: "from-photos", help: "Use the index's photos whose files recorded a position (a phone's) as a track.")
  static let from = ValueOption.text(
    "from", valueName: "dir", help: "With --from-photos: only the photos under this folder.", completion: .directory)
  static let at = ValueOption.text(
    "at", valueName: "lat,lon|place", help: "Place the photos here by hand (a place as near finds it).")
  static let clear = FlagOption(
    long: "clear", help: "Remove estimated positions (from tracks, photos or hands); recorded ones stay.")
  static let preview = ValueOption.text(
    "preview", valueName: "out.png",
    help: "Draw the tracks and the photos placed on the map (PNG or SVG), with what snapshot draws.",
    completion: .file)
  static let writeXMP = FlagOption(
    long: "write-xmp",
    help:
      "Write each position into the photo's XMP sidecar, which Lightroom, darktable and digiKam read (never the "
      + "image); without a source, the positions the index already estimated.")
  static let xmpName = ValueOption<SidecarNames.Style>.choice(
    "xmp-name", valueName: "style", help: "A new sidecar's name: {choices} (full: NAME.EXT.xmp, base: NAME.xmp)"
  ).defaulting(to: .full) { $0.rawValue }
  static let overwrite = FlagOption(
    long: "overwrite", help: "With --write-xmp: replace the position a sidecar already holds.")
  static let all = FlagOption(long: "all", help: "Every photo in the index.")
  static let dryRun = FlagOption(long: "dry-run", short: "n", help: "List what would change; change nothing.")

  static func run(_ context: CommandContext) throws {
    let parsed = context.parsed
    let trackPaths = try parsed.values(Self.track)
    let fromPhotos = parsed.has(Self.fromPhotos)
    let at = try parsed.value(Self.at)
    let clear = parsed.has(Self.clear)
    let hasSource = !trackPaths.isEmpty || fromPhotos
    if try parsed.value(Self.from) != nil && !fromPhotos {
      throw UsageError("--from chooses the photos of --from-photos: give both")
    }
    if at != nil && hasSource {
      throw UsageError("--at places photos by hand: give it without --track or --from-photos")
    }
    if clear && (hasSource || at != nil) {
      throw UsageError("--clear removes positions: give it without a source or --at")
    }
    let writeXMP = parsed.has(Self.writeXMP)
    if clear && writeXMP { throw UsageError("--clear removes positions: give it without --write-xmp") }
    if !writeXMP && (parsed.isGiven(Self.xmpName.option) || parsed.has(Self.overwrite)) {
      throw UsageError("--xmp-name and --overwrite say how sidecars are written: give them with --write-xmp")
    }
    guard hasSource || at != nil || clear || writeXMP else {
      throw UsageError("Missing expected option '--track <file|dir>' (or --from-photos, --at, --clear or --write-xmp)")
    }
    let scope = try Self.scope(parsed)
    let dryRun = parsed.has(Self.dryRun)
    let store = try context.openExistingStore()
    let engine = GeotagEngine(store: store, namer: PlaceNames.namer(context))
    let sidecars = SidecarWrites(naming: try parsed.value(Self.xmpName), overwrite: parsed.has(Self.overwrite))

    if clear {
      let cleared = try engine.clear(scope, dryRun: dryRun)
      let names = cleared.map { name(of: $0) + "\n" }.joined()
      var text = names + "\(dryRun ? "would clear" : "cleared") \(count(cleared.count, "estimated position"))\n"
      let holding = SidecarWrites.holdingPositions(cleared.compactMap(\.path))
      if holding > 0 {
        text +=
          "\(count(holding, "sidecar")) written earlier still hold positions; the next sync reads them back "
          + "(delete them to forget the positions)\n"
      }
      context.console.out(text)
      return
    }
    if writeXMP && !hasSource && at == nil {
      // The positions the index already estimated (from tracks, photos or hands), into sidecars.
      let estimated = try engine.clear(scope, dryRun: true)
      let items = estimated.compactMap { photo in
        photo.path.flatMap { path in
          photo.coordinate.map { (path, XMPPosition(coordinate: $0, altitude: photo.altitude)) }
        }
      }
      context.console.out(estimated.map { name(of: $0) + "\n" }.joined())
      context.console.out(sidecarSummary(dryRun ? nil : sidecars.write(items), count: items.count, context) + "\n")
      return
    }
    let report: GeotagEngine.Report
    if let at {
      report = try engine.place(scope, at: try PlaceNames.coordinate(at, context), dryRun: dryRun)
    } else {
      let rules = GapRules(
        maxGap: try parsed.value(Self.maxGap), maxExtrapolation: try parsed.value(Self.maxExtrapolation))
      var clock = GeotagEngine.Clock(
        zone: try parsed.value(Self.zone), correction: ClockCorrection(offset: try parsed.value(Self.offset)))
      let syncs = try parsed.values(Self.sync)
      if !syncs.isEmpty && parsed.isGiven(Self.offset.option) {
        throw UsageError("--sync works the clock's offset out: give it without --offset")
      }
      if clock.zone == .auto {
        guard let namer = PlaceNames.namer(context) else {
          throw RuntimeError("--tz auto needs the gazetteer (places.gazetteer) to know the track's zones")
        }
        let zones = PositionZones(namer: namer)
        clock.zoneAt = { zones.zone(at: $0) }
      }
      // A DJI log's start, in its file name, is the camera's local time: in the --tz offset.
      let logZone: Int? =
        switch clock.zone {
        case .offset(let minutes)?: minutes * 60
        case .named?, .auto?, nil: nil
        }
      // Only what the photos can be placed on is kept of a long history; --sync photos may be
      // anywhere on it.
      var keeping: TrackLibrary.Keeping?
      if syncs.isEmpty {
        let windows = try engine.retention(scope, clock: clock, rules: rules)
        keeping = { windows.meets($0) }
      }
      let library = readTracks(trackPaths, zoneOffsetSeconds: logZone, keeping: keeping, context: context)
      let photos =
        fromPhotos
        ? try GeotagEngine.PhotoFixes(store: store, under: try parsed.value(Self.from).map(SyncEngine.canonicalRoot))
        : GeotagEngine.PhotoFixes()
      if fromPhotos { context.console.err("photos with recorded positions: \(count(photos.fixes.count, "point"))\n") }
      let unreadable = !library.errors.isEmpty
      let positions = GeotagEngine.Positions(tracks: library, photos: photos)
      guard !positions.timeline.isEmpty else {
        throw RuntimeError(
          !unreadable
            ? "no track or photo gives a position with a time" : "no track could be read (see the warnings)")
      }
      if !syncs.isEmpty {
        let checks = try syncs.map { point -> (path: String, check: GeotagEngine.Check) in
          let path = SyncEngine.canonicalRoot(point.photo)
          switch point.truth {
          case .time(let text): return (path, .time(text))
          case .place(let text): return (path, .place(try PlaceNames.coordinate(text, context)))
          }
        }
        let found = try engine.correction(
          from: checks, positions: positions, zone: clock.zone, maxGap: try parsed.value(Self.maxGap))
        for note in found.notes { context.console.err("--sync: \(note)\n") }
        clock.correction = found.correction
      }
      let previewPath = try parsed.value(Self.preview)
      let previewFormat = try previewPath.map(SnapshotCommand.format(of:))
      report = try engine.geotag(scope, positions: positions, clock: clock, rules: rules, dryRun: dryRun)
      if let previewPath, let previewFormat {
        try drawPreview(
          positions.timeline, report.placed, rules: rules, to: previewPath, format: previewFormat, context)
      }
      if clock.correction != .none { context.console.err("clock: \(clock.correction)\n") }
    }
    for path in report.missing { context.console.err("warning: \(path): not in the index (sync its folder first)\n") }
    var text = rows(report.placed) + summary(report, dryRun: dryRun) + "\n"
    if writeXMP {
      let items = report.placed.compactMap { placed in placed.photo.path.map { ($0, placed.xmpPosition) } }
      text += sidecarSummary(dryRun ? nil : sidecars.write(items), count: items.count, context) + "\n"
    }
    context.console.out(text)
  }

  /// `sidecars: 790 created, 22 updated, 4 left alone (…)`; each left alone said on stderr.
  static func sidecarSummary(_ written: SidecarWrites.Summary?, count: Int, _ context: CommandContext) -> String {
    guard let written else { return "sidecars: would write \(Self.count(count, "sidecar"))" }
    for (path, reason) in written.leftAlone { context.console.err("sidecar left alone: \(path): \(reason)\n") }
    var text = "sidecars: \(written.created) created, \(written.updated) updated"
    if !written.leftAlone.isEmpty {
      let held = written.leftAlone.filter { $0.reason == "already holds a position" }.count
      text += ", \(written.leftAlone.count) left alone"
      if held > 0 { text += " (\(held) already hold a position: --overwrite replaces it)" }
    }
    return text
  }

  /// The photos the positionals and --all name: one folder, files, or every photo.
  static func scope(_ parsed: ParsedArguments) throws -> GeotagEngine.Scope {
    let all = parsed.has(Self.all)
    guard all != !parsed.positionals.isEmpty else {
      throw UsageError(
        all
          ? "Give either folders or files, or --all, not both" : "Missing expected argument '<dir|file...>' (or --all)")
    }
    if all { return .all }
    var isFolder: ObjCBool = false
    let paths = parsed.positionals
    if paths.count == 1, FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder), isFolder.boolValue {
      return .under(SyncEngine.canonicalRoot(paths[0]))
    }
    for path in paths {
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw UsageError("'\(path)': no such file")
      }
      if isFolder.boolValue { throw UsageError("Give one folder, or photo files: '\(path)' is a folder") }
    }
    return .files(paths.map(SyncEngine.canonicalRoot))
  }

  static func name(of photo: Photo) -> String {
    photo.path.map { ($0 as NSString).lastPathComponent } ?? photo.title
  }

  /// The tracks read, their notes and errors said on stderr.
  static func readTracks(
    _ paths: [String], zoneOffsetSeconds: Int?, keeping: TrackLibrary.Keeping?, context: CommandContext
  ) -> TrackLibrary.Result {
    let library = TrackLibrary.load(paths, zoneOffsetSeconds: zoneOffsetSeconds, keeping: keeping)
    for error in library.errors { context.console.err("warning: \(error)\n") }
    for track in library.tracks {
      let fixes = track.contents.fixes.count
      let visits = track.contents.visits.count
      var line = "\(track.name): \(track.format.rawValue), \(count(fixes, "point"))"
      if visits > 0 { line += ", \(count(visits, "visit"))" }
      if !track.contents.notes.isEmpty { line += " (\(track.contents.notes.joined(separator: "; ")))" }
      context.console.err(line + "\n")
    }
    return library
  }

  /// The tracks (a line per stretch without a longer gap, at most 20,000 points) and the
  /// photos placed, drawn as snapshot draws a route and its photos.
  static func drawPreview(
    _ timeline: Timeline, _ placed: [GeotagEngine.Placed], rules: GapRules, to output: String,
    format: SnapshotRenderer.Format, _ context: CommandContext
  ) throws {
    var content = SnapshotContent()
    let step = max(1, timeline.fixes.count / 20_000)
    var line: [Coordinate] = []
    var last: Double?
    for (i, fix) in timeline.fixes.enumerated() where i % step == 0 || i == timeline.fixes.count - 1 {
      if let last, fix.time - last > max(rules.maxGap, 1) * Double(step) {
        content.lines.append(line)
        line = []
      }
      line.append(fix.coordinate)
      last = fix.time
    }
    content.lines.append(line)
    content.pins = placed.map { ($0.coordinate, name(of: $0.photo)) }
    var style = SnapshotStyle()
    (style.width, style.height) = (1_200, 900)
    style.labels = placed.count <= 50
    try SnapshotCommand.drawBasemap(into: &style, context)
    do {
      try SnapshotRenderer(style: style).render(content, format: format, to: URL(fileURLWithPath: output))
    } catch {
      throw RuntimeError(error.description)
    }
    context.console.err(
      "wrote \(output) (\(count(content.lines.count, "track line")), \(count(placed.count, "photo")))\n")
  }

  /// One line per placed photo: name, position, source and how.
  static func rows(_ placed: [GeotagEngine.Placed]) -> String {
    guard !placed.isEmpty else { return "" }
    let names = placed.map { name(of: $0.photo) }
    let width = min(40, names.map(\.count).max() ?? 0)
    var lines = ""
    for (name, p) in zip(names, placed) {
      let position = String(format: "%.6f,%.6f", p.coordinate.latitude, p.coordinate.longitude)
      lines += name.padding(toLength: max(width, name.count), withPad: " ", startingAt: 0)
      lines += "  \(position)  \(p.source.from)  \(p.source.how)\n"
    }
    return lines
  }

  /// `placed 812 of 1,000 photos; already located 150, no time 3, …`.
  static func summary(_ report: GeotagEngine.Report, dryRun: Bool) -> String {
    let placed = report.counts[.placed] ?? 0
    var text =
      "\(dryRun ? "would place" : "placed") \(placed) of \(count(report.considered, "photo")) without a location"
    let counted = GeotagEngine.Outcome.allCases.compactMap { outcome in
      outcome == .placed ? nil : report.counts[outcome].map { "\(words(outcome)) \($0)" }
    }
    if !counted.isEmpty { text += "; " + counted.joined(separator: ", ") }
    if report.counts[.noZone] != nil { text += "\nhint: give the camera's zone with --tz (±HH:MM or Area/City)" }
    if report.counts[.inGap] != nil { text += "\nhint: --max-gap joins track points further apart" }
    return text
  }

  /// What the summary calls an outcome.
  static func words(_ outcome: GeotagEngine.Outcome) -> String {
    switch outcome {
    case .placed: "placed"
    case .alreadyLocated: "already located"
    case .noTime: "no time"
    case .noZone: "no time zone"
    case .beforeTrack: "before the track"
    case .afterTrack: "after the track"
    case .inGap: "in a gap"
    case .inconsistentZone: "inconsistent zone"
    }
  }

  static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
