import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoHTTP
import GeoPhotoRoutes
import GeoPhotoServer
import GeoPhotoSnapshot
import GeoPhotoStore

enum SnapshotCommand: Subcommand {
  static let spec = CommandSpec(
    name: "snapshot",
    abstract: "Render a map image (PNG or SVG) of a route, a trip, the photos near a place, or an area.",
    discussion: """
      The region is fitted like a map view (centre of the bounds, 1.5 × their span, Web
      Mercator). Routes are drawn as a 5-px line, photos as flags; a trip (--trip ID, from
      'geophoto trips') as its route line with its photos. The map under them is
      geophoto's own (Natural Earth's land, water and borders, place names from GeoNames), drawn
      offline at the image's zoom, with streets, buildings, parks and names where an
      OpenStreetMap archive has data (--basemap FILE, or 'geophoto basemap add'). With a tile URL instead (--tiles osm, or a template), tiles
      are fetched with geophoto's User-Agent and cached for 7 days; --tiles none draws a plain
      background with a graticule. The credits of what is drawn are written on the image.
      """,
    options: [
      route.spec, trip.spec, near.spec, bbox.spec, output.spec, size.spec, scale.spec, labels.spec, limit.spec,
      within.spec,
      Setting.snapshotTiles.option, Setting.tilesVector.option,
    ],
    examples: [
      "geophoto snapshot --route walk.gpx -o walk.png", "geophoto snapshot --trip t2n9c -o japan.png",
      "geophoto snapshot --near 35.68,139.76 --labels --scale 2 -o tokyo.png",
      "geophoto snapshot --bbox 139.70,35.64,139.82,35.72 --size 800x600 -o area.svg",
    ])

  static let route = ValueOption.text(
    "route", valueName: "file", help: "A .csv, .gpx or .geojson route to draw, with the photos along it.",
    completion: .file)
  static let trip = ValueOption.text(
    "trip", valueName: "id", help: "A trip's route and photos (ids from 'geophoto trips').")
  static let near = ValueOption.text("near", valueName: "lat,lon", help: "The photos nearest to a place.")
  static let bbox = ValueOption<BoundingBox>(
    long: "bbox", valueName: "w,s,e,n", help: "An area, with the photos inside it.", read: InputParser.boundingBox)
  static let output = ValueOption.text(
    "output", short: "o", valueName: "file", help: "The image to write: .png or .svg.", completion: .file)
  static let size = ValueOption<(width: Int, height: Int)>(
    long: "size", valueName: "WxH",
    help: "Size in points, each side \(SnapshotStyle.sizes.lowerBound) to \(SnapshotStyle.sizes.upperBound)."
  ) { text throws(InputParser.Failure) in
    let parts = text.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), SnapshotStyle.sizes.contains(w),
      SnapshotStyle.sizes.contains(h)
    else {
      let sizes = SnapshotStyle.sizes
      throw InputParser.Failure("expected such as 400x300 (\(sizes.lowerBound) to \(sizes.upperBound))")
    }
    return (w, h)
  }.defaulting(to: (SnapshotStyle().width, SnapshotStyle().height)) { "\($0.width)x\($0.height)" }
  static let scale = ValueOption.integer("scale", SnapshotStyle.scales, help: "Pixels per point: 2 for HiDPI.")
    .defaulting(to: SnapshotStyle().scale) { String($0) }
  static let labels = FlagOption(long: "labels", help: "Write photo titles beside the flags.")
  static let limit = ValueOption.integer("limit", short: "n", 0...100_000, help: "The most photos to draw.")
    .defaulting(to: 50) { String($0) }
  static let within = ValueOption.within(help: "With --route: photos this close to it.")

  /// What to draw: one of a route, the photos near a place, or an area.
  enum Subject {
    case route(String)
    case trip(String)
    case near(String)
    case area(BoundingBox)

    init(_ parsed: ParsedArguments) throws {
      let given = [
        SnapshotCommand.route.long, SnapshotCommand.trip.long, SnapshotCommand.near.long, SnapshotCommand.bbox.long,
      ].filter { parsed.values[$0] != nil }
      guard given.count == 1 else {
        throw UsageError(
          given.isEmpty
            ? "Missing one of '--route', '--trip', '--near' or '--bbox'"
            : "Use only one of '--route', '--trip', '--near' and '--bbox'")
      }
      if let file = try parsed.value(SnapshotCommand.route) {
        self = .route(file)
      } else if let id = try parsed.value(SnapshotCommand.trip) {
        self = .trip(id)
      } else if let place = try parsed.value(SnapshotCommand.near) {
        self = .near(place)
      } else {
        self = .area(try parsed.required(SnapshotCommand.bbox))
      }
    }
  }

  static func run(_ context: CommandContext) throws {
    let parsed = context.parsed
    guard parsed.positionals.isEmpty else { throw UsageError("Unexpected argument '\(parsed.positionals[0])'") }
    let subject = try Subject(parsed)
    let output = try parsed.required(Self.output)
    let format = try Self.format(of: output)
    var style = SnapshotStyle()
    (style.width, style.height) = try parsed.value(size)
    style.scale = try parsed.value(scale)
    style.labels = parsed.has(labels)
    let limit = try parsed.value(limit)
    let content = try Self.content(subject, limit: limit, within: try parsed.value(within), style: &style, context)
    try Self.drawBasemap(into: &style, context)
    do {
      try SnapshotRenderer(style: style).render(content, format: format, to: URL(fileURLWithPath: output))
    } catch {
      throw RuntimeError(error.description)
    }
    if let tiles = style.tiles, tiles.failedTiles > 0 {
      context.console.err("warning: \(tiles.failedTiles) tiles could not be fetched; the background shows there\n")
    }
    context.console.out(
      "wrote \(output) (\(style.width * style.scale)×\(style.height * style.scale) px, \(content.pins.count) photos)\n")
  }

  /// The image format an output file's name asks for.
  static func format(of output: String) throws -> SnapshotRenderer.Format {
    switch URL(fileURLWithPath: output).pathExtension.lowercased() {
    case "png": return .png
    case "svg": return .svg
    default: throw UsageError("The output must end in .png or .svg, not '\(output)'")
    }
  }

  /// The route, pins and bounds for `subject`, at most `limit` photos.
  static func content(
    _ subject: Subject, limit: Int, within: Double, style: inout SnapshotStyle, _ context: CommandContext
  ) throws -> SnapshotContent {
    var content = SnapshotContent()
    let store = try context.openStore(.readWrite)
    switch subject {
    case .route(let file):
      content.route = try readRoute(file).map(\.coordinate)
      if let store {
        let index = try store.spatialIndex(along: content.route, within: within, filter: .all)
        let hits = RouteSearch.points(along: content.route, within: within, index: index) {
          try? store.photo(id: $0)?.coordinate
        }
        content.pins = try store.photos(ids: hits.prefix(limit).map(\.id)).compactMap { p in
          p.coordinate.map { ($0, p.title) }
        }
      }
    case .trip(let id):
      let (trip, photos) = try TripSearch.trip(id, context)
      content.route = trip.route
      content.bounds = trip.bounds
      content.pins = photos.prefix(limit).compactMap { p in p.coordinate.map { ($0, p.title) } }
    case .near(let text):
      let center = try PlaceNames.coordinate(text, context)
      if let store {
        let found = try store.nearest(to: center, limit: limit)
        content.pins = try store.photos(ids: found.map(\.id)).compactMap { p in p.coordinate.map { ($0, p.title) } }
      }
      if content.pins.isEmpty {
        content.bounds = BoundingBox(
          west: center.longitude, south: center.latitude, east: center.longitude, north: center.latitude)
      }
    case .area(let box):
      content.bounds = box
      style.padding = 1
      if let store {
        // The circle around the box holds it; keep what is inside.
        let center = RouteGeometry.region(for: box, padding: 1).center
        let radius =
          [
            Coordinate(latitude: box.south, longitude: box.west), Coordinate(latitude: box.north, longitude: box.east),
            Coordinate(latitude: box.south, longitude: box.east), Coordinate(latitude: box.north, longitude: box.west),
          ]
          .map { GreatCircle.distance(center, $0) }.max() ?? 0
        let inside = try store.nearest(to: center, limit: 100_000, maximumDistance: radius + 1)
        let photos = try store.photos(ids: inside.map(\.id)).filter { $0.coordinate.map(box.contains) ?? false }
        content.pins = photos.prefix(limit).compactMap { p in p.coordinate.map { ($0, p.title) } }
      }
    }
    return content
  }

  /// The map under the pins, as the configuration says: geophoto's own, tiles, or none.
  static func drawBasemap(into style: inout SnapshotStyle, _ context: CommandContext) throws {
    let attribution = context.configuration.snapshot.attribution
    switch context.configuration.snapshot.tiles {
    case .builtIn:
      guard let url = Basemap.shippedURL else {
        throw RuntimeError(
          "geophoto's basemap (\(Basemap.bundledName)) is not installed beside it; draw with --tiles none or osm")
      }
      let archives = try StreetMaps.archives(context)
      do {
        style.basemap = try StreetMaps.renderer(basemap: url, archives: archives)
      } catch {
        throw RuntimeError("cannot read the basemap: \(error)")
      }
      // The credits of what is drawn: Natural Earth's, and OpenStreetMap's where streets are.
      style.attribution = attribution
    case .none:
      style.attribution = attribution ?? "geophoto"
    case .template(let template):
      let options = context.configuration.http.clientOptions(userAgent: RemoteSources.userAgent)
      style.tiles = TileSource(
        template: template,
        attribution: attribution ?? (template == MapBasemap.openStreetMap ? "© OpenStreetMap contributors" : ""),
        client: try HTTPClient(options: options),
        cacheDirectory: CacheFolder.geophoto(environment: context.environment).appendingPathComponent("tiles"))
    }
  }
}
