public import Foundation
public import GeoPhotoCore
import GeoPhotoExif

/// A deterministic random number generator (SplitMix64), so benchmarks and randomized tests
/// see the same data on every run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A normally distributed value (Box–Muller).
  public mutating func gaussian() -> Double {
    let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
    let u2 = Double.random(in: 0..<1, using: &self)
    return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * .pi * u2)
  }
}

/// Synthetic photo positions clustered the way real photo sets are: most photos in a few
/// thousand places (cities, trips), spread over a few kilometres, with bursts of photos taken
/// at exactly the same spot, and a thin scatter everywhere else.
public enum SyntheticLibrary {
  public static func points(count: Int, seed: UInt64 = 42) -> [Coordinate] {
    var rng = SeededGenerator(seed: seed)
    let clusterCount = max(1, min(2_000, count / 200))
    let centres: [(Coordinate, Double)] = (0..<clusterCount).map { _ in
      let lat = Double.random(in: -55...70, using: &rng)
      let lon = Double.random(in: -180..<180, using: &rng)
      let spreadKm: Double = [0.5, 2, 5, 20].randomElement(using: &rng) ?? 2
      return (Coordinate(latitude: lat, longitude: lon), spreadKm)
    }
    var result: [Coordinate] = []
    result.reserveCapacity(count)
    while result.count < count {
      let r = Double.random(in: 0..<1, using: &rng)
      if r < 0.05 {
        // Scatter, including the polar caps and the antimeridian.
        let z = Double.random(in: -1...1, using: &rng)
        let lon = Double.random(in: -180..<180, using: &rng)
        result.append(Coordinate(latitude: Foundation.asin(z) * 180 / .pi, longitude: lon))
      } else if r < 0.15, let last = result.last {
        result.append(last)  // a burst at the same spot
      } else {
        let (centre, spreadKm) = centres[Int.random(in: 0..<centres.count, using: &rng)]
        let dLat = rng.gaussian() * spreadKm / 111.2
        let cosLat = max(0.05, Foundation.cos(centre.latitude * .pi / 180))
        let dLon = rng.gaussian() * spreadKm / (111.2 * cosLat)
        let lat = max(-90, min(90, centre.latitude + dLat))
        var lon = centre.longitude + dLon
        if lon >= 180 { lon -= 360 }
        if lon < -180 { lon += 360 }
        result.append(Coordinate(latitude: lat, longitude: lon))
      }
    }
    return result
  }

  /// Writes `count` small geotagged JPEGs into `directory`, 200 to a subfolder, with titles,
  /// dates and cameras (about 1 in 10 without a location).
  public static func writeFolder(to directory: URL, count: Int, seed: UInt64 = 7, perFolder: Int = 200) throws {
    let positions = points(count: count, seed: seed)
    var rng = SeededGenerator(seed: seed ^ 0xABCD)
    for (i, position) in positions.enumerated() {
      let folder = directory.appendingPathComponent(String(format: "roll-%03d", i / perFolder))
      let url = folder.appendingPathComponent(String(format: "IMG_%05d.JPG", i))
      let located = Int.random(in: 0..<10, using: &rng) != 0
      let day = Int.random(in: 1...28, using: &rng)
      try SampleJPEG.write(to: url) { b in
        b.coordinate = located && position.isPlausiblePhotoLocation ? position : nil
        b.altitude = located ? Double.random(in: -10...3000, using: &rng).rounded() : nil
        b.takenAt = CaptureDate(
          year: 2023, month: 1 + i % 12, day: day, hour: i % 24, minute: i % 60, second: 0,
          utcOffsetMinutes: i % 3 == 0 ? nil : 60)
        b.imageDescription = i % 4 == 0 ? nil : "Synthetic photo \(i)"
        b.make = "Synthetic"
        b.model = "Camera \(i % 5)"
        b.orientation = 1 + i % 8
      }
    }
  }
}
