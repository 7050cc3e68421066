import Foundation

/// Text as the index searches it: folded (lower case, no diacritics, compatibility forms
/// unified) and cut into words, each word written after one space, so that "a word starts
/// with `temp`" is "the text contains ` temp`" — a plain substring test that an FTS5 trigram
/// index, a `pg_trgm` index and a byte scan all answer the same way.
///
/// In scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar)
/// each character is a word, and a run of them is searched as consecutive characters, so
/// `浅草` finds `浅草寺の朝` (` 浅 草 寺 の 朝`) and `京都tower` is `京`, `都` and `tower`.
///
/// A photo's document is its fields (`SearchText.fields(of:)`), one per line, so a phrase
/// never spans two fields.
public enum SearchText {
  /// `text` folded and cut into words: ` kyoto temple` for `Kyōto — Temple!`, ` 浅 草 寺` for
  /// `浅草寺`; empty when it has no letters or digits.
  public static func field(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiField(text) }
    let words = self.words(text)
    return words.isEmpty ? "" : " " + words.joined(separator: " ")
  }

  /// `field` for ASCII text (`asciiWords`, each after a space), written in one pass: every
  /// photo written to the index has a few of these.
  static func asciiField(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 1)
    var inWord = false
    for byte in text.utf8 {
      let folded: UInt8
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): folded = byte + 32
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): folded = byte
      default:
        inWord = false
        continue
      }
      if !inWord { out.append(UInt8(ascii: " ")) }
      inWord = true
      out.append(folded)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Fields, each folded by `field(_:)`, one per line; empty fields are left out.
  public static func document(_ fields: [String?]) -> String {
    fields.compactMap { $0.map(field) }.filter { !$0.isEmpty }.joined(separator: "\n")
  }

  /// The words of `text`, folded.
  public static func words(_ text: String) -> [String] {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text) }
    var words: [String] = []
    var word = String.UnicodeScalarView()
    var wordIsUnspaced = false
    func finish() {
      if !word.isEmpty { words.append(String(word)) }
      word = String.UnicodeScalarView()
    }
    for scalar in fold(text).unicodeScalars {
      guard isWordScalar(scalar) else {
        finish()
        continue
      }
      let unspaced = isUnspaced(scalar)
      // A character of an unspaced script is a word of its own (so a word index finds any run
      // of them as a phrase); a mark continues the word it follows, whatever its script.
      if !word.isEmpty, unspaced || wordIsUnspaced, !isMark(scalar) { finish() }
      if word.isEmpty { wordIsUnspaced = unspaced }
      word.append(scalar)
    }
    finish()
    return words
  }

  /// `words` for ASCII text, which folds to itself in lower case: most titles and names.
  static func asciiWords(_ text: String) -> [String] {
    var words: [String] = []
    var word: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
      default:
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        word.removeAll(keepingCapacity: true)
      }
    }
    if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
    return words
  }

  /// Lower case, compatibility forms unified (full-width letters, ligatures), Latin, Greek and
  /// Cyrillic diacritics removed and a few letters that have no decomposition spelled plainly
  /// (`ø` as `o`, `ß` as `ss`); other marks (kana voicing, Indic vowel signs) are kept.
  public static func fold(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
      if isDiacritic(scalar) { continue }
      if let plain = plainLetters[scalar] {
        out.append(contentsOf: plain.unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out).precomposedStringWithCanonicalMapping
  }

  /// Whether `scalar` belongs to a script written without spaces between words.
  public static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0E00...0x0EFF,  // Thai, Lao
      0x1000...0x109F,  // Myanmar
      0x1780...0x17FF,  // Khmer
      0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035,  // CJK iteration marks and numerals
      0x3040...0x30FF, 0x31F0...0x31FF,  // Hiragana, Katakana
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,  // CJK ideographs
      0x20000...0x3FFFF:
      return true
    default:
      return false
    }
  }

  static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    let p = scalar.properties
    return p.isAlphabetic || p.numericType != nil || isMark(scalar)
  }

  static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// The combining marks removed by folding: the diacritics of alphabetic scripts.
  static func isDiacritic(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0300...0x036F, 0x0483...0x0489, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F:
      return true
    default:
      return false
    }
  }

  /// Letters without a canonical decomposition, as people type them on a plain keyboard.
  static let plainLetters: [Unicode.Scalar: String] = [
    "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ð": "d", "ł": "l", "ı": "i", "þ": "th", "ħ": "h",
    "ŧ": "t", "ŀ": "l", "ĸ": "k",
  ]
}

extension SearchText {
  /// The text fields of a photo that are searched, besides its place: title, description,
  /// keywords, camera make and model, the file name, and the provider's owner name for a
  /// remote photo.
  public static func photoText(of photo: Photo) -> String {
    var fields: [String?] = [photo.title, photo.description]
    fields += photo.keywords
    fields += [photo.cameraMake, photo.cameraModel]
    if photo.source == .local {
      fields.append(photo.path.map(lastComponent))
    } else {
      fields.append(photo.attribution)
    }
    return document(fields)
  }

  /// The last component of a path that has one (`IMG_1.JPG` of `/photos/IMG_1.JPG/`), else "".
  static func lastComponent(_ path: String) -> String {
    var end = path.endIndex
    while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
    let start = path[..<end].lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    return String(path[start..<end])
  }

  /// A place's searched text: its name, region and country.
  public static func placeText(of place: PlaceName?) -> String {
    guard let place else { return "" }
    return document([place.name, place.admin1, place.countryCode])
  }

  /// Everything searched in a photo: `photoText`, then `placeText`, one field per line.
  public static func document(of photo: Photo) -> String {
    let place = placeText(of: photo.place)
    let text = photoText(of: photo)
    return place.isEmpty ? text : text.isEmpty ? place : text + "\n" + place
  }
}
