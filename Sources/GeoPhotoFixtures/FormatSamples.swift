public import Foundation

/// One located sample of every format and layout geophoto reads, made by
/// `Scripts/make-format-samples.sh` from the corpora's camera samples and Debian's tools
/// (exiftool, ffmpeg, heif-enc, cjxl) into a scratch folder. Never committed.
public enum FormatSamples {
  /// The position, altitude and capture time written into every sample.
  public static let latitude = -33.8567844
  public static let longitude = -70.6693
  public static let altitude = -12.25

  static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let script = checkout.appendingPathComponent("Scripts/make-format-samples.sh")
  public static let corpora = checkout.deletingLastPathComponent().appendingPathComponent("shared/corpora")

  /// Why the samples cannot be made here (a tool or the corpora missing), or `nil`.
  public static var unavailable: String? {
    if !FileManager.default.fileExists(atPath: corpora.path) { return "the corpora are missing (\(corpora.path))" }
    for tool in ["exiftool", "ffmpeg", "heif-enc", "cjxl"]
    where !["/usr/bin/", "/usr/local/bin/"].contains(where: { FileManager.default.isExecutableFile(atPath: $0 + tool) })
    {
      return "\(tool) is missing (Scripts/install-deps.sh test)"
    }
    return nil
  }

  /// Makes the samples in a new folder under `parent` and returns it.
  public static func make(in parent: URL) throws -> URL {
    let folder = parent.appendingPathComponent("samples-\(UUID().uuidString)")
    let run = try ToolRun("/bin/bash", [script.path, folder.path, corpora.path])
    guard run.status == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "make-format-samples: \(run.stderr)"])
    }
    return folder
  }
}
