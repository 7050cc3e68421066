import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

/// The web map's Unplaced tab driven in headless Chromium over its DevTools pipe: a photo
/// dragged onto the map, two selected and placed with a click, and both edits undone, each
/// checked through the API.
@Suite(.serialized) struct UnplacedTrayTests {
  static let token = "tray-token-1234567890"

  func api(_ base: String, _ path: String) throws -> [String: Any] {
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = 5
    let r = try HTTPClient(options: options).get(base + path, headers: ["Authorization": "Bearer \(Self.token)"])
    return (try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]) ?? [:]
  }

  /// The position at pixel (x, y) of a 1280 × 800 map centred on `center` at `zoom` (Web
  /// Mercator, 256-pixel tiles), computed here.
  static func position(x: Double, y: Double, center: Coordinate, zoom: Double) -> Coordinate {
    let size = 256 * pow(2, zoom)
    let cx = (center.longitude + 180) / 360 * size
    let sinLat = sin(center.latitude * .pi / 180)
    let cy = (0.5 - log((1 + sinLat) / (1 - sinLat)) / (4 * .pi)) * size
    let px = cx + x - 640
    let py = cy + y - 400
    let longitude = px / size * 360 - 180
    let n = .pi - 2 * .pi * py / size
    return Coordinate(latitude: atan(sinh(n)) * 180 / .pi, longitude: longitude)
  }

  @Test func photosArePlacedOnTheMapAndUndone() throws {
    guard let chromium = ServeEndToEndTests.chromium else {
      if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("chromium is not installed") }
      return
    }
    let w = try ExampleWorkspace()
    for i in 0..<3 {
      try SampleJPEG.write(to: w.photos.appendingPathComponent("unplaced-\(i).jpg")) {
        $0.takenAt = CaptureDate(year: 2024, month: 5, day: 6, hour: 10 + i, utcOffsetMinutes: 540)
      }
    }
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let tokenFile = w.root.appendingPathComponent("token")
    try Data((Self.token + "\n").utf8).write(to: tokenFile)
    chmod(tokenFile.path, 0o600)
    let (running, base) = try Binary.serve(
      ["--tiles", "builtin", "--token-file", tokenFile.path, "--allow-edits", "true"], environment: w.env)
    defer { running.stop() }
    // The example photos without a position, and these three.
    let unplaced = ExamplePhotos.all.filter { $0.coordinate == nil }.count + 3
    #expect(try api(base, "/v1/unplaced")["total"] as? Int == unplaced)

    let page = try DevToolsPage(chromium: chromium)
    try page.navigate(base + "/")
    try page.waitFor("!document.getElementById('gp-token').hidden")
    _ = try page.evaluate("sessionStorage.setItem('geophoto-token', '\(Self.token)')")
    try page.navigate(base + "/?panel=unplaced#map=12/35.68/139.76")
    try page.waitFor("document.body.dataset.unplaced === '\(unplaced)'")
    #expect(try page.evaluate("document.querySelectorAll('#gp-unplaced li').length") as? Int == unplaced)
    // Their thumbnails in, for the screenshot.
    try page.waitFor(
      "[...document.querySelectorAll('#gp-unplaced img')].every((i) => i.complete && i.naturalWidth > 0)")
    try page.screenshot(to: try ServeEndToEndTests.artifacts().appendingPathComponent("webmap-unplaced.png"))

    // One dragged onto the map at (400, 300).
    let dragged = try #require(try page.evaluate("document.querySelector('#gp-unplaced li').dataset.photo") as? String)
    _ = try page.evaluate(
      """
      (() => {
        const data = new DataTransfer();
        data.setData('text/plain', '\(dragged)');
        const map = document.getElementById('map');
        map.dispatchEvent(new DragEvent('drop', { dataTransfer: data, clientX: 400, clientY: 300, bubbles: true,
          cancelable: true }));
        return true;
      })()
      """)
    try page.waitFor("document.body.dataset.undo === '1' && document.body.dataset.unplaced === '\(unplaced - 1)'")
    let placed = try api(base, "/v1/photos/\(dragged)")
    let at = try #require(placed["coordinate"] as? [String: Double])
    let expected = Self.position(x: 400, y: 300, center: Coordinate(latitude: 35.68, longitude: 139.76), zoom: 12)
    // Within a pixel (360° / 2^20 at zoom 12).
    #expect(abs((at["latitude"] ?? 0) - expected.latitude) < 4e-4, "\(at) \(expected)")
    #expect(abs((at["longitude"] ?? 0) - expected.longitude) < 4e-4, "\(at) \(expected)")
    #expect((placed["estimate"] as? [String: Any])?["source"] as? String == "hand")

    // The other two selected (a click, a shift-click) and placed with a click on the map.
    _ = try page.evaluate(
      """
      (() => {
        const items = document.querySelectorAll('#gp-unplaced li');
        items[0].dispatchEvent(new MouseEvent('click', { bubbles: true }));
        items[1].dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true }));
        return document.body.dataset.selected;
      })()
      """)
    try page.waitFor("document.body.dataset.selected === '2'")
    _ = try page.evaluate(
      """
      (() => {
        const map = document.getElementById('map');
        for (const type of ['mousedown', 'mouseup', 'click']) {
          map.dispatchEvent(new MouseEvent(type, { clientX: 700, clientY: 500, bubbles: true, button: 0 }));
        }
        return true;
      })()
      """)
    try page.waitFor("document.body.dataset.undo === '2' && document.body.dataset.unplaced === '\(unplaced - 3)'")
    #expect(try api(base, "/v1/unplaced")["total"] as? Int == unplaced - 3)

    // Undone, one edit at a time.
    _ = try page.evaluate("document.getElementById('gp-undo').click()")
    try page.waitFor("document.body.dataset.undo === '1'")
    try page.waitFor("document.body.dataset.unplaced === '\(unplaced - 1)'")
    _ = try page.evaluate("document.getElementById('gp-undo').click()")
    try page.waitFor("document.body.dataset.undo === '0'")
    #expect(try api(base, "/v1/unplaced")["total"] as? Int == unplaced)
    #expect(try api(base, "/v1/photos/\(dragged)")["coordinate"] is NSNull)
  }

  /// A trip chosen, its photos stepped through in time order with the viewer's next.
  @Test func theViewerStepsThroughATripInOrder() throws {
    guard let chromium = ServeEndToEndTests.chromium else {
      if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("chromium is not installed") }
      return
    }
    let (w, ids) = try TravelEndToEndTests.workspace()
    let (timeline, expected) = TravelTimeline.fourYears()
    let rome = try #require(expected.first { $0.start == "2018-09-08" })
    let tripID = TravelEndToEndTests.base36(rome.ids.compactMap { ids[$0] }.min() ?? 0)
    // The trip's photos in time order, as the store numbers them.
    let order = timeline.photos.filter { rome.ids.contains($0.id) }.sorted { ($0.instant, $0.id) < ($1.instant, $1.id) }
      .compactMap { ids[$0.id] }
    let (running, base) = try Binary.serve(["--tiles", "none"], environment: w.env)
    defer { running.stop() }
    let page = try DevToolsPage(chromium: chromium)
    try page.navigate(base + "/?trip=\(tripID)")
    try page.waitFor("document.body.dataset.trip === '\(tripID)'")
    _ = try page.evaluate("document.getElementById('gp-title-step').click()")
    try page.waitFor("document.getElementById('gp-viewer').dataset.photo === '\(order[0])'")
    try page.waitFor("document.getElementById('gp-position').textContent === '1 of \(order.count)'")
    _ = try page.evaluate("document.getElementById('gp-next').click()")
    try page.waitFor("document.getElementById('gp-viewer').dataset.photo === '\(order[1])'")
    _ = try page.evaluate("document.getElementById('gp-previous').click()")
    _ = try page.evaluate("document.getElementById('gp-previous').click()")
    try page.waitFor("document.getElementById('gp-viewer').dataset.photo === '\(order[order.count - 1])'")
    #expect(
      try page.evaluate("document.getElementById('gp-position').textContent") as? String
        == "\(order.count) of \(order.count)")
  }
}
