import GeoPhotoCore
import GeoPhotoExif
import GeoPhotoStore

/// Which files of a folder are one shot, and what each is to it.
///
/// - The same name in the same folder, whatever the extensions: `IMG_0001.CR2` +
///   `IMG_0001.JPG`, `IMG_0001.HEIC` + `IMG_0001.MOV` (names compare without case).
/// - Pixel's RAW pairs: `PXL_….RAW-01.COVER.jpg` + `PXL_….RAW-02.ORIGINAL.dng` (and
///   `….RAW-01.MP.COVER.jpg`): the part from `.RAW-nn` on is not part of the name.
/// - Apple Live Photos by their content identifier, even when the names differ: a still
///   (MakerNote media group UUID) and a video (`com.apple.quicktime.content.identifier`) in
///   the same folder with the same identifier. Only within a folder: identifiers alone have
///   linked unrelated files across libraries.
///
/// Files that share a name but were not taken together are not one shot: files whose own
/// positions are more than `sameShotDistance` apart, or whose capture times differ by more
/// than `sameShotSeconds`, are separate photos (`splitting`); a file without a position, or
/// without a time, splits nothing by it.
///
/// The photo's metadata comes from its best file: the one with a position, then a still
/// over a video, then a developed image (JPEG, HEIC) over a RAW, then a file that could be
/// read, then the first name.
enum ShotGrouping {
  /// The farthest apart, in metres, two files of one shot were taken (a GPS fix wanders
  /// tens of metres between a photo and its video).
  static let sameShotDistance = 1_000.0
  /// The most seconds apart two files of one shot were taken (a Live Photo's video starts
  /// before its still).
  static let sameShotSeconds = 60

  /// The name files of one shot share: lower case, without the extension and without a
  /// Pixel `.RAW-nn…` part.
  static func key(forFileName name: String) -> String {
    var stem = Array(name.lowercased().utf8)
    if let dot = stem.lastIndex(of: UInt8(ascii: ".")), dot != 0 { stem.removeSubrange(dot...) }
    // The last ".raw-" followed by two digits and the end or a dot.
    let marker = Array(".raw-".utf8)
    var i = stem.count - marker.count - 2
    while i >= 0 {
      if stem[i] == marker[0], stem[i..<(i + marker.count)].elementsEqual(marker) {
        let d = i + marker.count
        let digits = stem[d] >= 0x30 && stem[d] <= 0x39 && stem[d + 1] >= 0x30 && stem[d + 1] <= 0x39
        if digits && (d + 2 == stem.count || stem[d + 2] == UInt8(ascii: ".")) { stem.removeSubrange(i...) }
        break
      }
      i -= 1
    }
    return String(decoding: stem, as: UTF8.self)
  }

  /// The folder of a path (everything before the last `/`).
  static func folder(of path: String) -> Substring {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return path[..<slash]
  }

  /// Files grouped by folder and `key`, folder by folder (a plain sort by path would
  /// interleave `a/b.jpg`, `a/b/c.jpg`, `a/c.jpg`), each group's files by path.
  static func groups(_ files: [FoundFile]) -> [[FoundFile]] {
    let keyed = files.map { file -> (folder: Substring, key: String, file: FoundFile) in
      let folder = folder(of: file.path)
      let name = file.path[file.path.index(folder.endIndex, offsetBy: folder.endIndex < file.path.endIndex ? 1 : 0)...]
      return (folder, key(forFileName: String(name)), file)
    }.sorted { a, b in a.folder != b.folder ? a.folder < b.folder : a.file.path < b.file.path }
    var groups: [[FoundFile]] = []
    var byKey: [String: Int] = [:]
    var current: Substring?
    for entry in keyed {
      if entry.folder != current {
        current = entry.folder
        byKey.removeAll(keepingCapacity: true)
      }
      if let i = byKey[entry.key] {
        groups[i].append(entry.file)
      } else {
        byKey[entry.key] = groups.count
        groups.append([entry.file])
      }
    }
    return groups
  }

  /// `shot` as the photos it is, once its files are read (`records`): the best file's photo
  /// first, then each other file, in path order, joins the first photo with whose every file
  /// it agrees (`takenTogether`), or makes one of its own.
  static func splitting(_ shot: [FoundFile], records: [PhotoRecord]) -> [[FoundFile]] {
    guard shot.count > 1 else { return [shot] }
    let best = best(records)
    var photos: [[Int]] = [[best]]
    for i in shot.indices where i != best {
      if let k = photos.firstIndex(where: { $0.allSatisfy { takenTogether(records[$0], records[i]) } }) {
        photos[k].append(i)
      } else {
        photos.append([i])
      }
    }
    return photos.map { members in members.sorted().map { shot[$0] } }
  }

  /// Whether two files may be one shot: positions at most `sameShotDistance` apart and times
  /// at most `sameShotSeconds` apart (as instants when both have one, else as the clocks
  /// read); what a file lacks agrees with anything.
  static func takenTogether(_ a: PhotoRecord, _ b: PhotoRecord) -> Bool {
    if let p = a.photo.coordinate, let q = b.photo.coordinate, GreatCircle.distance(p, q) > sameShotDistance {
      return false
    }
    if let s = a.photo.takenAt, let t = b.photo.takenAt {
      let apart =
        if let i = s.instant, let j = t.instant { abs(i - j) } else {
          abs(s.localSecondsSinceEpoch - t.localSecondsSinceEpoch)
        }
      if apart > sameShotSeconds { return false }
    }
    return true
  }

  /// What kind of file a path names, by its extension.
  static func isVideo(_ path: String) -> Bool { PhotoFormat(fileName: Substring(path))?.isVideo == true }

  static func isRaw(_ path: String) -> Bool {
    switch PhotoFormat(fileName: Substring(path)) {
    case .raw, .cr3, .raf, .mrw: return true
    case .tiff: return path.lowercased().hasSuffix(".dng")
    default: return false
    }
  }

  /// Joins groups of one folder whose still and video carry the same Live Photo identifier.
  /// `identifier` gives a file's identifier (read now, or as the index knows it).
  static func joiningLivePhotos(_ groups: [[FoundFile]], identifier: (FoundFile) -> String?) -> [[FoundFile]] {
    var stills: [String: Int] = [:]
    for (i, group) in groups.enumerated() {
      for file in group where !isVideo(file.path) {
        guard let id = identifier(file) else { continue }
        let key = String(folder(of: file.path)) + "/" + id
        stills[key] = stills[key] ?? i
      }
    }
    guard !stills.isEmpty else { return groups }
    var target = Array(groups.indices)
    for (i, group) in groups.enumerated() {
      for file in group where isVideo(file.path) {
        guard let id = identifier(file), let still = stills[String(folder(of: file.path)) + "/" + id], still != i
        else { continue }
        target[i] = target[still]
        break
      }
    }
    var joined: [Int: [FoundFile]] = [:]
    for (i, group) in groups.enumerated() { joined[target[i], default: []] += group }
    return joined.keys.sorted().map { (joined[$0] ?? []).sorted { $0.path < $1.path } }
  }

  /// The index of the best record (see the type's rules).
  static func best(_ records: [PhotoRecord]) -> Int {
    func rank(_ r: PhotoRecord) -> (Int, Int, Int, Int) {
      let path = r.photo.sourceID
      return (
        r.photo.coordinate == nil ? 1 : 0, r.photo.mediaType == .video ? 1 : 0, isRaw(path) ? 1 : 0,
        r.problem == nil ? 0 : 1
      )
    }
    return records.indices.min { a, b in
      let (ra, rb) = (rank(records[a]), rank(records[b]))
      return ra != rb ? ra < rb : records[a].photo.sourceID < records[b].photo.sourceID
    } ?? 0
  }

  /// What a file other than the primary one is to its shot.
  static func role(of path: String, primaryIsVideo: Bool) -> FileRole {
    if isRaw(path) { return .raw }
    if isVideo(path) && !primaryIsVideo { return .liveVideo }
    return .alternate
  }
}
