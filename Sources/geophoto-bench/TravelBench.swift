import Foundation
import GeoPhotoCore
import GeoPhotoSQLite
import GeoPhotoStore
import GeoPhotoTravel

// trips and places visited over 1,000,000 photos: twenty years of a photographer's life
// (2006–2025), three homes (Helsinki, Berlin, Lisbon), a trip every 45 days to one of twenty
// places, 2 % of the photos without a position. The anchor is SQLite reading the same
// columns of every row with nothing done with them.

/// Where the bench's photos are taken: a name, a region, a country, a position, a zone.
private struct BenchSpot {
  var name: String
  var admin1: String
  var country: String
  var latitude: Double
  var longitude: Double
  var offset: Int
}

private let homes = [
  BenchSpot(name: "Helsinki", admin1: "Uusimaa", country: "FI", latitude: 60.17, longitude: 24.94, offset: 120),
  BenchSpot(name: "Berlin", admin1: "Land Berlin", country: "DE", latitude: 52.52, longitude: 13.41, offset: 60),
  BenchSpot(name: "Lisbon", admin1: "Lisbon", country: "PT", latitude: 38.72, longitude: -9.14, offset: 0),
]

private let destinations = [
  ("Tokyo", "Tokyo", "JP", 35.69, 139.69, 540), ("Kyoto", "Kyoto", "JP", 35.02, 135.75, 540),
  ("Rome", "Lazio", "IT", 41.89, 12.51, 60), ("Paris", "Île-de-France", "FR", 48.86, 2.35, 60),
  ("New York", "New York", "US", 40.71, -74.01, -300), ("Seoul", "Seoul", "KR", 37.57, 126.98, 540),
  ("Suva", "Central", "FJ", -18.14, 178.44, 720), ("Apia", "Tuamasaga", "WS", -13.83, -171.77, 780),
  ("Cape Town", "Western Cape", "ZA", -33.92, 18.42, 120), ("Sydney", "New South Wales", "AU", -33.87, 151.21, 600),
  ("Reykjavik", "Capital Region", "IS", 64.15, -21.94, 0), ("Oslo", "Oslo", "NO", 59.91, 10.75, 60),
  ("Madrid", "Madrid", "ES", 40.42, -3.70, 60), ("Athens", "Attica", "GR", 37.98, 23.73, 120),
  ("Istanbul", "Istanbul", "TR", 41.01, 28.98, 180), ("Mexico City", "CDMX", "MX", 19.43, -99.13, -360),
  ("Lima", "Lima", "PE", -12.05, -77.04, -300), ("Hanoi", "Hanoi", "VN", 21.03, 105.85, 420),
  ("Nairobi", "Nairobi", "KE", -1.29, 36.82, 180), ("Vancouver", "British Columbia", "CA", 49.28, -123.12, -480),
].map { BenchSpot(name: $0.0, admin1: $0.1, country: $0.2, latitude: $0.3, longitude: $0.4, offset: $0.5) }

private let travelPhotos = 1_000_000
private let travelDays = 7_305
private let tripEvery = 45

/// The days of trip `n` (4 to 12), from day `n * tripEvery + 10`.
private func tripLength(_ n: Int) -> Int { 4 + (n * 7) % 9 }

/// The index, written on first use (rows inserted as a copy of an index would).
private func travelIndex() throws -> URL {
  let db = workDirectory.appendingPathComponent("travel-1m/index.sqlite")
  let marker = db.deletingLastPathComponent().appendingPathComponent("complete")
  guard !FileManager.default.fileExists(atPath: marker.path) else {
    // Kept from an earlier run: brought up to this geophoto's schema.
    _ = try SQLitePhotoStore(url: db, mode: .readWrite)
    return db
  }
  try? FileManager.default.removeItem(at: db.deletingLastPathComponent())
  let store = try SQLitePhotoStore(url: db, create: true)
  let start = 1_136_073_600  // 2006-01-01T00:00:00Z
  let (_, load) = try timed {
    try store.write {
      let insert = try store.database.makeStatement(
        """
        INSERT INTO photos (source, source_id, latitude, longitude, taken_at, taken_utc, taken_local, title,
          place_name, place_admin1, place_cc, place_geoname_id, place_is_country, first_seen, updated)
        VALUES ('local', ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0, 'now', 'now')
        """)
      let perDay = travelPhotos / travelDays + 1
      for i in 0..<travelPhotos {
        let day = i * travelDays / travelPhotos
        let n = day / tripEvery
        let away = day % tripEvery >= 10 && day % tripEvery < 10 + tripLength(n)
        let spot = away ? destinations[n % destinations.count] : homes[min(2, day / 2_920)]
        let spotIndex = away ? 100 + n % destinations.count : min(2, day / 2_920)
        let local = start + day * 86_400 + 8 * 3_600 + (i % perDay) * 300
        let jitter = Double(i % 97 - 48) * 0.0008
        let located = i % 50 != 7
        let taken = CaptureDate(secondsSinceEpoch: local - spot.offset * 60, utcOffsetMinutes: spot.offset)
        try insert.execute([
          .text("/photos/\(day / 30)/IMG_\(i).JPG"), located ? .real(spot.latitude + jitter) : .null,
          located ? .real(spot.longitude - jitter) : .null, .text(taken.iso8601),
          .integer(Int64(local - spot.offset * 60)), .integer(Int64(local)), .text("Photo \(i)"),
          located ? .text(spot.name) : .null, located ? .text(spot.admin1) : .null,
          located ? .text(spot.country) : .null,
          located ? .integer(Int64(spotIndex)) : .null,
        ])
      }
      try store.database.execute("UPDATE index_state SET value = value + 1 WHERE key = 'generation'")
    }
  }
  print(String(format: "  (loaded %d rows in %.1f s)", travelPhotos, Double(load) / 1e9))
  try store.refreshDerivedIndexes()
  _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
  return db
}

func benchTravel() throws {
  print("trips and places visited: 1,000,000 photos over twenty years, three homes, a trip every 45 days")
  let db = try travelIndex()
  let planted = (0..<(travelDays / tripEvery + 1)).filter { n in n * tripEvery + 10 < travelDays }.count
  let store = try SQLitePhotoStore(url: db, mode: .readOnly)
  // The anchor: SQLite reads the same columns of every row and does nothing with them.
  var scans: [UInt64] = []
  for _ in 0..<3 {
    let (_, t) = try timed {
      var sum: Int64 = 0
      try store.database.forEachRow("SELECT \(DatedPhotoRows.columnList) FROM photos WHERE taken_local IS NOT NULL") {
        sum &+= $0.int64(0)
      }
      return sum
    }
    scans.append(t)
  }
  let scan = milliseconds(scans.min() ?? 0)
  row("anchor: SQLite reads the rows' columns (best of 3)", format(scan, "ms"))

  var reads: [UInt64] = []
  var finds: [UInt64] = []
  var found = 0
  var homesFound = 0
  for _ in 0..<3 {
    let (photos, read) = try timed { try DatedPhotos.timeline(from: store, sources: .all) }
    let (result, find) = timed { TripFinder().trips(in: photos) }
    reads.append(read)
    finds.append(find)
    found = result.trips.count
    homesFound = result.homes.count
  }
  let best = zip(reads, finds).map { $0 + $1 }.min() ?? 0
  row(
    "trips: read and find (best of 3)", format(milliseconds(best), "ms"),
    String(format: "goal ≤ 2,000 ms; %.1f× the anchor", milliseconds(best) / scan))
  row("  reading the timeline", format(milliseconds(reads.min() ?? 0), "ms"))
  row("  finding homes and trips", format(milliseconds(finds.min() ?? 0), "ms"))
  row("  trips found / planted, homes", "\(found) / \(planted), \(homesFound)")

  var places: [UInt64] = []
  for _ in 0..<3 {
    let (_, t) = try timed { PlacesVisited(try DatedPhotos.read(from: store, passing: .all)) }
    places.append(t)
  }
  row(
    "places visited: read and tree (best of 3)", format(milliseconds(places.min() ?? 0), "ms"),
    String(format: "%.1f× the anchor", milliseconds(places.min() ?? 0) / scan))

  // The command as people run it: process start, gazetteer, table.
  var commands: [(wall: UInt64, peakBytes: Int)] = []
  for _ in 0..<3 { commands.append(try runMeasured(".build/release/geophoto", ["trips", "--db", db.path])) }
  row("geophoto trips (best of 3)", format(milliseconds(commands.map(\.wall).min() ?? 0), "ms"))
  row("  peak resident memory", format(Double(commands.map(\.peakBytes).max() ?? 0) / 1_048_576, "MB"))
}
