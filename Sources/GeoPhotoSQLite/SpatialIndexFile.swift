public import Foundation
public import GeoPhotoCore
internal import Glibc

/// The on-disk form of a `SpatialIndex`, kept next to the database (`index.sqlite.kdtree`) so
/// a cold `geophoto near` loads the tree instead of rebuilding it.
///
/// Layout, little-endian: a 40-byte header (magic `GPKDTREE`, format version, leaf size,
/// point count, then the version stamp of the database it was built from: generation and
/// database identity), then the ids (Int64), the unit vectors (3 × Float64 per point), the
/// split axes (UInt8), a tag per point, its source code (UInt8), so a source filter tests
/// a byte instead of looking photos up, then each point's capture time as an instant and as
/// wall-clock seconds (2 × Int64, `PointTimes.none` where there is none), so a time filter
/// does not either (version 3), and the last levels above the leaves may split by that
/// wall-clock time (axis 3, version 4; older files are rebuilt). A file whose stamp differs from the
/// database's is stale and ignored.
public enum SpatialIndexFile {
  /// Which state of which database a tree file was built from.
  public struct Stamp: Equatable, Sendable {
    public var generation: Int64
    public var identity: Int64
    public init(generation: Int64, identity: Int64) {
      self.generation = generation
      self.identity = identity
    }
  }

  static let magic = Array("GPKDTREE".utf8)
  static let version: UInt32 = 4
  static let headerSize = 40

  /// Writes atomically (temporary file + rename) so a reader never sees a partial tree.
  public static func write(_ index: SpatialIndex, stamp: Stamp, to url: URL) throws {
    let times =
      index.times
      ?? PointTimes(
        instants: [Int64](repeating: PointTimes.none, count: index.count),
        locals: [Int64](repeating: PointTimes.none, count: index.count))
    var data = Data(capacity: headerSize + index.count * 50)
    data.append(contentsOf: magic)
    append(version, to: &data)
    append(UInt32(index.leafSize), to: &data)
    append(UInt64(index.count), to: &data)
    append(stamp.generation, to: &data)
    append(stamp.identity, to: &data)
    index.ids.withUnsafeBytes { data.append(contentsOf: $0) }
    index.vectors.withUnsafeBytes { data.append(contentsOf: $0) }
    index.axes.withUnsafeBytes { data.append(contentsOf: $0) }
    index.tags.withUnsafeBytes { data.append(contentsOf: $0) }
    times.instants.withUnsafeBytes { data.append(contentsOf: $0) }
    times.locals.withUnsafeBytes { data.append(contentsOf: $0) }
    try writeAtomically(data, to: url)
  }

  /// Writes `data` beside `url` and renames it over `url`: rename(2) replaces the old file
  /// atomically, so a reader sees the old file or the new one, never a part.
  static func writeAtomically(_ data: Data, to url: URL) throws {
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    try data.write(to: temporary)
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
    }
  }

  /// The stamp recorded in the file's header, without reading the tree.
  public static func stamp(at url: URL) -> Stamp? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let header = try? handle.read(upToCount: headerSize), header.count == headerSize,
      Array(header.prefix(8)) == magic
    else { return nil }
    return header.withUnsafeBytes {
      Stamp(
        generation: $0.loadUnaligned(fromByteOffset: 24, as: Int64.self),
        identity: $0.loadUnaligned(fromByteOffset: 32, as: Int64.self))
    }
  }

  /// Reads the tree if the file exists, is intact and carries `stamp`.
  public static func read(from url: URL, stamp: Stamp) -> SpatialIndex? {
    guard let data = try? Data(contentsOf: url, options: .alwaysMapped),
      data.count >= headerSize
    else { return nil }
    return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> SpatialIndex? in
      guard Array(raw[0..<8]) == magic,
        raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == version
      else { return nil }
      let leafSize = Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
      let count = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
      let fileStamp = Stamp(
        generation: raw.loadUnaligned(fromByteOffset: 24, as: Int64.self),
        identity: raw.loadUnaligned(fromByteOffset: 32, as: Int64.self))
      guard fileStamp == stamp, count < UInt64(Int32.max) else { return nil }
      let n = Int(count)
      guard raw.count == headerSize + n * 8 + n * 24 + n + n + n * 16 else { return nil }
      func int64s(at offset: Int) -> [Int64] {
        [Int64](unsafeUninitializedCapacity: n) { buffer, initialized in
          UnsafeMutableRawBufferPointer(buffer).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n * 8]))
          initialized = n
        }
      }
      var offset = headerSize
      let ids = int64s(at: offset)
      offset += n * 8
      let vectors = [Double](unsafeUninitializedCapacity: 3 * n) { buffer, initialized in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + n * 24]))
        initialized = 3 * n
      }
      offset += n * 24
      let axes = Array(raw[offset..<offset + n])
      offset += n
      let tags = Array(raw[offset..<offset + n])
      offset += n
      guard var index = try? SpatialIndex(ids: ids, vectors: vectors, axes: axes, tags: tags, leafSize: leafSize)
      else { return nil }
      index.times = PointTimes(instants: int64s(at: offset), locals: int64s(at: offset + n * 8))
      return index
    }
  }

  private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }
}
