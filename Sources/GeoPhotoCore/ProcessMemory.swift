/// How a long-running process's memory goes back to the system (glibc's allocator): the
/// server's between snapshots, a watcher's after its first sync.
///
/// A snapshot is a few large arrays (photos, the kd-tree, the clusters) replaced whole at each
/// reload. glibc would otherwise raise its threshold for mapping large blocks each time one is
/// freed, so the next snapshot's arrays land in the heap among small blocks, and the freed
/// pages of the old one stay with the process.
public enum ProcessMemory {
  /// Blocks from 256 KiB up get pages of their own, returned whole when freed (a fixed
  /// threshold, which also stops glibc from raising it).
  public static func keepLargeBlocksApart() {
    #if canImport(Glibc)
      _ = mallopt(mmapThreshold, 256 << 10)
    #endif
  }

  /// Returns the allocator's free memory to the system.
  public static func releaseFreed() {
    #if canImport(Glibc)
      _ = mallocTrim(0)
    #endif
  }

  #if canImport(Glibc)
    /// `M_MMAP_THRESHOLD` of <malloc.h>.
    private static let mmapThreshold: Int32 = -3
  #endif
}

#if canImport(Glibc)
  // Declared in <malloc.h>, which the Glibc module leaves out.
  @_silgen_name("malloc_trim")
  private func mallocTrim(_ pad: Int) -> Int32

  @_silgen_name("mallopt")
  private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
