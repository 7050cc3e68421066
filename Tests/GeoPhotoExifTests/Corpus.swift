import Foundation
import GeoPhotoExif

/// The shared test corpora (`../shared/corpora` beside the project); tests that need them are
/// skipped with a message when the folder is absent.
enum Corpus {
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/corpora")

  static var isAvailable: Bool { FileManager.default.fileExists(atPath: root.path) }

  static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

  /// Reads the whole file and runs the same metadata reader the sync uses.
  static func metadata(_ relative: String) throws -> MetadataReader.Outcome {
    let bytes = try Data(contentsOf: url(relative))
    return metadata(bytes: [UInt8](bytes))
  }

  static func metadata(bytes: [UInt8]) -> MetadataReader.Outcome {
    bytes.withUnsafeBytes { MetadataReader.jpeg($0, fileSize: bytes.count) }
  }
}
