import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD

/// Where the web map gets Leaflet and its basemap.
public struct WebMapConfiguration: Sendable {
  /// Debian's libjs-leaflet; served under `/assets/leaflet/` when it is installed.
  public var leafletDirectory = "/usr/share/javascript/leaflet"
  /// Where the page loads Leaflet from when the directory is missing.
  public var leafletFallbackURL = "https://unpkg.com/leaflet@1.9.4/dist"
  /// XYZ tile URL template; empty for no basemap (pins on a plain background).
  public var tileURL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
  public var attribution = "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"

  public init() {}

  var hasLocalLeaflet: Bool { FileManager.default.fileExists(atPath: leafletDirectory + "/leaflet.js") }
  var leafletBase: String { hasLocalLeaflet ? "/assets/leaflet" : leafletFallbackURL }
}

extension Endpoints {
  /// The map page: Leaflet, the basemap, and pins and clusters from `/v1/annotations`.
  func webMap() -> ServerResponse {
    let map = configuration.map
    var bounds: JSONValue = .null
    let coordinates = snapshot.photos.compactMap(\.coordinate)
    if let first = coordinates.first {
      var (south, west, north, east) = (first.latitude, first.longitude, first.latitude, first.longitude)
      for c in coordinates {
        south = min(south, c.latitude)
        north = max(north, c.latitude)
        west = min(west, c.longitude)
        east = max(east, c.longitude)
      }
      bounds = .array([.array([.number(south), .number(west)]), .array([.number(north), .number(east)])])
    }
    let config = JSONValue.object([
      ("tiles", .string(map.tileURL)), ("attribution", .string(map.attribution)), ("bounds", bounds),
    ]).serialized().replacingOccurrences(of: "</", with: "<\\/")
    let base = map.leafletBase
    let html = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>geophoto map</title>
      <link rel="stylesheet" href="\(base)/leaflet.css">
      <link rel="stylesheet" href="/assets/geophoto.css">
      </head>
      <body>
      <div id="map"></div>
      <script id="gp-config" type="application/json">\(config)</script>
      <script src="\(base)/leaflet.js"></script>
      <script src="/assets/geophoto.js"></script>
      </body>
      </html>

      """
    return ServerResponse(
      status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
      body: Array(html.utf8))
  }

  func asset(_ name: String) throws -> ServerResponse {
    switch name {
    case "geophoto.js": return text(WebMapAssets.script, type: "text/javascript; charset=utf-8")
    case "geophoto.css": return text(WebMapAssets.style, type: "text/css; charset=utf-8")
    default: throw APIError.notFound("no asset \(name)")
    }
  }

  /// Files of Debian's Leaflet, from a fixed list: names from the request never reach the
  /// file system unchecked.
  func leaflet(_ name: String) throws -> ServerResponse {
    let files: [String: String] = [
      "leaflet.js": "text/javascript; charset=utf-8", "leaflet.css": "text/css; charset=utf-8",
      "images/layers.png": "image/png", "images/layers-2x.png": "image/png", "images/marker-icon.png": "image/png",
      "images/marker-icon-2x.png": "image/png", "images/marker-shadow.png": "image/png",
    ]
    guard let type = files[name], configuration.map.hasLocalLeaflet,
      let data = FileManager.default.contents(atPath: configuration.map.leafletDirectory + "/" + name)
    else { throw APIError.notFound("no asset leaflet/\(name)") }
    return ServerResponse(
      status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=86400")], body: [UInt8](data))
  }

  private func text(_ body: String, type: String) -> ServerResponse {
    ServerResponse(
      status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=300")], body: Array(body.utf8))
  }
}

/// The web map's script and style.
enum WebMapAssets {
  static let style = """
    html, body, #map { height: 100%; margin: 0; }
    #map { background: #dfe7ec; }
    .gp-marker { background: #d6336c; border: 2px solid #fff; border-radius: 50%;
      box-shadow: 0 0 2px rgba(0, 0, 0, .5); }
    .gp-cluster { background: rgba(214, 51, 108, .25); border-radius: 50%; }
    .gp-cluster div { width: 30px; height: 30px; margin: 5px; border-radius: 50%; background: rgba(214, 51, 108, .8);
      color: #fff; font: bold 12px/30px system-ui, sans-serif; text-align: center; }
    .gp-popup img { display: block; max-width: 200px; margin-top: 6px; }
    """

  static let script = """
    'use strict';
    (function () {
      const config = JSON.parse(document.getElementById('gp-config').textContent);
      const map = L.map('map', { worldCopyJump: true });
      if (config.bounds) { map.fitBounds(config.bounds, { padding: [30, 30], maxZoom: 16 }); }
      else { map.setView([20, 0], 2); }
      if (config.tiles) {
        L.tileLayer(config.tiles, { attribution: config.attribution, maxZoom: 19 }).addTo(map);
      }
      const layer = L.layerGroup().addTo(map);
      const escape = (text) => String(text == null ? '' : text).replace(/[&<>"']/g,
        (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
      let generation = 0;

      async function refresh() {
        const request = ++generation;
        const b = map.getBounds();
        let west = b.getWest(), east = b.getEast();
        if (east - west >= 360) { west = -180; east = 180; }
        else {
          west = ((west + 180) % 360 + 360) % 360 - 180;
          east = ((east + 180) % 360 + 360) % 360 - 180;
        }
        const south = Math.max(-90, b.getSouth()), north = Math.min(90, b.getNorth());
        const zoom = Math.floor(map.getZoom());
        const bbox = [west, south, east, north].map((v) => v.toFixed(6)).join(',');
        const response = await fetch('/v1/annotations?bbox=' + bbox + '&zoom=' + zoom);
        if (!response.ok || request !== generation) { return; }
        const collection = await response.json();
        layer.clearLayers();
        let markers = 0, clusters = 0;
        for (const feature of collection.features) {
          const [lon, lat] = feature.geometry.coordinates;
          const p = feature.properties;
          if (p.cluster) {
            clusters++;
            const icon = L.divIcon({ html: '<div>' + escape(p.point_count_abbreviated) + '</div>',
              className: 'gp-cluster', iconSize: L.point(40, 40) });
            L.marker([lat, lon], { icon, title: p.point_count + ' photos' })
              .on('click', () => map.setView([lat, lon], p.expansion_zoom)).addTo(layer);
          } else {
            markers++;
            const icon = L.divIcon({ className: 'gp-marker', iconSize: L.point(14, 14) });
            L.marker([lat, lon], { icon, title: p.title }).bindPopup(
              '<div class="gp-popup"><strong>' + escape(p.title) + '</strong><br>' + escape(p.subtitle) +
              (p.thumbnailURL ? '<img alt="" src="' + escape(p.thumbnailURL) + '">' : '') + '</div>').addTo(layer);
          }
        }
        document.body.dataset.markers = markers;
        document.body.dataset.clusters = clusters;
        document.body.dataset.bbox = bbox;
        document.body.dataset.zoom = zoom;
        document.body.dataset.ready = '1';
      }
      map.on('moveend', refresh);
      refresh();
    })();
    """
}
