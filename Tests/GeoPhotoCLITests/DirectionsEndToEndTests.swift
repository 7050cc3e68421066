import Foundation
import Testing

@Suite(
  .enabled(
    if: ProcessInfo.processInfo.environment["GEOPHOTO_TEST_ROUTING_ENDPOINT"] != nil,
    "needs a routing engine: run through 'make test' (Scripts/valhalla.sh)"))
struct DirectionsEndToEndTests {
  var env: [String: String] {
    ["GEOPHOTO_ROUTING_ENDPOINT": ProcessInfo.processInfo.environment["GEOPHOTO_TEST_ROUTING_ENDPOINT"] ?? ""]
  }

  @Test func turnByTurn() throws {
    let r = try Binary.run(["directions", "52.52,13.40", "52.524,13.406"], environment: env)
    #expect(r.status == 0)
    #expect(
      r.stdout == """
        Leg 1: 0.9 km, 1 min
          1. Head east on Alpha Street (406 m)
          2. Turn left onto Third Avenue (446 m)
          3. You have arrived at your destination
        Total: 0.9 km, 1 min

        """)
  }

  @Test func csvHasOneRowPerStep() throws {
    let r = try Binary.run(["directions", "52.52,13.40", "52.524,13.406", "-f", "csv"], environment: env)
    #expect(r.status == 0)
    let rows = r.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    #expect(
      rows.first == [
        "leg", "step", "instruction", "distance", "duration", "name", "type", "modifier", "latitude", "longitude",
      ])
    #expect(
      rows.dropFirst().map { $0[2] } == [
        "Head east on Alpha Street", "Turn left onto Third Avenue", "You have arrived at your destination",
      ])
    #expect(rows.dropFirst().map { $0[0] } == ["1", "1", "1"])
    #expect(rows.dropFirst().map { $0[1] } == ["1", "2", "3"])
    #expect(rows[1][3] == "406" || abs((Double(rows[1][3]) ?? 0) - 406) < 0.5)
  }

  @Test func geoJSONLineAndWaypoints() throws {
    let r = try Binary.run(["directions", "52.52,13.40", "52.524,13.406", "-f", "geojson"], environment: env)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let features = try #require(object["features"] as? [[String: Any]])
    #expect(features.count == 3)
    let line = try #require(features[0]["geometry"] as? [String: Any])
    #expect(line["type"] as? String == "LineString")
    let coordinates = try #require(line["coordinates"] as? [[Double]])
    #expect(coordinates.first == [13.4, 52.52] && coordinates.last == [13.406, 52.524])
  }

  @Test(arguments: [
    (["52.52,13.40", "52.53,13.4215"], "Error: no route connects these points (NoRoute)\n"),
    (["52.52,13.40", "10,10"], "Error: a point is too far from any street (NoSegment)"),
  ])
  func failuresAreOneLine(points: [String], message: String) throws {
    let r = try Binary.run(["directions"] + points, environment: env)
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix(message))
    #expect(r.stderr.split(separator: "\n").count == 1)
  }

  @Test func usageErrors() throws {
    #expect(try Binary.run(["directions", "52.52,13.40"], environment: env).status == 64)
    #expect(try Binary.run(["directions", "52.52,13.40", "qwxyzzy"], environment: env).status == 64)
    let none = try Binary.run(["directions", "1,2", "3,4"])
    #expect(none.status == 1 && none.stderr.contains("GEOPHOTO_ROUTING_ENDPOINT"))
  }
}
