import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoRoutes
import GeoPhotoStore
import Synchronization

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
      .init(
        long: "format", short: "f", valueName: "format", help: "geojson, kml, gpx or csv.", defaultText: "geojson",
        completion: .values(ExportFormat.allCases.map(\.rawValue))),
      .init(
        long: "output", short: "o", valueName: "file", help: "Write to this file instead of stdout.", completion: .file),
      .init(long: "near", valueName: "place", help: "Only photos within --radius of this place (LAT,LON or a name)."),
      .init(long: "radius", short: "r", valueName: "distance", help: "With --near: how far (500m, 2km, 1mi)."),
      .init(long: "bbox", valueName: "w,s,e,n", help: "Only photos inside this box, in degrees."),
      .init(
        long: "along", valueName: "file", help: "Only photos near this route (.csv, .gpx, .geojson).", completion: .file
      ),
      .init(long: "within", short: "w", valueName: "distance", help: "With --along: how far.", defaultText: "200m"),
      .init(
        long: "limit", short: "n", valueName: "n",
        help: "The most photos (the nearest ones with --near, in route order with --along, else by id).",
        defaultText: "all"),
      .init(long: "include-paths", valueName: nil, help: "Write local photos' file paths."),
    ] + FilterOptions.options,
    examples: [
      "geophoto export --format kml -o photos.kml",
      "geophoto export --since 2019 --until 2019 --format gpx -o trip.gpx",
      "geophoto export --near Kyoto --radius 5km --format csv", "geophoto export --bbox 139.6,35.6,139.9,35.8",
    ])

  /// Photos read from the store per page.
  static let pageSize = 5_000

  static func run(_ context: CommandContext) throws {
    let parsed = context.parsed
    guard parsed.positionals.isEmpty else { throw UsageError("Unexpected argument '\(parsed.positionals[0])'") }
    let formatText = parsed.value("format") ?? "geojson"
    guard let format = ExportFormat(rawValue: formatText.lowercased()) else {
      throw UsageError(
        "The value '\(formatText)' is invalid for '--format <format>': expected geojson, kml, gpx or csv")
    }
    let filter = try FilterOptions.filter(parsed)
    let area = try Area(parsed, context)
    var limit = Int.max
    if let text = parsed.value("limit") {
      guard let n = Int(text), n >= 1 else {
        throw UsageError("The value '\(text)' is invalid for '--limit <n>': expected a whole number of 1 or more")
      }
      limit = n
    }
    var sink = try Sink(
      path: parsed.value("output").map { Configuration.expandTilde($0, environment: context.environment) },
      console: context.console)
    let includePaths = parsed.has("include-paths")
    var writer = format.writer(includePaths: includePaths)
    var buffer: [UInt8] = []
    buffer.reserveCapacity(Sink.chunk + 4_096)
    writer.begin(into: &buffer)
    var written = 0
    func emit(_ photo: Photo, distance: Double?) throws {
      guard let a = Annotation(photo: photo, distance: distance) else { return }
      writer.write(a, altitude: photo.altitude, into: &buffer)
      written += 1
      if buffer.count >= Sink.chunk {
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    do {
      if let store = try context.openStore(.readWrite) {
        switch area {
        case .near(let center, let radius) where limit != Int.max:
          let neighbors = try store.nearest(NearQuery(center: center, limit: limit, radius: radius, filter: filter))
          let byID = Dictionary(
            try store.photos(ids: neighbors.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
          for n in neighbors { if let p = byID[n.id] { try emit(p, distance: n.distance) } }
        case .along(let route, let within):
          let index = try store.spatialIndex(along: route, within: within, filter: filter)
          var photos: [Int64: Photo?] = [:]
          let found = RouteSearch.points(along: route, within: within, index: index) { id in
            if let p = photos[id] { return p?.coordinate }
            let photo = (try? store.photo(id: id)).flatMap { $0 }.flatMap { filter.includes($0) ? $0 : nil }
            photos[id] = photo
            return photo?.coordinate
          }
          for hit in found.prefix(limit) {
            if let p = photos[hit.id], let photo = p { try emit(photo, distance: hit.projection.distanceFromRoute) }
          }
        default:
          // Pages are read ahead on a thread of their own and encoded in parts, one per core,
          // then written in order.
          var last: Int64 = 0
          // Paths are long strings, and read only when they are written.
          let columns = includePaths ? PhotoColumn.annotation : PhotoColumn.annotation.subtracting([.path])
          let pages = ReadAhead { () -> [Photo]? in
            let page = try store.locatedPhotos(passing: filter, after: last, limit: pageSize, reading: columns)
            guard let end = page.last?.id else { return nil }
            last = end
            return page
          }
          defer { pages.stop() }
          let parts = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
          while written < limit, let page = try pages.next() {
            // The page's photos in the area, by position (no copy of the photos themselves).
            var admitted: [(position: Int, distance: Double?)] = []
            admitted.reserveCapacity(page.count)
            for (position, photo) in page.enumerated() {
              guard let c = photo.coordinate, let distance = area.admits(c) else { continue }
              admitted.append((position, distance))
              if written + admitted.count >= limit { break }
            }
            let encoded = Self.encode(page, admitted, with: writer, after: written, parts: parts)
            writer = writer.continuing(after: written + admitted.count)
            written += admitted.count
            // Each part as it is (a page's part is a few hundred kilobytes): no copy into `buffer`.
            if !buffer.isEmpty {
              try sink.write(buffer)
              buffer.removeAll(keepingCapacity: true)
            }
            for part in encoded where !part.isEmpty { try sink.write(part) }
          }
        }
      }
      writer.end(into: &buffer)
      try sink.write(buffer)
      try sink.finish()
    } catch {
      sink.abandon()
      throw error
    }
    if parsed.value("output") != nil {
      context.console.err("exported \(written) photos to \(parsed.value("output") ?? "")\n")
    }
  }

  /// The `admitted` photos of `page` written by `writer` (after `written` photos) in `parts`
  /// parts, encoded at once on as many threads; their bytes in order.
  static func encode(
    _ page: [Photo], _ admitted: [(position: Int, distance: Double?)], with writer: ExportWriter, after written: Int,
    parts: Int
  ) -> [[UInt8]] {
    let parts = admitted.count < 256 ? 1 : parts
    let encoded = Mutex([[UInt8]](repeating: [], count: parts))
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let range = (admitted.count * part / parts)..<(admitted.count * (part + 1) / parts)
      var w = writer.continuing(after: written + range.lowerBound)
      var bytes: [UInt8] = []
      bytes.reserveCapacity(range.count * 320)
      for (position, distance) in admitted[range] {
        if let a = Annotation(photo: page[position], distance: distance) {
          w.write(a, altitude: page[position].altitude, into: &bytes)
        }
      }
      encoded.withLock { $0[part] = bytes }
    }
    return encoded.withLock { $0 }
  }

  /// Where photos may be: anywhere, near a place, in a box, or along a route.
  enum Area {
    case anywhere
    case near(Coordinate, radius: Double)
    case box(BoundingBox)
    case along([Coordinate], within: Double)

    init(_ parsed: ParsedArguments, _ context: CommandContext) throws {
      let given = ["near", "bbox", "along"].filter { parsed.value($0) != nil }
      guard given.count <= 1 else {
        throw UsageError("'--\(given[0])' and '--\(given[1])' name two areas: give one of --near, --bbox and --along")
      }
      func distance(_ option: String) throws -> Double? {
        guard let text = parsed.value(option) else { return nil }
        do {
          return try InputParser.distance(text)
        } catch {
          throw UsageError("The value '\(text)' is invalid for '--\(option) <distance>': \(error.description)")
        }
      }
      if let place = parsed.value("near") {
        guard let radius = try distance("radius") else {
          throw UsageError("'--near' needs '--radius' (500m, 2km, 1mi)")
        }
        self = .near(try PlaceNames.coordinate(place, context), radius: radius)
      } else if let text = parsed.value("bbox") {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { InputParser.number(String($0)) }
        guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3], abs(w) <= 180,
          abs(e) <= 180, abs(s) <= 90, abs(n) <= 90, s <= n
        else {
          throw UsageError(
            "The value '\(text)' is invalid for '--bbox <w,s,e,n>': expected west,south,east,north in degrees, south ≤ north"
          )
        }
        self = .box(BoundingBox(west: w, south: s, east: e, north: n))
      } else if let file = parsed.value("along") {
        self = .along(try readRoute(file).map(\.coordinate), within: try distance("within") ?? 200)
      } else {
        guard parsed.value("radius") == nil else { throw UsageError("'--radius' goes with '--near'") }
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
    let handle: FileHandle?

    init(path: String?, console: Console) throws {
      self.console = console
      self.path = path
      guard let path else {
        temporary = nil
        handle = nil
        return
      }
      let url = URL(fileURLWithPath: path)
      let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        .path
      guard FileManager.default.createFile(atPath: temp, contents: nil), let h = FileHandle(forWritingAtPath: temp)
      else {
        throw RuntimeError("cannot write \(path): \(String(cString: strerror(errno)))")
      }
      temporary = temp
      handle = h
    }

    mutating func write(_ bytes: [UInt8]) throws {
      guard !bytes.isEmpty else { return }
      if let handle {
        do {
          try handle.write(contentsOf: Data(bytes))
        } catch {
          throw RuntimeError("cannot write \(path ?? ""): \(error.localizedDescription)")
        }
      } else {
        console.out(String(decoding: bytes, as: UTF8.self))
      }
    }

    func finish() throws {
      guard let handle, let temporary, let path else { return }
      try? handle.close()
      guard rename(temporary, path) == 0 else {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(atPath: temporary)
        throw RuntimeError("cannot write \(path): \(reason)")
      }
    }

    func abandon() {
      try? handle?.close()
      if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
    }
  }
}
