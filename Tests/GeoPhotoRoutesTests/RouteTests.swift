import Foundation
import GeoPhotoCore
import Testing

@testable import GeoPhotoRoutes

func parse(_ text: String, _ format: RouteFile.Format) throws -> [RoutePoint] {
  try RouteFile.parse(Data(text.utf8), name: "test", format: format)
}

@Suite struct RouteFileTests {
  @Test func csvToleratesWhatRouteFilesContain() throws {
    let text = "\u{FEFF}lat,lon\r\n52.52,13.40\r\n\r\n52.522, 13.403\n  52.524 ,13.406  \n"
    let points = try parse(text, .csv)
    #expect(
      points.map(\.coordinate) == [
        Coordinate(latitude: 52.52, longitude: 13.40), Coordinate(latitude: 52.522, longitude: 13.403),
        Coordinate(latitude: 52.524, longitude: 13.406),
      ])
  }

  @Test func csvErrorsNameTheLine() {
    #expect(throws: RouteFileError("test:3: 'abc' is not a coordinate; expected LAT,LON such as 35.68,139.76")) {
      try parse("1,2\n3,4\nabc\n", .csv)
    }
    #expect(throws: RouteFileError("test:2: latitude 95 is out of range (-90...90)")) { try parse("1,2\n95,4\n", .csv) }
    #expect(throws: RouteFileError("test: no points")) { try parse("lat,lon\n\n", .csv) }
  }

  @Test func gpxTracksAndRoutes() throws {
    let gpx = """
      <?xml version="1.0"?>
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
        <trk><trkseg>
          <trkpt lat="43.64" lon="-116.06"><ele>1000.5</ele><time>2003-05-24T16:00:30Z</time></trkpt>
          <trkpt lat="43.65" lon="-116.05"><time>2003-05-24T16:00:00Z</time></trkpt>
        </trkseg></trk>
      </gpx>
      """
    let points = try parse(gpx, .gpx)
    // Stored newest first: sorted by time.
    #expect(points.map(\.coordinate.latitude) == [43.65, 43.64])
    #expect(points[0].time == 1_053_792_000)
    #expect(points[1].elevation == 1000.5)
    let route = try parse("<gpx><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"3\" lon=\"4\"/></rte></gpx>", .gpx)
    #expect(route.count == 2 && route[0].time == nil)
    #expect(throws: RouteFileError.self) {
      try parse("<gpx><trk><trkseg><trkpt lat=\"x\" lon=\"1\"/></trkseg></trk></gpx>", .gpx)
    }
    #expect(throws: RouteFileError.self) { try parse("<gpx><trk><trkseg><trkpt lat=\"1\"", .gpx) }
    #expect(throws: RouteFileError.self) {
      try parse("<!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx><rte><rtept lat=\"1\" lon=\"2\"/></rte></gpx>", .gpx)
    }
  }

  @Test func geoJSONIsLongitudeFirst() throws {
    let line =
      #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[13.4,52.52],[13.406,52.524,35]]},"properties":{}}"#
    let points = try parse(line, .geojson)
    #expect(
      points.map(\.coordinate) == [
        Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.524, longitude: 13.406),
      ])
    #expect(points[1].elevation == 35)
    #expect(throws: RouteFileError.self) { try parse(#"{"type":"Point","coordinates":[1,2]}"#, .geojson) }
    #expect(throws: RouteFileError.self) { try parse(#"{"type":"LineString","coordinates":[[200,1]]}"#, .geojson) }
  }

  @Test func isoTimes() {
    #expect(ISOTime.seconds("1970-01-01T00:00:10Z") == 10)
    #expect(ISOTime.seconds("1970-01-01T09:00:00+09:00") == 0)
    #expect(ISOTime.seconds("1970-01-01T00:00:01.5Z") == 1.5)
    #expect(ISOTime.seconds("1970-01-01T00:00:00") == nil)  // no zone: ambiguous
  }
}

@Suite struct RouteGeometryTests {
  let grid = [
    Coordinate(latitude: 52.52, longitude: 13.4), Coordinate(latitude: 52.52, longitude: 13.403),
    Coordinate(latitude: 52.52, longitude: 13.406), Coordinate(latitude: 52.522, longitude: 13.406),
    Coordinate(latitude: 52.524, longitude: 13.406),
  ]

  @Test func lengthBoundsAndRegion() throws {
    // Independent: haversine per segment.
    func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
      let r = Double.pi / 180
      let h =
        pow(sin((b.latitude - a.latitude) * r / 2), 2)
        + cos(a.latitude * r) * cos(b.latitude * r) * pow(sin((b.longitude - a.longitude) * r / 2), 2)
      return 2 * 6_371_008.8 * asin(h.squareRoot())
    }
    let expected = zip(grid, grid.dropFirst()).reduce(0) { $0 + haversine($1.0, $1.1) }
    #expect(abs(RouteGeometry.length(grid) - expected) < 1e-6)
    let box = try #require(RouteGeometry.bounds(grid))
    #expect(box == BoundingBox(west: 13.4, south: 52.52, east: 13.406, north: 52.524))
    let region = RouteGeometry.region(for: box)
    #expect(abs(region.center.latitude - 52.522) < 1e-12 && abs(region.center.longitude - 13.403) < 1e-12)
    #expect(abs(region.latitudeDelta - 0.006) < 1e-12 && abs(region.longitudeDelta - 0.009) < 1e-12)
  }

  @Test func centreOfBoundsNotMeanOfPoints() throws {
    // Many points bunched at one end would drag a mean off centre.
    let points =
      Array(repeating: Coordinate(latitude: 0, longitude: 0), count: 50) + [Coordinate(latitude: 0, longitude: 10)]
    let region = RouteGeometry.region(for: try #require(RouteGeometry.bounds(points)))
    #expect(region.center.longitude == 5)
  }

  @Test func acrossTheAntimeridian() throws {
    let points = [Coordinate(latitude: -17, longitude: 179.5), Coordinate(latitude: -18, longitude: -179.5)]
    let box = try #require(RouteGeometry.bounds(points))
    #expect(box.crossesAntimeridian && box.west == 179.5 && box.east == -179.5)
    let region = RouteGeometry.region(for: box, padding: 2)
    #expect(region.center.longitude == -180 && region.longitudeDelta == 2)
    #expect(abs(RouteGeometry.length(points) - GreatCircle.distance(points[0], points[1])) < 1e-9)
  }

  @Test func distanceToAPolyline() throws {
    // A point 0.001° north of the middle of the first segment.
    let p = Coordinate(latitude: 52.521, longitude: 13.4015)
    let proj = try #require(RouteGeometry.project(p, onto: grid))
    #expect(abs(proj.distanceFromRoute - 111.195) < 0.5)
    let toFoot = GreatCircle.distance(grid[0], Coordinate(latitude: 52.52, longitude: 13.4015))
    #expect(abs(proj.distanceAlong - toFoot) < 0.5)
    // Beyond the end: the distance to the last point.
    let beyond = Coordinate(latitude: 52.53, longitude: 13.406)
    let end = try #require(RouteGeometry.project(beyond, onto: grid))
    #expect(abs(end.distanceFromRoute - GreatCircle.distance(beyond, grid[4])) < 1e-6)
    #expect(abs(end.distanceAlong - RouteGeometry.length(grid)) < 1e-6)
  }

  @Test func alongMatchesBruteForce() {
    var rng = SystemRandomNumberGenerator()
    let photos = (0..<2_000).map { _ in
      Coordinate(
        latitude: Double.random(in: 52.515...52.53, using: &rng),
        longitude: Double.random(in: 13.395...13.41, using: &rng))
    }
    let index = SpatialIndex(points: photos.enumerated().map { (Int64($0.offset), $0.element) })
    let found = RouteSearch.points(along: grid, within: 150, index: index) { photos[Int($0)] }
    let expected = photos.indices.filter {
      (RouteGeometry.project(photos[$0], onto: grid)?.distanceFromRoute ?? .infinity) <= 150
    }
    #expect(Set(found.map { Int($0.id) }) == Set(expected))
    #expect(zip(found, found.dropFirst()).allSatisfy { $0.projection.distanceAlong <= $1.projection.distanceAlong })
  }
}
