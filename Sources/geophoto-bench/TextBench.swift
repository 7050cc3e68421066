import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoSQLite
import GeoPhotoStore

// MARK: - Text filters and exports over an index with realistic text

/// A 1M-photo index with titles, descriptions, keywords, cameras and capture times drawn from
/// a vocabulary of a few thousand words, and three words that 100 photos each carry
/// ("Arezzo", "Kyōto", "浅草寺"): `near` with a text filter in process and from the command
/// line, with a time filter from the command line, and `geophoto export` of all of it.
func benchText(points: [Coordinate]) throws {
  let (db, markers) = try textIndex(points: points)
  let store = try SQLitePhotoStore(url: db, mode: .readOnly)
  print("Text: \(points.count) photos with titles, descriptions, keywords and times; 100 carry each searched word")
  let qs = queries(points, count: 2_000)
  var samplesByWord: [String: [UInt64]] = [:]
  for (word, ids) in markers {
    let filter = PhotoFilter(text: try TextQuery(word))
    var samples: [UInt64] = []
    var checksum: Int64 = 0
    for q in qs {
      let (r, t) = try timed { try store.nearest(NearQuery(center: q, limit: k, filter: filter)) }
      samples.append(t)
      checksum &+= r.first?.id ?? 0
    }
    samplesByWord[word] = samples
    let p = Percentiles(samples)
    row(
      "k=50 nearest with --text \(word) p50 / p99", String(format: "%.0f / %.0f µs", p.p50, p.p99),
      "goal p50 ≤ 1 ms; \(ids.count) photos match (checksum \(checksum))")
  }
  // The anchor: every photo's searched text tested, then the matches ranked.
  var documents: [(id: Int64, coordinate: Coordinate, text: String)] = []
  try store.database.forEachRow(
    "SELECT id, latitude, longitude, search_text || char(10) || place_text FROM photos WHERE latitude IS NOT NULL"
  ) { row in
    documents.append((row.int64(0), Coordinate(latitude: row.double(1), longitude: row.double(2)), row.text(3)))
  }
  let query = try TextQuery("arezzo")
  var brute: [UInt64] = []
  for q in qs.prefix(5) {
    let (r, t) = timed { () -> [Int64] in
      let kept = documents.filter { query.matches(document: $0.text) }.map { (id: $0.id, coordinate: $0.coordinate) }
      return SpatialIndex.nearest(among: kept, to: q, limit: k).map(\.id)
    }
    brute.append(t)
    let indexed = try store.nearest(NearQuery(center: q, limit: k, filter: PhotoFilter(text: query)))
    precondition(r == indexed.map(\.id), "text filter and brute force disagree")
  }
  let arezzo = Percentiles(samplesByWord["Arezzo"] ?? []).p50
  row(
    "  brute force: every photo's text, p50 (anchor)", format(Percentiles(brute).p50 / 1000, "ms"),
    String(format: "%.0f× slower than --text Arezzo", Percentiles(brute).p50 / arezzo))

  func cli(_ arguments: [String]) throws -> Double {
    _ = try runProcess(".build/release/geophoto", arguments + ["--db", db.path])
    var walls: [UInt64] = []
    for _ in 0..<5 { walls.append(try runProcess(".build/release/geophoto", arguments + ["--db", db.path])) }
    return milliseconds(walls.sorted()[2])
  }
  row(
    "geophoto near --text arezzo, wall, median",
    format(try cli(["near", "43.46,11.88", "--text", "arezzo"]), "ms"),
    "goal ≤ 150 ms")
  row(
    "geophoto near --since 2019 --until 2019, wall, median",
    format(try cli(["near", "35.68,139.76", "--since", "2019", "--until", "2019"]), "ms"), "goal ≤ 150 ms")

  // Each run writes a new file, as an export usually does: replacing one makes ext4 write the
  // new file's data out at the rename (its guard against a crash leaving an empty file), and
  // that flush, not the export, would be timed. Earlier runs' data is written out before each
  // run, so the kernel's writeback of it does not share the cores with the one timed.
  let out = workDirectory.appendingPathComponent("export-1m.geojson")
  func fresh() {
    try? FileManager.default.removeItem(at: out)
    sync()
  }
  _ = try runProcess(".build/release/geophoto", ["export", "--db", db.path, "-o", out.path])
  var walls: [UInt64] = []
  for _ in 0..<5 {
    fresh()
    walls.append(try runProcess(".build/release/geophoto", ["export", "--db", db.path, "-o", out.path]))
  }
  let wall = milliseconds(walls.min() ?? 0)
  let size = (try? FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int) ?? 0
  row(
    "geophoto export of the 1M index to GeoJSON, wall", format(wall, "ms"),
    String(format: "%.0f photos/s (goal ≥ 500,000); %.0f MB", Double(points.count) / wall * 1000, Double(size) / 1e6))
  // The anchor: SQLite's own JSON of a few of the same columns, one object per row, to a file.
  let sqlite3 = "/usr/bin/sqlite3"
  if FileManager.default.isExecutableFile(atPath: sqlite3) {
    let query =
      "SELECT json_object('id', id, 'source', source, 'latitude', latitude, 'longitude', longitude, 'title', title, "
      + "'takenAt', taken_at, 'place', place_name, 'mediaType', media_type) FROM photos WHERE latitude IS NOT NULL"
    var anchors: [UInt64] = []
    for _ in 0..<5 {
      fresh()
      anchors.append(try runProcess(sqlite3, ["-cmd", ".output \(out.path)", db.path, query]))
    }
    let anchor = milliseconds(anchors.min() ?? 0)
    row(
      "  sqlite3: 8 columns as JSON to a file (anchor)", format(anchor, "ms"),
      String(format: "geophoto takes %.1f× its time", wall / anchor))
  } else {
    print("  sqlite3 is not installed (apt-get install sqlite3): anchor skipped")
  }
  try? FileManager.default.removeItem(at: out)
}

/// The index, built once into the work directory (kept between runs), and the ids that carry
/// each searched word.
func textIndex(points: [Coordinate]) throws -> (URL, [(String, [Int64])]) {
  let db = workDirectory.appendingPathComponent("text-1m/index.sqlite")
  let marker = db.deletingLastPathComponent().appendingPathComponent("complete")
  var rng = SeededGenerator(seed: 1_402)
  // Syllables make a vocabulary of words no search below can hit by accident.
  let syllables = ["ka", "ri", "mo", "te", "su", "na", "lo", "vi", "pe", "du", "ga", "zo", "bi", "re", "sha", "ku"]
  let vocabulary = (0..<3_000).map { _ in
    (0..<Int.random(in: 2...4, using: &rng)).map { _ in syllables[Int.random(in: 0..<syllables.count, using: &rng)] }
      .joined()
  }
  let cameras = [("FUJIFILM", "X100V"), ("Canon", "EOS R5"), ("Apple", "iPhone 15 Pro"), ("SONY", "ILCE-7M4")]
  let words = ["Arezzo", "Kyōto", "浅草寺"]
  // 100 photos per word, spread over the whole set.
  var carriers: [Int: String] = [:]
  for word in words {
    var n = 0
    while n < 100 {
      let i = Int.random(in: 0..<points.count, using: &rng)
      if carriers[i] == nil {
        carriers[i] = word
        n += 1
      }
    }
  }
  let markers = words.map { word in (word, carriers.filter { $0.value == word }.map { Int64($0.key + 1) }.sorted()) }
  if FileManager.default.fileExists(atPath: marker.path) {
    // One left by an earlier geophoto-bench is upgraded in place (the parts open it read-only).
    _ = try SQLitePhotoStore(url: db, mode: .readWrite)
    return (db, markers)
  }
  try? FileManager.default.removeItem(at: db.deletingLastPathComponent())
  let store = try SQLitePhotoStore(url: db, create: true)
  let start = CaptureDate(year: 2015, month: 1, day: 1).localSecondsSinceEpoch
  let span = CaptureDate(year: 2025, month: 1, day: 1).localSecondsSinceEpoch - start
  let (_, load) = try timed {
    try store.write {
      let columns: [PhotoColumn] = [
        .sourceID, .latitude, .longitude, .takenAt, .takenUTC, .takenLocal, .title, .description, .keywords,
        .cameraMake, .cameraModel, .searchText,
      ]
      let insert = try store.database.makeStatement(
        "INSERT INTO photos (source, \(columns.map(\.name).joined(separator: ", ")), first_seen, updated) VALUES ('local', "
          + columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ") + ", 'now', 'now')")
      for (i, p) in points.enumerated() {
        func some(_ n: ClosedRange<Int>) -> [String] {
          (0..<Int.random(in: n, using: &rng)).map { _ in vocabulary[Int.random(in: 0..<vocabulary.count, using: &rng)]
          }
        }
        var title = some(2...5)
        if let word = carriers[i] { title.insert(word, at: Int.random(in: 0...title.count, using: &rng)) }
        let path = "/photos/\(2015 + i % 10)/roll-\(i / 1000)/IMG_\(i).JPG"
        var photo = Photo(
          id: Int64(i + 1), source: .local, sourceID: path, coordinate: p,
          title: title.joined(separator: " "))
        photo.description = Bool.random(using: &rng) ? some(5...12).joined(separator: " ") : nil
        photo.keywords = some(0...4)
        (photo.cameraMake, photo.cameraModel) = cameras[Int.random(in: 0..<cameras.count, using: &rng)]
        var taken = CaptureDate(secondsSinceEpoch: start + Int.random(in: 0..<span, using: &rng), utcOffsetMinutes: nil)
        if i % 5 != 0 { taken.utcOffsetMinutes = 60 * Int.random(in: -10...12, using: &rng) }
        photo.takenAt = taken
        let record = PhotoRecord(photo: photo)
        try insert.execute(columns.map { PhotoWrite.value($0, of: record) })
      }
      try store.database.execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'")
    }
  }
  print(String(format: "  (loaded %d rows with their text index in %.1f s)", points.count, Double(load) / 1e9))
  try store.rebuildDerivedIndexes()
  _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
  return (db, markers)
}
