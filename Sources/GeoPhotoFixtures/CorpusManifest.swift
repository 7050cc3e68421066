import Foundation

/// The corpora's GPS manifest (`../shared/corpora/README.md`, section 3): every media or sidecar
/// file with a GPS latitude/longitude, as exiftool read it. Tests use it as the oracle for what
/// a file says; a file the manifest does not list has no position by exiftool's reading.
public struct CorpusManifest: Sendable {
  /// One row: the path below the corpora folder and exiftool's signed decimal degrees (nil
  /// where exiftool found the tags empty).
  public struct Row: Sendable {
    public var path: String
    public var latitude: Double?
    public var longitude: Double?
    /// The manifest's reader column: J (JPEG), H (HEIF), T (TIFF/DNG/WebP), X (XMP), V (Exiv2's `.exv`).
    public var reader: String
  }

  public var rows: [String: Row]

  /// The manifest beside the project, or nil when the corpora are not there.
  public static let beside: CorpusManifest? = {
    let readme = FormatSamples.corpora.appendingPathComponent("README.md")
    guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return nil }
    return CorpusManifest(markdown: text)
  }()

  /// Parses the manifest table: the rows after the `## 3.` heading whose first cell is a path.
  public init(markdown: String) {
    var rows: [String: Row] = [:]
    var inManifest = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("## ") { inManifest = line.hasPrefix("## 3.") }
      guard inManifest, line.hasPrefix("| ") else { continue }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 6, cells[0].contains("/"), !cells[0].contains(" ") else { continue }
      rows[cells[0]] = Row(path: cells[0], latitude: Double(cells[1]), longitude: Double(cells[2]), reader: cells[5])
    }
    self.rows = rows
  }

  /// exiftool's position for the file at `path` (below the corpora folder), nil when it reads none.
  public func position(of path: String) -> (latitude: Double, longitude: Double)? {
    guard let row = rows[path], let latitude = row.latitude, let longitude = row.longitude else { return nil }
    return (latitude, longitude)
  }
}
