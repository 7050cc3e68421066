import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

/// The web map's Places and Trips panels and a shared link's view, in headless Chromium, over
/// an index of four years whose trips are known. Screenshots are kept as test artifacts
/// (`webmap-places.png`, `webmap-trip.png`, `webmap-share.png`).
@Suite(.serialized) struct TravelWebMapTests {
  @Test func panelsAndTheSharedView() throws {
    guard let chromium = ServeEndToEndTests.chromium else {
      if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("chromium is not installed") }
      return
    }
    let (w, ids) = try TravelEndToEndTests.workspace()
    let (timeline, expected) = TravelTimeline.fourYears()
    let japan = try #require(expected.first { $0.start == "2018-05-01" })
    let pacific = try #require(expected.first { $0.start == "2019-02-01" })
    let japanID = TravelEndToEndTests.base36(japan.ids.compactMap { ids[$0] }.min() ?? 0)
    let pacificID = TravelEndToEndTests.base36(pacific.ids.compactMap { ids[$0] }.min() ?? 0)
    let made = try Binary.run(["share", "create", "--trip", japanID], environment: w.env)
    let token = try #require(
      made.stdout.split(separator: "?share=").last.map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
      })
    let (running, base) = try Binary.serve(["--tiles", "builtin"], environment: w.env)
    defer { running.stop() }
    let artifacts = try ServeEndToEndTests.artifacts()
    let browser = HeadlessChromium(executable: chromium, base: base)
    defer { browser.clean() }
    func attribute(_ name: String, in dom: String) -> String? {
      guard let r = dom.range(of: " data-\(name)=\"") else { return nil }
      return String(dom[r.upperBound...].prefix { $0 != "\"" })
    }

    // Places: the countries with their counts, counted here from the photos.
    let finland = timeline.photos.filter { $0.coordinate != nil && $0.place?.countryCode == "FI" }.count
    let places = try browser.open("/?panel=places", ["--dump-dom"])
    #expect(attribute("panel", in: places) == "places")
    #expect(attribute("places", in: places) == "7", "\(places.prefix(800))")
    #expect(places.contains(">Finland</button><small>\(finland) · 2018-01-01 – 2021-06-14</small>"))
    // A place chosen: the map filtered to it and fitted to it.
    let kyoto = try browser.open("/?panel=places&in=JP/Kyoto", ["--dump-dom"])
    #expect(attribute("filter", in: kyoto)?.contains("place=JP%2FKyoto") == true, "\(kyoto.prefix(800))")
    #expect(Int(attribute("zoom", in: kyoto) ?? "") ?? 0 >= 9)
    #expect(kyoto.contains("data-key=\"JP/Kyoto\" aria-pressed=\"true\""))
    _ = try browser.open(
      "/?panel=places&in=FI/Uusimaa", ["--screenshot=\(artifacts.appendingPathComponent("webmap-places.png").path)"])

    // Trips: the known ones, and one chosen across the antimeridian with its route.
    let trips = try browser.open("/?panel=trips", ["--dump-dom"])
    #expect(attribute("trips", in: trips) == String(expected.count))
    for trip in expected { #expect(trips.contains(trip.name.replacingOccurrences(of: "&", with: "&amp;"))) }
    let chosen = try browser.open("/?panel=trips&trip=\(pacificID)", ["--dump-dom"])
    #expect(attribute("trip", in: chosen) == pacificID)
    #expect(attribute("trip-photos", in: chosen) == String(pacific.ids.count))
    #expect(chosen.contains("gp-route"), "the route is drawn")
    #expect(chosen.contains("<h1 id=\"gp-title-name\">Fiji &amp; Samoa</h1>"))
    // Its first photo: 09:00 on 1 February in Suva (+12:00), 21:00 UTC the day before.
    #expect(attribute("filter", in: chosen)?.contains("since=2019-01-31T21%3A00%3A00Z") == true)
    _ = try browser.open(
      "/?panel=trips&trip=\(pacificID)", ["--screenshot=\(artifacts.appendingPathComponent("webmap-trip.png").path)"])

    // The shared link: its trip alone, without the other controls.
    let shared = try browser.open("/?share=\(token)", ["--dump-dom"])
    #expect(shared.contains("class=\"gp-shared\""), "\(shared.prefix(800))")
    #expect(attribute("trips", in: shared) == "1")
    #expect(attribute("trip", in: shared) == japanID)
    #expect(shared.contains("<h1 id=\"gp-title-name\">Tokyo &amp; Kyoto, JP</h1>"))
    for other in expected where other.start != japan.start {
      #expect(!shared.contains(">\(other.name.replacingOccurrences(of: "&", with: "&amp;"))<"), "\(other.name)")
    }
    _ = try browser.open(
      "/?share=\(token)", ["--screenshot=\(artifacts.appendingPathComponent("webmap-share.png").path)"])
    // The access log never shows the link's token.
    running.stop()
    #expect(!running.result().stderr.contains(token))
  }
}
