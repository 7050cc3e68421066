import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoRoutes
import GeoPhotoStore

enum ExportCommand: Subcommand {
  static let spec = CommandSpec(
    name: "export",
    abstract: "Write every matching photo as GeoJSON, KML, GPX or CSV.",
    discussion: """
      Takes every located photo that passes the filters (no limit unless --limit), within an
      area when one is given: --near PLACE with --radius, --bbox W,S,E,N (west > east crosses
      the antimeridian), or --along FILE with --within. Photos are written as they are read,
      so a million photos take constant memory; with -o the file appears whole or not at all.
      Local file paths are written only with --include-paths.
      """,
    options: [
      format.spec, output.spec, near.spec, radius.spec, bbox.spec, along.spec, within.spec, trip.spec, limit.spec,
      includePaths.spec,
    ] + FilterOptions.options,
    examples: [
      "geophoto export --format kml -o photos.kml",
      "geophoto export --since 2019 --until 2019 --format gpx -o trip.gpx",
      "geophoto export --near Kyoto --radius 5km --format csv", "geophoto export --bbox 139.6,35.6,139.9,35.8",
      "geophoto export --trip t2n9c --format gpx -o japan.gpx",
    ])

  static let format = ValueOption<ExportFormat>.choice("format", short: "f", valueName: "format", help: "{choices}.")
    .defaulting(to: .geojson) { $0.rawValue }
  static let output = ValueOption.text(
    "output", short: "o", valueName: "file", help: "Write to this file instead of stdout.", completion: .file)
  static let near = ValueOption.text(
    "near", valueName: "place", help: "Only photos within --radius of this place (LAT,LON or a name).")
  static let radius = ValueOption.distance("radius", short: "r", help: "With --near: how far (500m, 2km, 1mi).")
  static let bbox = ValueOption<BoundingBox>(
    long: "bbox", valueName: "w,s,e,n", help: "Only photos inside this box, in degrees.", read: InputParser.boundingBox)
  static let along = ValueOption.text(
    "along", valueName: "file", help: "Only photos near this route (.csv, .gpx, .geojson).", completion: .file)
  static let within = ValueOption.within(short: "w", help: "With --along: how far.")
  static let trip = ValueOption.text(
    "trip", valueName: "id", help: "Only this trip's photos, in time order (ids from 'geophoto trips').")
  static let limit = ValueOption.integer(
    "limit", short: "n", 1...Int.max,
    help: "The most photos (the nearest ones with --near, in route order with --along, else by id)."
  ).defaulting(shown: "all")
  static let includePaths = FlagOption(long: "include-paths", help: "Write local photos' file paths.")

  /// Ids per window of an export (so at most that many photos).
  static let windowSize: Int64 = 5_000

  static func run(_ context: CommandContext) throws {
    let parsed = context.parsed
    guard parsed.positionals.isEmpty else { throw UsageError("Unexpected argument '\(parsed.positionals[0])'") }
    let format = try parsed.value(Self.format)
    let filter = try FilterOptions.filter(parsed)
    let area = try Area(parsed, context)
    let limit = try parsed.value(Self.limit) ?? Int.max
    let output = try parsed.value(Self.output)
    let sink = try Sink(
      path: output.map { Configuration.expandTilde($0, environment: context.environment) }, console: context.console)
    var out = Output(writer: format.writer(includePaths: parsed.has(Self.includePaths)), sink: sink)
    do {
      out.begin()
      if let id = try parsed.value(Self.trip) {
        guard case .anywhere = area else {
          throw UsageError("'--trip' takes no area: leave out --near, --bbox and --along")
        }
        let photos = try TripSearch.trip(id, context).photos
        for photo in photos.lazy.filter(filter.includes).prefix(limit) { try out.emit(photo, distance: nil) }
      } else if let store = try context.openStore(.readWrite) {
        switch area {
        case .near(let center, let radius) where limit != Int.max:
          try exportNearest(store, NearQuery(center: center, limit: limit, radius: radius, filter: filter), to: &out)
        case .along(let route, let within):
          try exportAlong(store, route: route, within: within, filter: filter, limit: limit, to: &out)
        case .anywhere, .near, .box:
          try exportWindows(store, area: area, filter: filter, limit: limit, to: &out)
        }
      }
      try out.finish()
    } catch {
      out.sink.abandon()
      throw error
    }
    if let output { context.console.err("exported \(out.written) photos to \(output)\n") }
  }

  /// The export's output: the format's writer, what it has written not yet sent, and the sink.
  struct Output {
    var writer: ExportWriter
    var sink: Sink
    var buffer: [UInt8] = []
    var written = 0

    init(writer: ExportWriter, sink: Sink) {
      self.writer = writer
      self.sink = sink
      buffer.reserveCapacity(Sink.chunk + 4_096)
    }

    mutating func begin() { writer.begin(into: &buffer) }

    /// One photo, sent on when a chunk is full.
    mutating func emit(_ photo: Photo, distance: Double?) throws {
      guard let a = Annotation(photo: photo, distance: distance) else { return }
      writer.write(a, altitude: photo.altitude, into: &buffer)
      written += 1
      if buffer.count >= Sink.chunk { try flush() }
    }

    /// Photos encoded elsewhere (a window's), the first `count` of `part`.
    mutating func emit(_ part: Window.Part, count: Int) throws {
      try flush()
      if written > 0 { try sink.write(writer.separator) }
      try sink.write(count == part.ends.count ? part.bytes : Array(part.bytes[..<part.ends[count - 1]]))
      written += count
    }

    mutating func flush() throws {
      guard !buffer.isEmpty else { return }
      try sink.write(buffer)
      buffer.removeAll(keepingCapacity: true)
    }

    mutating func finish() throws {
      writer.end(into: &buffer)
      try sink.write(buffer)
      try sink.finish()
    }
  }

  /// The nearest photos, nearest first, with their distances.
  static func exportNearest(_ store: any PhotoStore, _ query: NearQuery, to out: inout Output) throws {
    let neighbors = try store.nearest(query)
    let byID = Dictionary(
      try store.photos(ids: neighbors.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    for n in neighbors { if let p = byID[n.id] { try out.emit(p, distance: n.distance) } }
  }

  /// The photos near a route, in the order the route passes them, with their distances from it.
  static func exportAlong(
    _ store: any PhotoStore, route: [Coordinate], within: Double, filter: PhotoFilter, limit: Int,
    to out: inout Output
  ) throws {
    let index = try store.spatialIndex(along: route, within: within, filter: filter)
    var photos: [Int64: Photo?] = [:]
    let found = RouteSearch.points(along: route, within: within, index: index) { id in
      if let p = photos[id] { return p?.coordinate }
      let photo = (try? store.photo(id: id)).flatMap { $0 }.flatMap { filter.includes($0) ? $0 : nil }
      photos[id] = photo
      return photo?.coordinate
    }
    for hit in found.prefix(limit) {
      if let p = photos[hit.id], let photo = p { try out.emit(photo, distance: hit.projection.distanceFromRoute) }
    }
  }

  /// Every photo in the area (near without a limit: within the radius), filtered as it is read,
  /// by id: windows of ids, each read and encoded on a thread with a connection of its own (at
  /// most one per core), then written in order.
  static func exportWindows(
    _ store: any PhotoStore, area: Area, filter: PhotoFilter, limit: Int, to out: inout Output
  ) throws {
    guard let ids = try store.idRange() else { return }
    let jobs = Int((ids.upperBound - ids.lowerBound) / windowSize) + 1
    let threads = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount, jobs))
    let stores = [store] + (try (1..<threads).map { _ in try store.reopened() })
    let window = Window(filter: filter, area: area, writer: out.writer)
    let parts = OrderedWork(jobs: jobs, contexts: stores, ahead: 2 * threads) { store, job in
      let after = ids.lowerBound - 1 + Int64(job) * windowSize
      return try window.part(of: store, after: after, through: min(after + windowSize, ids.upperBound))
    }
    defer { parts.stop() }
    while out.written < limit, let part = try parts.next() {
      guard !part.ends.isEmpty else { continue }
      try out.emit(part, count: min(part.ends.count, limit - out.written))
    }
  }

  /// What an export takes from each window of ids: the photos that pass its filter, in its
  /// area, encoded.
  struct Window: Sendable {
    let filter: PhotoFilter
    let area: Area
    let writer: ExportWriter

    /// The encoded photos of the window, and where each one's bytes end.
    struct Part {
      var bytes: [UInt8] = []
      var ends: [Int] = []
    }

    func part(of store: any PhotoStore, after: Int64, through last: Int64) throws -> Part {
      // Paths are long strings, and read only when they are written.
      let columns = writer.includePaths ? PhotoColumn.annotation : PhotoColumn.annotation.subtracting([.sourceID])
      var part = Part()
      var writer = self.writer
      // Each photo encoded as it is read, where the store lends it.
      try store.forEachLocatedPhoto(
        passing: filter, after: after, through: last, limit: Int(last - after), reading: columns
      ) { photo in
        guard let c = photo.coordinate, let distance = area.admits(c),
          let annotation = Annotation(photo: photo, distance: distance)
        else { return }
        if part.ends.isEmpty {
          part.bytes.reserveCapacity(Int(last - after) * 320)
          part.ends.reserveCapacity(Int(last - after))
        }
        writer.write(annotation, altitude: photo.altitude, into: &part.bytes)
        part.ends.append(part.bytes.count)
      }
      return part
    }
  }

  /// Where photos may be: anywhere, near a place, in a box, or along a route.
  enum Area: Sendable {
    case anywhere
    case near(Coordinate, radius: Double)
    case box(BoundingBox)
    case along([Coordinate], within: Double)

    init(_ parsed: ParsedArguments, _ context: CommandContext) throws {
      let given = [ExportCommand.near.long, ExportCommand.bbox.long, ExportCommand.along.long].filter {
        parsed.values[$0] != nil
      }
      guard given.count <= 1 else {
        throw UsageError("'--\(given[0])' and '--\(given[1])' name two areas: give one of --near, --bbox and --along")
      }
      if let place = try parsed.value(ExportCommand.near) {
        guard let radius = try parsed.value(ExportCommand.radius) else {
          throw UsageError("'--near' needs '--radius' (500m, 2km, 1mi)")
        }
        self = .near(try PlaceNames.coordinate(place, context), radius: radius)
      } else if let box = try parsed.value(ExportCommand.bbox) {
        self = .box(box)
      } else if let file = try parsed.value(ExportCommand.along) {
        self = .along(try readRoute(file).map(\.coordinate), within: try parsed.value(ExportCommand.within))
      } else {
        guard !parsed.isGiven(ExportCommand.radius) else { throw UsageError("'--radius' goes with '--near'") }
        self = .anywhere
      }
    }

    /// Whether `c` is inside: the distance to the place for `near` (nil otherwise), or `nil`
    /// when outside. Route areas are searched, not tested point by point.
    func admits(_ c: Coordinate) -> Double?? {
      switch self {
      case .anywhere, .along: return .some(nil)
      case .near(let center, let radius):
        let d = GreatCircle.distance(center, c)
        return d <= radius ? .some(d) : nil
      case .box(let box): return box.contains(c) ? .some(nil) : nil
      }
    }
  }

  /// Where the export goes: stdout, or a file written beside its final name and renamed into
  /// place at the end (a failed export leaves no half-written file).
  struct Sink {
    static let chunk = 256 * 1024
    let console: Console
    let path: String?
    let temporary: String?
    /// The temporary file's descriptor (bytes are written from the caller's buffers as they
    /// are, with no copy on the way).
    private(set) var descriptor: Int32?

    init(path: String?, console: Console) throws {
      self.console = console
      self.path = path
      guard let path else {
        temporary = nil
        descriptor = nil
        return
      }
      let url = URL(fileURLWithPath: path)
      let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        .path
      let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw RuntimeError("cannot write \(path): \(String(cString: strerror(errno)))") }
      temporary = temp
      descriptor = fd
    }

    mutating func write(_ bytes: [UInt8]) throws {
      guard !bytes.isEmpty else { return }
      guard let descriptor else {
        console.out(String(decoding: bytes, as: UTF8.self))
        return
      }
      try bytes.withUnsafeBytes { buffer in
        guard let start = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
          let n = Foundation.write(descriptor, start + done, buffer.count - done)
          if n < 0 && errno == EINTR { continue }
          guard n > 0 else { throw RuntimeError("cannot write \(path ?? ""): \(String(cString: strerror(errno)))") }
          done += n
        }
      }
    }

    mutating func finish() throws {
      guard let descriptor, let temporary, let path else { return }
      self.descriptor = nil
      guard close(descriptor) == 0 else {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(atPath: temporary)
        throw RuntimeError("cannot write \(path): \(reason)")
      }
      guard rename(temporary, path) == 0 else {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(atPath: temporary)
        throw RuntimeError("cannot write \(path): \(reason)")
      }
    }

    mutating func abandon() {
      if let descriptor { close(descriptor) }
      descriptor = nil
      if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
    }
  }
}
