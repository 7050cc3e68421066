import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoTravel

@Suite struct PlacesVisitedTests {
  @Test func countsDatesAndBoxesMatchTheRows() throws {
    let (timeline, _) = TravelTimeline.fourYears()
    let photos = timeline.photos
    let visited = PlacesVisited(photos) { TripFinderTests.countryNames[$0] ?? $0 }
    // Counted again here by hand from the photos, per key.
    var counts: [String: Int] = [:]
    var days: [String: (String, String)] = [:]
    for p in photos {
      guard p.coordinate != nil, let place = p.place else { continue }
      for key in [
        place.countryCode, "\(place.countryCode)/\(place.admin1)", "\(place.countryCode)/\(place.admin1)/\(place.name)",
      ] {
        counts[key, default: 0] += 1
        let d = p.localDate
        let known = days[key] ?? (d, d)
        days[key] = (min(known.0, d), max(known.1, d))
      }
    }
    let all = visited.all
    #expect(all.count == counts.count)
    #expect(visited.unnamed == 0)
    let byID = Dictionary(uniqueKeysWithValues: photos.map { ($0.id, $0) })
    for place in all {
      #expect(place.photos == counts[place.key], "\(place.key)")
      #expect(place.first.text == days[place.key]?.0 && place.last.text == days[place.key]?.1, "\(place.key)")
      // The representative is one of the place's photos, inside its box.
      let photo = try #require(byID[place.representative])
      #expect(photo.place?.countryCode == place.countryCode)
      #expect(place.bounds.contains(photo.coordinate!))
    }
    // Most photos first, at every level; names for countries.
    #expect(visited.countries.map(\.name).first == "Finland")
    #expect(visited.countries.map(\.photos) == visited.countries.map(\.photos).sorted(by: >))
    let fiji = try #require(visited.countries.first { $0.countryCode == "FJ" })
    #expect(fiji.children.map(\.name) == ["Central"])
    #expect(fiji.children[0].children.map(\.name) == ["Suva"])
  }

  @Test func levelsAndOrders() {
    let (timeline, _) = TravelTimeline.fourYears()
    let countries = PlacesVisited(timeline.photos, level: .country)
    #expect(countries.all.allSatisfy { $0.level == .country })
    let regions = PlacesVisited(timeline.photos, level: .region, order: .name)
    #expect(regions.all.allSatisfy { $0.level != .city })
    #expect(regions.countries.map(\.name) == regions.countries.map(\.name).sorted())
    let byDate = PlacesVisited(timeline.photos, order: .date)
    #expect(byDate.countries.map(\.first) == byDate.countries.map(\.first).sorted())
    #expect(byDate.countries.first?.countryCode == "FI")
  }

  @Test func photosOutsideAnyPlaceAreCountedApart() {
    let photos = [
      DatedPhoto(id: 1, coordinate: Coordinate(latitude: 0, longitude: -140), instant: 0, localTime: 0),
      DatedPhoto(
        id: 2, coordinate: Coordinate(latitude: -77.8, longitude: 166.7), instant: 0, localTime: 0,
        place: PlaceName(country: "Antarctica", code: "AQ")),
      DatedPhoto(id: 3, coordinate: nil, instant: 0, localTime: 0),
    ]
    let visited = PlacesVisited(photos)
    #expect(visited.unnamed == 1)
    #expect(visited.countries.map(\.countryCode) == ["AQ"])
    // Named only by its country: no region, no city.
    #expect(visited.countries[0].children.isEmpty)
  }

  @Test func localDaysFloorAndNeverTrap() {
    #expect(LocalDay(seconds: 0).text == "1970-01-01")
    #expect(LocalDay(seconds: -1).number == -1 && LocalDay(seconds: -86_400).number == -1)
    #expect(LocalDay(seconds: -86_401).number == -2 && LocalDay(seconds: 86_399).number == 0)
    #expect(LocalDay(seconds: .min).number == Int64.min / 86_400 - 1)
    _ = LocalDay(seconds: .max).text  // no trap
  }
}
