/// Which Google Takeout JSON sidecar belongs to a media file, by the names Google Photos gives
/// them (the rules immich-go's matchers follow):
///
/// - `IMG_1.JPG.json`, or in newer exports `IMG_1.JPG.supplemental-metadata.json`;
/// - the part before `.json` cut to 46 characters, wherever the cut falls
///   (`…_2019-05-0.json`, `IMG_1.JPG.supple.json`, `….supplemental-metadat.json`);
/// - a duplicate's index moved to just before `.json`: `IMG_1(1).JPG` ↔ `IMG_1.JPG(1).json`
///   (and `IMG_1.JPG.supplemental-metadata(1).json`);
/// - an edited copy without a sidecar of its own (`IMG_1-edited.JPG`, or in another language)
///   uses the original's.
///
/// Names compare without regard to case. Album `metadata.json` files never match a photo.
struct TakeoutNames {
  /// Google cuts the part of a sidecar's name before `.json` to this many characters.
  static let nameLimit = 46
  static let supplemental = "supplemental-metadata"
  /// Suffixes Google Photos gives edited copies, by export language.
  static let editedSuffixes = [
    "-edited", "-bearbeitet", "-modifié", "-editado", "-modificato", "-bewerkt", "-redigerad", "-muokattu",
    "-redigeret", "-redigert", "-edytowane", "-upraveno",
  ]

  struct Sidecar {
    var path: String
    var modified: Int64
  }

  /// Sidecars by the media name they are for and the duplicate index.
  private var exact: [Key: Sidecar] = [:]
  /// Sidecars whose name reached the cut, for prefix matching.
  private var cut: [(stem: String, index: Int, sidecar: Sidecar)] = []

  private struct Key: Hashable {
    var name: String
    var index: Int
  }

  var isEmpty: Bool { exact.isEmpty && cut.isEmpty }

  /// Indexes a folder's `.json` files (names as on disk).
  init(_ files: [(name: String, sidecar: Sidecar)]) {
    for (name, sidecar) in files {
      var stem = Substring(name.lowercased().dropLast(5))  // ".json"
      let index = Self.takeIndex(&stem)
      if stem.unicodeScalars.count == Self.nameLimit || stem.utf16.count == Self.nameLimit {
        cut.append((String(stem), index, sidecar))
      }
      // `NAME.supplemental-metadata` and its cuts name NAME.
      if let dot = stem.lastIndex(of: "."), dot != stem.startIndex {
        let tail = stem[stem.index(after: dot)...]
        if !tail.isEmpty, Self.supplemental.hasPrefix(tail) { stem = stem[..<dot] }
      }
      exact[Key(name: String(stem), index: index)] = exact[Key(name: String(stem), index: index)] ?? sidecar
    }
  }

  /// The sidecar for the media file `name`, if the folder holds one.
  func sidecar(for name: String) -> Sidecar? {
    guard !isEmpty else { return nil }
    let lower = name.lowercased()
    let (stem, ext) = Self.split(lower)
    var base = Substring(stem)
    let index = Self.takeIndex(&base)
    if let found = lookup(String(base) + ext, index: index) { return found }
    for suffix in Self.editedSuffixes where base.hasSuffix(suffix) {
      if let found = lookup(String(base.dropLast(suffix.count)) + ext, index: index) { return found }
    }
    return nil
  }

  private func lookup(_ media: String, index: Int) -> Sidecar? {
    if let found = exact[Key(name: media, index: index)] { return found }
    let full = Array((media + "." + Self.supplemental).unicodeScalars)
    for entry in cut where entry.index == index && full.starts(with: entry.stem.unicodeScalars) {
      return entry.sidecar
    }
    return nil
  }

  /// `IMG_1` and `.jpg` from `IMG_1.jpg` (an extensionless name keeps all as its stem).
  static func split(_ name: String) -> (String, String) {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
    return (String(name[..<dot]), String(name[dot...]))
  }

  /// Removes a trailing duplicate index `(n)` and returns n (0 without one).
  static func takeIndex(_ stem: inout Substring) -> Int {
    guard stem.last == ")", let open = stem.lastIndex(of: "(") else { return 0 }
    let digits = stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]
    guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII), let n = Int(digits), n > 0 else { return 0 }
    stem = stem[..<open]
    return n
  }
}
