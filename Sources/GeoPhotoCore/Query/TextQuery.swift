/// Words to find in a photo's text (`--text`, `text=`): every word must match (AND), a word
/// matches the start of a word (`temp` finds `temple`), `"quoted phrases"` match as
/// consecutive words (the last one may be the start of a word), case and diacritics are
/// ignored (`kyoto` finds `Kyōto`), and words in scripts written without spaces match
/// anywhere (`浅草` finds `浅草寺の朝`).
///
/// Each term becomes a needle over `SearchText`'s folded text: ` temp` (a space, then the
/// word) for a word, `浅 草` (the characters, spaced as the text keeps them) for an unspaced
/// script. A photo matches when its document contains every needle — the one test behind
/// every store's index and the brute force.
public struct TextQuery: Hashable, Sendable, CustomStringConvertible {
  /// The folded needles, in the order written, without repeats.
  public let needles: [String]
  /// The text as given.
  public let description: String
  /// A search for each needle, in the same order.
  public let searches: [NeedleSearch]

  /// Reads `text`; fails when it holds no letters or digits to search for.
  public init(_ text: String) throws(InputParser.Failure) {
    var needles: [String] = []
    for term in Self.terms(text) {
      let words = SearchText.words(term)
      guard let first = words.first?.unicodeScalars.first else { continue }
      let needle = (SearchText.isUnspaced(first) ? "" : " ") + words.joined(separator: " ")
      if !needles.contains(needle) { needles.append(needle) }
    }
    guard !needles.isEmpty else {
      throw InputParser.Failure("no words to search for; expected letters or digits, such as temple")
    }
    guard needles.count <= Self.maximumTerms else {
      throw InputParser.Failure("\(needles.count) words and phrases; search for at most \(Self.maximumTerms)")
    }
    self.needles = needles
    self.description = text.trimmingSpaces
    searches = needles.map { needle in
      var needle = needle
      return needle.withUTF8 { NeedleSearch($0) }
    }
  }

  /// The most words and phrases one query may hold (each is a condition of its own).
  public static let maximumTerms = 32

  public static func == (a: TextQuery, b: TextQuery) -> Bool { a.needles == b.needles }
  public func hash(into hasher: inout Hasher) { hasher.combine(needles) }

  /// The words and quoted phrases of `text`; an unclosed quote runs to the end.
  static func terms(_ text: String) -> [String] {
    var terms: [String] = []
    var current = ""
    var quoted = false
    for c in text {
      if c == "\"" || c == "“" || c == "”" {
        if !current.isEmpty { terms.append(current) }
        current = ""
        quoted.toggle()
      } else if !quoted && c.isWhitespace {
        if !current.isEmpty { terms.append(current) }
        current = ""
      } else {
        current.append(c)
      }
    }
    if !current.isEmpty { terms.append(current) }
    return terms
  }

  /// The needles as FTS5 phrases over the words of `SearchText`, the last word a prefix
  /// (`"golden pav" *`), joined by AND: every photo that matches matches them (a phrase may
  /// also run across two fields, so they are a superset to check with the needles).
  public var wordPhrases: String {
    needles.map { needle in
      "\"" + needle.split(separator: " ").joined(separator: " ") + "\" *"
    }.joined(separator: " AND ")
  }

  /// Whether a document of `SearchText` holds every needle.
  public func matches(document: String) -> Bool {
    var document = document
    return document.withUTF8 { bytes in searches.allSatisfy { $0.occurs(in: bytes) } }
  }
}

/// A search for one needle's bytes (Boyer–Moore–Horspool: needles start with a space, which
/// every word has, so the scan keys on the needle's last byte and skips by the table).
public struct NeedleSearch: Sendable {
  let needle: [UInt8]
  var skip: [Int]

  public init(_ needle: UnsafeBufferPointer<UInt8>) {
    self.needle = Array(needle)
    let n = needle.count
    skip = [Int](repeating: max(n, 1), count: 256)
    for j in 0..<max(n - 1, 0) { skip[Int(needle[j])] = n - 1 - j }
  }

  /// Whether the needle occurs in `haystack`.
  public func occurs(in haystack: UnsafeBufferPointer<UInt8>) -> Bool { firstOffset(in: haystack, from: 0) != nil }

  /// Where the needle first occurs in `haystack` at or after `start`.
  public func firstOffset(in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    let n = needle.count
    guard n > 0 else { return start }
    guard haystack.count - start >= n, let base = haystack.baseAddress else { return nil }
    return needle.withUnsafeBufferPointer { key in
      skip.withUnsafeBufferPointer { skip in
        let lastByte = key[n - 1]
        var i = start
        let end = haystack.count - n
        while i <= end {
          let b = base[i + n - 1]
          if b == lastByte {
            var j = 0
            while j < n - 1 && base[i + j] == key[j] { j += 1 }
            if j == n - 1 { return i }
          }
          i += skip[Int(b)]
        }
        return nil
      }
    }
  }
}
