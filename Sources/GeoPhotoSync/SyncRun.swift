import GeoPhotoCore
import GeoPhotoStore

/// One sync's view of disk and index: which photo each known file belongs to, what was read,
/// and which photo each changed shot becomes.
///
/// A shot's photo keeps its id whenever it can: the photo whose primary file is the shot's
/// best file, else one whose primary file is in the shot, else one any of its files belonged
/// to; a shot whose files are all new takes the id of a missing file with the same content
/// (a move or rename). Photos whose files all went to another shot are merged away, and
/// photos with no file left are removed.
struct SyncRun {
  var knownByPath: [String: KnownFile] = [:]
  /// How many files (primary and others, no sidecars) each known photo has.
  var fileCount: [Int64: Int] = [:]
  var primaryOf: [Int64: String] = [:]
  /// Known files not found on disk (outside unreadable folders).
  var missing: [String: KnownFile] = [:]
  var missingByHash: [String: [KnownFile]] = [:]
  /// The walked files as shots, folder by folder.
  var shots: [[FoundFile]] = []
  /// What this sync read, by path.
  var records: [String: PhotoRecord] = [:]
  /// Photos that keep a shot (or sit in a folder that could not be read).
  var claimed = Set<Int64>()
  var deleted = Set<Int64>()

  /// A changed shot's photo: the best file's record, the other files, and the id it keeps
  /// (`nil` for a new photo).
  struct Decision {
    var record: PhotoRecord
    var members: [MemberFile]
    var id: Int64?
    var moved = false
    /// Photos other than `id` that had files of this shot.
    var others: [Int64]
  }

  mutating func know(_ known: [KnownFile], walked: [FoundFile], unreadable: [String]) {
    for k in known {
      knownByPath[k.path] = k
      fileCount[k.id, default: 0] += 1
      if k.role == .primary { primaryOf[k.id] = k.path }
    }
    let found = Set(walked.map(\.path))
    for k in known where !found.contains(k.path) {
      if unreadable.contains(where: { k.path == $0 || k.path.hasPrefix($0 + "/") }) {
        claimed.insert(k.id)  // what an unreadable folder holds is not deleted
      } else {
        missing[k.path] = k
      }
    }
    missingByHash = [:]
    for k in missing.values.sorted(by: { $0.path < $1.path }) {
      missingByHash[k.state.contentHash, default: []].append(k)
    }
  }

  /// Same path, size and modification time as the index knows: not read again.
  func isUnchanged(_ f: FoundFile) -> Bool {
    guard let k = knownByPath[f.path] else { return false }
    return k.state.size == f.size && k.state.changedNanoseconds == f.changeNanoseconds
  }

  /// A file's Live Photo identifier, as read now or as the index knows it.
  func contentID(of f: FoundFile) -> String? {
    records[f.path].map { $0.file?.contentID } ?? knownByPath[f.path]?.state.contentID
  }

  /// Whether a shot holds a still or a video with a Live Photo identifier and not its other
  /// half: the half may be elsewhere in the folder, under another name.
  func awaitsLivePartner(_ shot: [FoundFile]) -> Bool {
    guard shot.contains(where: { contentID(of: $0) != nil }) else { return false }
    let videos = shot.filter { ShotGrouping.isVideo($0.path) }
    let stills = shot.filter { !ShotGrouping.isVideo($0.path) }
    if videos.isEmpty { return stills.contains { contentID(of: $0) != nil } }
    if stills.isEmpty { return videos.contains { contentID(of: $0) != nil } }
    return false
  }

  /// The photos a shot already is, when nothing about it changed: every file unchanged, and
  /// its files are all the files of one photo, or of several (files of one name that were
  /// not taken together, `ShotGrouping.splitting`): each photo has no other file (paths are
  /// unique, so equal counts mean the same files).
  func unchangedPhotos(_ shot: [FoundFile]) -> [Int64]? {
    var files: [Int64: Int] = [:]
    for file in shot {
      guard let k = knownByPath[file.path], k.state.size == file.size,
        k.state.changedNanoseconds == file.changeNanoseconds, !deleted.contains(k.id)
      else { return nil }
      files[k.id, default: 0] += 1
    }
    guard files.allSatisfy({ fileCount[$0.key] == $0.value }) else { return nil }
    return files.keys.sorted()
  }

  /// Decides the photo of each changed shot (all its files read): shots holding a photo's
  /// primary file first, then shots with files the index knows, so a split pair's known half
  /// keeps the id (the half with the primary file, when both are known) and the renamed half
  /// is new.
  mutating func decide(_ changed: [[FoundFile]]) -> [Decision] {
    func rank(_ shot: [FoundFile]) -> Int {
      let known = shot.compactMap { knownByPath[$0.path] }
      return known.contains { $0.role == .primary } ? 0 : known.isEmpty ? 2 : 1
    }
    let ordered = (0...2).flatMap { r in changed.filter { rank($0) == r } }
    return ordered.map { decide($0) }
  }

  /// What was read of `file` (a record of its path alone when it could not be read).
  func record(of file: FoundFile) -> PhotoRecord {
    records[file.path] ?? PhotoRecord(photo: Photo(id: 0, source: .local, sourceID: file.path, title: ""))
  }

  private mutating func decide(_ shot: [FoundFile]) -> Decision {
    let recs = shot.map(record(of:))
    let best = ShotGrouping.best(recs)
    let primaryIsVideo = recs[best].photo.mediaType == .video
    var members: [MemberFile] = []
    for (i, file) in shot.enumerated() {
      if i != best, let state = recs[i].file {
        members.append(
          MemberFile(
            path: file.path, role: ShotGrouping.role(of: file.path, primaryIsVideo: primaryIsVideo), state: state))
      }
      for sidecar in [file.sidecar, file.takeoutSidecar].compactMap({ $0 }) {
        members.append(
          MemberFile(path: sidecar, role: .sidecar, state: FileState(size: 0, changedNanoseconds: 0, contentHash: "")))
      }
    }
    // Ids this shot could keep, best first.
    let known = shot.compactMap { knownByPath[$0.path] }
    var candidates: [Int64] = []
    if let k = knownByPath[shot[best].path], k.role == .primary { candidates.append(k.id) }
    candidates += known.filter { $0.role == .primary }.map(\.id).sorted()
    candidates += known.map(\.id).sorted()
    var id = candidates.first { !claimed.contains($0) && !deleted.contains($0) }
    var moved = false
    if candidates.isEmpty {
      // Every file is new here: a shot that moved keeps its photo's id.
      for i in [best] + shot.indices.filter({ $0 != best }) {
        guard let state = recs[i].file, !state.contentHash.isEmpty, var list = missingByHash[state.contentHash],
          let j = list.firstIndex(where: { $0.state.size == state.size && !claimed.contains($0.id) })
        else { continue }
        let origin = list.remove(at: j)
        missingByHash[state.contentHash] = list
        missing[origin.path] = nil
        id = origin.id
        moved = true
        break
      }
    }
    if let id { claimed.insert(id) }
    let others = Set(candidates).subtracting(id.map { [$0] } ?? []).sorted()
    return Decision(record: recs[best], members: members, id: id, moved: moved, others: others)
  }

  /// Photos that had files of the decided shots but kept none: merged into another photo.
  /// They are deleted before the batch is written, so their paths are free.
  mutating func absorbed(by decisions: [Decision]) -> [Int64] {
    let gone = Set(decisions.flatMap(\.others)).subtracting(claimed).subtracting(deleted).sorted()
    deleted.formUnion(gone)
    return gone
  }

  /// Photos the index knew under the synced roots that no shot kept: their files are gone.
  mutating func unclaimed() -> [Int64] {
    let gone = Set(fileCount.keys).subtracting(claimed).subtracting(deleted).sorted()
    deleted.formUnion(gone)
    return gone
  }
}
