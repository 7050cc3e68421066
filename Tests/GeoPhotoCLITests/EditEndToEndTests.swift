import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

/// The map's edits through `geophoto serve`: a photo placed by hand over what its file says,
/// the sidecar written and read back by exiftool, a second client seeing it, and the
/// placement removed again; and every way an edit is refused.
@Suite(.serialized) struct EditEndToEndTests {
  static let token = "edit-token-1234567890"
  static let exiftool = "/usr/bin/exiftool"

  /// A raw request to the server at `base`; the status and the body.
  func send(
    _ base: String, _ method: String, _ path: String, body: String? = nil, token: String? = Self.token
  ) -> (status: Int, body: String) {
    let port = Int(base.split(separator: ":").last?.split(separator: "/").first ?? "") ?? 0
    var raw = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if let token { raw += "Authorization: Bearer \(token)\r\n" }
    if let body { raw += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
    raw += "\r\n" + (body ?? "")
    let answer = LoopbackClient.exchange(raw, port: port)
    let status = Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
    let text = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
    return (status, text)
  }

  func serve(_ w: ExampleWorkspace, _ extra: [String]) throws -> (Binary.Running, String) {
    let file = w.root.appendingPathComponent("token")
    try Data((Self.token + "\n").utf8).write(to: file)
    chmod(file.path, 0o600)
    return try Binary.serve(["--tiles", "none", "--token-file", file.path] + extra, environment: w.env)
  }

  func exiftoolPosition(_ path: String) throws -> Coordinate? {
    let run = try ToolRun(Self.exiftool, ["-n", "-j", "-GPSLatitude", "-GPSLongitude", path])
    let rows = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
    guard let row = rows?.first, let lat = row["GPSLatitude"] as? Double, let lon = row["GPSLongitude"] as? Double
    else { return nil }
    return Coordinate(latitude: lat, longitude: lon)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: exiftool), "needs exiftool"))
  func aPhotoPlacedByHandReachesTheSidecarAndOtherClients() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let (running, base) = try serve(w, ["--allow-edits", "true", "--write-xmp", "true"])
    defer { running.stop() }
    let photo = w.photos.appendingPathComponent("01-tokyo-station.jpg").path
    let id = try #require(
      try json(send(base, "GET", "/v1/near?lat=35.68124&lon=139.76712&limit=1").body)["annotations"]
        .flatMap { ($0 as? [[String: Any]])?.first?["id"] as? Int })
    // Placed in Kyoto by hand.
    let placed = send(base, "PUT", "/v1/photos/\(id)/location", body: #"{"latitude": 35.0116, "longitude": 135.7681}"#)
    #expect(placed.status == 200, "\(placed.body)")
    let answer = try json(placed.body)
    #expect((answer["coordinate"] as? [String: Any])?["latitude"] as? Double == 35.0116)
    #expect(answer["source"] as? String == "hand" && answer["sidecar"] as? String == "01-tokyo-station.jpg.xmp")
    // exiftool reads the sidecar as that position; the photo itself is untouched.
    let sidecar = try #require(try exiftoolPosition(photo + ".xmp"))
    #expect(abs(sidecar.latitude - 35.0116) < 1e-6 && abs(sidecar.longitude - 135.7681) < 1e-6)
    let original = try #require(try exiftoolPosition(photo))
    #expect(abs(original.latitude - 35.68124) < 1e-6)
    // Another client sees it at once, with its new place.
    let detail = try json(send(base, "GET", "/v1/photos/\(id)").body)
    #expect((detail["coordinate"] as? [String: Any])?["longitude"] as? Double == 135.7681)
    #expect(detail["estimated"] as? Bool == true)
    let near = try json(send(base, "GET", "/v1/near?lat=35.0116&lon=135.7681&limit=1&radius=100").body)
    #expect((near["annotations"] as? [[String: Any]])?.first?["id"] as? Int == id)
    // A sync keeps the hand's position.
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let synced = try json(
      try Binary.run(["near", "35.0116,135.7681", "--format", "json", "--radius", "100"], environment: w.env).stdout)
    #expect((synced["annotations"] as? [[String: Any]])?.count == 1)
    // Removed: back to what the file says, and no position left in the sidecar.
    let cleared = send(base, "DELETE", "/v1/photos/\(id)/location")
    #expect(cleared.status == 200, "\(cleared.body)")
    let back = try json(cleared.body)
    #expect((back["coordinate"] as? [String: Any])?["latitude"] as? Double == 35.68124)
    #expect(back["estimated"] as? Bool == false)
    #expect(try exiftoolPosition(photo + ".xmp") == nil)
    // Nothing left to remove.
    let again = send(base, "DELETE", "/v1/photos/\(id)/location")
    let againAnswer = try json(again.body)
    #expect(again.status == 200 && againAnswer["changed"] as? Bool == false)
  }

  @Test func editsAreRefusedUnlessTheServerTakesThemWithItsToken() throws {
    let w = try ExampleWorkspace()
    _ = try Binary.run(["sync", w.photos.path], environment: w.env)
    let kyoto = #"{"latitude": 35.0116, "longitude": 135.7681}"#
    do {
      // Editing off (the default): 403, whatever the token.
      let (running, base) = try serve(w, [])
      defer { running.stop() }
      let off = send(base, "PUT", "/v1/photos/1/location", body: kyoto)
      #expect(off.status == 403 && off.body.contains("allow_edits"), "\(off.body)")
    }
    do {
      // On, without a token: 403.
      let (running, base) = try Binary.serve(["--tiles", "none", "--allow-edits", "true"], environment: w.env)
      defer { running.stop() }
      let tokenless = send(base, "PUT", "/v1/photos/1/location", body: kyoto, token: nil)
      #expect(tokenless.status == 403 && tokenless.body.contains("token"), "\(tokenless.body)")
    }
    let (running, base) = try serve(w, ["--allow-edits", "true"])
    defer { running.stop() }
    #expect(send(base, "PUT", "/v1/photos/1/location", body: kyoto, token: nil).status == 401)
    #expect(send(base, "PUT", "/v1/photos/1/location", body: kyoto, token: "wrong-token-123").status == 401)
    for bad in [
      "", "{}", #"{"latitude": 91, "longitude": 0}"#, #"{"latitude": "35", "longitude": 135}"#,
      #"{"latitude": 35, "longitude": 135, "extra": 1}"#, #"{"latitude": true, "longitude": 135}"#, "[1, 2]",
      #"{"latitude": 0, "longitude": 0}"#, #"{"latitude": 1e999, "longitude": 0}"#,
    ] {
      let r = send(base, "PUT", "/v1/photos/1/location", body: bad)
      #expect(r.status == 400, "\(bad): \(r.status) \(r.body)")
    }
    #expect(
      send(base, "PUT", "/v1/photos/1/location", body: String(repeating: " ", count: 2_000) + kyoto).status == 413)
    #expect(send(base, "PUT", "/v1/photos/999999/location", body: kyoto).status == 404)
    #expect(send(base, "POST", "/v1/photos/1/location", body: kyoto).status == 405)
    #expect(send(base, "PUT", "/v1/photos/1", body: kyoto).status == 405)
    // Without write_xmp no sidecar is written.
    let ok = send(base, "PUT", "/v1/photos/1/location", body: kyoto)
    let okAnswer = try json(ok.body)
    #expect(ok.status == 200 && okAnswer["sidecar"] is NSNull, "\(ok.body)")
    let sidecars = try FileManager.default.contentsOfDirectory(atPath: w.photos.path).filter { $0.hasSuffix(".xmp") }
    #expect(sidecars.isEmpty)
  }
}
