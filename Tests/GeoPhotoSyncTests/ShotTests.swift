import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

@testable import GeoPhotoSync

/// One pin per shot: files of one shot are one photo with one id, whatever happens to them.
@Suite struct ShotTests {
  static let tokyo = Coordinate(latitude: 35.6812, longitude: 139.7671)
  static let kyoto = Coordinate(latitude: 34.9671, longitude: 135.7727)

  /// Every photo under the workspace: id → (primary path, its other files by name and role).
  static func shots(_ w: Workspace) throws -> [Int64: (primary: String, files: [String: FileRole])] {
    let known = try w.store.knownFiles(under: SyncEngine.canonicalRoot(w.root.path))
    let ids = Set(known.map(\.id))
    let members = try w.store.memberFiles(of: Array(ids))
    var result: [Int64: (String, [String: FileRole])] = [:]
    for id in ids {
      let photo = try #require(try w.store.photo(id: id))
      var files: [String: FileRole] = [:]
      for m in members[id] ?? [] { files[(m.path as NSString).lastPathComponent] = m.role }
      result[id] = (((photo.path ?? "") as NSString).lastPathComponent, files)
    }
    return result
  }

  func jpeg(_ w: Workspace, _ name: String, _ c: Coordinate?) throws {
    try SampleJPEG.write(to: w.photos.appendingPathComponent(name)) { $0.coordinate = c }
  }

  func raw(_ w: Workspace, _ name: String, _ c: Coordinate?) throws {
    try SampleTIFF.write(to: w.photos.appendingPathComponent(name)) { b in
      b.coordinate = c
      b.make = "Canon"
      b.model = "EOS R5"
    }
  }

  @Test func namesOfOneShot() {
    #expect(ShotGrouping.key(forFileName: "IMG_0001.CR2") == ShotGrouping.key(forFileName: "img_0001.jpg"))
    #expect(
      ShotGrouping.key(forFileName: "PXL_20240501_162030123.RAW-01.COVER.jpg")
        == ShotGrouping.key(forFileName: "PXL_20240501_162030123.RAW-02.ORIGINAL.dng"))
    #expect(ShotGrouping.key(forFileName: "PXL_20240501_162030123.RAW-01.MP.COVER.jpg") == "pxl_20240501_162030123")
    #expect(ShotGrouping.key(forFileName: "IMG_0001-edited.JPG") != ShotGrouping.key(forFileName: "IMG_0001.JPG"))
    #expect(ShotGrouping.key(forFileName: "holiday.raw-ish.jpg") == "holiday.raw-ish")
  }

  @Test(arguments: StoreKind.available)
  func rawAndJPEGArePairedAndFollowed(kind: StoreKind) throws {
    let w = try Workspace(kind)
    try jpeg(w, "IMG_0001.JPG", nil)
    try raw(w, "IMG_0001.CR2", Self.tokyo)  // the RAW has the position: it is the primary
    try jpeg(w, "IMG_0002.JPG", Self.kyoto)
    try raw(w, "IMG_0002.cr2", Self.kyoto)  // both located: the JPEG is the primary
    try jpeg(w, "PXL_20240501_162030123.RAW-01.COVER.jpg", Self.tokyo)
    try raw(w, "PXL_20240501_162030123.RAW-02.ORIGINAL.dng", Self.tokyo)
    try jpeg(w, "IMG_0003.JPG", Self.tokyo)
    var s = try w.sync()
    #expect((s.scanned, s.added, s.withoutLocation) == (7, 4, 0), "\(s)")
    var shots = try Self.shots(w)
    #expect(shots.count == 4)
    let byPrimary = Dictionary(uniqueKeysWithValues: shots.map { ($0.value.primary, $0.key) })
    let first = try #require(byPrimary["IMG_0001.CR2"])
    #expect(shots[first]?.files == ["IMG_0001.JPG": .alternate])
    #expect(try w.store.photo(id: first)?.coordinate == Self.tokyo)
    let firstPhoto = try w.store.photo(id: first)
    #expect(firstPhoto?.cameraModel == "EOS R5", "\(String(describing: firstPhoto))")
    let second = try #require(byPrimary["IMG_0002.JPG"])
    #expect(shots[second]?.files == ["IMG_0002.cr2": .raw])
    let pixel = try #require(byPrimary["PXL_20240501_162030123.RAW-01.COVER.jpg"])
    #expect(shots[pixel]?.files == ["PXL_20240501_162030123.RAW-02.ORIGINAL.dng": .raw])
    let single = try #require(byPrimary["IMG_0003.JPG"])
    #expect(shots[single]?.files == [:])

    // Nothing changed: nothing is written.
    let generation = try w.store.generation()
    s = try w.sync()
    #expect(s.unchanged == 7 && s.added + s.updated + s.removed == 0)
    #expect(try w.store.generation() == generation)

    // Removing one file keeps the photo (the other becomes its primary); removing all removes it.
    try FileManager.default.removeItem(at: w.photos.appendingPathComponent("IMG_0002.JPG"))
    s = try w.sync()
    #expect((s.updated, s.removed) == (1, 0), "\(s)")
    shots = try Self.shots(w)
    #expect(shots[second]?.primary == "IMG_0002.cr2" && shots[second]?.files == [:])
    try FileManager.default.removeItem(at: w.photos.appendingPathComponent("IMG_0002.cr2"))
    s = try w.sync()
    #expect(s.removed == 1)
    #expect(try w.store.photo(id: second) == nil)

    // A pair split by a rename becomes two photos: the file left keeps the id.
    try FileManager.default.moveItem(
      at: w.photos.appendingPathComponent("IMG_0001.JPG"), to: w.photos.appendingPathComponent("SPLIT.JPG"))
    s = try w.sync()
    shots = try Self.shots(w)
    #expect(shots[first]?.primary == "IMG_0001.CR2" && shots[first]?.files == [:])
    let split = shots.filter { $0.value.primary == "SPLIT.JPG" }
    #expect(split.count == 1 && split.first?.key != first)
    #expect(s.added == 1 && s.updated == 1, "\(s)")

    // A file joining a photo merges it: the photo keeps its id, the joined one goes.
    try FileManager.default.moveItem(
      at: w.photos.appendingPathComponent("SPLIT.JPG"), to: w.photos.appendingPathComponent("IMG_0001.jpg"))
    s = try w.sync()
    shots = try Self.shots(w)
    #expect(shots[first]?.files == ["IMG_0001.jpg": .alternate])
    #expect(shots.count == 3 && s.removed == 1, "\(s)")
  }

  @Test(arguments: StoreKind.available)
  func aMovedFolderOfPairsKeepsItsIDs(kind: StoreKind) throws {
    let w = try Workspace(kind)
    try jpeg(w, "trip/IMG_0001.JPG", Self.tokyo)
    try raw(w, "trip/IMG_0001.NEF", Self.tokyo)
    try jpeg(w, "trip/IMG_0002.JPG", Self.kyoto)
    try raw(w, "trip/IMG_0002.NEF", Self.kyoto)
    _ = try w.sync()
    let before = try Self.shots(w)
    try FileManager.default.moveItem(
      at: w.photos.appendingPathComponent("trip"), to: w.photos.appendingPathComponent("Japan 2024"))
    let s = try w.sync()
    #expect((s.moved, s.added, s.removed) == (2, 0, 0), "\(s)")
    let after = try Self.shots(w)
    #expect(Set(after.keys) == Set(before.keys))
    for (id, shot) in before { #expect(after[id]?.files == shot.files && after[id]?.primary == shot.primary) }
    #expect(try w.store.photo(id: before.keys.min() ?? 0)?.path?.contains("/Japan 2024/") == true)
  }

  @Test(arguments: StoreKind.available)
  func aStillAndItsVideoAreOneLivePhoto(kind: StoreKind) throws {
    let w = try Workspace(kind)
    // Same names: a JPEG and its MOV.
    try jpeg(w, "IMG_0005.JPG", Self.tokyo)
    try SampleVideo.write(to: w.photos.appendingPathComponent("IMG_0005.MOV"), location: "+35.6812+139.7671/")
    // A video alone is a photo of its own, shown as a video.
    try SampleVideo.write(to: w.photos.appendingPathComponent("walk.mov"), location: "+34.9671+135.7727+012.000/")
    let s = try w.sync()
    #expect((s.added, s.scanned) == (2, 3), "\(s)")
    let shots = try Self.shots(w)
    let live = try #require(shots.first { $0.value.primary == "IMG_0005.JPG" })
    #expect(live.value.files == ["IMG_0005.MOV": .liveVideo])
    #expect(try w.store.photo(id: live.key)?.mediaType == .photo)
    let walkID = try #require(shots.first { $0.value.primary == "walk.mov" }?.key)
    let video = try #require(try w.store.photo(id: walkID))
    #expect(video.mediaType == .video && video.duration == 3 && video.coordinate == Self.kyoto && video.altitude == 12)
  }

  /// Files of one name taken far apart, or at different times, are photos of their own; a
  /// RAW and its JPEG taken together stay one; what a file lacks (a position, a time) splits
  /// nothing. A sync with nothing changed keeps every id and writes nothing; a file taken
  /// again where its namesake was joins its photo.
  @Test(arguments: StoreKind.available)
  func filesOfOneNameTakenApartAreSeparatePhotos(kind: StoreKind) throws {
    let w = try Workspace(kind)
    let taipei = Coordinate(latitude: 25.0330, longitude: 121.5654)  // 2,100 km from Tokyo
    let nearTokyo = Coordinate(latitude: 35.6848, longitude: 139.7671)  // 400 m north
    func at(hour: Int, minute: Int = 0, second: Int = 0) -> CaptureDate {
      CaptureDate(year: 2024, month: 5, day: 3, hour: hour, minute: minute, second: second, utcOffsetMinutes: 540)
    }
    func jpeg(_ name: String, _ c: Coordinate?, _ taken: CaptureDate?) throws {
      try SampleJPEG.write(to: w.photos.appendingPathComponent(name)) { b in
        b.coordinate = c
        b.takenAt = taken
      }
    }
    func raw(_ name: String, _ c: Coordinate?, _ taken: CaptureDate?) throws {
      try SampleTIFF.write(to: w.photos.appendingPathComponent(name)) { b in
        b.coordinate = c
        b.takenAt = taken
        b.make = "Canon"
      }
    }
    let noon = 1_714_708_800  // 2024-05-03T04:00:00Z, 13:00 in Tokyo
    try SampleVideo.write(
      to: w.photos.appendingPathComponent("clip.mov"), location: "+35.6812+139.7671/", created: noon)
    try SampleVideo.write(
      to: w.photos.appendingPathComponent("clip.MP4"), location: "+25.0330+121.5654/", created: noon)
    try jpeg("IMG_0001.JPG", Self.tokyo, at(hour: 13))  // a RAW and its JPEG: one shot
    try raw("IMG_0001.CR2", Self.tokyo, at(hour: 13))
    try jpeg("IMG_0002.JPG", Self.kyoto, at(hour: 13))  // the same place two hours apart: two
    try raw("IMG_0002.CR2", Self.kyoto, at(hour: 15))
    try jpeg("IMG_0003.JPG", Self.tokyo, at(hour: 13))  // 400 m and 40 s apart: one
    try raw("IMG_0003.NEF", nearTokyo, at(hour: 13, second: 40))
    try jpeg("IMG_0004.JPG", Self.tokyo, nil)  // no time beside no position: one
    try raw("IMG_0004.CR2", nil, at(hour: 17))
    var s = try w.sync()
    #expect((s.scanned, s.added, s.withoutLocation) == (10, 7, 0), "\(s)")
    let before = try Self.shots(w)
    let byPrimary = Dictionary(uniqueKeysWithValues: before.map { ($0.value.primary, $0.key) })
    #expect(
      Set(byPrimary.keys) == [
        "clip.mov", "clip.MP4", "IMG_0001.JPG", "IMG_0002.JPG", "IMG_0002.CR2", "IMG_0003.JPG", "IMG_0004.JPG",
      ])
    let mov = try #require(byPrimary["clip.mov"])
    let mp4 = try #require(byPrimary["clip.MP4"])
    #expect(before[mov]?.files == [:] && before[mp4]?.files == [:])
    #expect(try w.store.photo(id: mov)?.coordinate == Self.tokyo)
    #expect(try w.store.photo(id: mp4)?.coordinate == taipei)
    #expect(before[try #require(byPrimary["IMG_0001.JPG"])]?.files == ["IMG_0001.CR2": .raw])
    let jpeg2 = try #require(byPrimary["IMG_0002.JPG"])
    let raw2 = try #require(byPrimary["IMG_0002.CR2"])
    #expect(before[jpeg2]?.files == [:] && before[raw2]?.files == [:])
    #expect(try w.store.photo(id: jpeg2)?.takenAt == at(hour: 13))
    #expect(try w.store.photo(id: raw2)?.takenAt == at(hour: 15))
    #expect(before[try #require(byPrimary["IMG_0003.JPG"])]?.files == ["IMG_0003.NEF": .raw])
    #expect(before[try #require(byPrimary["IMG_0004.JPG"])]?.files == ["IMG_0004.CR2": .raw])

    // Nothing changed: the same photos with the same ids, and nothing written.
    let generation = try w.store.generation()
    s = try w.sync()
    #expect(s.unchanged == 10 && s.added + s.updated + s.moved + s.removed == 0, "\(s)")
    #expect(try w.store.generation() == generation)
    let again = try Self.shots(w)
    #expect(Set(again.keys) == Set(before.keys))
    for (id, shot) in before { #expect(again[id]?.primary == shot.primary && again[id]?.files == shot.files) }

    // The far clip taken again beside the other: one photo, which keeps its primary's id.
    try SampleVideo.write(
      to: w.photos.appendingPathComponent("clip.MP4"), location: "+35.6813+139.7671/", created: noon)
    s = try w.sync()
    #expect((s.updated, s.removed, s.added) == (1, 1, 0), "\(s)")
    let joined = try Self.shots(w)
    #expect(joined.count == 6)
    #expect(joined[mp4]?.primary == "clip.MP4" && joined[mp4]?.files == ["clip.mov": .alternate])
    #expect(joined[mov] == nil)
  }

  /// A Live Photo whose halves have different names, paired by the identifier in the HEIC's
  /// Apple MakerNote (exiftool reads it as MediaGroupUUID) and the video's content identifier.
  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: FormatSamples.corpora.path), "needs ../shared/corpora"),
    arguments: StoreKind.available)
  func liveHalvesWithDifferentNamesPairByIdentifier(kind: StoreKind) throws {
    let w = try Workspace(kind)
    let heic = FormatSamples.corpora.appendingPathComponent("exif-samples/heic/IMG_5195.HEIC")
    try FileManager.default.copyItem(at: heic, to: w.photos.appendingPathComponent("IMG_5195.HEIC"))
    let identifier = "570F1469-09C7-4E50-9875-05F21D5BD166"
    try SampleVideo.write(to: w.photos.appendingPathComponent("clip-0042.MOV"), location: nil, contentID: identifier)
    try SampleVideo.write(to: w.photos.appendingPathComponent("other.MOV"), location: nil, contentID: "1B6A-UNRELATED")
    for i in 0..<4 { try jpeg(w, "DSC_000\(i).JPG", Self.kyoto) }  // between the halves, in batches of one
    let s = try w.sync(batchSize: 1)
    #expect(s.added == 6, "\(s)")
    let shots = try Self.shots(w)
    let live = try #require(shots.first { $0.value.primary == "IMG_5195.HEIC" })
    #expect(live.value.files == ["clip-0042.MOV": .liveVideo])
    #expect(
      try w.store.knownFiles(under: SyncEngine.canonicalRoot(w.photos.path)).contains {
        $0.state.contentID == identifier
      })
  }

  /// The unmounted-disk refusal and forget see photos, not files: a folder of pairs that
  /// suddenly looks empty changes nothing, and forgetting it removes every file of each shot.
  @Test(arguments: StoreKind.available)
  func refusalAndForgetWorkOnShots(kind: StoreKind) throws {
    let w = try Workspace(kind)
    for i in 1...3 {
      try jpeg(w, "IMG_000\(i).JPG", Self.tokyo)
      try raw(w, "IMG_000\(i).ARW", Self.tokyo)
    }
    _ = try w.sync()
    let before = try Self.shots(w)
    #expect(before.count == 3 && before.values.allSatisfy { $0.files.count == 1 })
    let aside = w.root.appendingPathComponent("unmounted")
    try FileManager.default.moveItem(at: w.photos, to: aside)
    try FileManager.default.createDirectory(at: w.photos, withIntermediateDirectories: true)
    do {
      _ = try w.sync()
      Issue.record("an emptied folder was synced")
    } catch let refusal as SyncRefusal {
      #expect(refusal.description.contains("the index holds 3 photos under it"), "\(refusal)")
    }
    #expect(try Self.shots(w).count == 3)
    try FileManager.default.removeItem(at: w.photos)
    try FileManager.default.moveItem(at: aside, to: w.photos)
    let root = SyncEngine.canonicalRoot(w.photos.path)
    let forgotten = try w.store.write { try w.store.forgetLocalPhotos(under: root) }
    #expect(forgotten == 3)
    #expect(try w.store.knownFiles(under: root).isEmpty)
    #expect(try w.store.memberFiles(of: nil).isEmpty)
  }
}
