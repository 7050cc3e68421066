public import Foundation
public import GeoPhotoCore

/// The on-disk form of what a server searches (`LocatedIndex`): the kd-tree of the located
/// photos, their tree positions by id, and the cluster hierarchy over the tree's points. It is
/// kept beside the index (`index.sqlite.spatial`; a PostgreSQL server keeps it in its cache
/// folder), written by `sync`, and memory-mapped by readers: a server starts by mapping it,
/// and its pages are the page cache's, not the server's own memory.
///
/// Layout: a `SectionedFile` (magic `GPSPATIX`, version 2) whose head's own fields are the
/// tree's leaf size, the point count and the stamp of the rows it was built from (positions
/// generation and database identity), and whose sections are:
///
/// - 0–6: the tree's ids (Int64), unit vectors (3 × Float64), split axes (UInt8), source tags
///   (UInt8), capture instants and wall clocks (Int64, `PointTimes.none` for none), and the
///   tree positions by ascending id (Int32);
/// - 7: the hierarchy's options and point count;
/// - then six per zoom `0 ... maxZoom + 1`: the level's coordinates (2 × Float64), ids,
///   counts, parents, positions and representatives (UInt32), as `ClusterIndex.Level` keeps
///   them.
///
/// Opening checks the header, the table and every column's length against the counts, which
/// is all a query needs to stay inside the file; the values are checked where they are used.
/// The checksum covers the rest: `verify` reads every byte (`geophoto check`, and a server
/// after it starts).
public enum SpatialIndexFile {
  /// Which rows a file was built from: the positions generation (it advances when a photo is
  /// added, moved or removed, not when places are renamed) and the database's identity.
  public struct Stamp: Equatable, Sendable, CustomStringConvertible {
    public var generation: Int64
    public var identity: Int64
    public init(generation: Int64, identity: Int64) {
      self.generation = generation
      self.identity = identity
    }
    public var description: String { "generation \(generation)" }
  }

  static let kind = SectionedFile.Kind(magic: "GPSPATIX", version: 2, name: "spatial index")
  static let treeSections = 7
  static let optionsSection = 7
  static let perLevel = 6

  /// A file that cannot be used, and why (one line).
  public typealias FormatError = DataFileError

  // MARK: Writing

  /// Writes `tree` with its positions by id and the hierarchy over its points (built here,
  /// level by level, straight into the file), atomically: a reader sees the old file or the
  /// new one.
  public static func write(
    _ tree: SpatialIndex, stamp: Stamp, to url: URL, clusterOptions: ClusterIndex.Options = ClusterIndex.Options()
  ) throws {
    let file = try AtomicFile(writingTo: url)
    let sectionCount = treeSections + 1 + perLevel * (clusterOptions.maxZoom + 2)
    var writer = try SectionedFile.Writer(file, sectionCount: sectionCount)
    func section<T: BitwiseCopyable>(_ index: Int, _ column: Column<T>) throws {
      try column.withUnsafeBytes { try writer.section(index, $0) }
    }
    let n = tree.count
    let times = tree.times ?? PointTimes(instants: noTimes(n), locals: noTimes(n))
    try section(0, tree.ids)
    try section(1, tree.vectors)
    try section(2, tree.axes)
    try section(3, tree.tags)
    try section(4, times.instants)
    try section(5, times.locals)
    try section(6, tree.positionsByID())
    var options: [UInt64] = [
      UInt64(clusterOptions.minZoom), UInt64(clusterOptions.maxZoom), UInt64(clusterOptions.minPoints),
      UInt64(clusterOptions.nodeSize), clusterOptions.radius.bitPattern, clusterOptions.extent.bitPattern,
      clusterOptions.order == .zOrder ? 0 : 1, UInt64(n),
    ]
    try options.withUnsafeMutableBytes { try writer.section(optionsSection, UnsafeRawBufferPointer($0)) }
    try ClusterIndex.build(points: (0..<n).map(tree.coordinate(at:)), options: clusterOptions) { zoom, level in
      let first = treeSections + 1 + perLevel * zoom
      try section(first, level.coords)
      try section(first + 1, level.ids)
      try section(first + 2, level.counts)
      try section(first + 3, level.parents)
      try section(first + 4, level.positions)
      try section(first + 5, level.representatives)
    }
    var fields: [UInt8] = []
    SectionedFile.append(UInt32(tree.leafSize), to: &fields)
    SectionedFile.append(UInt32(0), to: &fields)
    SectionedFile.append(UInt64(n), to: &fields)
    SectionedFile.append(stamp.generation, to: &fields)
    SectionedFile.append(stamp.identity, to: &fields)
    try writer.finish(kind, fields: fields)
    try file.commit()
  }

  private static func noTimes(_ n: Int) -> Column<Int64> {
    Column(count: n) { $0.initialize(repeating: PointTimes.none) }
  }

  // MARK: Reading

  /// The stamp in a file's header, without mapping the file; nil when there is no such file
  /// or it is not one of this version.
  public static func stamp(at url: URL) -> Stamp? { header(at: url)?.stamp }

  /// The lock that serialises builds of the file at `url` (`<file>.lock` beside it), taken:
  /// a build holds it from reading the rows to renaming the file into place, so the file
  /// there is always the newest built, in one process or several. Nil when the folder cannot
  /// hold one (a read-only index builds in memory only).
  public static func buildLock(beside url: URL) -> FileLock? {
    try? FileLock(path: url.path + ".lock")
  }

  /// The stamp and the point count in a file's header, without mapping the file.
  public static func header(at url: URL) -> (stamp: Stamp, count: Int)? {
    guard let head = kind.head(at: url) else { return nil }
    let (stamp, count, _) = fields(head)
    return (stamp, count)
  }

  /// The head's own fields: the leaf size, the point count and the stamp.
  private static func fields(_ head: SectionedFile.Head) -> (stamp: Stamp, count: Int, leafSize: Int) {
    head.fields.withUnsafeBytes { raw in
      let count = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      let stamp = Stamp(
        generation: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: Int64.self)),
        identity: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: Int64.self)))
      let leafSize = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)))
      return (stamp, Int(min(count, UInt64(Int.max))), leafSize)
    }
  }

  /// What a file holds, as views of its mapped bytes.
  public struct Contents: Sendable {
    public var stamp: Stamp
    public var tree: SpatialIndex
    public var positionsByID: Column<Int32>
    public var clusters: ClusterIndex
    /// The mapped file, for `verify`.
    public var file: SectionedFile.Reader
    public var bytes: MappedBytes { file.storage }

    /// Whether these are the bytes of the file at `url` now, not of one it has replaced.
    public func isMapped(from url: URL) -> Bool {
      file.storage.file != nil && file.storage.file == MappedBytes.FileIdentity(of: url)
    }
  }

  /// Maps the file at `url` and checks its layout (not its checksum: see `verify`).
  public static func open(_ url: URL) throws -> Contents {
    let name = url.lastPathComponent
    func fail(_ why: String) -> FormatError { FormatError(description: "\(name): \(why)") }
    let bytes: MappedBytes
    do {
      bytes = try MappedBytes(contentsOf: url, populate: false)
    } catch {
      throw fail("cannot be read")
    }
    let file: SectionedFile.Reader
    do {
      file = try SectionedFile.Reader(
        bytes, kind: kind, name: name, sectionCount: (treeSections + 2)...(treeSections + 1 + perLevel * 32))
    } catch {
      throw FormatError(description: error.description)
    }
    let (stamp, n, leafSize) = fields(file.head)
    guard n < ClusterIndex.maximumPointCount else { throw fail("damaged (its header)") }
    let ranges = file.ranges
    let sectionCount = ranges.count
    func column<T: BitwiseCopyable>(_ k: Int, count: Int, of: T.Type = T.self) throws -> Column<T> {
      guard ranges[k].count == count * MemoryLayout<T>.stride, let column = Column<T>(bytes, ranges[k]) else {
        throw fail("damaged (section \(k) has the wrong length)")
      }
      return column
    }
    do {
      var tree = try SpatialIndex(
        ids: column(0, count: n), vectors: column(1, count: 3 * n), axes: column(2, count: n),
        tags: column(3, count: n), leafSize: leafSize, checkingValues: false)
      tree.times = PointTimes(instants: try column(4, count: n), locals: try column(5, count: n))
      let positionsByID: Column<Int32> = try column(6, count: n)
      let stored: Column<UInt64> = try column(optionsSection, count: 8)
      var options = ClusterIndex.Options()
      guard stored[0] <= 30, stored[1] <= 30, stored[2] <= 1 << 20, stored[3] <= 1 << 20, stored[7] == UInt64(n) else {
        throw fail("damaged (its cluster options)")
      }
      options.minZoom = Int(stored[0])
      options.maxZoom = Int(stored[1])
      options.minPoints = Int(stored[2])
      options.nodeSize = Int(stored[3])
      options.radius = Double(bitPattern: stored[4])
      options.extent = Double(bitPattern: stored[5])
      options.order = stored[6] == 0 ? .zOrder : .input
      guard sectionCount == treeSections + 1 + perLevel * (options.maxZoom + 2) else {
        throw fail("damaged (its table of sections)")
      }
      var levels: [ClusterIndex.Level] = []
      for zoom in 0...(options.maxZoom + 1) {
        let first = treeSections + 1 + perLevel * zoom
        let items = ranges[first + 1].count / 4
        guard items <= n else { throw fail("damaged (level \(zoom) holds more items than points)") }
        levels.append(
          try ClusterIndex.Level(
            coords: column(first, count: 2 * items), ids: column(first + 1, count: items),
            counts: column(first + 2, count: items), parents: column(first + 3, count: items),
            positions: column(first + 4, count: items), representatives: column(first + 5, count: items),
            nodeSize: options.nodeSize))
      }
      let clusters = try ClusterIndex(options: options, pointCount: n, levels: levels)
      return Contents(stamp: stamp, tree: tree, positionsByID: positionsByID, clusters: clusters, file: file)
    } catch let error as FormatError {
      throw error
    } catch {
      throw fail("damaged (\(error))")
    }
  }

  /// Whether every byte after the header is as written: the checksum over the table and the
  /// sections, read through the whole mapped file.
  public static func verify(_ contents: Contents) -> Bool { contents.file.verify() }
}

extension SpatialIndexFile {
  /// What is wrong with the spatial index file at `url` against the rows it is derived from,
  /// one line each (none when it is sound), for every store's `check`: it is there when
  /// photos are located, it opens, its checksum matches, it is of these rows (its stamp and
  /// the changes since), it holds as many photos as the rows, and a sample of its points are
  /// the rows' photos at the rows' positions. A file that is only a cache on this machine (a
  /// shared index's) may be missing: `required` says whether that is a problem.
  public static func problems(
    at url: URL, rows: any PhotoReading, generation: Int64, stamp: Stamp,
    changes: (Int64) throws -> LocatedChanges.Rows?, required: Bool = true
  ) throws -> [String] {
    let file = url.lastPathComponent
    let located = try rows.counts().located
    guard FileManager.default.fileExists(atPath: url.path) else {
      return required && located > 0 ? ["\(file) is missing (check --repair builds it)"] : []
    }
    let contents: Contents
    do {
      contents = try open(url)
    } catch {
      return ["\(error) (check --repair builds it again)"]
    }
    guard verify(contents) else {
      return ["\(file) is damaged: its checksum does not match its contents (check --repair builds it again)"]
    }
    guard let index = try LocatedIndex(merging: contents, generation: generation, current: stamp, changes: changes)
    else {
      return ["\(file) is of other rows than the index's (check --repair builds it again)"]
    }
    var problems: [String] = []
    if index.count != located {
      problems.append("\(file) holds \(index.count) photos, the index \(located) with a location")
    }
    // A sample of the file's points against the rows: the same photos, at the same places.
    let live = index.positions
    let step = max(1, live.count / 500)
    let sample = stride(from: 0, to: live.count, by: step).map { (live[$0], index.id(at: live[$0])) }
    let found = Dictionary(
      try rows.photos(ids: sample.map(\.1)).map { ($0.id, $0.coordinate) }, uniquingKeysWith: { a, _ in a })
    var moved = 0
    for (position, id) in sample {
      guard let coordinate = found[id] ?? nil else {
        moved += 1
        continue
      }
      let v = GreatCircle.unitVector(coordinate)
      let w = GreatCircle.unitVector(index.coordinate(at: position))
      if abs(v.x - w.x) > 1e-9 || abs(v.y - w.y) > 1e-9 || abs(v.z - w.z) > 1e-9 { moved += 1 }
    }
    if moved > 0 {
      problems.append("\(file): \(moved) of \(sample.count) sampled photos are not where the index has them")
    }
    return problems
  }
}
