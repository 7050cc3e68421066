/// Plain text from HTML fragments (the ones photo providers put in titles and credits, map
/// archives in their attribution), and text made safe to put into HTML.
public enum HTMLText {
  public static func plain(_ html: String) -> String {
    var text = ""
    var inTag = false
    for ch in html {
      if ch == "<" {
        inTag = true
      } else if ch == ">" && inTag {
        inTag = false
        text += " "
      } else if !inTag {
        text.append(ch)
      }
    }
    return collapse(decodeEntities(text))
  }

  public static func decodeEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    var rest = Substring(text)
    while let amp = rest.firstIndex(of: "&") {
      out += rest[..<amp]
      let after = rest[amp...]
      guard let semi = after.prefix(12).firstIndex(of: ";") else {
        out += "&"
        rest = rest[rest.index(after: amp)...]
        continue
      }
      let name = String(after[after.index(after: after.startIndex)..<semi])
      let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "copy": "©"]
      if let value = named[name] {
        out += value
      } else if name.hasPrefix("#x") || name.hasPrefix("#X"), let code = UInt32(name.dropFirst(2), radix: 16),
        let scalar = Unicode.Scalar(code)
      {
        out.unicodeScalars.append(scalar)
      } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(code) {
        out.unicodeScalars.append(scalar)
      } else {
        out += after[...semi]
      }
      rest = rest[rest.index(after: semi)...]
    }
    return out + rest
  }

  public static func collapse(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// `text` with `&`, `<`, `>` and quotes as entities.
  public static func escaped(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(c)
      }
    }
    return out
  }
}
