import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

/// A position placed by hand (the map's edits) over what the file recorded, kept through
/// syncs, and cleared back to the file's: the same in every store.
@Suite struct HandPlacementTests {
  static let now = IndexTime(seconds: 1_796_385_600)  // 2026-12-04T12:00:00Z
  static let hand = Coordinate(latitude: 35.0116, longitude: 135.7681)

  @Test(arguments: StoreKind.available)
  func aHandOverridesTheFileAndClearingGivesTheFileBack(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    // The file says Tokyo; the photo was taken in Kyoto.
    let id = try store.write { try store.upsert(record("/p/a.jpg", 35.68, 139.76), now: Self.now) }.id
    #expect(try store.write { try store.placeByHand(id: id, Self.hand, now: Self.now) })
    var photo = try #require(try store.photo(id: id))
    #expect(photo.coordinate == Self.hand)
    #expect(photo.locationEstimated && photo.estimateSource == .byHand)
    // A sync reading the same file, then a file that now says Osaka: the hand's stays.
    try store.write { _ = try store.upsert(record("/p/a.jpg", 35.68, 139.76), now: Self.now) }
    #expect(try store.photo(id: id)?.coordinate == Self.hand)
    try store.write { _ = try store.upsert(record("/p/a.jpg", 34.69, 135.50, hash: "h2"), now: Self.now) }
    photo = try #require(try store.photo(id: id))
    #expect(photo.coordinate == Self.hand && photo.estimateSource == .byHand)
    // The file giving the hand's position back (the edit's own sidecar) is no new position of
    // the file's: what was put aside stays.
    try store.write {
      _ = try store.upsert(record("/p/a.jpg", Self.hand.latitude, Self.hand.longitude, hash: "h3"), now: Self.now)
    }
    #expect(try store.photo(id: id)?.coordinate == Self.hand)
    // Cleared: the file's latest position, recorded again.
    #expect(try store.write { try store.clearEstimatedLocations(ids: [id], now: Self.now) } == 1)
    photo = try #require(try store.photo(id: id))
    #expect(photo.coordinate == Coordinate(latitude: 34.69, longitude: 135.50))
    #expect(!photo.locationEstimated && photo.estimateSource == nil)
    // Cleared again: nothing estimated is left, nothing changes.
    #expect(try store.write { try store.clearEstimatedLocations(ids: [id], now: Self.now) } == 0)
    #expect(try store.photo(id: id)?.coordinate == Coordinate(latitude: 34.69, longitude: 135.50))
    // The spatial index follows.
    try store.refreshDerivedIndexes()
    #expect(try store.nearest(to: Coordinate(latitude: 34.69, longitude: 135.50), limit: 1).map(\.id) == [id])
  }

  @Test(arguments: StoreKind.available)
  func photosWithoutARecordedPositionGoBackToNone(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let none = try store.write { try store.upsert(record("/p/none.jpg", nil, nil), now: Self.now) }.id
    let tracked = try store.write { try store.upsert(record("/p/track.jpg", nil, nil), now: Self.now) }.id
    try store.write {
      try store.setEstimatedLocation(
        id: tracked, Coordinate(latitude: 1, longitude: 2), altitude: 5,
        source: EstimateSource(kind: .track, name: "day.gpx", method: .exact), now: Self.now)
    }
    for id in [none, tracked] {
      #expect(try store.write { try store.placeByHand(id: id, Self.hand, now: Self.now) })
      #expect(try store.photo(id: id)?.coordinate == Self.hand)
      // A sync of a file still without a position keeps the hand's.
      try store.write {
        _ = try store.upsert(record(id == none ? "/p/none.jpg" : "/p/track.jpg", nil, nil), now: Self.now)
      }
      #expect(try store.photo(id: id)?.coordinate == Self.hand)
      #expect(try store.write { try store.clearEstimatedLocations(ids: [id], now: Self.now) } == 1)
      let photo = try #require(try store.photo(id: id))
      #expect(photo.coordinate == nil && photo.altitude == nil && !photo.locationEstimated)
    }
    #expect(try !store.write { try store.placeByHand(id: 999_999, Self.hand, now: Self.now) })
  }
}
