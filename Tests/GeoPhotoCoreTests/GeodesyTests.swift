import Foundation
import Testing

@testable import GeoPhotoCore

@Suite struct GeodesyTests {
  @Test func oneDegreeOfLatitude() {
    // R·π/180 on the mean-radius sphere.
    let d = GreatCircle.distance(
      Coordinate(latitude: 10, longitude: 20), Coordinate(latitude: 11, longitude: 20))
    #expect(abs(d - 111_195.08) < 0.01)
  }

  @Test func antipodesAreHalfACircumference() {
    let d = GreatCircle.distance(
      Coordinate(latitude: 35, longitude: 139), Coordinate(latitude: -35, longitude: -41))
    #expect(abs(d - 20_015_114.442) < 0.001)
  }

  @Test func knownCityDistance() {
    // Tokyo Station → Osaka Station: haversine written out here as the reference.
    let tokyo = Coordinate(latitude: 35.681236, longitude: 139.767125)
    let osaka = Coordinate(latitude: 34.702485, longitude: 135.495951)
    let rad = Double.pi / 180
    let h =
      pow(sin((osaka.latitude - tokyo.latitude) * rad / 2), 2) + cos(tokyo.latitude * rad)
      * cos(osaka.latitude * rad) * pow(sin((osaka.longitude - tokyo.longitude) * rad / 2), 2)
    let haversine = 2 * 6_371_008.8 * asin(h.squareRoot())
    #expect(abs(GreatCircle.distance(tokyo, osaka) - haversine) < 1e-4)
    #expect(abs(GreatCircle.distance(tokyo, osaka) - 403_400) < 500)
  }

  @Test func chordRoundTrips() {
    for metres in [0.01, 1, 350, 12_345.6, 1e6, 1e7, 2e7] {
      let back = GreatCircle.distance(squaredChord: GreatCircle.squaredChord(forDistance: metres))
      #expect(abs(back - metres) <= 1e-6 * max(1, metres))
    }
  }

  @Test func plausibility() {
    #expect(!Coordinate(latitude: 0, longitude: 0).isPlausiblePhotoLocation)
    #expect(Coordinate(latitude: 0, longitude: 0.0001).isPlausiblePhotoLocation)
    #expect(Coordinate(validatingLatitude: 90.0001, longitude: 0) == nil)
    #expect(Coordinate(validatingLatitude: 0, longitude: .nan) == nil)
    #expect(Coordinate(validatingLatitude: 1, longitude: 180)?.longitude == -180)
  }

  @Test func boundingBoxAcrossTheAntimeridian() {
    let box = BoundingBox(west: 170, south: -10, east: -170, north: 10)
    #expect(box.crossesAntimeridian)
    #expect(box.contains(Coordinate(latitude: 0, longitude: 179)))
    #expect(box.contains(Coordinate(latitude: 0, longitude: -175)))
    #expect(!box.contains(Coordinate(latitude: 0, longitude: 0)))
  }

  @Test(arguments: [
    (0.4, "0 m"), (349.6, "350 m"), (999.4, "999 m"), (999.6, "1.0 km"), (2_449, "2.4 km"),
    (9_949, "9.9 km"), (9_951, "10 km"), (24_400, "24 km"), (20_015_086.8, "20015 km"), (-3, "0 m"),
    (.infinity, "?"), (.nan, "?"), (1e300, "1000000000000000 km"),
  ])
  func humanDistances(metres: Double, text: String) {
    #expect(DistanceFormat.human(metres) == text)
  }
}
