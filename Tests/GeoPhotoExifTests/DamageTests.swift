import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import Testing

@testable import GeoPhotoExif

/// Damage warnings against exiftool's judgement of the same files: a file exiftool reads
/// without a warning or an error is not called damaged by geophoto (no false alarms over
/// hundreds of real camera files), and the malformed ones it names are damaged for exiftool too.
@Suite(.enabled(if: Corpus.isAvailable, "the shared corpora are not there"))
struct DamageTests {
  static let exiftool = "/usr/bin/exiftool"

  /// What the reader the sync uses says is wrong with a file, nil for nothing.
  static func damage(_ url: URL) throws -> String? {
    let bytes = [UInt8](try Data(contentsOf: url))
    guard let format = PhotoFormat(signature: Array(bytes.prefix(PhotoFormat.signatureLength))) else { return nil }
    let outcome = bytes.withUnsafeBytes { MetadataReader.read(head: $0, file: MemoryBytes(bytes), format: format) }
    switch outcome {
    case .metadata(let m): return m.damage?.description
    case .failed(let error): return error.description
    case .needBytes: return nil
    }
  }

  /// exiftool's warning or error for each file of `folders`, by path ("" for none).
  static func exiftoolVerdicts(_ folders: [String]) throws -> [String: String] {
    let run = try ToolRun(exiftool, ["-j", "-q", "-r", "-Warning", "-Error"] + folders.map { Corpus.url($0).path })
    let entries = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
    var verdicts: [String: String] = [:]
    for entry in entries {
      guard let path = entry["SourceFile"] as? String else { continue }
      verdicts[path] = (entry["Error"] ?? entry["Warning"]) as? String ?? ""
    }
    return verdicts
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: exiftool), "exiftool is not installed"))
  func filesExiftoolReadsCleanlyAreNotDamaged() throws {
    let verdicts = try Self.exiftoolVerdicts([
      "exif-samples", "exiftool-images", "exiv2-samples", "photoprism-testdata",
    ])
    var checked = 0
    for (path, verdict) in verdicts where verdict.isEmpty {
      let url = URL(fileURLWithPath: path)
      guard PhotoFormat(fileName: Substring(url.lastPathComponent)) != nil else { continue }
      checked += 1
      #expect(try Self.damage(url) == nil, "\(url.lastPathComponent): exiftool reads it cleanly")
    }
    #expect(checked > 150)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: exiftool), "exiftool is not installed"))
  func malformedFilesGeophotoCallsDamagedExiftoolDoesToo() throws {
    let verdicts = try Self.exiftoolVerdicts(["exiv2-malformed"])
    var damaged = 0
    for (path, verdict) in verdicts {
      let url = URL(fileURLWithPath: path)
      guard try Self.damage(url) != nil else { continue }
      damaged += 1
      // exiftool reads two WebPs whose chunk sizes run past the end without a word.
      if ["issue_1841_poc.webp", "issue_960.poc.webp"].contains(url.lastPathComponent) { continue }
      #expect(!verdict.isEmpty, "\(url.lastPathComponent): damaged for geophoto, clean for exiftool")
    }
    #expect(damaged > 20)
  }
}
