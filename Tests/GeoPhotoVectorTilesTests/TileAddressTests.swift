import Testing

@testable import GeoPhotoVectorTiles

/// PMTiles' Hilbert ids against the specification's values and its reference order.
@Suite struct TileAddressTests {
  func tile(_ z: Int, _ x: Int, _ y: Int) throws -> TileAddress { try #require(TileAddress(zoom: z, x: x, y: y)) }

  @Test func idsAreTheSpecificationsOnes() throws {
    #expect(try tile(0, 0, 0).hilbertID == 0)
    // Zoom 1: (0,0), (0,1), (1,1), (1,0); zoom 2 starts (0,0), (1,0), (1,1), (0,1).
    #expect(try [(0, 0), (0, 1), (1, 1), (1, 0)].map { try tile(1, $0.0, $0.1).hilbertID } == [1, 2, 3, 4])
    #expect(try [(0, 0), (1, 0), (1, 1), (0, 1)].map { try tile(2, $0.0, $0.1).hilbertID } == [5, 6, 7, 8])
    #expect(try tile(3, 5, 2).hilbertID == 76)
    #expect(try tile(12, 3423, 1763).hilbertID == 19_078_479)
    #expect(try tile(14, 9327, 4742).hilbertID == 319_433_622)
    #expect(try tile(15, 0, 0).hilbertID == 357_913_941)
  }

  @Test func idsTurnBackIntoTheirTiles() throws {
    var seen = Set<UInt64>()
    for z in 0...6 {
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let address = try tile(z, x, y)
          let id = address.hilbertID
          #expect(seen.insert(id).inserted)
          #expect(TileAddress(hilbertID: id) == address)
        }
      }
    }
    // Every id below zoom 7 is one tile's.
    #expect(seen == Set(0..<UInt64(seen.count)))
    let deep = try tile(31, (1 << 31) - 1, 12_345)
    #expect(TileAddress(hilbertID: deep.hilbertID) == deep)
    #expect(TileAddress(hilbertID: UInt64.max) == nil)
  }

  @Test func addressesOutsideThePyramidAreRefused() {
    #expect(TileAddress(zoom: 32, x: 0, y: 0) == nil)
    #expect(TileAddress(zoom: -1, x: 0, y: 0) == nil)
    #expect(TileAddress(zoom: 3, x: 8, y: 0) == nil)
    #expect(TileAddress(zoom: 3, x: 0, y: -1) == nil)
  }

  @Test func mbtilesRowsCountFromTheSouth() throws {
    #expect(try tile(14, 9327, 4742).tmsRow == 11_641)
    #expect(try tile(11, 327, 791).tmsRow == 1_256)
    let (parent, column, row) = try #require(try tile(16, 37_310, 18_970).ancestor(2))
    #expect(parent == (try tile(14, 9327, 4742)))
    #expect(column == 2 && row == 2)
  }
}
