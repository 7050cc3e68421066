import Foundation

/// The configuration file's syntax: one `key = value` per line, blank lines ignored.
///
/// `#` starts a comment at the start of a line or after whitespace, so a token or URL that
/// holds one (`https://example.org/#map`, `abc#123`) is read whole. A value may be quoted,
/// `"…"` or `'…'`, to keep leading or trailing spaces or a ` #`; inside double quotes `\"`
/// and `\\` stand for `"` and `\`.
enum ConfigurationFile {
  struct Entry: Equatable {
    var line: Int
    var key: String
    var value: String
  }

  /// A line that is not `key = value`; the caller adds the file name.
  struct SyntaxError: Error, Equatable, CustomStringConvertible {
    var line: Int
    var message: String
    var description: String { "\(line): \(message)" }
  }

  /// The warning a file holding `secrets` deserves when its group or others may read it (as
  /// ssh warns of a private key), nil when only its owner may.
  static func exposure(of path: String, holding secrets: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return exposure(of: status, path: path, holding: secrets)
  }

  static func exposure(of status: stat, path: String, holding secrets: String) -> String? {
    guard status.st_mode & 0o044 != 0 else { return nil }
    let mode = String(status.st_mode & 0o777, radix: 8)
    return "\(path) holds \(secrets) and can be read by others (mode \(mode)); run 'chmod 600 \(path)'"
  }

  static func read(_ path: String) throws -> [Entry] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RuntimeError("cannot read configuration file \(path)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw RuntimeError("\(path) is not UTF-8 text")
    }
    do {
      return try parse(text)
    } catch {
      throw RuntimeError("\(path):\(error.description)")
    }
  }

  static func parse(_ text: String) throws(SyntaxError) -> [Entry] {
    var entries: [Entry] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if let entry = try parseLine(raw, number: index + 1) { entries.append(entry) }
    }
    return entries
  }

  /// One line: nil for a blank or comment line.
  static func parseLine(_ raw: Substring, number: Int) throws(SyntaxError) -> Entry? {
    let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
    let content = withoutComment(line).trimmingCharacters(in: .whitespaces)
    if content.isEmpty { return nil }
    guard let eq = content.firstIndex(of: "=") else {
      throw SyntaxError(line: number, message: "expected 'key = value', found '\(content)'")
    }
    let key = content[..<eq].trimmingCharacters(in: .whitespaces)
    guard !key.isEmpty else { throw SyntaxError(line: number, message: "a setting needs a key before '='") }
    let value = try unquoted(content[content.index(after: eq)...].trimmingCharacters(in: .whitespaces), line: number)
    return Entry(line: number, key: key, value: value)
  }

  /// The line up to a `#` that starts a comment: at the start or after whitespace, and not
  /// inside quotes.
  static func withoutComment(_ line: Substring) -> Substring {
    var quote: Character?
    var escaped = false
    var previous: Character?
    for i in line.indices {
      let c = line[i]
      defer { previous = c }
      if let open = quote {
        if escaped {
          escaped = false
        } else if c == "\\" && open == "\"" {
          escaped = true
        } else if c == open {
          quote = nil
        }
        continue
      }
      if c == "#" && (previous?.isWhitespace ?? true) { return line[..<i] }
      // A quote opens a quoted value only where a value starts (after '=' and spaces).
      if (c == "\"" || c == "'") && isValueStart(line[..<i]) { quote = c }
    }
    return line
  }

  private static func isValueStart(_ before: Substring) -> Bool {
    before.trimmingCharacters(in: .whitespaces).hasSuffix("=")
  }

  static func unquoted(_ value: String, line: Int) throws(SyntaxError) -> String {
    guard let open = value.first, open == "\"" || open == "'" else { return value }
    var result = ""
    var escaped = false
    var rest = value.dropFirst()
    while let c = rest.first {
      rest = rest.dropFirst()
      if escaped {
        guard c == "\"" || c == "\\" else {
          throw SyntaxError(line: line, message: "unknown escape '\\\(c)' in a quoted value (use \\\" or \\\\)")
        }
        result.append(c)
        escaped = false
      } else if c == "\\" && open == "\"" {
        escaped = true
      } else if c == open {
        guard rest.allSatisfy(\.isWhitespace) else {
          let extra = rest.trimmingCharacters(in: .whitespaces)
          throw SyntaxError(line: line, message: "unexpected '\(extra)' after the quoted value")
        }
        return result
      } else {
        result.append(c)
      }
    }
    throw SyntaxError(line: line, message: "the quoted value has no closing \(open)")
  }
}
