/// Text from outside (a request's path, query and headers, a file's name, a box type read from
/// a file) made safe for one line of a log or a warning: control characters cannot end the
/// line, start a forged one or drive the terminal.
public enum LogText {
  /// `text` with C0 controls (CR, LF, ESC, …), DEL and C1 controls written as escapes (`\r`,
  /// `\n`, `\t`, `\x1B`, `\u{9B}`) and backslashes doubled, so an escape in the log always
  /// means a control character was there.
  public static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += "\\x" + hex(scalar.value, digits: 2)
      case _ where (0x80...0x9F).contains(scalar.value):
        out += "\\u{" + hex(scalar.value, digits: 2) + "}"
      default:
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Bytes from a file shown as text (a box type, a chunk name): Latin-1, escaped.
  public static func escaped(bytes: some Sequence<UInt8>) -> String {
    escaped(String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })))
  }

  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar == "\\" || (0x7F...0x9F).contains(scalar.value)
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
