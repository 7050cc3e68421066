import Foundation
import GeoPhotoCore

/// The kinds of track geophoto reads, each told by its content, never by its file name.
public enum TrackFormat: String, CaseIterable, Sendable {
  case gpx = "GPX"
  case kml = "KML"
  case kmz = "KMZ"
  case tcx = "TCX"
  case garminLogbook = "Garmin logbook"
  case nmea = "NMEA"
  case igc = "IGC"
  case csv = "CSV"
  case googleHistory = "Google location history"
  case geoJSON = "GeoJSON"

  /// Read as it streams by (never whole into memory): files of gigabytes.
  public var streams: Bool { self == .googleHistory || self == .geoJSON }

  /// What a file's first bytes say it is; nil when none of these.
  public static func sniff(head: [UInt8]) -> TrackFormat? {
    var head = head
    if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
    if ZipArchive.isArchive(head: head) { return .kmz }
    guard let first = head.first(where: { !" \t\r\n".utf8.contains($0) }) else { return nil }
    if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
      if GoogleHistoryReader.sniff(head: head) != nil { return .googleHistory }
      return GeoJSONTrackReader.sniff(head: head) ? .geoJSON : nil
    }
    if first == UInt8(ascii: "<") {
      switch XMLTrackReader.kind(head: head) {
      case .gpx?: return .gpx
      case .kml?: return .kml
      case .tcx?: return .tcx
      case .garminLogbook?: return .garminLogbook
      case nil: return nil
      }
    }
    let text = lines(of: head).prefix(50).map { String(decoding: $0.text, as: UTF8.self) }
    if text.contains(where: Self.isNMEASentence) { return .nmea }
    if text.first?.hasPrefix("A") == true, text.contains(where: { $0.hasPrefix("HFDTE") || $0.hasPrefix("B") }) {
      return .igc
    }
    if CSVTrackReader.looksLikeTrack(head: head) { return .csv }
    return nil
  }

  private static func isNMEASentence(_ line: String) -> Bool {
    guard let dollar = line.firstIndex(of: "$") else { return false }
    let kind = line[line.index(after: dollar)...].prefix { $0 != "," }
    return kind == "PMGNTRK" || (kind.count == 5 && ["RMC", "GGA"].contains(String(kind.suffix(3))))
  }
}

/// One track file read: where it came from, what it was, and what it holds.
public struct LoadedTrack: Sendable {
  public var path: String
  public var format: TrackFormat
  public var contents: TrackContents

  public var name: String { (path as NSString).lastPathComponent }
}

/// Track files and folders of them, read whole: each file sniffed and read by its reader. A
/// file that is no track, or is damaged, is an error naming it (and the line where there is
/// one); the others are still read.
public enum TrackLibrary {
  /// The largest track file read: tracks are read into memory whole.
  public static let maximumFileSize = 2 << 30

  public struct Result: Sendable {
    public var tracks: [LoadedTrack] = []
    public var errors: [TrackReadError] = []

    public init(tracks: [LoadedTrack] = [], errors: [TrackReadError] = []) {
      self.tracks = tracks
      self.errors = errors
    }

    /// Every track's fixes, each with its track's place in `tracks` plus one as its source.
    public var fixes: [Fix] {
      tracks.enumerated().flatMap { i, track in
        track.contents.fixes.map {
          var fix = $0
          fix.source = UInt32(clamping: i + 1)
          return fix
        }
      }
    }
    /// Every track's visits, their sources as the fixes'.
    public var visits: [Visit] {
      tracks.enumerated().flatMap { i, track in
        track.contents.visits.map {
          var visit = $0
          visit.source = UInt32(clamping: i + 1)
          return visit
        }
      }
    }
  }

  /// What a reader is asked of each fix's instant and each visit's stay: keep it or not.
  public typealias Keeping = @Sendable (ClosedRange<Double>) -> Bool

  /// The tracks at `paths`: files, and folders read through (hidden entries skipped). Only the
  /// fixes and visits `keeping` keeps are kept (with the fixes either side of them), when given.
  public static func load(_ paths: [String], zoneOffsetSeconds: Int? = nil, keeping: Keeping? = nil) -> Result {
    var result = Result()
    for path in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        result.errors.append(TrackReadError(path, "no such file or folder"))
        continue
      }
      if isFolder.boolValue {
        for file in files(under: path) {
          load(file, zoneOffsetSeconds: zoneOffsetSeconds, keeping: keeping, into: &result)
        }
      } else {
        load(path, zoneOffsetSeconds: zoneOffsetSeconds, keeping: keeping, into: &result)
      }
    }
    return result
  }

  /// The files under `folder`, recursively, in name order; hidden ones skipped.
  static func files(under folder: String) -> [String] {
    guard
      let walk = FileManager.default.enumerator(
        at: URL(fileURLWithPath: folder), includingPropertiesForKeys: [.isRegularFileKey],
        options: [.skipsHiddenFiles, .skipsPackageDescendants])
    else { return [] }
    var files: [String] = []
    for case let url as URL in walk where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
    {
      files.append(url.path)
    }
    return files.sorted()
  }

  static func load(_ path: String, zoneOffsetSeconds: Int?, keeping: Keeping?, into result: inout Result) {
    do {
      result.tracks.append(try read(path, zoneOffsetSeconds: zoneOffsetSeconds, keeping: keeping))
    } catch {
      result.errors.append(error)
    }
  }

  /// One file, read by the reader its content calls for.
  public static func read(_ path: String, zoneOffsetSeconds: Int? = nil, keeping: Keeping? = nil) throws(TrackReadError)
    -> LoadedTrack
  {
    let name = (path as NSString).lastPathComponent
    let file: ReadableFile
    do { file = try ReadableFile(path: path) } catch { throw TrackReadError(name, error.description) }
    // JSON histories stream from the file, whatever their size.
    let head: [UInt8]
    do { head = try file.read(at: 0, count: min(file.size, 4_096)) } catch {
      throw TrackReadError(name, error.description)
    }
    let format = try format(of: head, name: name)
    switch format {
    case .googleHistory:
      return LoadedTrack(
        path: path, format: format, contents: try GoogleHistoryReader.read(path: path, name: name, keeping: keeping))
    case .geoJSON:
      return LoadedTrack(
        path: path, format: format, contents: try GeoJSONTrackReader.read(path: path, name: name, keeping: keeping))
    case .gpx, .kml, .kmz, .tcx, .garminLogbook, .nmea, .igc, .csv:
      break
    }
    guard file.size <= maximumFileSize else {
      throw TrackReadError(name, "larger than \(maximumFileSize >> 30) GiB; split it")
    }
    let bytes: [UInt8]
    do { bytes = try file.read(at: 0, count: file.size) } catch { throw TrackReadError(name, error.description) }
    return LoadedTrack(
      path: path, format: format, contents: try read(bytes, name: name, zoneOffsetSeconds: zoneOffsetSeconds))
  }

  static func format(of bytes: [UInt8], name: String) throws(TrackReadError) -> TrackFormat {
    guard let format = TrackFormat.sniff(head: Array(bytes.prefix(4_096))) else {
      throw TrackReadError(
        name, "not a track (none of \(TrackFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    return format
  }

  /// The contents of a track file's bytes; `zoneOffsetSeconds` is the zone of local times a
  /// file's own clock wrote (a DJI log's start in its name), when known.
  public static func read(_ bytes: [UInt8], name: String, zoneOffsetSeconds: Int? = nil) throws(TrackReadError)
    -> TrackContents
  {
    switch try format(of: bytes, name: name) {
    case .gpx, .kml, .tcx, .garminLogbook:
      return try XMLTrackReader.read(bytes, name: name)
    case .kmz:
      return try readKMZ(bytes, name: name)
    case .nmea:
      let log = try NMEAReader.read(bytes, name: name)
      return TrackContents(
        fixes: log.fixes,
        notes: log.badChecksums > 0 ? ["\(log.badChecksums) sentences with bad checksums skipped"] : [])
    case .igc:
      return TrackContents(fixes: try IGCReader.read(bytes, name: name))
    case .csv:
      return try CSVTrackReader.read(bytes, name: name, zoneOffsetSeconds: zoneOffsetSeconds)
    case .googleHistory:
      return try GoogleHistoryReader.read(bytes, name: name)
    case .geoJSON:
      return try GeoJSONTrackReader.read(bytes, name: name)
    }
  }

  /// A KMZ's main KML document, inflated and read; errors name the entry inside.
  static func readKMZ(_ bytes: [UInt8], name: String) throws(TrackReadError) -> TrackContents {
    let document: [UInt8]
    let entry: String
    do throws(DataDamage) {
      let archive = try ZipArchive(bytes)
      guard let main = archive.mainKML else { throw DataDamage("a ZIP archive with no KML inside") }
      document = try archive.contents(of: main)
      entry = main.name
    } catch {
      throw TrackReadError(name, error.description)
    }
    return try XMLTrackReader.read(document, name: "\(name)/\(entry)")
  }
}
