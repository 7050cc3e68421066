import Foundation
import GeoPhotoHTTPD
import GeoPhotoPlaces
import Testing

@testable import GeoPhotoServer

/// `/v1/places` over the shipped gazetteer, checked against the GeoNames extract it is built
/// from (a build input, read by relative path).
@Suite(.enabled(if: Gazetteer.shippedURL != nil, "the shipped gazetteer was not built next to the tests"))
struct PlaceEndpointTests {
  let api = router()

  /// The extract's rows named `name`, in any case and with or without accents (Foundation's
  /// folding): (population, country code, admin1, lat, lon, time zone, GeoNames id), the most
  /// populous first.
  static func extractRows(named name: String) throws -> [(Int, String, String, Double, Double, String, Int)] {
    func folded(_ s: some StringProtocol) -> String {
      s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
    let wanted = folded(name)
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../shared/data/places/geonames-cities500.tsv")
    let text = try String(contentsOf: file, encoding: .utf8)
    var rows: [(Int, String, String, Double, Double, String, Int)] = []
    for line in text.split(separator: "\n").dropFirst() {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard f.count >= 10, folded(f[3]) == wanted else { continue }
      rows.append(
        (Int(f[8]) ?? 0, String(f[4]), String(f[6]), Double(f[1]) ?? 0, Double(f[2]) ?? 0, String(f[9]), Int(f[0]) ?? 0)
      )
    }
    return rows.sorted { $0.0 > $1.0 }
  }

  static let extractIsThere = FileManager.default.fileExists(
    atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../shared/data/places/geonames-cities500.tsv").path)

  @Test(.enabled(if: extractIsThere, "the GeoNames extract is not beside the project"))
  func aNameListsEveryPlaceOfThatNameTheMostPopulousFirst() throws {
    let expected = try Self.extractRows(named: "Paris")
    let r = get(api, "/v1/places?q=Paris&limit=50")
    #expect(r.status == 200)
    let places = try #require(r.json["places"] as? [[String: Any]])
    #expect(r.json["total"] as? Int == expected.count)
    #expect(places.count == min(50, expected.count))
    // Distinct populations compare in order; the first is the capital.
    #expect(places.first?["countryCode"] as? String == "FR")
    #expect(places.first?["population"] as? Int == expected.first?.0)
    #expect(places.compactMap { $0["population"] as? Int } == expected.prefix(50).map(\.0))
    let first = try #require(places.first)
    let coordinate = try #require(first["coordinate"] as? [String: Any])
    #expect(abs((coordinate["latitude"] as? Double ?? 0) - expected[0].3) < 1e-4)
    #expect(abs((coordinate["longitude"] as? Double ?? 0) - expected[0].4) < 1e-4)
    #expect(first["timeZone"] as? String == expected[0].5)
    #expect(first["geonameId"] as? Int == expected[0].6)
    #expect(first["label"] as? String == "Paris, \(expected[0].2), FR")
    #expect(r.json["suggestions"] as? [String] == [])
  }

  @Test(.enabled(if: extractIsThere, "the GeoNames extract is not beside the project"))
  func qualifiersAndFoldingNarrowAsNearDoes() throws {
    let texas = try Self.extractRows(named: "Paris").filter { $0.2 == "Texas" }
    let r = get(api, "/v1/places?q=paris,%20texas")
    let places = try #require(r.json["places"] as? [[String: Any]])
    #expect(places.count == texas.count)
    #expect(places.allSatisfy { $0["admin1"] as? String == "Texas" })
    // Any case and no accents: Reykjavík.
    let reykjavik = try #require(get(api, "/v1/places?q=REYKJAVIK").json["places"] as? [[String: Any]])
    #expect(reykjavik.first?["name"] as? String == "Reykjavík")
    #expect(reykjavik.first?["countryCode"] as? String == "IS")
  }

  @Test func aNameNoPlaceHasGetsSpellingsItMayMean() throws {
    let r = get(api, "/v1/places?q=Kyotto")
    #expect(r.status == 200)
    #expect((r.json["places"] as? [Any])?.isEmpty == true)
    #expect(r.json["total"] as? Int == 0)
    #expect((r.json["suggestions"] as? [String])?.contains("Kyoto") == true)
  }

  @Test func badQueriesAreAnswered400NamingTheParameter() {
    for target in [
      "/v1/places", "/v1/places?q=", "/v1/places?q=%20%20", "/v1/places?q=Kyoto&limit=0",
      "/v1/places?q=Kyoto&limit=51", "/v1/places?q=" + String(repeating: "a", count: 201),
    ] {
      let r = get(api, target)
      #expect(r.status == 400, "\(target)")
      let message = (r.json["error"] as? [String: Any])?["message"] as? String ?? ""
      #expect(message.contains("'q'") || message.contains("'limit'"), "\(target): \(message)")
    }
  }

  @Test func answersRevalidate() throws {
    let first = get(api, "/v1/places?q=Kyoto")
    let tag = try #require(first.header("ETag"))
    #expect(get(api, "/v1/places?q=Kyoto", headers: ["if-none-match": tag]).status == 304)
  }

  @Test func aServerWithoutPlaceNamesSaysSo() {
    let bare = router { $0.places = nil }
    let r = get(bare, "/v1/places?q=Kyoto")
    #expect(r.status == 404)
    #expect(((r.json["error"] as? [String: Any])?["message"] as? String)?.contains("no place names") == true)
    // A file that cannot be read is a 503, and the next search tries again.
    let broken = router { $0.places = PlaceDirectory { throw CocoaError(.fileReadCorruptFile) } }
    #expect(get(broken, "/v1/places?q=Kyoto").status == 503)
  }
}
