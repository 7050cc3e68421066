import Foundation
import GeoPhotoCore

/// Lines added to and taken out of the configuration file by the commands that record a
/// setting (`basemap add`): every other line, comment and blank kept as it was, the file
/// replaced atomically with its permissions, made (with its folder) when there is none.
enum ConfigurationEditor {
  /// Adds `key = value` at the end of the file.
  static func append(key: String, value: String, to path: String) throws {
    var text = try current(path)
    if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
    text += "\(key) = \(quoted(value))\n"
    try write(text, to: path)
  }

  /// Removes the `key` lines whose value `matches`; how many were removed.
  static func remove(key: String, where matches: (String) -> Bool, from path: String) throws -> Int {
    guard FileManager.default.fileExists(atPath: path) else { return 0 }
    let text = try current(path)
    var removed = 0
    var kept: [Substring] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let entry: ConfigurationFile.Entry?
      do {
        entry = try ConfigurationFile.parseLine(line, number: index + 1)
      } catch {
        throw RuntimeError("\(path):\(error.description)")
      }
      if let entry, entry.key == key, matches(entry.value) {
        removed += 1
      } else {
        kept.append(line)
      }
    }
    if removed > 0 { try write(kept.joined(separator: "\n"), to: path) }
    return removed
  }

  private static func current(_ path: String) throws -> String {
    guard FileManager.default.fileExists(atPath: path) else { return "" }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RuntimeError("cannot read configuration file \(path)")
    }
    guard let text = String(data: data, encoding: .utf8) else { throw RuntimeError("\(path) is not UTF-8 text") }
    return text
  }

  /// A value as the file reads it back: quoted when it has a `#`, a quote or spaces at its ends.
  static func quoted(_ value: String) -> String {
    let plain =
      !value.contains("#") && !value.contains("\"") && !value.contains("'")
      && value.trimmingCharacters(in: .whitespaces) == value
    guard !plain else { return value }
    return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  private static func write(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    var status = stat()
    let existing = stat(path, &status) == 0
    do {
      let file = try AtomicFile(writingTo: url)
      try Array(text.utf8).withUnsafeBytes { try file.write($0) }
      // A new file is the owner's alone: it may come to hold a token.
      try file.setPermissions(existing ? UInt32(status.st_mode) : 0o600)
      try file.commit()
    } catch {
      throw RuntimeError("cannot write configuration file \(path): \(error)")
    }
  }
}
