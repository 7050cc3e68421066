import Foundation
import GeoPhotoCore
import GeoPhotoFixtures

// geotag against exiftool: 10,000 camera JPEGs without GPS (DateTimeOriginal with
// OffsetTimeOriginal, in three zones) placed on a 1,000,000-point GPX, writing XMP sidecars.
// exiftool's run takes a quarter of an hour: it is measured once and kept with its version
// (`exiftool-anchor.txt`), as are its sidecars, which the positions are compared with.

/// The track: a point every 2 s for 23 days from 2024-05-01T00:00:00Z, wandering around
/// Lisbon, with an hour's gap every 200,000 points (no photo is placed across one).
let geotagTrackStart = 1_714_521_600.0
let geotagTrackPoints = 1_000_000

/// The position of the track's point `i`: a slow walk in a 0.2° box, deterministic.
func geotagTrackPoint(_ i: Int) -> (time: Double, latitude: Double, longitude: Double) {
  let gaps = Double(i / 200_000) * 3_600
  let t = Double(i)
  return (
    geotagTrackStart + t * 2 + gaps, 38.70 + 0.1 * sin(t / 9_000) + 0.001 * sin(t / 37),
    -9.14 + 0.1 * cos(t / 7_000) + 0.001 * cos(t / 53)
  )
}

func makeGeotagFixtures(at folder: URL) throws {
  try? FileManager.default.removeItem(at: folder)
  let photos = folder.appendingPathComponent("photos")
  try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
  // The GPX, written in pieces: seven decimals, Z times.
  let track = folder.appendingPathComponent("track-1m.gpx")
  FileManager.default.createFile(atPath: track.path, contents: nil)
  let handle = try FileHandle(forWritingTo: track)
  var text =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"geophoto-bench\" "
    + "xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
  let stamp = ISO8601DateFormatter()
  for i in 0..<geotagTrackPoints {
    let p = geotagTrackPoint(i)
    text += String(
      format: "<trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele><time>", p.latitude, p.longitude, 50 + Double(i % 100))
    text += stamp.string(from: Date(timeIntervalSince1970: p.time)) + "</time></trkpt>\n"
    if text.utf8.count > 1 << 20 {
      try handle.write(contentsOf: Data(text.utf8))
      text = ""
    }
  }
  try handle.write(contentsOf: Data((text + "</trkseg></trk></gpx>\n").utf8))
  try handle.close()
  // The photos: every 199.7 s of the track's span (some in its gaps, a few after it), their
  // local times in three zones, 50 to a folder.
  let zones = [60, 540, -300]
  for n in 0..<10_000 {
    let instant = Int(geotagTrackStart) + n * 200 - n / 3
    let offset = zones[n % 3]
    try SampleJPEG.write(to: photos.appendingPathComponent(String(format: "%03d/IMG_%05d.JPG", n / 50, n))) {
      $0.takenAt = CaptureDate(secondsSinceEpoch: instant, utcOffsetMinutes: offset)
      $0.make = "Bench"
      $0.model = "Camera"
    }
  }
}

/// The positions in sidecars under `folder` (`NAME.JPG.xmp`), read by exiftool: photo name →
/// latitude, longitude.
func exiftoolPositions(under folder: URL) throws -> [String: (Double, Double)] {
  let out = try ToolRun(
    "/usr/bin/exiftool",
    ["-q", "-q", "-n", "-T", "-r", "-ext", "xmp", "-FileName", "-GPSLatitude", "-GPSLongitude", folder.path]
  ).stdout
  var positions: [String: (Double, Double)] = [:]
  for line in out.split(separator: "\n") {
    let fields = line.split(separator: "\t").map(String.init)
    guard fields.count == 3, let lat = Double(fields[1]), let lon = Double(fields[2]) else { continue }
    positions[fields[0]] = (lat, lon)
  }
  return positions
}

func benchGeotag() throws {
  let folder = workDirectory.appendingPathComponent("geotag")
  let marker = workDirectory.appendingPathComponent("geotag.complete")
  if !FileManager.default.fileExists(atPath: marker.path) {
    try makeGeotagFixtures(at: folder)
    _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
  }
  let photos = folder.appendingPathComponent("photos")
  let track = folder.appendingPathComponent("track-1m.gpx")
  let db = folder.appendingPathComponent("geotag.sqlite")
  print("geophoto geotag: 10,000 JPEGs on a 1,000,000-point GPX (\(fileSize(track) >> 20) MB), writing XMP sidecars")
  // Each run writes its sidecars afresh. An earlier run's are moved aside, not deleted: on an
  // ext4 without a journal the kernel steps over inodes deleted in the last 30 seconds when it
  // makes a file, one by one, and 10,000 just deleted cost the next 10,000 files seconds. A user
  // writing sidecars does not delete 10,000 files first; they are deleted when the bench ends.
  let aside = folder.appendingPathComponent("aside")
  defer { try? FileManager.default.removeItem(at: aside) }
  func removeSidecars() throws { try moveAside(photos, matching: ".xmp", into: aside) }
  // A fresh index of photos without positions (no sidecar of an earlier run read).
  try removeSidecars()
  for suffix in ["", "-wal", "-shm", ".spatial"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
  _ = try runProcess(".build/release/geophoto", ["sync", photos.path, "--db", db.path])
  var runs: [(wall: UInt64, peakBytes: Int)] = []
  for _ in 0..<3 {
    try removeSidecars()
    _ = try runProcess(".build/release/geophoto", ["geotag", "--clear", "--all", "--db", db.path])
    runs.append(
      try runMeasured(
        ".build/release/geophoto", ["geotag", "--track", track.path, "--write-xmp", "--all", "--db", db.path]))
  }
  let best = milliseconds(runs.map(\.wall).min() ?? 0)
  let peak = Double(runs.map(\.peakBytes).max() ?? 0) / 1_048_576
  row("geotag --write-xmp (best of 3)", format(best, "ms"), String(format: "%.0f photos/s", 10_000 / best * 1000))
  row("  peak resident memory", format(peak, "MB"))

  let exiftool = "/usr/bin/exiftool"
  guard FileManager.default.isExecutableFile(atPath: exiftool) else {
    print("  exiftool is not installed (apt-get install libimage-exiftool-perl): anchor skipped")
    return
  }
  let version = try ToolRun(exiftool, ["-ver"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  let anchorFile = folder.appendingPathComponent("exiftool-anchor.txt")
  let theirs = folder.appendingPathComponent("exiftool-xmp")
  var anchor: Double
  if let kept = try? String(contentsOf: anchorFile, encoding: .utf8).split(separator: " "), kept.count == 2,
    kept[0] == version, let ms = Double(kept[1])
  {
    anchor = ms
    print("  anchor: exiftool \(version), measured once and kept (\(anchorFile.lastPathComponent))")
  } else {
    try moveAside(theirs, matching: ".xmp", into: aside)
    print("  anchor: exiftool \(version) -geotag with the same gap rules (about a quarter of an hour)…")
    anchor = milliseconds(
      try runProcess(
        exiftool,
        [
          "-q", "-q", "-r", "-ext", "jpg", "-geotag", track.path, "-api", "GeoMaxIntSecs=1800", "-api",
          "GeoMaxExtSecs=0", "-Geotime<${DateTimeOriginal}${OffsetTimeOriginal}", "-o",
          theirs.path + "/%f.%e.xmp", photos.path,
        ],
        // 1: some photos (those in the track's gaps) were not geotagged.
        allowedStatus: [0, 1]))
    try "\(version) \(anchor)".write(to: anchorFile, atomically: true, encoding: .utf8)
  }
  row(
    "  exiftool -geotag -o %f.%e.xmp (anchor)", format(anchor, "ms"),
    String(format: "%.1f× slower than geotag (goal ≥ 20×)", anchor / best))
  // The positions both wrote, photo by photo.
  let mine = try exiftoolPositions(under: photos)
  let exiftools = try exiftoolPositions(under: theirs)
  var both = 0
  var worst = 0.0
  for (name, p) in mine {
    guard let q = exiftools[name] else { continue }
    both += 1
    worst = max(worst, abs(p.0 - q.0), abs(p.1 - q.1))
  }
  row(
    "  placed by both / geophoto only / exiftool only",
    "\(both) / \(mine.count - both) / \(exiftools.count - both)",
    String(format: "largest difference %.1e° (goal ≤ 1e-6°)", worst))
}

/// Moves the files under `folder` whose names end with `suffix` into `aside` (made when
/// needed), each under a new name.
func moveAside(_ folder: URL, matching suffix: String, into aside: URL) throws {
  try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
  guard let files = FileManager.default.enumerator(atPath: folder.path) else { return }
  var moved = (try? FileManager.default.contentsOfDirectory(atPath: aside.path).count) ?? 0
  for case let path as String in files where path.hasSuffix(suffix) {
    moved += 1
    try FileManager.default.moveItem(
      atPath: folder.appendingPathComponent(path).path, toPath: aside.appendingPathComponent("\(moved)").path)
  }
}

func fileSize(_ url: URL) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
}

// geotag from a 1 GB Records.json: read as it streams by, at least 100 MB/s with at most
// 150 MB resident, for 1,000 photos spread over the history's three years (each photo's
// window keeps what can place it) and for the same history with no photo filter at all
// (a --sync run keeps every fix).

func benchGoogle() throws {
  let folder = workDirectory.appendingPathComponent("google")
  let marker = workDirectory.appendingPathComponent("google.complete")
  let records = folder.appendingPathComponent("Records.json")
  let tiny = folder.appendingPathComponent("tiny.json")
  let photos = folder.appendingPathComponent("photos")
  // A point every 30 s for 2.4 years from 2021-05-01T00:00:00Z: about 1 GB.
  let start: Int64 = 1_619_827_200_000
  let walk = GoogleHistoryFixture.Walk(count: 2_500_000, start: start, stepMilliseconds: 30_000)
  if !FileManager.default.fileExists(atPath: marker.path) {
    try? FileManager.default.removeItem(at: photos)
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    if fileSize(records) < 1_000_000_000 { try GoogleHistoryFixture.writeRecords(walk, to: records) }
    // 1,000 photos, one every 0.86 days, with their offsets.
    for n in 0..<1_000 {
      let instant = Int(start / 1_000) + n * 74_000
      try SampleJPEG.write(to: photos.appendingPathComponent(String(format: "IMG_%04d.JPG", n))) {
        $0.takenAt = CaptureDate(secondsSinceEpoch: instant, utcOffsetMinutes: 60)
      }
    }
    _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
  }
  if !FileManager.default.fileExists(atPath: tiny.path) {
    try GoogleHistoryFixture.writeRecords(GoogleHistoryFixture.Walk(count: 3, start: start), to: tiny)
  }
  let megabytes = Double(fileSize(records)) / 1_048_576
  print(
    String(
      format: "geophoto geotag: a %.0f MB Records.json (2,500,000 records, pretty, as Takeout writes it)", megabytes))
  let db = folder.appendingPathComponent("google.sqlite")
  for suffix in ["", "-wal", "-shm", ".spatial"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
  _ = try runProcess(".build/release/geophoto", ["sync", photos.path, "--db", db.path])
  // The page cache warm for every run; the run on a three-point history is the fixed cost.
  _ = try runProcess("/bin/cat", [records.path])
  func best(_ arguments: [String]) throws -> (wall: Double, peak: Double) {
    var runs: [(wall: UInt64, peakBytes: Int)] = []
    for _ in 0..<3 { runs.append(try runMeasured(".build/release/geophoto", arguments + ["--db", db.path])) }
    return (milliseconds(runs.map(\.wall).min() ?? 0), Double(runs.map(\.peakBytes).max() ?? 0) / 1_048_576)
  }
  let fixed = try best(["geotag", "--track", tiny.path, "--all", "--dry-run"])
  let filtered = try best(["geotag", "--track", records.path, "--all", "--dry-run"])
  // A sync point keeps the whole history (its photo may be anywhere on it).
  let first = photos.appendingPathComponent("IMG_0000.JPG").path
  let whole = try best(["geotag", "--track", records.path, "--sync", first + "=01:00:00", "--all", "--dry-run"])
  func rate(_ run: (wall: Double, peak: Double)) -> Double { megabytes / max(0.001, (run.wall - fixed.wall) / 1_000) }
  row(
    "  1,000 photos' windows", format(filtered.wall, "ms"),
    String(format: "%.0f MB/s (goal ≥ 100), %.0f MB resident (goal ≤ 150)", rate(filtered), filtered.peak))
  // Every fix in memory (32 bytes each) is what any placement anywhere needs: not bounded.
  row(
    "  every fix kept (--sync)", format(whole.wall, "ms"),
    String(format: "%.0f MB/s, %.0f MB resident (2.45 million fixes held)", rate(whole), whole.peak))
}
