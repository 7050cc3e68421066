import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoHTTP
import Testing

/// `geophoto share` with `geophoto serve`: a link made, used, listed and revoked.
@Suite(.serialized) struct ShareEndToEndTests {
  func status(_ base: String, token: String) throws -> (Int, [String: Any]) {
    var options = HTTPClientOptions(userAgent: "geophoto-tests")
    options.timeout = 5
    let r = try HTTPClient(options: options).get(base + "/v1/status", headers: ["Authorization": "Bearer \(token)"])
    let body = (try? JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]) ?? [:]
    return (r.status, body ?? [:])
  }

  @Test func aLinkIsMadeUsedListedAndRevoked() throws {
    let (w, ids) = try TravelEndToEndTests.workspace()
    let (timeline, expected) = TravelTimeline.fourYears()
    let japan = try #require(expected.first { $0.start == "2018-05-01" })
    let tripID = TravelEndToEndTests.base36(japan.ids.compactMap { ids[$0] }.min() ?? 0)
    let made = try Binary.run(["share", "create", "--trip", tripID], environment: w.env)
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stderr.contains("Tokyo & Kyoto, JP") && made.stderr.contains("warning: the server has no token"))
    let link = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let token = try #require(link.split(separator: "?share=").last.map(String.init))
    #expect(link.hasPrefix("http://127.0.0.1:8080/?share=") && token.count == 43)
    // The index keeps no token.
    let dump = try ToolRun(
      "/usr/bin/python3",
      ["-c", "import sqlite3,sys;print(list(sqlite3.connect(sys.argv[1]).execute('select * from shares')))", w.db.path])
    #expect(!dump.stdout.contains(token) && dump.stdout.contains(tripID))
    let list = try Binary.run(["share", "list"], environment: w.env)
    #expect(list.stdout.contains("trip \(tripID)") && list.stdout.contains("active"), "\(list.stdout)")
    let id = try #require(
      list.stdout.split(separator: "\n").dropFirst().first?.split(separator: " ").first.map(String.init))

    let tokenFile = w.root.appendingPathComponent("token")
    try Data("server-token-1234567890\n".utf8).write(to: tokenFile)
    chmod(tokenFile.path, 0o600)
    let (running, base) = try Binary.serve(["--tiles", "none", "--token-file", tokenFile.path], environment: w.env)
    defer { running.stop() }
    let (code, answer) = try status(base, token: token)
    #expect(code == 200 && answer["photos"] as? Int == 30, "\(answer)")
    let located = timeline.photos.filter { $0.coordinate != nil }.count
    #expect(try status(base, token: "server-token-1234567890").1["photos"] as? Int == located)
    // Revoked: the server stops honouring it within a second or so.
    #expect(try Binary.run(["share", "revoke", id], environment: w.env).status == 0)
    var refused = false
    for _ in 0..<50 where !refused {
      refused = try status(base, token: token).0 == 401
      if !refused { Thread.sleep(forTimeInterval: 0.1) }
    }
    #expect(refused)
    #expect(try Binary.run(["share", "list"], environment: w.env).stdout.contains("revoked"))
    // Mistakes.
    let nothing = try Binary.run(["share", "create"], environment: w.env)
    #expect(nothing.status == 64 && nothing.stderr.contains("--trip"), "\(nothing.stderr)")
    let missing = try Binary.run(["share", "create", "--trip", "tzzzz"], environment: w.env)
    #expect(missing.status == 1 && missing.stderr.contains("no trip 'tzzzz'"))
    let again = try Binary.run(["share", "revoke", id], environment: w.env)
    #expect(again.status == 1 && again.stderr.contains("no active share link"))
    let bad = try Binary.run(["share", "create", "--since", "2024", "--expires", "5s"], environment: w.env)
    #expect(bad.status == 64 && bad.stderr.contains("--expires"), "\(bad.stderr)")
  }
}
