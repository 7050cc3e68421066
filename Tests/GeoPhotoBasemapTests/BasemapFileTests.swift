import Foundation
import GeoPhotoBasemap
import GeoPhotoCore
import GeoPhotoPlaces
import Testing

@Suite("The basemap file", .enabled(if: Basemap.shippedURL != nil, "the basemap is not built (make basemap)"))
struct BasemapFileTests {
  let url = Basemap.shippedURL!

  @Test func damagedFilesAreRefusedWithWhatIsWrong() throws {
    let bytes = try Data(contentsOf: url)
    for (data, message) in [
      (Data("GPBASEM1".utf8), "not a geophoto basemap"),
      (Data("something else entirely".utf8), "not a geophoto basemap"),
      (bytes.prefix(bytes.count / 2), "damaged"), (bytes.prefix(200), "damaged"),
    ] {
      do {
        _ = try Basemap(data: data, name: "test.basemap")
        Issue.record("a damaged basemap was read")
      } catch {
        #expect("\(error)".hasPrefix("test.basemap: ") && "\(error)".contains(message), "\(error)")
      }
    }
    // Garbage over the middle: refused or read, never read out of bounds (every index is
    // checked on load).
    var garbage = bytes
    var rng = SystemRandomNumberGenerator()
    for i in stride(from: 4_096, to: garbage.count, by: 997) { garbage[i] = UInt8.random(in: 0...255, using: &rng) }
    if let map = try? Basemap(data: garbage, name: "garbage") {
      _ = try? BasemapRenderer(basemap: map).tile(zoom: 4, x: 8, y: 5, scale: 1, style: .light)
    }
  }

  @Test func labelsFollowTheGazetteersPopulations() throws {
    let basemap = try Basemap(contentsOf: url)
    let gazetteer = try Gazetteer(contentsOf: try #require(Gazetteer.shippedURL))
    // The most populous place of the gazetteer is labelled from zoom 2 down.
    let biggest = try #require((0..<gazetteer.count).max { gazetteer.population($0) < gazetteer.population($1) })
    let name = gazetteer.place(biggest).name
    for zoom in 2...10 { #expect(basemap.labels(atZoom: zoom).contains { $0.name == name }, "\(name) at \(zoom)") }
    // At zoom 3, places have three million people or more; countries are labelled too.
    let populous = Set(
      (0..<gazetteer.count).filter { gazetteer.population($0) >= 3_000_000 }.map {
        gazetteer.place($0).name
      })
    let atThree = basemap.labels(atZoom: 3)
    #expect(atThree.contains { $0.name == "Japan" } && atThree.contains { $0.name == "Brazil" })
    let places = atThree.filter { label in !populous.contains(label.name) }
    // The rest are countries (fewer than the 241 Natural Earth names).
    #expect(places.count < 241, "\(places.prefix(5))")
    // Deeper zooms have more labels, never fewer.
    let counts = (0...10).map { basemap.labels(atZoom: $0).count }
    #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 }, "\(counts)")
  }
}
