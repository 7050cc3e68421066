import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Testing

@testable import GeoPhotoSync

final class Workspace {
  let root: URL
  let photos: URL
  let store: any PhotoStore
  var warnings: [(String, String)] = []

  /// A photo folder and an empty index of `kind`.
  init(_ kind: StoreKind = .sqlite) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("geophoto-sync-\(UUID().uuidString)")
    photos = root.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    store = try makeScratchStore(kind, in: root)
  }
  deinit { try? FileManager.default.removeItem(at: root) }

  func photo(_ name: String, _ lat: Double?, _ lon: Double?, title: String? = nil, modified: Date? = nil) throws {
    try SampleJPEG.write(to: photos.appendingPathComponent(name), modified: modified) { b in
      b.coordinate = lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } }
      b.imageDescription = title
    }
  }

  func sync(_ roots: [String]? = nil, namer: (any PlaceNamer)? = nil, batchSize: Int = 1_000) throws -> SyncSummary {
    let engine = SyncEngine(store: store, jobs: 2)
    engine.batchSize = batchSize
    engine.namer = namer
    engine.warn = { [unowned self] in self.warnings.append(($0, $1)) }
    return try engine.sync(roots: roots ?? [photos.path])
  }

  func all() throws -> [String: Photo] {
    var result: [String: Photo] = [:]
    for known in try store.knownFiles(under: SyncEngine.canonicalRoot(root.path)) {
      result[known.path] = try store.photo(id: known.id)
    }
    return result
  }

  func canonical(_ name: String) -> String {
    SyncEngine.canonicalRoot(photos.path) + "/" + name
  }
}

@Suite struct SyncTests {
  @Test(arguments: StoreKind.available)
  func addUnchangedModifyMoveDelete(kind: StoreKind) throws {
    let w = try Workspace(kind)
    let old = Date(timeIntervalSince1970: 1_700_000_000)
    try w.photo("a.jpg", 35.68, 139.76, title: "Tokyo", modified: old)
    try w.photo("b.JPEG", 34.70, 135.50, title: "Osaka")
    try w.photo("c.jpg", nil, nil)
    try Data("notes".utf8).write(to: w.photos.appendingPathComponent("notes.txt"))
    try w.photo(".cache/d.jpg", 1, 1)

    var s = try w.sync()
    #expect((s.scanned, s.added, s.withoutLocation, s.warnings) == (3, 3, 1, 0))
    var photos = try w.all()
    let tokyo = try #require(photos[w.canonical("a.jpg")])
    #expect(tokyo.title == "Tokyo")
    #expect(photos[w.canonical("c.jpg")]?.title == "c")  // file name without extension
    #expect(photos[w.canonical("c.jpg")]?.coordinate == nil)
    let g1 = try w.store.generation()

    // Same size and modification time: not read again, even though the content changed.
    try w.photo("a.jpg", 35.69, 139.77, title: "Tokyo", modified: old)
    s = try w.sync()
    #expect((s.unchanged, s.added, s.updated, s.removed) == (3, 0, 0, 0))
    #expect(try w.store.generation() == g1)
    #expect(try w.all()[w.canonical("a.jpg")]?.coordinate?.latitude == 35.68)

    // A real edit is picked up, keeping the id.
    try w.photo("a.jpg", 35.70, 139.70, title: "Tokyo again")
    s = try w.sync()
    #expect((s.updated, s.unchanged) == (1, 2))
    let edited = try #require(try w.all()[w.canonical("a.jpg")])
    #expect(edited.id == tokyo.id && edited.title == "Tokyo again")
    #expect(abs((edited.coordinate?.latitude ?? 0) - 35.70) < 1e-9)

    // A rename into a subfolder is a move: same id, new path.
    let osakaID = try #require(photos[w.canonical("b.JPEG")]?.id)
    try FileManager.default.createDirectory(
      at: w.photos.appendingPathComponent("2024"), withIntermediateDirectories: true)
    try FileManager.default.moveItem(
      at: w.photos.appendingPathComponent("b.JPEG"), to: w.photos.appendingPathComponent("2024/osaka.jpg"))
    s = try w.sync()
    #expect((s.moved, s.added, s.removed) == (1, 0, 0))
    photos = try w.all()
    #expect(photos[w.canonical("2024/osaka.jpg")]?.id == osakaID)
    #expect(photos[w.canonical("b.JPEG")] == nil)

    // A deleted file leaves the index.
    try FileManager.default.removeItem(at: w.photos.appendingPathComponent("c.jpg"))
    s = try w.sync()
    #expect((s.removed, s.unchanged) == (1, 2))
    #expect(try w.store.counts().photos == 2)
    #expect(w.warnings.isEmpty)
  }

  @Test(arguments: StoreKind.available)
  func identicalCopiesAreTwoPhotos(kind: StoreKind) throws {
    let w = try Workspace(kind)
    try w.photo("one.jpg", 10, 20, title: "same")
    try FileManager.default.copyItem(
      at: w.photos.appendingPathComponent("one.jpg"), to: w.photos.appendingPathComponent("two.jpg"))
    #expect(try w.sync().added == 2)
    try FileManager.default.removeItem(at: w.photos.appendingPathComponent("one.jpg"))
    let s = try w.sync()
    #expect((s.removed, s.moved, s.unchanged) == (1, 0, 1))
  }

  @Test(arguments: StoreKind.available)
  func missingOrEmptiedRootChangesNothing(kind: StoreKind) throws {
    let w = try Workspace(kind)
    try w.photo("a.jpg", 1, 2)
    try w.photo("b.jpg", 3, 4)
    _ = try w.sync()
    let generation = try w.store.generation()
    let away = w.root.appendingPathComponent("unmounted")
    try FileManager.default.moveItem(at: w.photos, to: away)
    #expect(throws: SyncRefusal.self) { try w.sync() }
    #expect(try w.store.counts().photos == 2)

    // Mounted again but empty (an empty mount point).
    try FileManager.default.createDirectory(at: w.photos, withIntermediateDirectories: true)
    do {
      _ = try w.sync()
      Issue.record("an empty root emptied the index")
    } catch let refusal as SyncRefusal {
      #expect(refusal.description.contains("holds no photos now"))
      #expect(refusal.description.contains("2 photos"))
    }
    #expect(try w.store.counts().photos == 2)
    #expect(try w.store.generation() == generation)

    // A file where a folder should be.
    try FileManager.default.removeItem(at: w.photos)
    try Data().write(to: w.photos)
    #expect(throws: SyncRefusal.self) { try w.sync() }
    #expect(try w.store.counts().photos == 2)
  }

  @Test(arguments: StoreKind.available)
  func badFilesWarnAndTheSyncGoesOn(kind: StoreKind) throws {
    let w = try Workspace(kind)
    try w.photo("good.jpg", 35, 139)
    let fm = FileManager.default
    try Data().write(to: w.photos.appendingPathComponent("empty.jpg"))
    try Data("not a photo".utf8).write(to: w.photos.appendingPathComponent("text.jpg"))
    let jpeg = SampleJPEG.make { $0.imageDescription = "cut" }
    try Data(jpeg.prefix(30)).write(to: w.photos.appendingPathComponent("truncated.jpg"))
    try fm.createSymbolicLink(
      atPath: w.photos.appendingPathComponent("dangling.jpg").path, withDestinationPath: "/nonexistent/x.jpg")
    try fm.createSymbolicLink(atPath: w.photos.appendingPathComponent("loop").path, withDestinationPath: w.photos.path)
    try fm.createSymbolicLink(
      atPath: w.photos.appendingPathComponent("self.jpg").path,
      withDestinationPath: w.photos.appendingPathComponent("self.jpg").path)

    let s = try w.sync()
    #expect(s.added == 4)  // good + three damaged files remembered without a location
    #expect(s.warnings == 6)
    let reasons = Dictionary(
      w.warnings.map { (($0.0 as NSString).lastPathComponent, $0.1) }, uniquingKeysWith: { a, _ in a })
    #expect(reasons["empty.jpg"] == "empty file")
    #expect(reasons["text.jpg"] == "not a JPEG file")
    #expect(reasons["truncated.jpg"]?.hasPrefix("truncated") == true)
    #expect(reasons["dangling.jpg"] == "broken symbolic link")
    #expect(reasons["self.jpg"] == "symbolic link loop")
    #expect(reasons["loop"]?.contains("already visited") == true)
    #expect(try w.store.counts().located == 1)
    #expect(try w.store.counts().problems == 3)

    // Damaged files are remembered: the next sync does not read or report them again.
    w.warnings.removeAll()
    let again = try w.sync()
    #expect(again.unchanged == 4)
    #expect(!w.warnings.contains { $0.0.hasSuffix("empty.jpg") || $0.0.hasSuffix("text.jpg") })
  }

  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: corpora.path), "needs ../shared/corpora"),
    arguments: ["exiv2-malformed", "exif-samples/jpg/invalid", "photoprism-testdata"])
  func corpusFoldersSyncWithoutCrashing(folder: String) throws {
    let w = try Workspace()
    let s = try w.sync([corpora.appendingPathComponent(folder).path])
    #expect(s.scanned > 0)
    #expect(s.added == s.scanned)
  }

  @Test(
    .enabled(if: FileManager.default.fileExists(atPath: corpora.path), "needs ../shared/corpora"),
    arguments: StoreKind.available)
  func locatedCorpusPhotosAnswerNear(kind: StoreKind) throws {
    let w = try Workspace(kind)
    _ = try w.sync([corpora.appendingPathComponent("exif-samples/jpg/gps").path])
    #expect(try w.store.counts().located == 9)
    // DSCN0010 is the photo nearest to its own position (manifest values).
    let nearest = try w.store.nearest(to: Coordinate(latitude: 43.4674483333333, longitude: 11.8851266666639), limit: 1)
    let photo = try #require(try w.store.photo(id: nearest[0].id))
    #expect(photo.path?.hasSuffix("DSCN0010.jpg") == true)
    #expect(nearest[0].distance < 0.01)
  }
}

let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora")

/// Names everything south of 40° Tokyo, nothing north of it.
struct TestNamer: PlaceNamer {
  var identity: Int64

  func place(for c: Coordinate) -> PlaceName? {
    c.latitude > 40 ? nil : PlaceName(name: "Tokyo", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 1)
  }
}

@Suite struct PlaceNamingTests {
  /// A sync names places as it writes photos: one transaction, one new generation, nothing
  /// left to name; a new gazetteer names everything again in the sync's last transaction.
  @Test(arguments: StoreKind.available)
  func placesAreNamedInTheSyncsOwnWrites(kind: StoreKind) throws {
    let w = try Workspace(kind)
    try w.photo("tokyo.jpg", 35.68, 139.76)
    try w.photo("paris.jpg", 48.85, 2.35)
    try w.photo("none.jpg", nil, nil)
    let before = try w.store.generation()
    _ = try w.sync(namer: TestNamer(identity: 1))
    #expect(try w.store.generation() == before + 1)
    #expect(try !w.store.hasPhotosToPlace(gazetteer: 1))
    #expect(try w.all()[w.canonical("tokyo.jpg")]?.place?.name == "Tokyo")
    #expect(try w.all()[w.canonical("paris.jpg")]?.place == nil)
    // Nothing changed: no write at all.
    let synced = try w.store.generation()
    _ = try w.sync(namer: TestNamer(identity: 1))
    #expect(try w.store.generation() == synced)
    // Another gazetteer that names them the same: every photo is named again, nothing is
    // written, and answers stay those of the generation they were.
    _ = try w.sync(namer: TestNamer(identity: 2))
    #expect(try w.store.generation() == synced)
    #expect(try !w.store.hasPhotosToPlace(gazetteer: 2))
  }
}

/// A namer whose gazetteer cannot be read.
struct FailingNamer: PlaceNamer {
  struct Failure: Error {}
  var identity: Int64 { 9 }
  func place(for c: Coordinate) throws -> PlaceName? { throw Failure() }
}

@Suite struct BatchTests {
  /// Small folders share transactions: the photos of about `batchSize` files are written
  /// together, whatever their folders, each named, and every folder's photo is there.
  @Test(arguments: StoreKind.available)
  func smallFoldersShareTransactions(kind: StoreKind) throws {
    let w = try Workspace(kind)
    for folder in 0..<25 {
      for i in 0..<3 { try w.photo("f\(folder)/p\(i).jpg", 30 + Double(folder), Double(i)) }
    }
    let before = try w.store.generation()
    let s = try w.sync(namer: TestNamer(identity: 1), batchSize: 10)
    #expect((s.scanned, s.added, s.withoutLocation) == (75, 75, 0), "\(s)")
    // Written each time ten files were decided: after every fourth folder of three, then the rest.
    #expect(try w.store.generation() == before + 7)
    let photos = try w.all()
    #expect(photos.count == 75)
    for folder in 0..<25 {
      for i in 0..<3 {
        let photo = photos[w.canonical("f\(folder)/p\(i).jpg")]
        #expect(photo?.coordinate == Coordinate(latitude: 30 + Double(folder), longitude: Double(i)))
        #expect(photo?.place?.name == (folder > 10 ? nil : "Tokyo"), "f\(folder)/p\(i).jpg")
      }
    }
    #expect(try !w.store.hasPhotosToPlace(gazetteer: 1))
  }

  /// A namer that fails (a gazetteer that cannot be read) stops the sync with its error,
  /// before the photos it was to name are written.
  @Test func aNamerThatFailsStopsTheSync() throws {
    let w = try Workspace()
    try w.photo("a.jpg", 35.68, 139.76)
    try w.photo("b.jpg", nil, nil)
    #expect(throws: FailingNamer.Failure.self) { try w.sync(namer: FailingNamer()) }
    #expect(try w.all().isEmpty)
    #expect(try w.sync(namer: TestNamer(identity: 1)).added == 2)
  }
}

@Suite struct SidecarAndFormatTests {
  @Test func aFileThatIsNotWhatItsNameSaysIsNamedByItsFormat() throws {
    let w = try Workspace()
    for name in ["text.png", "words.HEIC", "notes.dng", "broken.tif"] {
      try Data("not a photo at all".utf8).write(to: w.photos.appendingPathComponent(name))
    }
    let s = try w.sync()
    #expect((s.added, s.warnings) == (4, 4))
    let reasons = Dictionary(uniqueKeysWithValues: w.warnings.map { (($0.0 as NSString).lastPathComponent, $0.1) })
    #expect(
      reasons == [
        "text.png": "not a PNG file", "words.HEIC": "not a HEIF file", "notes.dng": "not a TIFF file",
        "broken.tif": "not a TIFF file",
      ])
    // No warning names a format the file was not read as.
    #expect(!w.warnings.contains { $0.1.contains("JPEG") })
  }

  @Test(arguments: StoreKind.available)
  func aDamagedPhotoWithANewerSidecarIsReadAndReportedOnce(kind: StoreKind) throws {
    let w = try Workspace(kind)
    let photo = w.photos.appendingPathComponent("IMG_9.JPG")
    try Data("not a photo".utf8).write(to: photo)
    let sidecar = w.photos.appendingPathComponent("IMG_9.xmp")
    try "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".write(to: sidecar, atomically: true, encoding: .utf8)
    // The sidecar is newer than the photo: the later time is the one a sync compares.
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)], ofItemAtPath: photo.path)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: sidecar.path)

    var s = try w.sync()
    #expect((s.added, s.warnings) == (1, 1))
    #expect(w.warnings.map(\.1) == ["not a JPEG file"])
    let generation = try w.store.generation()

    w.warnings.removeAll()
    s = try w.sync()
    #expect((s.unchanged, s.updated, s.warnings) == (1, 0, 0))
    #expect(w.warnings.isEmpty)
    #expect(try w.store.generation() == generation)

    // Editing the sidecar still makes the next sync read the photo (and report it) again.
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_800_000_000)], ofItemAtPath: sidecar.path)
    s = try w.sync()
    #expect((s.updated, s.warnings) == (1, 1))
  }

  @Test(arguments: StoreKind.available)
  func sidecarsWinAndTheirEditsAreNoticed(kind: StoreKind) throws {
    let w = try Workspace(kind)
    let old = Date(timeIntervalSince1970: 1_700_000_000)
    try w.photo("IMG_1.JPG", 35.0, 139.0, title: "From EXIF", modified: old)
    func sidecar(_ lat: String, _ title: String) throws {
      try """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
        exif:GPSLatitude="\(lat)" exif:GPSLongitude="139,30.0E">
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(title)</rdf:li></rdf:Alt></dc:title>
      </rdf:Description></rdf:RDF></x:xmpmeta>
      """.write(to: w.photos.appendingPathComponent("IMG_1.xmp"), atomically: true, encoding: .utf8)
    }
    try sidecar("35,30.0N", "Corrected")
    _ = try w.sync()
    var photo = try #require(try w.all()[w.canonical("IMG_1.JPG")])
    #expect(photo.title == "Corrected")
    #expect(photo.coordinate == Coordinate(latitude: 35.5, longitude: 139.5))
    // Editing only the sidecar makes the next sync read the photo again.
    Thread.sleep(forTimeInterval: 0.01)
    try sidecar("36,0.0N", "Corrected again")
    let s = try w.sync()
    #expect(s.updated == 1)
    photo = try #require(try w.all()[w.canonical("IMG_1.JPG")])
    #expect(photo.title == "Corrected again" && photo.coordinate?.latitude == 36)
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: corpora.path), "needs ../shared/corpora"))
  func otherFormatsAreIndexed() throws {
    let w = try Workspace()
    for (name, source) in [
      ("a.heic", "exiv2-samples/Stonehenge.heic"), ("b.webp", "exiv2-samples/exiv2-bug1199.webp"),
      ("c.dng", "exiv2-samples/IMG_1361.dng"), ("d.png", "photoprism-testdata/screenshot.png"),
      ("e.heic", "photoprism-testdata/iphone_7.heic"),
    ] {
      try FileManager.default.copyItem(
        at: corpora.appendingPathComponent(source), to: w.photos.appendingPathComponent(name))
    }
    // iphone_7.heic with its sidecar.
    try FileManager.default.copyItem(
      at: corpora.appendingPathComponent("photoprism-testdata/iphone_7.xmp"),
      to: w.photos.appendingPathComponent("e.xmp"))
    let s = try w.sync()
    #expect((s.added, s.warnings, s.withoutLocation) == (5, 0, 1))
    let photos = try w.all()
    #expect(abs((photos[w.canonical("a.heic")]?.coordinate?.latitude ?? 0) - 51.1782805555556) < 1e-6)
    #expect(abs((photos[w.canonical("b.webp")]?.coordinate?.longitude ?? 0) - -1.82664) < 1e-6)
    #expect(abs((photos[w.canonical("c.dng")]?.coordinate?.latitude ?? 0) - 34.0596083333333) < 1e-6)
    #expect(abs((photos[w.canonical("e.heic")]?.coordinate?.longitude ?? 0) - 134.764633333333) < 1e-6)
  }
}
