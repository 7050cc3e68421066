import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoStore
import Synchronization
import Testing

@testable import GeoPhotoSync

/// A watcher on a real folder (real inotify) on its own thread, and what it told.
final class RunningWatch: @unchecked Sendable {
  let watcher: FolderWatch
  let notes = Mutex<[String]>([])
  let batches = Mutex<[SyncSummary]>([])
  private let finished = DispatchSemaphore(value: 0)
  private let failure = Mutex<(any Error)?>(nil)

  init(_ w: Workspace, roots: [URL]? = nil, options: FolderWatch.Options = RunningWatch.quick) throws {
    var note: (FolderWatch.Note) -> Void = { _ in }
    let store = w.store
    watcher = try FolderWatch(
      roots: (roots ?? [w.photos]).map(\.path), options: options,
      engine: { SyncEngine(store: try store.reopened(), jobs: 2) }, note: { note($0) })
    note = { [unowned self] in
      switch $0 {
      case .started(let summary):
        notes.withLock { $0.append("started") }
        batches.withLock { $0.append(summary) }
      case .batch(let summary): batches.withLock { $0.append(summary) }
      case .message(let text): notes.withLock { $0.append(text) }
      }
    }
    let thread = Thread { [self] in
      do { try watcher.run() } catch { failure.withLock { $0 = error } }
      finished.signal()
    }
    thread.start()
    try wait("the first sync") { notes.withLock { $0.contains("started") } }
  }

  /// Quick timings, so a test waits a second or two, not minutes.
  static var quick: FolderWatch.Options {
    var options = FolderWatch.Options()
    options.settle = 0.2
    options.maximumDelay = 0.6
    options.stableFor = 0.8
    options.awayCheck = 0.3
    options.pollInterval = 0.5
    return options
  }

  /// Stops the watcher and waits for it; its error, if it failed.
  func stop() throws {
    watcher.stop()
    #expect(finished.wait(timeout: .now() + 30) == .success, "the watcher stopped")
    if let error = failure.withLock({ $0 }) { throw error }
  }

  /// Waits up to 20 s for `condition`.
  func wait(_ what: String, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if try condition() { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Issue.record("timed out waiting for \(what); notes: \(notes.withLock { $0 })")
  }

  var total: SyncSummary {
    batches.withLock { $0.dropFirst().reduce(SyncSummary()) { FolderWatch.adding($1, to: $0) } }
  }
}

/// What an index holds, as a fresh sync of the same folders would have it: each photo's files,
/// position and title by its primary file.
func contents(of store: any PhotoStore, under root: String) throws -> [String: String] {
  var result: [String: String] = [:]
  for known in try store.knownFiles(under: SyncEngine.canonicalRoot(root)) where known.role == .primary {
    guard let photo = try store.photo(id: known.id) else { continue }
    let place = photo.coordinate.map { String(format: "%.6f,%.6f", $0.latitude, $0.longitude) } ?? "-"
    result[known.path] = "\(place) \(photo.title)"
  }
  return result
}

/// A fresh index of `folder`, synced once: what the watched index must equal.
func freshContents(of folder: URL) throws -> [String: String] {
  let directory = try TemporaryDirectory()
  let store = try makeScratchStore(.sqlite, in: directory.url)
  _ = try SyncEngine(store: store, jobs: 2).sync(roots: [folder.path])
  return try contents(of: store, under: folder.path)
}

/// The id of the photo whose primary file is `path`.
func id(of path: String, in store: any PhotoStore) throws -> Int64? {
  try store.knownFiles(under: (path as NSString).deletingLastPathComponent).first { $0.path == path }?.id
}

@Suite(.serialized) struct WatchTests {
  @Test func addModifyRenameMoveDelete() throws {
    let w = try Workspace()
    try FileManager.default.createDirectory(at: w.photos.appendingPathComponent("b"), withIntermediateDirectories: true)
    try w.photo("a.jpg", 35.68, 139.76, title: "Tokyo")
    try w.photo("keep.jpg", 34.7, 135.5, title: "Osaka")
    let watch = try RunningWatch(w)
    #expect(watch.watcher.modeNames == [SyncEngine.canonicalRoot(w.photos.path): "watched"])
    let tokyo = try #require(try id(of: w.canonical("a.jpg"), in: w.store))

    try w.photo("new.jpg", 43.06, 141.35, title: "Sapporo")
    try watch.wait("the new photo") { try id(of: w.canonical("new.jpg"), in: w.store) != nil }
    try w.photo("a.jpg", 35.7, 139.8, title: "Tokyo again")
    try watch.wait("the changed photo") { try w.store.photo(id: tokyo)?.title == "Tokyo again" }
    try FileManager.default.moveItem(
      at: w.photos.appendingPathComponent("a.jpg"), to: w.photos.appendingPathComponent("renamed.jpg"))
    try watch.wait("the renamed photo") { try id(of: w.canonical("renamed.jpg"), in: w.store) == tokyo }
    try FileManager.default.moveItem(
      at: w.photos.appendingPathComponent("renamed.jpg"), to: w.photos.appendingPathComponent("b/moved.jpg"))
    try watch.wait("the moved photo") { try id(of: w.canonical("b/moved.jpg"), in: w.store) == tokyo }
    try FileManager.default.removeItem(at: w.photos.appendingPathComponent("keep.jpg"))
    try watch.wait("the deleted photo") { try id(of: w.canonical("keep.jpg"), in: w.store) == nil }
    try watch.stop()
    #expect(try contents(of: w.store, under: w.photos.path) == (try freshContents(of: w.photos)))
    #expect(watch.total.moved == 2 && watch.total.added == 1 && watch.total.removed == 1)
  }

  /// A folder renamed is every photo in it moved (same ids); a folder made later is watched.
  @Test func aFolderRenamedKeepsItsPhotosAndNewFoldersAreWatched() throws {
    let w = try Workspace()
    let trip = w.photos.appendingPathComponent("2024/trip")
    try FileManager.default.createDirectory(at: trip, withIntermediateDirectories: true)
    for i in 0..<40 { try w.photo("2024/trip/IMG_\(i).jpg", 40 + Double(i) * 0.01, 10, title: "trip \(i)") }
    let watch = try RunningWatch(w)
    let before = try (0..<40).map { try #require(try id(of: w.canonical("2024/trip/IMG_\($0).jpg"), in: w.store)) }
    try FileManager.default.moveItem(at: trip, to: w.photos.appendingPathComponent("2024/Italy"))
    try watch.wait("the renamed folder") { try id(of: w.canonical("2024/Italy/IMG_39.jpg"), in: w.store) != nil }
    let after = try (0..<40).map { try id(of: w.canonical("2024/Italy/IMG_\($0).jpg"), in: w.store) }
    #expect(after == before)
    #expect(watch.total.moved == 40 && watch.total.removed == 0 && watch.total.added == 0)
    // A folder made now, then a photo put in it.
    // At once: a photo written before the new folder's watch is set is found by the folder's
    // first scan.
    try FileManager.default.createDirectory(
      at: w.photos.appendingPathComponent("2025/new"), withIntermediateDirectories: true)
    try w.photo("2025/new/x.jpg", 1, 2, title: "x")
    try watch.wait("the photo in a new folder") { try id(of: w.canonical("2025/new/x.jpg"), in: w.store) != nil }
    try watch.stop()
    #expect(try contents(of: w.store, under: w.photos.path) == (try freshContents(of: w.photos)))
  }

  /// A sidecar edited alone is its photo changed; a photo moved with its sidecar keeps both.
  @Test func sidecarsAreFollowed() throws {
    let w = try Workspace()
    try FileManager.default.createDirectory(
      at: w.photos.appendingPathComponent("sorted"), withIntermediateDirectories: true)
    try w.photo("IMG_1.JPG", 35.0, 139.0, title: "From EXIF")
    let watch = try RunningWatch(w)
    let id = try #require(try GeoPhotoSyncTests.id(of: w.canonical("IMG_1.JPG"), in: w.store))
    func sidecar(_ folder: String, _ title: String) throws {
      try """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(title)</rdf:li></rdf:Alt></dc:title>
      </rdf:Description></rdf:RDF></x:xmpmeta>
      """.write(to: w.photos.appendingPathComponent(folder + "IMG_1.xmp"), atomically: true, encoding: .utf8)
    }
    try sidecar("", "From the sidecar")
    try watch.wait("the sidecar's title") { try w.store.photo(id: id)?.title == "From the sidecar" }
    for name in ["IMG_1.JPG", "IMG_1.xmp"] {
      try FileManager.default.moveItem(
        at: w.photos.appendingPathComponent(name), to: w.photos.appendingPathComponent("sorted/" + name))
    }
    try watch.wait("the moved pair") {
      try GeoPhotoSyncTests.id(of: w.canonical("sorted/IMG_1.JPG"), in: w.store) == id
    }
    try sidecar("sorted/", "Edited again")
    try watch.wait("the second edit") { try w.store.photo(id: id)?.title == "Edited again" }
    try watch.stop()
    #expect(try contents(of: w.store, under: w.photos.path) == (try freshContents(of: w.photos)))
  }

  /// A damaged file warns once: a later change in its folder does not read it again.
  @Test func aBadFileWarnsOnce() throws {
    let w = try Workspace()
    let watch = try RunningWatch(w)
    try Data(repeating: 0x42, count: 5_000).write(to: w.photos.appendingPathComponent("bad.jpg"))
    try watch.wait("the bad file's warning") { watch.total.warnings == 1 }
    try w.photo("good.jpg", 1, 1)
    try watch.wait("the good file") { try GeoPhotoSyncTests.id(of: w.canonical("good.jpg"), in: w.store) != nil }
    try watch.stop()
    #expect(watch.total.warnings == 1)
  }

  /// Five thousand photos copied in are a few batches, not thousands.
  @Test func aBurstIsAFewBatches() throws {
    let w = try Workspace()
    let watch = try RunningWatch(w)
    let burst = w.photos.appendingPathComponent("burst")
    try FileManager.default.createDirectory(at: burst, withIntermediateDirectories: true)
    for i in 0..<5_000 {
      try SampleJPEG.write(to: burst.appendingPathComponent("P\(i).jpg")) { b in
        b.coordinate = Coordinate(latitude: -30 + Double(i % 100) * 0.1, longitude: 150 + Double(i / 100) * 0.1)
      }
    }
    try watch.wait("5,000 photos") { try w.store.counts().photos == 5_000 }
    try watch.stop()
    let batches = watch.batches.withLock { $0.count - 1 }
    print("5,000 photos copied in: \(batches) batches")
    #expect(batches >= 1 && batches <= 40, "\(batches) batches")
    #expect(watch.total.added == 5_000)
    #expect(try contents(of: w.store, under: w.photos.path) == (try freshContents(of: w.photos)))
  }

  /// A file written in pieces (open for over a second) is read once, whole.
  @Test func aFileWrittenSlowlyIsReadOnceWhole() throws {
    let w = try Workspace()
    let watch = try RunningWatch(w)
    let whole = w.root.appendingPathComponent("whole.jpg")
    try SampleJPEG.write(to: whole) { b in
      b.coordinate = Coordinate(latitude: 51.5, longitude: -0.12)
      b.imageDescription = "London"
    }
    let bytes = try Data(contentsOf: whole)
    let target = w.photos.appendingPathComponent("slow.jpg")
    _ = FileManager.default.createFile(atPath: target.path, contents: nil)
    let handle = try FileHandle(forWritingTo: target)
    for part in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 5)) {
      try handle.write(contentsOf: bytes[part..<min(bytes.count, part + max(1, bytes.count / 5))])
      Thread.sleep(forTimeInterval: 0.3)
    }
    try handle.close()
    try watch.wait("the slow photo") { try id(of: w.canonical("slow.jpg"), in: w.store) != nil }
    // A photo written after it: once it is in, every event of the slow one has been handled
    // (they came first), so a second reading of the slow one would have been counted.
    try w.photo("after.jpg", 1, 1, title: "after")
    try watch.wait("the photo after") { try id(of: w.canonical("after.jpg"), in: w.store) != nil }
    try watch.stop()
    let slow = try #require(try id(of: w.canonical("slow.jpg"), in: w.store))
    let photo = try #require(try w.store.photo(id: slow))
    #expect(photo.title == "London" && photo.coordinate != nil)
    #expect(watch.total.warnings == 0 && watch.total.added == 2 && watch.total.updated == 0)
  }

  /// A root renamed away (as an unmounted disk disappears) changes nothing; when it is back,
  /// what changed meanwhile is caught up.
  @Test func aRootThatGoesAwayChangesNothingAndIsCaughtUp() throws {
    let w = try Workspace()
    for i in 0..<5 { try w.photo("p\(i).jpg", Double(i), Double(i), title: "p\(i)") }
    let watch = try RunningWatch(w)
    let away = w.root.appendingPathComponent("away")
    try FileManager.default.moveItem(at: w.photos, to: away)
    try watch.wait("the root away") {
      watch.notes.withLock { $0.contains { $0.contains("waiting for it to come back") } }
    }
    #expect(try w.store.counts().photos == 5)
    try SampleJPEG.write(to: away.appendingPathComponent("while-away.jpg")) { b in
      b.coordinate = Coordinate(latitude: 9, longitude: 9)
    }
    try FileManager.default.moveItem(at: away, to: w.photos)
    try watch.wait("the root back") { watch.notes.withLock { $0.contains { $0.contains("is back") } } }
    try watch.wait("the photo added while away") { try w.store.counts().photos == 6 }
    // Watched again: a change now is seen.
    try w.photo("after.jpg", 7, 7)
    try watch.wait("a photo after") { try w.store.counts().photos == 7 }
    try watch.stop()
    // Nothing was removed while it was away (and put back after): every batch says so.
    #expect(watch.total.removed == 0 && watch.total.added == 2)
    #expect(try contents(of: w.store, under: w.photos.path) == (try freshContents(of: w.photos)))
  }

  /// A disk unmounted under the watcher (a tmpfs here, as root) leaves its mount point empty:
  /// nothing changes; mounted again, the root is caught up and watched again.
  @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
  func anUnmountedDiskChangesNothing() throws {
    let w = try Workspace()
    func run(_ arguments: [String]) throws {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/bin/" + arguments[0])
      p.arguments = Array(arguments.dropFirst())
      try p.run()
      p.waitUntilExit()
      #expect(p.terminationStatus == 0, "\(arguments)")
    }
    try run(["mount", "-t", "tmpfs", "-o", "size=8m", "geophoto-test", w.photos.path])
    defer { _ = try? run(["umount", "-l", w.photos.path]) }
    for i in 0..<4 { try w.photo("p\(i).jpg", Double(i), 1, title: "p\(i)") }
    let copy = w.root.appendingPathComponent("copy")
    try FileManager.default.copyItem(at: w.photos, to: copy)
    let watch = try RunningWatch(w)
    #expect(watch.watcher.modeNames.values.contains("watched"))
    try run(["umount", w.photos.path])
    try watch.wait("the disk away") {
      watch.notes.withLock { $0.contains { $0.contains("waiting for it to come back") } }
    }
    #expect(try w.store.counts().photos == 4)
    try run(["mount", "-t", "tmpfs", "-o", "size=8m", "geophoto-test", w.photos.path])
    for name in try FileManager.default.contentsOfDirectory(atPath: copy.path) {
      try FileManager.default.copyItem(at: copy.appendingPathComponent(name), to: w.photos.appendingPathComponent(name))
    }
    try w.photo("new.jpg", 5, 5)
    try watch.wait("the disk back") { watch.notes.withLock { $0.contains { $0.contains("is back") } } }
    try watch.wait("the photo added while away") { try w.store.counts().photos == 5 }
    try w.photo("after.jpg", 6, 6)
    try watch.wait("a photo after") { try w.store.counts().photos == 6 }
    try watch.stop()
    // Nothing was removed while the disk was away (and put back after): every batch says so.
    #expect(watch.total.removed == 0 && watch.total.added == 2)
    #expect(try contents(of: w.store, under: w.photos.path) == (try freshContents(of: w.photos)))
  }

  /// A root under a poll path is synced again on a timer instead of watched.
  @Test func aPolledRootIsSyncedOnATimer() throws {
    let w = try Workspace()
    try w.photo("a.jpg", 1, 1)
    var options = RunningWatch.quick
    options.pollPaths = [w.photos.path]
    let watch = try RunningWatch(w, options: options)
    #expect(watch.watcher.modeNames.values.contains("polled"))
    #expect(watch.notes.withLock { $0.contains { $0.contains("polled every") } })
    try w.photo("b.jpg", 2, 2)
    try FileManager.default.removeItem(at: w.photos.appendingPathComponent("a.jpg"))
    try watch.wait("the polled changes") {
      try id(of: w.canonical("b.jpg"), in: w.store) != nil && (try id(of: w.canonical("a.jpg"), in: w.store)) == nil
    }
    try watch.stop()
    #expect(try contents(of: w.store, under: w.photos.path) == (try freshContents(of: w.photos)))
  }

  /// A root that does not exist and that the index knows nothing under is a mistake.
  @Test func aMissingRootNeverIndexedIsAnError() throws {
    let w = try Workspace()
    let store = w.store
    let watcher = try FolderWatch(
      roots: [w.root.appendingPathComponent("typo").path], engine: { SyncEngine(store: store) }, note: { _ in })
    #expect(throws: SyncRefusal.self) { try watcher.run() }
  }

  @Test func mountTableLinesAreRead() {
    let table = """
      22 1 0:21 / /proc rw,nosuid - proc proc rw
      36 35 98:0 / / rw,relatime - ext4 /dev/vda rw
      40 36 0:45 / /mnt/nas rw,relatime shared:5 - nfs4 nas:/photos rw,vers=4.2
      41 36 0:46 / /mnt/my\\040share rw - cifs //host/share rw
      42 36 0:47 / /home/me/remote rw,nosuid - fuse.sshfs me@host: rw
      """
    let mounts = MountTable.mounts(table: table)
    #expect(mounts.count == 5)
    #expect(MountTable.mount(of: "/mnt/nas/2024/a", in: mounts)?.type == "nfs4")
    #expect(MountTable.mount(of: "/mnt/my share", in: mounts)?.type == "cifs")
    #expect(MountTable.mount(of: "/mnt/nasty", in: mounts)?.type == "ext4")
    #expect(MountTable.mount(of: "/home/me/remote/x", in: mounts).map { MountTable.isRemote(type: $0.type) } == true)
    #expect(!MountTable.isRemote(type: "ext4") && !MountTable.isRemote(type: "tmpfs"))
  }
}
