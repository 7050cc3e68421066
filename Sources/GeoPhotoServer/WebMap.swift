import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD

/// Where the web map gets Leaflet and its basemap.
public struct WebMapConfiguration: Sendable {
  /// Debian's libjs-leaflet; served under `/assets/leaflet/` when it is installed.
  public var leafletDirectory = "/usr/share/javascript/leaflet"
  /// Where the page loads Leaflet from when the directory is missing: nowhere unless set, so
  /// the page never asks another origin for it (it says what to install instead).
  public var leafletFallbackURL: String?
  /// The map under the pins: geophoto's own tiles by default (nothing asked of another
  /// origin), a tile server's URL template, or none (pins on a plain background).
  public var basemap = MapBasemap.builtIn
  /// The basemap's credit (HTML); nil for the basemap's own.
  public var attribution: String?
  /// The credits of the street map's archives (text, as `ArchiveInfo.attributionText`), shown
  /// with the built-in basemap's.
  public var streetCredits: [String] = []

  public init() {}

  /// The credit shown under the map.
  var shownAttribution: String {
    if let attribution { return attribution }
    switch basemap {
    case .builtIn:
      var credit =
        "<a href=\"https://www.naturalearthdata.com\">Natural Earth</a> · "
        + "<a href=\"https://www.geonames.org\">GeoNames</a> (CC BY 4.0)"
      // OpenStreetMap's licence wants its credit linked to its copyright page.
      for text in streetCredits.reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
        let escaped = HTMLText.escaped(text)
        credit +=
          text.contains("OpenStreetMap")
          ? " · <a href=\"https://www.openstreetmap.org/copyright\">\(escaped)</a>" : " · \(escaped)"
      }
      return credit
    case .template(let url) where url == MapBasemap.openStreetMap:
      return "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"
    case .template, .none: return ""
    }
  }

  var hasLocalLeaflet: Bool { FileManager.default.fileExists(atPath: leafletDirectory + "/leaflet.js") }
  var leafletBase: String? { hasLocalLeaflet ? "/assets/leaflet" : leafletFallbackURL }
}

/// What the web map draws under its pins.
public enum MapBasemap: Sendable, Equatable {
  /// geophoto's own tiles from `/tiles` (light or dark, as the system is).
  case builtIn
  /// An XYZ tile URL template (`https://tile.example.org/{z}/{x}/{y}.png`).
  case template(String)
  case none

  public static let openStreetMap = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
  /// The built-in tiles' template for Leaflet (`{r}` is `@2x` on HiDPI screens).
  static let builtInTemplate = "/tiles/{z}/{x}/{y}{r}.png"

  /// The light and dark templates the page uses ("" for none).
  var templates: (light: String, dark: String) {
    switch self {
    case .builtIn: (Self.builtInTemplate, Self.builtInTemplate + "?style=dark")
    case .template(let url): (url, url)
    case .none: ("", "")
    }
  }
}

/// The web map: its page, its script and style, and Debian's Leaflet when it is installed.
enum WebMapEndpoints {
  static let pageRoutes = ["/", "/index.html"].map { path in
    Endpoint(
      path: path, operationID: "webMap", summary: "The web map", access: .open,
      // The page's own URL keeps its date range, search and place, so a view can be shared.
      parameters: [
        FilterParameters.since, FilterParameters.until, FilterParameters.text, place, photo, panel, chosenPlace, trip,
        share,
      ],
      responses: [],
      cached: false,
      documented: false,
      respond: page)
  }

  /// The place the page goes to (`PlaceEndpoints.query`'s names), read by its script.
  static let place = EndpointParameter.query("place", .text, "A place name the map opens at")
  /// A photo whose viewer the page opens.
  static let photo = EndpointParameter.query(
    "photo", .identifier("photo id", 1...Int64.max), "A photo the map opens its viewer on")
  /// The panel shown beside the map.
  static let panel = EndpointParameter.query(
    "panel", .oneOf(["view", "places", "trips", "unplaced"]), "The panel shown")
  /// The place of the Places panel the map is filtered to (a `place` filter's key).
  static let chosenPlace = EndpointParameter.query("in", .filter(.place), "The place the map shows (JP/Kyoto)")
  /// The trip the map shows.
  static let trip = EndpointParameter.query("trip", .slug("trip id"), "The trip the map shows")
  /// A share link's token: the page shows what the link shares, and nothing else.
  static let share = EndpointParameter.query("share", .text, "A share link's token")
  static let assetName = EndpointParameter.path("name", .fileName, "geophoto.js or geophoto.css")
  static let leafletFile = EndpointParameter.path("file", .fileName, "A file of Leaflet's distribution")

  static let assetRoutes = [
    Endpoint(
      path: "/assets/{name}", operationID: "asset", summary: "The web map's script and style", access: .open,
      parameters: [assetName], responses: [], cached: false, documented: false, respond: asset),
    Endpoint(
      path: "/assets/leaflet/{file}", operationID: "leaflet", summary: "Leaflet", access: .open,
      parameters: [leafletFile],
      responses: [], cached: false, documented: false, respond: { try leaflet($0.parameters.word(leafletFile), $0) }),
    Endpoint(
      path: "/assets/leaflet/images/{file}", operationID: "leafletImage", summary: "Leaflet's images", access: .open,
      parameters: [leafletFile], responses: [], cached: false, documented: false,
      respond: { try leaflet($0.parameters.word(leafletFile).map { "images/" + $0 }, $0) }),
  ]

  /// The map page: Leaflet, the basemap, and pins and clusters from `/v1/annotations`. It
  /// holds nothing about the photos (not even where they are): its script asks the API for
  /// that, with the token when the server has one.
  static func page(_ c: EndpointContext) throws -> ServerResponse {
    let map = c.configuration.map
    let endpoints: [(String, Endpoint)] = [
      ("status", ServiceEndpoints.statusRoute), ("places", PlaceEndpoints.route), ("near", NearEndpoint.route),
      ("annotations", AnnotationsEndpoints.annotationsRoute), ("photo", PhotoEndpoints.detailRoute),
      ("thumbnail", PhotoEndpoints.thumbnailRoute), ("visited", TravelEndpoints.visitedRoute),
      ("trips", TravelEndpoints.tripsRoute), ("trip", TravelEndpoints.tripRoute),
      ("unplaced", EditEndpoints.unplacedRoute), ("location", EditEndpoints.placeRoute),
    ]
    let config = JSONValue.object([
      ("tiles", .string(map.basemap.templates.light)), ("darkTiles", .string(map.basemap.templates.dark)),
      ("attribution", .string(map.shownAttribution)),
      ("endpoints", .object(endpoints.map { ($0.0, .string($0.1.path)) })),
      // Whether the map may place and move photos (`serve.allow_edits`, with a token).
      ("edits", .bool(c.configuration.edits != nil && c.configuration.token != nil)),
    ]).serialized().replacing("</", with: "<\\/")
    guard let base = map.leafletBase else { return missingLeaflet(c) }
    let html = WebMapFiles.page.replacing("{{leaflet}}", with: base).replacing("{{config}}", with: config)
    return c.uncached(Array(html.utf8), type: "text/html; charset=utf-8", cacheControl: "no-cache")
  }

  /// The page when Leaflet is not installed and no other place is set for it: what to install,
  /// rather than a script from someone else's server.
  static func missingLeaflet(_ c: EndpointContext) -> ServerResponse {
    let html = """
      <!DOCTYPE html>
      <html lang="en">
      <head><meta charset="utf-8"><title>geophoto map</title></head>
      <body data-missing="leaflet">
      <h1>The map needs Leaflet</h1>
      <p>geophoto's web map uses Debian's Leaflet, which is not installed on this server:
      <code>apt-get install libjs-leaflet</code>. (Or set <code>serve.leaflet_url</code> to where your
      Leaflet is served.) The HTTP API answers without it: <a href="/openapi.json">/openapi.json</a>.</p>
      </body>
      </html>

      """
    return c.uncached(Array(html.utf8), type: "text/html; charset=utf-8", cacheControl: "no-cache")
  }

  static func asset(_ c: EndpointContext) throws -> ServerResponse {
    switch c.parameters.word(assetName) {
    case "geophoto.js":
      return c.uncached(WebMapFiles.script, type: "text/javascript; charset=utf-8", cacheControl: "public, max-age=300")
    case "geophoto.css":
      return c.uncached(WebMapFiles.style, type: "text/css; charset=utf-8", cacheControl: "public, max-age=300")
    case let name: throw APIError.notFound("no asset \(name ?? "")")
    }
  }

  /// Files of Debian's Leaflet, from a fixed list: names from the request never reach the
  /// file system unchecked.
  static func leaflet(_ name: String?, _ c: EndpointContext) throws -> ServerResponse {
    let files: [String: String] = [
      "leaflet.js": "text/javascript; charset=utf-8", "leaflet.css": "text/css; charset=utf-8",
      "images/layers.png": "image/png", "images/layers-2x.png": "image/png", "images/marker-icon.png": "image/png",
      "images/marker-icon-2x.png": "image/png", "images/marker-shadow.png": "image/png",
    ]
    let map = c.configuration.map
    guard let name, let type = files[name], map.hasLocalLeaflet,
      let data = FileManager.default.contents(atPath: map.leafletDirectory + "/" + name)
    else { throw APIError.notFound("no asset leaflet/\(name ?? "")") }
    return c.uncached([UInt8](data), type: type, cacheControl: "public, max-age=86400")
  }
}

/// The web map's page, script and style: the files in `WebMap/`, built into the program. The
/// page's `{{leaflet}}` is where Leaflet is served from and `{{config}}` the page's settings
/// (basemap, credit and the API's paths from the route table).
enum WebMapFiles {
  static let page = String(decoding: PackageResources.index_html, as: UTF8.self)
  static let script = PackageResources.geophoto_js
  static let style = PackageResources.geophoto_css
}
