public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A data file's bytes (the gazetteer, the basemap, the spatial index beside an index) for as
/// long as they are read: the file mapped read-only, or a copy of bytes already in memory.
/// Columns are typed views into it, never copies.
public final class MappedBytes: @unchecked Sendable {
  public let base: UnsafeRawPointer
  public let count: Int
  private let mapped: Bool
  /// The file mapped (its device and inode); nil for bytes copied from memory.
  public let file: FileIdentity?

  /// Which file a path names now: a file replaced by another under the same name is another.
  public struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(_ status: stat) {
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
    }

    /// The file at `url` now; nil when there is none.
    public init?(of url: URL) {
      var status = stat()
      guard stat(url.path, &status) == 0 else { return nil }
      self.init(status)
    }
  }

  /// The file at `url`, mapped. `populate` maps every page in one go (MAP_POPULATE: no fault
  /// per page on the first lookups), for small files read all over; otherwise the kernel is
  /// asked to read the file ahead (`readAhead`), and pages come in as they are touched (a large
  /// index starts answering before all of it is read), or, without `readAhead`, only the pages
  /// touched are read (a tile archive of a hundred gigabytes, read a tile at a time).
  public init(contentsOf url: URL, populate: Bool = true, readAhead: Bool = true) throws {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      let code: CocoaError.Code =
        errno == ENOENT ? .fileReadNoSuchFile : errno == EACCES ? .fileReadNoPermission : .fileReadUnknown
      throw CocoaError(code, userInfo: [NSFilePathErrorKey: url.path])
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
    count = Int(status.st_size)
    file = FileIdentity(status)
    guard count > 0 else {
      base = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8))
      mapped = false
      return
    }
    let address = mmap(nil, count, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0)
    guard let address, address != MAP_FAILED else {
      throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    if !populate { _ = madvise(address, count, readAhead ? MADV_WILLNEED : MADV_RANDOM) }
    base = UnsafeRawPointer(address)
    mapped = true
  }

  /// A copy of `data`, aligned for every column type.
  public init(_ data: Data) {
    let n = data.count
    let copy = UnsafeMutableRawPointer.allocate(byteCount: max(n, 8), alignment: 8)
    data.withUnsafeBytes { if let source = $0.baseAddress { copy.copyMemory(from: source, byteCount: n) } }
    count = n
    base = UnsafeRawPointer(copy)
    mapped = false
    file = nil
  }

  deinit {
    if mapped {
      munmap(UnsafeMutableRawPointer(mutating: base), count)
    } else {
      UnsafeMutableRawPointer(mutating: base).deallocate()
    }
  }

  public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

  /// Hands the mapped pages under `region` (a part of `bytes`) back to the kernel: they stop
  /// counting as this process's memory, and come in again from the page cache when they are
  /// next read (the mapping is read-only, so nothing is lost). A check that reads a whole
  /// column once calls it after, so the column's pages are held only while lookups use them.
  /// Bytes copied from memory are kept.
  public func release(_ region: UnsafeRawBufferPointer) {
    guard mapped, let start = region.baseAddress, region.count > 0, start >= base, start + region.count <= base + count
    else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let from = (start - base) / page * page
    let to = min(count, ((start - base) + region.count + page - 1) / page * page)
    _ = madvise(UnsafeMutableRawPointer(mutating: base + from), to - from, MADV_DONTNEED)
  }

  /// `release` for a column of the file.
  public func release<T>(_ column: UnsafeBufferPointer<T>) { release(UnsafeRawBufferPointer(column)) }

  /// The bytes of `range` as `T`s (little-endian, as the file is written, which every Linux
  /// platform Swift runs on reads as is); nil when the range is not a whole number of them or
  /// not aligned for them.
  public func column<T: BitwiseCopyable>(_ range: Range<Int>, of: T.Type = T.self) -> UnsafeBufferPointer<T>? {
    let size = MemoryLayout<T>.stride
    guard range.lowerBound >= 0, range.upperBound <= count, range.count % size == 0,
      range.lowerBound % MemoryLayout<T>.alignment == 0
    else { return nil }
    return UnsafeBufferPointer(
      start: (base + range.lowerBound).assumingMemoryBound(to: T.self), count: range.count / size)
  }
}
