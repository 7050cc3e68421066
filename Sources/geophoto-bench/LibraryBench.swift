import Foundation
import GeoPhotoCore
import GeoPhotoFixtures

// MARK: - A mixed library: every format, pairs, Takeout sidecars and a few huge files

/// 10,000 files in 100 folders, made from one sample of every format (Scripts/
/// make-format-samples.sh) and generated JPEGs: 4,000 JPEGs, 1,000 RAW + JPEG pairs (every
/// RAW family), 1,000 HEIC and AVIF, 1,000 videos (MOV, MP4, 3GP, M4V, moov first and last),
/// 500 JPEG XL (plain and Brotli-compressed Exif), 750 Takeout exports (a JPEG without GPS
/// and its JSON); and beside them four 50 MB RAW files whose IFD0 sits after the padding and
/// four 500 MB videos whose movie box comes after the media data (sparse files).
func makeMixedLibrary(at folder: URL) throws {
  let samples = try FormatSamples.make(in: workDirectory)
  defer { try? FileManager.default.removeItem(at: samples) }
  func sample(_ name: String) -> URL { samples.appendingPathComponent(name) }
  let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted()
  let raws = names.filter { $0.hasPrefix("raw-") || $0.hasPrefix("stand-in-") }
  let heifs = names.filter { $0.hasSuffix(".heic") || $0.hasSuffix(".avif") }
  let videos = names.filter { ["mov", "mp4", "3gp", "3g2", "m4v"].contains(($0 as NSString).pathExtension) }
  let jxls = ["plain.jxl", "brob.jxl"]
  var file = 0
  func target(_ name: String) throws -> URL {
    let dir = folder.appendingPathComponent(String(format: "folder-%03d", file / 100))
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    file += 1
    return dir.appendingPathComponent(name)
  }
  func copy(_ name: String, as newName: String) throws {
    try FileManager.default.copyItem(at: sample(name), to: try target(newName))
  }
  let positions = SyntheticLibrary.points(count: 5_750, seed: 11)
  func jpeg(_ name: String, _ i: Int, located: Bool = true) throws {
    try SampleJPEG.write(to: try target(name)) { b in
      b.coordinate = located && positions[i].isPlausiblePhotoLocation ? positions[i] : nil
      b.takenAt = CaptureDate(year: 2024, month: 1 + i % 12, day: 1 + i % 28, hour: i % 24, utcOffsetMinutes: 60)
      b.make = "Synthetic"
      b.model = "Camera \(i % 5)"
    }
  }
  for i in 0..<4_000 { try jpeg(String(format: "IMG_%05d.JPG", i), i) }
  for i in 0..<1_000 {
    let raw = raws[i % raws.count]
    try jpeg(String(format: "PAIR_%05d.JPG", i), 4_000 + i)
    try copy(raw, as: String(format: "PAIR_%05d.", i) + (raw as NSString).pathExtension)
  }
  for i in 0..<1_000 {
    let heif = heifs[i % heifs.count]
    try copy(heif, as: String(format: "HEIF_%05d.", i) + (heif as NSString).pathExtension)
  }
  for i in 0..<1_000 {
    let video = videos[i % videos.count]
    try copy(video, as: String(format: "MOV_%05d.", i) + (video as NSString).pathExtension)
  }
  for i in 0..<500 { try copy(jxls[i % 2], as: String(format: "JXL_%05d.jxl", i)) }
  for i in 0..<750 {
    let name = String(format: "TAKEOUT_%05d.JPG", i)
    try jpeg(name, 5_000 + i, located: false)
    let c = positions[5_000 + i]
    try Data(
      """
      {"title": "\(name)", "description": "", "photoTakenTime": {"timestamp": "\(1_714_580_430 + i)"},
       "geoData": {"latitude": \(c.latitude), "longitude": \(c.longitude), "altitude": 0.0},
       "geoDataExif": {"latitude": 0.0, "longitude": 0.0, "altitude": 0.0}}
      """.utf8
    ).write(to: try target(name + ".supplemental-metadata.json"))
  }
  // The huge ones, in a folder of their own.
  let huge = folder.appendingPathComponent("huge")
  try FileManager.default.createDirectory(at: huge, withIntermediateDirectories: true)
  let nef = [UInt8](try Data(contentsOf: sample("raw-nef.nef")))
  let movie = [UInt8](try Data(contentsOf: sample("Keys-mov.mov")))
  for i in 0..<4 {
    try writeRawWithIFD0AtTheEnd(nef, padding: 50_000_000, to: huge.appendingPathComponent("BIG_\(i).NEF"))
    try writeMovieWithMoovLast(movie, padding: 500_000_000, to: huge.appendingPathComponent("BIG_\(i).MOV"))
  }
}

/// A TIFF structure whose IFD0 is moved behind `padding` bytes (a hole in the file), as
/// writers that put the directory after the pixel data do.
func writeRawWithIFD0AtTheEnd(_ tiff: [UInt8], padding: Int, to url: URL) throws {
  let (head, tail) = TIFFLayouts.ifd0AtTheEnd(tiff, padding: padding)
  try sparse(head, gap: padding, tail: tail, to: url)
}

/// A movie with a `free` box of `padding` bytes (a hole in the file) between `ftyp` and the
/// rest, so its movie box sits half a gigabyte in.
func writeMovieWithMoovLast(_ movie: [UInt8], padding: Int, to url: URL) throws {
  let ftyp = Int(movie[0]) << 24 | Int(movie[1]) << 16 | Int(movie[2]) << 8 | Int(movie[3])
  let header = [
    UInt8(padding >> 24), UInt8((padding >> 16) & 0xFF), UInt8((padding >> 8) & 0xFF), UInt8(padding & 0xFF),
  ]
  try sparse(
    Array(movie[0..<ftyp]) + header + Array("free".utf8), gap: padding - 8, tail: Array(movie[ftyp...]), to: url)
}

/// `head`, a hole of `gap` zero bytes, then `tail`.
func sparse(_ head: [UInt8], gap: Int, tail: [UInt8], to url: URL) throws {
  _ = FileManager.default.createFile(atPath: url.path, contents: Data(head))
  let handle = try FileHandle(forWritingTo: url)
  defer { try? handle.close() }
  try handle.seek(toOffset: UInt64(head.count + gap))
  try handle.write(contentsOf: Data(tail))
}

/// Runs a program to completion with its output discarded: wall time and peak resident
/// memory, which GNU time reads from the program's own `ru_maxrss`. (A child started with
/// posix_spawn shares this process's memory until it execs, and Linux counts that toward
/// the child's peak, so the bench cannot ask wait4 itself.)
func runMeasured(_ executable: String, _ arguments: [String]) throws -> (wall: UInt64, peakBytes: Int) {
  let report = workDirectory.appendingPathComponent("peak-rss.txt")
  let wall = try runProcess("/usr/bin/time", ["-f", "%M", "-o", report.path, executable] + arguments)
  let kilobytes = Int(try String(contentsOf: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
  return (wall, (kilobytes ?? 0) * 1024)
}

func benchLibrary() throws {
  if let missing = FormatSamples.unavailable {
    print("mixed library: skipped, \(missing)")
    return
  }
  let folder = workDirectory.appendingPathComponent("library-mixed")
  let marker = workDirectory.appendingPathComponent("library-mixed.complete")
  if !FileManager.default.fileExists(atPath: marker.path) {
    try? FileManager.default.removeItem(at: folder)
    try makeMixedLibrary(at: folder)
    _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
  }
  print(
    "geophoto sync: a mixed library of 10,008 files (every format, pairs, Takeout, 4 × 50 MB RAW, 4 × 500 MB video)")
  let db = workDirectory.appendingPathComponent("library-mixed.sqlite")
  _ = try runProcess("/usr/bin/find", [folder.path, "-type", "f", "-size", "-1M", "-exec", "cat", "{}", "+"])
  var firsts: [(wall: UInt64, peakBytes: Int)] = []
  var seconds: [UInt64] = []
  for _ in 0..<3 {
    for suffix in ["", "-wal", "-shm", ".spatial"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
    firsts.append(try runMeasured(".build/release/geophoto", ["sync", folder.path, "--db", db.path]))
    seconds.append(try runProcess(".build/release/geophoto", ["sync", folder.path, "--db", db.path]))
  }
  let first = milliseconds(firsts.map(\.wall).min() ?? 0)
  let peak = Double(firsts.map(\.peakBytes).max() ?? 0) / 1_048_576
  row("first sync", format(first, "ms"), String(format: "%.0f files/s", 10_008 / first * 1000))
  row("  peak resident memory of the sync", format(peak, "MB"), "goal ≤ 60 MB")
  row("second sync (nothing changed)", format(milliseconds(seconds.min() ?? 0), "ms"), "goal ≤ 200 ms")
  let exiftool = "/usr/bin/exiftool"
  if FileManager.default.isExecutableFile(atPath: exiftool) {
    let t = try runProcess(exiftool, ["-n", "-r", "-GPSLatitude", "-GPSLongitude", "-GPSCoordinates", folder.path])
    print("  anchor: exiftool -n -r -GPSLatitude -GPSLongitude -GPSCoordinates")
    row(
      "    exiftool on the same folder", format(milliseconds(t), "ms"),
      String(format: "%.0f× slower than the first sync (goal ≥ 20×)", milliseconds(t) / first))
  } else {
    print("  exiftool is not installed (apt-get install libimage-exiftool-perl): anchor skipped")
  }
}
