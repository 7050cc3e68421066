public import Foundation
public import GeoPhotoCore

/// The on-disk form of the cluster hierarchy over the kd-tree's points (point `i` is the
/// tree's point `i`), kept next to the database (`index.sqlite.clusters`) so `serve` starts
/// by reading it instead of building it.
///
/// Layout, little-endian: a 40-byte header (magic `GPCLUSTR`, format version, 4 bytes of
/// padding, the version stamp of the database it was built from as the kd-tree file has it,
/// and the fingerprint of the tree whose points it clusters), then `ClusterIndex.encoded()`.
/// A file whose stamp or tree differs is stale and ignored.
public enum ClusterIndexFile {
  static let magic = Array("GPCLUSTR".utf8)
  static let version: UInt32 = 1
  static let headerSize = 40

  /// Writes atomically, so a reader never sees a partial hierarchy.
  public static func write(
    _ clusters: ClusterIndex, stamp: SpatialIndexFile.Stamp, tree: SpatialIndex, to url: URL
  ) throws {
    let body = clusters.encoded()
    var data = Data(capacity: headerSize + body.count)
    data.append(contentsOf: magic)
    let header = [
      UInt64(version), UInt64(bitPattern: stamp.generation), UInt64(bitPattern: stamp.identity), tree.fingerprint,
    ]
    for value in header {
      withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
    data.append(contentsOf: body)
    try SpatialIndexFile.writeAtomically(data, to: url)
  }

  /// The stamp in the file's header, without reading the hierarchy.
  public static func stamp(at url: URL) -> SpatialIndexFile.Stamp? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let header = try? handle.read(upToCount: headerSize) else { return nil }
    return header.withUnsafeBytes { stamp(in: $0) }
  }

  private static func stamp(in header: UnsafeRawBufferPointer) -> SpatialIndexFile.Stamp? {
    guard header.count >= headerSize, Array(header[0..<8]) == magic,
      header.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == version
    else { return nil }
    return SpatialIndexFile.Stamp(
      generation: header.loadUnaligned(fromByteOffset: 16, as: Int64.self),
      identity: header.loadUnaligned(fromByteOffset: 24, as: Int64.self))
  }

  /// Reads the hierarchy if the file exists, is intact, carries `stamp` and clusters the
  /// points of `tree`.
  public static func read(from url: URL, stamp: SpatialIndexFile.Stamp, tree: SpatialIndex) -> ClusterIndex? {
    guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return nil }
    return data.withUnsafeBytes { raw -> ClusterIndex? in
      guard self.stamp(in: raw) == stamp, raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self) == tree.fingerprint,
        let clusters = try? ClusterIndex(encoded: UnsafeRawBufferPointer(rebasing: raw[headerSize...])),
        clusters.pointCount == tree.count
      else { return nil }
      return clusters
    }
  }
}
