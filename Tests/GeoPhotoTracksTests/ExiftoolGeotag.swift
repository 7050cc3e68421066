import Foundation
import GeoPhotoFixtures

@testable import GeoPhotoTracks

/// exiftool's own geotagging, the oracle of the track tests: a small JPEG geotagged from a track
/// at one instant, with exiftool's gap rules set to the same values, and the position it wrote.
enum ExiftoolGeotag {
  static let path = "/usr/bin/exiftool"
  static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

  /// exiftool's latitude, longitude and (when it has one) altitude for `instant` (seconds since
  /// 1970, UTC) from the track at `track`; nil when it places nothing there. `environment` adds
  /// to the test's own for the geotagging run (`TZ`, the zone exiftool reads a DJI log's start in).
  static func position(
    from track: URL, at instant: Double, rules: GapRules = GapRules(), environment: [String: String] = [:]
  ) throws -> [Double]? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-geotag-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = folder.appendingPathComponent("photo.jpg")
    let out = folder.appendingPathComponent("out.xmp")
    try Data(SampleJPEG.plain).write(to: photo)
    _ = try ToolRun(
      path,
      [
        "-q", "-q", "-geotag", track.path, "-Geotime=\(text(instant))", "-api", "GeoMaxIntSecs=\(Int(rules.maxGap))",
        "-api", "GeoMaxExtSecs=\(Int(rules.maxExtrapolation))", "-o", out.path, photo.path,
      ], environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 })
    // exiftool may write the file even when it placed nothing: the tags say.
    guard FileManager.default.fileExists(atPath: out.path) else { return nil }
    let read = try ToolRun(path, ["-n", "-T", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", out.path])
    let values = read.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\t").map(String.init)
    guard values.count == 3, let lat = Double(values[0]), let lon = Double(values[1]) else { return nil }
    return [lat, lon] + (Double(values[2]).map { [$0] } ?? [])
  }

  /// An instant as exiftool takes one: `2024:05:03 10:00:15.50Z`.
  static func text(_ instant: Double) -> String { format("yyyy:MM:dd HH:mm:ss.SS'Z'").string(from: date(instant)) }

  /// An instant as a GPX writes one: `2024-05-03T10:00:15Z`.
  static func gpxText(_ instant: Double) -> String { format("yyyy-MM-dd'T'HH:mm:ss'Z'").string(from: date(instant)) }

  static func date(_ instant: Double) -> Date { Date(timeIntervalSince1970: instant) }

  static func format(_ pattern: String) -> DateFormatter {
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(identifier: "UTC")
    format.dateFormat = pattern
    return format
  }
}
