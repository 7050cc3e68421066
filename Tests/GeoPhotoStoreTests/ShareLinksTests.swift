import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

/// Share links and the place filter, the same in every store.
@Suite struct ShareLinksTests {
  @Test(arguments: StoreKind.available)
  func linksAreKeptListedAndRevoked(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let first = Share(
      id: "aaaa1111", name: "Japan", tokenHash: String(repeating: "a", count: 64), trip: "t7", filter: "",
      created: 1_700_000_000, expires: 1_800_000_000)
    let second = Share(
      id: "bbbb2222", name: "May", tokenHash: String(repeating: "b", count: 64), trip: nil,
      filter: "since=2024-05&camera=x100", created: 1_700_000_100, expires: nil)
    try store.addShare(first)
    try store.addShare(second)
    #expect(try store.shares() == [second, first])
    #expect(second.filterValues == ["since": "2024-05", "camera": "x100"])
    // The same token twice is refused.
    var copy = first
    copy.id = "cccc3333"
    #expect(throws: (any Error).self) { try store.addShare(copy) }
    #expect(try store.revokeShare(id: "aaaa1111", at: 1_750_000_000))
    #expect(try !store.revokeShare(id: "aaaa1111", at: 1_760_000_000))
    #expect(try !store.revokeShare(id: "nothere1", at: 1_760_000_000))
    let revoked = try #require(try store.shares().first { $0.id == "aaaa1111" })
    #expect(revoked.revoked == 1_750_000_000 && !revoked.isActive(at: 1_750_000_001))
    #expect(second.isActive(at: 2_000_000_000) && !first.isActive(at: 1_800_000_000))
  }

  @Test(arguments: StoreKind.available)
  func thePlaceFilterKeepsThePlace(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let (timeline, _) = TravelTimeline.fourYears()
    try store.copy(timeline.records(placedWith: 1))
    for key in ["JP", "JP/Kyoto", "JP/Kyoto/Kyoto", "FI/Uusimaa/Espoo", "XX"] {
      let filter = try #require(PlaceFilter(key))
      let expected = timeline.photos.filter { $0.coordinate != nil && filter.contains($0.place) }.count
      #expect(try store.locatedIDs(passing: PhotoFilter(place: filter)).count == expected, "\(key)")
      var dated = 0
      try store.forEachDatedPhoto(passing: PhotoFilter(place: filter)) { _ in dated += 1 }
      #expect(dated == expected, "\(key)")
    }
  }
}
