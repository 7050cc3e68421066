import Foundation
import GeoPhotoCore
import GeoPhotoFixtures
import GeoPhotoSQLite
import GeoPhotoStore
import Synchronization
import Testing

@testable import GeoPhotoServer

/// A server's snapshot keeps the kd-tree and the clusters, not the photos: their details come
/// from the store by id. Its answers must be byte for byte those of a snapshot holding every
/// photo in memory, built from the same rows.
@Suite struct StoreSnapshotTests {
  /// The sample photos with cameras, places, keywords and a RAW file on some.
  static func photos() -> [Photo] {
    samplePhotos().enumerated().map { i, photo in
      var photo = photo
      if i % 3 == 0 { (photo.cameraMake, photo.cameraModel) = ("FUJIFILM", "X100V") }
      if i % 3 == 1 { (photo.cameraMake, photo.cameraModel) = ("Apple", "iPhone 15 Pro") }
      if i % 4 == 0 {
        photo.place = PlaceName(name: "Chiyoda", admin1: "Tokyo", admin2: "", countryCode: "JP", distance: 90)
      }
      if i % 5 == 0 { photo.keywords = ["temple", "lantern"] }
      if i % 7 == 0 { photo.takenAt = CaptureDate(year: 2019, month: 8, day: 1, hour: 9, utcOffsetMinutes: 540) }
      return photo
    }
  }

  /// The photos written to a new store, one of them with a RAW file beside it.
  static func store(_ kind: StoreKind, in directory: URL) throws -> any PhotoStore {
    let store = try makeScratchStore(kind, in: directory)
    try store.write {
      for (i, photo) in photos().enumerated() {
        let id = try store.upsert(PhotoRecord(photo: photo), now: IndexTime.now()).id
        if i == 1 {
          try store.setMembers(
            of: id,
            [
              MemberFile(
                path: "/photos/2.RAF", role: .raw, state: FileState(size: 9, changedNanoseconds: 1, contentHash: "h"))
            ])
        }
      }
    }
    return store
  }

  static let targets = [
    "/v1/near?lat=35.68&lon=139.76&limit=40", "/v1/near?lat=35.68&lon=139.76&limit=5&format=geojson",
    "/v1/near?lat=35.68&lon=139.76&limit=40&sort=time", "/v1/near?lat=35.68&lon=139.76&camera=fuji",
    "/v1/near?lat=35.68&lon=139.76&text=lantern", "/v1/near?lat=35.68&lon=139.76&text=chiyoda&camera=iphone",
    "/v1/near?lat=35.68&lon=139.76&until=2020", "/v1/near?lat=35.68&lon=139.76&source=flickr&radius=5km",
    "/v1/annotations?bbox=-180,-85,180,85&zoom=0", "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=12",
    "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=18", "/v1/annotations?bbox=170,-20,-170,-10&zoom=4",
    "/v1/annotations?bbox=139.6,35.6,139.9,35.8&zoom=12&camera=x100v",
    "/v1/annotations?bbox=-180,-85,180,85&zoom=3&text=temple", "/healthz", "/",
  ]

  @Test(arguments: StoreKind.available)
  func answersAreThoseOfTheSamePhotosInMemory(kind: StoreKind) throws {
    let directory = try TemporaryDirectory()
    let store = try Self.store(kind, in: directory.url)
    let (generation, rows) = try store.locatedPhotos()
    let fromStore = LoadedIndexHolder(open: reopener(for: store))
    try fromStore.refresh()
    let inMemory = LoadedIndexHolder(
      initial: LoadedIndex(generation: generation, photos: rows, members: try store.memberFiles(of: nil))
    ) { nil }
    #expect(fromStore.snapshot.generation == generation && fromStore.snapshot.count == rows.count)
    var configuration = APIConfiguration()
    configuration.map.leafletDirectory = "/nonexistent"
    let served = APIRouter(holder: fromStore, configuration: configuration)
    let expected = APIRouter(holder: inMemory, configuration: configuration)

    // Every photo's details, the one with a RAW file among them, and their cluster leaves.
    var targets = Self.targets + rows.map { "/v1/photos/\($0.id)" }
    let world = get(expected, "/v1/annotations?bbox=-180,-85,180,85&zoom=2").json
    for feature in world["features"] as? [[String: Any]] ?? [] {
      if let id = (feature["properties"] as? [String: Any])?["cluster_id"] as? Int {
        targets.append("/v1/clusters/\(id)/leaves?limit=50")
      }
    }
    #expect(targets.contains { $0.contains("/leaves") })
    for target in targets {
      let (answer, reference) = (get(served, target), get(expected, target))
      #expect(reference.status == 200, "\(target)")
      #expect(answer.status == reference.status, "\(target)")
      #expect(
        String(decoding: answer.body, as: UTF8.self) == String(decoding: reference.body, as: UTF8.self), "\(target)")
    }
    let files = get(served, "/v1/photos/\(rows[1].id)").json["files"] as? [Any] ?? []
    #expect(files.count == 2)
  }

  @Test func onlyThePhotosAnswersShowAreRead() throws {
    let directory = try TemporaryDirectory()
    let store = try Self.store(.sqlite, in: directory.url)
    let holder = LoadedIndexHolder(open: reopener(for: store))
    try holder.refresh()
    let snapshot = holder.snapshot
    #expect(snapshot.details.cached == 0)
    let api = APIRouter(holder: holder, configuration: APIConfiguration())
    #expect(get(api, "/v1/near?lat=51.5&lon=-0.12&limit=3").status == 200)
    #expect(snapshot.details.cached == 3 && snapshot.count == Self.photos().count)
  }

  @Test func aPhotoRemovedSinceTheSnapshotIsLeftOut() throws {
    let directory = try TemporaryDirectory()
    let store = try Self.store(.sqlite, in: directory.url)
    let holder = LoadedIndexHolder(open: reopener(for: store))
    try holder.refresh()
    let api = APIRouter(holder: holder, configuration: APIConfiguration())
    let london = try #require(try store.locatedPhotos().photos.first { $0.title == "London" })
    try store.write { try store.delete(id: london.id) }
    // Until the next reload the tree still has it; the answer leaves it out instead of failing.
    let near = get(api, "/v1/near?lat=51.5&lon=-0.12&limit=2")
    #expect(near.status == 200)
    let titles = (near.json["annotations"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    #expect(titles.count == 1 && !titles.contains("London"))
    #expect(get(api, "/v1/photos/\(london.id)").status == 404)
    #expect(try holder.refresh() != nil)
    #expect(holder.snapshot.count == Self.photos().count - 1)
  }

  /// A new title changes the index's generation but no position: the snapshot takes the
  /// index's generation (not the tree's), reloads once, and shows the new title.
  @Test func aRetitledPhotoIsOneReload() throws {
    let directory = try TemporaryDirectory()
    let store = try Self.store(.sqlite, in: directory.url)
    try store.refreshDerivedIndexes()
    let holder = LoadedIndexHolder(open: reopener(for: store))
    try holder.refresh()
    #expect(holder.snapshot.generation == (try store.generation()))
    #expect(try holder.refresh() == nil)
    var london = try #require(try store.locatedPhotos().photos.first { $0.title == "London" })
    london.title = "London Bridge"
    try store.write { try store.upsert(PhotoRecord(photo: london), now: IndexTime.now()) }
    #expect(try holder.refresh() == (try store.generation()))
    #expect(try holder.refresh() == nil)
    let near = get(APIRouter(holder: holder, configuration: APIConfiguration()), "/v1/near?lat=51.5&lon=-0.12&limit=1")
    #expect((near.json["annotations"] as? [[String: Any]])?.first?["title"] as? String == "London Bridge")
  }

  /// A small sync of a large index is merged, not built again: near answers are byte for byte
  /// those of the same rows in memory, and every viewport shows every photo exactly once
  /// (moved and removed ones gone from their clusters, added ones as photos of their own)
  /// until the file is built again, when the clusters are again those of the rows.
  @Test(arguments: StoreKind.available)
  func changesSinceTheSpatialIndexAreMergedExactly(kind: StoreKind) throws {
    let directory = try TemporaryDirectory()
    let store = try makeScratchStore(kind, in: directory.url)
    (store as? SQLitePhotoStore)?.deltaPolicy.minimumPhotos = 0
    let points = SyntheticLibrary.points(count: 3_000, seed: 8)
    try store.write {
      for (i, p) in points.enumerated() {
        try store.upsert(record("/p/\(i).jpg", p.latitude, p.longitude, title: "P\(i)"), now: IndexTime.now())
      }
    }
    try store.refreshDerivedIndexes()
    let holder = LoadedIndexHolder(open: reopener(for: store))
    try holder.refresh()
    // Moved (one beside a photo far from it, one far away), removed, added (beside existing
    // photos and alone).
    try store.write {
      try store.upsert(record("/p/0.jpg", points[1].latitude, points[1].longitude, title: "P0"), now: IndexTime.now())
      try store.upsert(record("/p/2.jpg", -45, 170, title: "P2"), now: IndexTime.now())
      let firstID = try #require(try store.idRange()?.lowerBound)
      for i in [10, 11, 12] { try store.delete(id: firstID + Int64(i)) }
      for i in 0..<5 {
        let p = points[100 * i + 50]
        try store.upsert(
          record("/new/\(i).jpg", p.latitude, p.longitude + 0.0001, title: "N\(i)"), now: IndexTime.now())
      }
      try store.upsert(record("/new/alone.jpg", 0, -150, title: "alone"), now: IndexTime.now())
    }
    try store.refreshDerivedIndexes()
    if let sqlite = store as? SQLitePhotoStore {
      #expect(SpatialIndexFile.stamp(at: sqlite.spatialFileURL) != (try sqlite.stamp()))
    }
    #expect(try holder.refresh() != nil)
    // Two moved and three removed taken out; two moved and six new added.
    #expect(holder.snapshot.changeCount == 5 + 8)
    let (generation, rows) = try store.locatedPhotos()
    let inMemory = APIRouter(
      holder: LoadedIndexHolder(initial: LoadedIndex(generation: generation, photos: rows)) { nil })
    let served = APIRouter(holder: holder)
    #expect(holder.snapshot.count == rows.count)
    let near: [String] = [
      "/v1/near?lat=\(points[1].latitude)&lon=\(points[1].longitude)&limit=30", "/v1/near?lat=-45&lon=170&limit=3",
      "/v1/near?lat=0&lon=-150&limit=2&radius=100km", "/v1/near?lat=35&lon=139&limit=100&sort=time",
      "/v1/photos/\(rows[0].id)", "/v1/photos/\(rows[0].id + 10)",
    ]
    for target in near {
      let (answer, reference) = (get(served, target), get(inMemory, target))
      #expect(answer.status == reference.status, "\(target)")
      #expect(
        String(decoding: answer.body, as: UTF8.self) == String(decoding: reference.body, as: UTF8.self), "\(target)")
    }
    // Every photo once at every zoom: pins by id, clusters through their leaves.
    let current = Set(rows.map { $0.id })
    for zoom in [0, 2, 5, 9, 13] {
      let answer = get(served, "/v1/annotations?bbox=-180,-90,180,90&zoom=\(zoom)")
      let features = answer.json["features"] as? [[String: Any]] ?? []
      var seen: [Int64] = []
      for feature in features {
        let properties = feature["properties"] as? [String: Any] ?? [:]
        if let cluster = properties["cluster_id"] as? Int {
          let count = properties["point_count"] as? Int ?? 0
          let page = get(served, "/v1/clusters/\(cluster)/leaves?limit=1000")
          let leaves = page.json["features"] as? [[String: Any]] ?? []
          let ids = leaves.compactMap { ($0["properties"] as? [String: Any])?["id"] as? Int64 }
          #expect(ids.count == min(count, 1_000), "zoom \(zoom) cluster \(cluster)")
          seen += ids
        } else if let id = properties["id"] as? Int64 {
          seen.append(id)
        }
      }
      #expect(seen.count == current.count, "zoom \(zoom)")
      #expect(
        Set(seen) == current,
        "zoom \(zoom): missing \(current.subtracting(seen)), extra \(Set(seen).subtracting(current))")
    }
    // The file built again: the clusters are those of the rows.
    try store.rebuildDerivedIndexes()
    #expect(try holder.refresh(force: true) != nil)
    #expect(holder.snapshot.changeCount == 0)
    for target in ["/v1/annotations?bbox=-180,-85,180,85&zoom=3", "/v1/annotations?bbox=-180,-85,180,85&zoom=11"] {
      #expect(get(served, target).body == get(inMemory, target).body, "\(target)")
    }
  }

  /// A server that merges changes builds the spatial index again once the index has been
  /// quiet for its delay, then maps the new file: nothing is left to merge.
  @Test func aServerBuildsTheFileAgainWhenTheIndexIsQuiet() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: directory.url.appendingPathComponent("q.sqlite"), mode: .create)
    store.deltaPolicy.minimumPhotos = 0
    try store.write {
      for (i, p) in SyntheticLibrary.points(count: 500, seed: 4).enumerated() {
        try store.upsert(record("/p/\(i).jpg", p.latitude, p.longitude), now: IndexTime(seconds: 0))
      }
    }
    try store.refreshDerivedIndexes()
    let holder = LoadedIndexHolder(rebuildDelay: 0.3, open: reopener(for: store))
    try holder.refresh()
    let lines = Mutex<[String]>([])
    holder.watch(interval: 0.05) { line in lines.withLock { $0.append(line) } }
    defer { holder.stopWatching() }
    try store.write { try store.upsert(record("/p/new.jpg", 1, 2), now: IndexTime(seconds: 0)) }
    try store.refreshDerivedIndexes()
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline && !(lines.withLock { $0.contains { $0.contains("built again") } }) {
      Thread.sleep(forTimeInterval: 0.05)
    }
    let log = lines.withLock { $0 }
    #expect(log.contains { $0.contains("1 changed since the spatial index was built, merged") }, "\(log)")
    #expect(log.contains { $0.contains("spatial index built again") }, "\(log)")
    #expect(holder.snapshot.changeCount == 0 && holder.snapshot.count == 501)
    #expect(SpatialIndexFile.stamp(at: store.spatialFileURL) == (try store.stamp()))
  }

  /// A spatial index file damaged where only its checksum can tell (the header and layout
  /// intact) is found by the server reading it through after mapping it, and built again.
  @Test func aServerFindsADamagedFileAndBuildsItAgain() throws {
    let directory = try TemporaryDirectory()
    let store = try SQLitePhotoStore(url: directory.url.appendingPathComponent("v.sqlite"), mode: .create)
    try store.write {
      for (i, p) in SyntheticLibrary.points(count: 400, seed: 6).enumerated() {
        try store.upsert(record("/p/\(i).jpg", p.latitude, p.longitude), now: IndexTime(seconds: 0))
      }
    }
    try store.refreshDerivedIndexes()
    var bytes = try Data(contentsOf: store.spatialFileURL)
    let times = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 64 + 4 * 16, as: UInt64.self)) }
    bytes[times + 17] ^= 0x40  // a capture time: nothing a reader checks
    try bytes.write(to: store.spatialFileURL)
    let holder = LoadedIndexHolder(open: reopener(for: store))
    let lines = Mutex<[String]>([])
    holder.watch(interval: 0.05) { line in lines.withLock { $0.append(line) } }
    defer { holder.stopWatching() }
    try holder.refresh(force: true)
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline && !(lines.withLock { $0.contains { $0.contains("built again in") } }) {
      Thread.sleep(forTimeInterval: 0.05)
    }
    let log = lines.withLock { $0 }
    #expect(log.contains { $0.contains("the spatial index is damaged") }, "\(log)")
    #expect(log.contains { $0.contains("spatial index built again") }, "\(log)")
    #expect(SpatialIndexFile.verify(try SpatialIndexFile.open(store.spatialFileURL)))
    #expect(holder.snapshot.count == 400)
  }
}
