/// A `ClusterIndex` as bytes, so a hierarchy built once (by `sync`) is read back instead of
/// built again (by every `serve` start).
///
/// Layout, little-endian, every section starting on 8 bytes: the options (min and max zoom,
/// min points, node size, radius, extent, visit order), the point count and the level count,
/// then each level: its item count, then xs, ys (Float64), ids (Int64), counts (Int32),
/// parents (Int64), cluster flags (UInt8), its kd-tree's ids (Int32) and coordinates (2 ×
/// Float64). Decoding checks every number a query indexes with, so damaged bytes give an
/// error, never an out-of-bounds read or an endless walk.
extension ClusterIndex {
  /// Bytes that `init(encoded:)` does not accept, and why.
  public struct DecodingError: Error, CustomStringConvertible {
    public var description: String
  }

  /// The hierarchy as bytes.
  public func encoded() -> [UInt8] {
    var out = ByteWriter()
    out.append(Int32(options.minZoom))
    out.append(Int32(options.maxZoom))
    out.append(Int32(options.minPoints))
    out.append(Int32(options.nodeSize))
    out.append(options.radius.bitPattern)
    out.append(options.extent.bitPattern)
    out.append(UInt64(options.order == .zOrder ? 0 : 1))
    out.append(UInt64(pointCount))
    out.append(UInt64(levels.count))
    for level in levels {
      out.append(UInt64(level.count))
      out.append(contentsOf: level.xs)
      out.append(contentsOf: level.ys)
      out.append(contentsOf: level.ids.map(Int64.init))
      out.append(contentsOf: level.counts)
      out.append(contentsOf: level.parents.map(Int64.init))
      out.append(contentsOf: level.isCluster.map { UInt8($0 ? 1 : 0) })
      out.append(contentsOf: level.tree.ids)
      out.append(contentsOf: level.tree.coords)
    }
    return out.bytes
  }

  /// Reads a hierarchy `encoded()` wrote.
  public init(encoded bytes: UnsafeRawBufferPointer) throws {
    var input = ByteReader(bytes)
    var options = Options()
    options.minZoom = Int(try input.read(Int32.self))
    options.maxZoom = Int(try input.read(Int32.self))
    options.minPoints = Int(try input.read(Int32.self))
    options.nodeSize = Int(try input.read(Int32.self))
    options.radius = Double(bitPattern: try input.read(UInt64.self))
    options.extent = Double(bitPattern: try input.read(UInt64.self))
    options.order = try input.read(UInt64.self) == 0 ? .zOrder : .input
    guard options.minZoom >= 0, options.minZoom <= options.maxZoom, options.maxZoom <= 30, options.nodeSize >= 1,
      options.radius.isFinite, options.extent.isFinite
    else { throw DecodingError(description: "options out of range") }
    let pointCount = try input.read(UInt64.self)
    guard pointCount < UInt64(Int32.max) else { throw DecodingError(description: "point count out of range") }
    guard try input.read(UInt64.self) == UInt64(options.maxZoom + 2) else {
      throw DecodingError(description: "level count does not match the zooms")
    }
    var levels: [Level] = []
    for zoom in 0...(options.maxZoom + 1) {
      let count = try input.read(UInt64.self)
      guard count <= pointCount else { throw DecodingError(description: "level \(zoom) holds more items than points") }
      let n = Int(count)
      var level = Level()
      level.xs = try input.read(Double.self, count: n)
      level.ys = try input.read(Double.self, count: n)
      level.ids = try input.read(Int64.self, count: n).map { Int($0) }
      level.counts = try input.read(Int32.self, count: n)
      level.parents = try input.read(Int64.self, count: n).map { Int($0) }
      level.isCluster = try input.read(UInt8.self, count: n).map { $0 != 0 }
      let treeIDs = try input.read(Int32.self, count: n)
      let treeCoords = try input.read(Double.self, count: 2 * n)
      guard (level.xs + level.ys + treeCoords).allSatisfy({ $0 >= 0 && $0 <= 1 }) else {
        throw DecodingError(description: "level \(zoom) has a position outside the Mercator square")
      }
      guard treeIDs.allSatisfy({ $0 >= 0 && Int($0) < n }) else {
        throw DecodingError(description: "level \(zoom)'s tree names an item it does not have")
      }
      for i in 0..<n {
        guard level.counts[i] >= 1 else { throw DecodingError(description: "level \(zoom) has an empty item") }
        if level.isCluster[i] {
          // Made at this zoom or a higher one: a walk down a cluster's children always ends.
          let local = level.ids[i] - Int(pointCount)
          let made = local % 32 - 1
          guard local >= 0, made >= zoom, made >= options.minZoom, made <= options.maxZoom else {
            throw DecodingError(description: "level \(zoom) has a cluster id out of range")
          }
        } else {
          guard level.ids[i] >= 0, level.ids[i] < Int(pointCount), level.counts[i] == 1 else {
            throw DecodingError(description: "level \(zoom) names a point it does not have")
          }
        }
      }
      level.tree = PlaneIndex(ids: treeIDs, coords: treeCoords, nodeSize: options.nodeSize)
      levels.append(level)
    }
    guard input.isAtEnd else { throw DecodingError(description: "bytes after the last level") }
    self.init(options: options, pointCount: Int(pointCount), levels: levels)
  }
}

/// Little-endian numbers and arrays of them, each array padded to 8 bytes.
private struct ByteWriter {
  var bytes: [UInt8] = []

  mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func append<T: BitwiseCopyable>(contentsOf values: [T]) {
    values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: repeatElement(0, count: (8 - bytes.count % 8) % 8))
  }
}

/// Reads what `ByteWriter` wrote, checking every length against what is left.
private struct ByteReader {
  let bytes: UnsafeRawBufferPointer
  var offset = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  var isAtEnd: Bool { offset == bytes.count }

  mutating func read<T: FixedWidthInteger>(_: T.Type) throws -> T {
    let size = MemoryLayout<T>.size
    guard bytes.count - offset >= size else { throw ClusterIndex.DecodingError(description: "the bytes end early") }
    defer { offset += size }
    return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
  }

  mutating func read<T: BitwiseCopyable>(_: T.Type, count: Int) throws -> [T] {
    let size = count * MemoryLayout<T>.stride
    let padded = size + (8 - size % 8) % 8
    guard count >= 0, bytes.count - offset >= padded else {
      throw ClusterIndex.DecodingError(description: "the bytes end early")
    }
    let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(
        from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size]))
      initialized = count
    }
    offset += padded
    return values
  }
}
