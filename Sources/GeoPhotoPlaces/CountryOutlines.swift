import GeoPhotoCore

/// Which country a position lies in: an even-odd ray test over every outline ring of a
/// country (holes need no special case), asked only of the rings whose box holds the position.
///
/// Rings are kept in microdegrees. To make the test cheap on rings of tens of thousands of
/// points (Russia, Canada), each long ring's edges are also filed by bands of latitude
/// (`bandHeight`): a ray east from the position can only cross edges spanning its latitude, so
/// only the edges of its band are tested, with exactly the predicate the whole ring would get.
/// A grid of 1° cells lists the rings whose box meets each cell.
struct CountryOutlines: Sendable {
  /// Rings with at least this many points are filed by bands.
  static let bandedRing = 32
  /// The height of a band built here, in microdegrees (a file says its own).
  static let builtBandHeight: Int32 = 20_000
  /// The height of this outline's bands, in microdegrees.
  let bandHeight: Int32

  /// Per ring: its country's index, its first point (with one more for the end), its box
  /// (min lat, min lon, max lat, max lon) and its first band (with one more for the end).
  let ringCountries: Column<UInt16>
  let ringStarts: Column<UInt32>
  let ringBoxes: Column<Int32>
  let ringBandStarts: Column<UInt32>
  /// Latitude and longitude of every ring's points, in microdegrees.
  let points: Column<Int32>
  /// Per band: its first entry in `bandEdges` (with one more for the end); an entry is an
  /// edge (its first point's index within the ring).
  let bandStarts: Column<UInt32>
  let bandEdges: Column<UInt32>
  /// Per 1° cell (latitude row from −90, then longitude from −180): its first entry in
  /// `cellRings` (with one more for the end).
  let cellStarts: Column<UInt32>
  let cellRings: Column<UInt32>

  var ringCount: Int { ringCountries.count }

  /// The index of the 1° cell holding `c`.
  static func cell(latitude: Double, longitude: Double) -> Int {
    let row = min(179, max(0, Int((latitude + 90).rounded(.down))))
    let column = min(359, max(0, Int((longitude + 180).rounded(.down))))
    return row * 360 + column
  }

  /// What the outlines can say of `c` without testing a ring: whether its 1° cell meets no
  /// outline (it lies in no country), the outlines of one country only (it lies in that one
  /// or in none), or those of several.
  enum CellCountries: Equatable {
    case none
    case one(UInt16)
    case several
  }

  func countries(near c: Coordinate) -> CellCountries {
    let cell = Self.cell(latitude: c.latitude, longitude: c.longitude)
    let rings = Int(cellStarts[cell])..<Int(cellStarts[cell + 1])
    guard let first = rings.first else { return .none }
    let country = ringCountries[Int(cellRings[first])]
    for k in rings.dropFirst() where ringCountries[Int(cellRings[k])] != country { return .several }
    return .one(country)
  }

  /// The country `c` lies in (an index into the gazetteer's countries), or nil at sea or on a
  /// shore the outlines miss. Where outlines overlap, the country of the first ring listed.
  func country(at c: Coordinate) -> Int? {
    let lat = c.latitude * 1e6
    let lon = c.longitude * 1e6
    let cell = Self.cell(latitude: c.latitude, longitude: c.longitude)
    let rings = Int(cellStarts[cell])..<Int(cellStarts[cell + 1])
    guard !rings.isEmpty else { return nil }
    // Parity per country of the rings met, in the order first met: few rings meet a cell, so
    // a list on the stack does.
    return withUnsafeTemporaryAllocation(of: (country: UInt16, inside: Bool).self, capacity: rings.count) {
      parities in
      var count = 0
      for k in rings {
        let ring = Int(cellRings[k])
        let box = 4 * ring
        guard Double(ringBoxes[box]) <= lat, lat <= Double(ringBoxes[box + 2]), Double(ringBoxes[box + 1]) <= lon,
          lon <= Double(ringBoxes[box + 3]), crossingsAreOdd(ring: ring, lat: lat, lon: lon)
        else { continue }
        let country = ringCountries[ring]
        if let i = (0..<count).first(where: { parities[$0].country == country }) {
          parities[i].inside.toggle()
        } else {
          parities[count] = (country, true)
          count += 1
        }
      }
      return (0..<count).first { parities[$0].inside }.map { Int(parities[$0].country) }
    }
  }

  /// Whether a ray from (lat, lon) towards the east crosses the ring an odd number of times.
  func crossingsAreOdd(ring: Int, lat: Double, lon: Double) -> Bool {
    let start = Int(ringStarts[ring])
    let count = Int(ringStarts[ring + 1]) - start
    var odd = false
    func test(_ i: Int) {
      let a = 2 * (start + i)
      let b = 2 * (start + (i + 1 == count ? 0 : i + 1))
      if Self.crosses(
        lat: lat, lon: lon, aLat: Double(points[a]), aLon: Double(points[a + 1]), bLat: Double(points[b]),
        bLon: Double(points[b + 1]))
      {
        odd.toggle()
      }
    }
    let bandFirst = Int(ringBandStarts[ring])
    let bandEnd = Int(ringBandStarts[ring + 1])
    if bandFirst == bandEnd {
      for i in 0..<count { test(i) }
    } else {
      let band = bandFirst + Int((lat - Double(ringBoxes[4 * ring])) / Double(bandHeight))
      guard band < bandEnd else { return false }
      for k in Int(bandStarts[band])..<Int(bandStarts[band + 1]) { test(Int(bandEdges[k])) }
    }
    return odd
  }

  /// The even-odd rule's crossing test for the edge a→b: it spans the ray's latitude (one end
  /// above, the other not) and meets it east of the position.
  @inline(__always)
  static func crosses(lat: Double, lon: Double, aLat: Double, aLon: Double, bLat: Double, bLon: Double) -> Bool {
    guard (aLat > lat) != (bLat > lat) else { return false }
    return lon < (bLon - aLon) * (lat - aLat) / (bLat - aLat) + aLon
  }
}

// MARK: - Building

extension CountryOutlines {
  /// The outlines of `rings` (each a country index and its points' latitudes and longitudes
  /// in degrees), with their bands and grid.
  init(rings: [(country: UInt16, points: [(latitude: Double, longitude: Double)])]) {
    let bandHeight = Self.builtBandHeight
    var countries: [UInt16] = []
    var starts: [UInt32] = [0]
    var boxes: [Int32] = []
    var bandStarts: [UInt32] = [0]
    var ringBands: [UInt32] = [0]
    var points: [Int32] = []
    var edges: [UInt32] = []
    var cells = [[UInt32]](repeating: [], count: 180 * 360)
    for (country, ringPoints) in rings where ringPoints.count >= 3 {
      let ring = countries.count
      let micro = ringPoints.map {
        (Int32(($0.latitude * 1e6).rounded()), Int32(($0.longitude * 1e6).rounded()))
      }
      countries.append(country)
      for (lat, lon) in micro { points += [lat, lon] }
      starts.append(UInt32(points.count / 2))
      let minLat = micro.map(\.0).min() ?? 0
      let maxLat = micro.map(\.0).max() ?? 0
      let minLon = micro.map(\.1).min() ?? 0
      let maxLon = micro.map(\.1).max() ?? 0
      boxes += [minLat, minLon, maxLat, maxLon]
      if micro.count >= Self.bandedRing {
        let bands = Int((maxLat - minLat) / bandHeight) + 1
        var lists = [[UInt32]](repeating: [], count: bands)
        for i in micro.indices {
          let a = micro[i].0
          let b = micro[(i + 1) % micro.count].0
          let low = Int((min(a, b) - minLat) / bandHeight)
          let high = Int((max(a, b) - minLat) / bandHeight)
          for band in low...high { lists[band].append(UInt32(i)) }
        }
        for list in lists {
          edges += list
          bandStarts.append(UInt32(edges.count))
        }
      }
      ringBands.append(UInt32(bandStarts.count - 1))
      let rowLow = Int((Double(minLat) / 1e6 + 90).rounded(.down))
      let rowHigh = Int((Double(maxLat) / 1e6 + 90).rounded(.down))
      let columnLow = Int((Double(minLon) / 1e6 + 180).rounded(.down))
      let columnHigh = Int((Double(maxLon) / 1e6 + 180).rounded(.down))
      for row in max(0, rowLow)...min(179, max(0, rowHigh)) {
        for column in max(0, columnLow)...min(359, max(0, columnHigh)) {
          cells[row * 360 + column].append(UInt32(ring))
        }
      }
    }
    var cellStarts: [UInt32] = [0]
    var cellRings: [UInt32] = []
    for list in cells {
      cellRings += list
      cellStarts.append(UInt32(cellRings.count))
    }
    self.init(
      bandHeight: bandHeight, ringCountries: Column(countries), ringStarts: Column(starts), ringBoxes: Column(boxes),
      ringBandStarts: Column(ringBands), points: Column(points), bandStarts: Column(bandStarts),
      bandEdges: Column(edges), cellStarts: Column(cellStarts), cellRings: Column(cellRings))
  }

  /// Checks arrays read from a file, so a damaged one cannot cause an out-of-bounds read.
  func validated() -> Bool {
    let r = ringCountries.count
    guard bandHeight > 0, ringStarts.count == r + 1, ringBoxes.count == 4 * r, ringBandStarts.count == r + 1,
      cellStarts.count == 180 * 360 + 1, points.count % 2 == 0, !bandStarts.isEmpty
    else { return false }
    guard ringStarts.first == 0, zip(ringStarts, ringStarts.dropFirst()).allSatisfy({ $0.0 + 3 <= $0.1 }),
      Int(ringStarts[r]) == points.count / 2
    else { return false }
    guard ringBandStarts.first == 0, zip(ringBandStarts, ringBandStarts.dropFirst()).allSatisfy({ $0.0 <= $0.1 }),
      Int(ringBandStarts[r]) == bandStarts.count - 1
    else { return false }
    guard bandStarts.first == 0, zip(bandStarts, bandStarts.dropFirst()).allSatisfy({ $0.0 <= $0.1 }),
      Int(bandStarts[bandStarts.count - 1]) == bandEdges.count
    else { return false }
    for ring in 0..<r {
      let count = ringStarts[ring + 1] - ringStarts[ring]
      for band in Int(ringBandStarts[ring])..<Int(ringBandStarts[ring + 1]) {
        for k in Int(bandStarts[band])..<Int(bandStarts[band + 1]) where bandEdges[k] >= count { return false }
      }
    }
    guard cellStarts.first == 0, zip(cellStarts, cellStarts.dropFirst()).allSatisfy({ $0.0 <= $0.1 }),
      Int(cellStarts[180 * 360]) == cellRings.count, cellRings.allSatisfy({ Int($0) < r })
    else { return false }
    return true
  }
}
