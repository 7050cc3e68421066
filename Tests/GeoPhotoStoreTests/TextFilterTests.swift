import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoStore

/// Text filters on both stores, against a brute-force oracle that folds text with
/// Foundation's `folding(options:)` and splits words on `Character`'s classes, not with
/// geophoto's `SearchText`.
@Suite struct TextFilterTests {
  static let now = IndexTime(seconds: 1_796_083_200)  // 2026-12-01T00:00:00Z

  static let titles = [
    "Kiyomizu-dera temple", "Kyōto at dusk", "The Golden Pavilion", "Golden temple pavilion", "contempt", "浅草寺の朝",
    "東京駅", "Brücke über den Rhein", "Zürich HB", "São Paulo street", "IMG_0042", "Shrine gate", "",
  ]
  static let descriptions: [String?] = [nil, "Morning light on the shrine gate", "A temple in Kyoto", "雷門と浅草寺", nil]
  static let keywords = [["travel"], ["Japan", "Kyoto|Temples"], [], ["bridges", "Rhein"], ["golden hour"], []]
  static let cameras: [(String?, String?)] = [("FUJIFILM", "X100V"), ("Apple", "iPhone 15"), (nil, nil)]
  static let places: [PlaceName?] = [
    nil, PlaceName(name: "Asakusa", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 1),
    PlaceName(name: "Kyōto", admin1: "Kyōto", admin2: "", countryCode: "JP", distance: 2),
    PlaceName(name: "Zürich", admin1: "Zurich", admin2: "", countryCode: "CH", distance: 1),
  ]
  static let owners = ["Alice Tanaka", "bob", "Zoë Müller"]

  /// One photo as the oracle sees it: its searched fields, its position, what else filters see.
  struct Written {
    var id: Int64
    var c: Coordinate
    var fields: [String]
    var source: PhotoSource
    var make: String?
  }

  static func fold(_ s: String) -> String {
    s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }

  static func words(_ s: String) -> [String] {
    fold(s).split { !($0.isLetter || $0.isNumber) }.map(String.init)
  }

  static func isCJK(_ c: Character) -> Bool {
    c.unicodeScalars.first.map { (0x3040...0x9FFF).contains($0.value) } ?? false
  }

  /// The terms of a query: words, or quoted phrases as their words.
  static func terms(_ query: String) -> [[String]] {
    query.split(separator: "\"", omittingEmptySubsequences: false).enumerated().flatMap { i, part -> [[String]] in
      i % 2 == 1 ? [words(String(part))] : part.split(separator: " ").map { words(String($0)) }
    }.filter { !$0.isEmpty }
  }

  /// Whether some field holds the term: consecutive words, the last one as a start; an
  /// ideographic term anywhere in a field.
  static func holds(_ fields: [String], _ term: [String]) -> Bool {
    if let first = term.first?.first, isCJK(first) {
      return fields.contains { fold($0).contains(term.joined(separator: " ")) }
    }
    return fields.contains { field in
      let w = words(field)
      guard w.count >= term.count else { return false }
      return (0...(w.count - term.count)).contains { i in
        (0..<term.count - 1).allSatisfy { w[i + $0] == term[$0] } && w[i + term.count - 1].hasPrefix(term.last!)
      }
    }
  }

  @Test(arguments: StoreKind.available)
  func textFiltersAreTheBruteForceAnswer(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    var rng = SeededGenerator(seed: 1_402)
    var written: [Written] = []
    try store.write {
      for i in 0..<400 {
        let c = Coordinate(
          latitude: Double.random(in: 35.5...35.9, using: &rng), longitude: Double.random(in: 139.5...140, using: &rng))
        let remote = i % 4 == 3
        var r =
          remote
          ? PhotoRecord(photo: Photo(id: 0, source: .flickr, sourceID: "f\(i)", coordinate: c, title: ""))
          : record("/lib/\(i % 7 == 0 ? "IMG_\(1000 + i)" : "photo-\(i)").JPG", c.latitude, c.longitude)
        var p = r.photo
        p.title = Self.titles.randomElement(using: &rng)!
        p.description = Self.descriptions.randomElement(using: &rng)!
        p.keywords = Self.keywords.randomElement(using: &rng)!
        (p.cameraMake, p.cameraModel) = Self.cameras.randomElement(using: &rng)!
        p.place = Self.places.randomElement(using: &rng)!
        if remote { p.attribution = Self.owners.randomElement(using: &rng)! }
        r.photo = p
        r.placedWith = 1  // named, as a copy of an index carries it
        var fields = [p.title, p.description ?? ""] + p.keywords + [p.cameraMake ?? "", p.cameraModel ?? ""]
        fields.append(remote ? p.attribution ?? "" : String(p.path?.split(separator: "/").last ?? ""))
        fields += [p.place?.name ?? "", p.place?.admin1 ?? "", p.place?.countryCode ?? ""]
        written.append(
          Written(id: try store.upsert(r, now: Self.now).id, c: c, fields: fields, source: p.source, make: p.cameraMake)
        )
      }
    }
    try store.refreshDerivedIndexes()
    let q = Coordinate(latitude: 35.7, longitude: 139.7)
    let queries = [
      "temple", "temp", "kyoto", "KYŌTO", "shrine gate", "\"golden pavilion\"", "\"golden temple\"", "浅草", "浅草寺", "寺",
      "fuji", "x100", "img", "img_1042", "tokyo", "jp", "alice", "zoe", "zurich", "brücke", "kyoto temples", "a",
      "nothingmatchesthis", "\"morning light\"", "jpg", "photo",
    ]
    var nonEmpty = 0
    for text in queries {
      let terms = Self.terms(text)
      let kept = written.filter { w in terms.allSatisfy { Self.holds(w.fields, $0) } }
      if !kept.isEmpty { nonEmpty += 1 }
      let expected = kept.sorted { a, b in
        let (da, db) = (GreatCircle.distance(q, a.c), GreatCircle.distance(q, b.c))
        return da < db || (da == db && a.id < b.id)
      }.map(\.id)
      let filter = PhotoFilter(text: try TextQuery(text))
      for limit in [1, 10, 1_000] {
        let got = try store.nearest(NearQuery(center: q, limit: limit, filter: filter))
        #expect(got.map(\.id) == Array(expected.prefix(limit)), "\(kind) '\(text)' limit \(limit)")
      }
      // With a radius, and with the other filters.
      let near = try store.nearest(NearQuery(center: q, limit: 1_000, radius: 12_000, filter: filter))
      #expect(
        near.map(\.id)
          == expected.filter { id in
            GreatCircle.distance(q, written.first { $0.id == id }!.c) <= 12_000
          }, "\(kind) '\(text)' within 12 km")
      var local = filter
      local.sources = [.local]
      local.camera = "fuji"
      let both = try store.nearest(NearQuery(center: q, limit: 1_000, filter: local))
      let bothIDs = Set(kept.filter { $0.source == .local && $0.make == "FUJIFILM" }.map(\.id))
      #expect(both.map(\.id) == expected.filter(bothIDs.contains), "\(kind) '\(text)' local fuji")
      // An export's pages: every match, by id.
      var paged: [Int64] = []
      var after: Int64 = 0
      while case let page = try store.locatedPhotos(passing: filter, after: after, limit: 7), let last = page.last {
        paged += page.map(\.id)
        after = last.id
      }
      #expect(paged == kept.map(\.id).sorted(), "\(kind) '\(text)' export")
      // In memory, the same rule (the server's snapshot and routes).
      let photos = try store.photos(ids: written.map(\.id))
      #expect(
        Set(photos.filter { filter.includes($0) }.map(\.id)) == Set(kept.map(\.id)), "\(kind) '\(text)' in memory")
    }
    #expect(nonEmpty >= 20, "most queries should match something")
  }

  /// The text index follows every write: an edit, a rename of the place, a delete.
  @Test(arguments: StoreKind.available)
  func theTextIndexFollowsWrites(kind: StoreKind) throws {
    let dir = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: dir.url)
    let q = Coordinate(latitude: 35.7, longitude: 139.7)
    func found(_ text: String) throws -> [Int64] {
      try store.nearest(NearQuery(center: q, limit: 10, filter: PhotoFilter(text: try TextQuery(text)))).map(\.id)
    }
    var r = record("/w/a.jpg", 35.71, 139.79, title: "Senso-ji at dawn")
    let id = try store.write { try store.upsert(r, now: Self.now).id }
    #expect(try found("senso") == [id])
    r.photo.title = "Thunder gate"
    try store.write { _ = try store.upsert(r, now: Self.now) }
    #expect(try found("senso").isEmpty)
    #expect(try found("thunder") == [id])
    #expect(try found("tokyo").isEmpty)
    // Places named after the write are searched too (TestNamer names it Tokyo).
    try store.write { _ = try store.assignPlaces(with: TestNamer(identity: 3)) }
    #expect(try found("tokyo jp") == [id])
    try store.write { try store.delete(id: id) }
    #expect(try found("thunder").isEmpty)
  }
}
