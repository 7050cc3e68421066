/// A set of photo ids, sorted, with its hash computed once: a shared link's scope, carried in a
/// `PhotoFilter` (which is a cache key) and tested for every candidate photo.
public struct PhotoIDSet: Hashable, Sendable {
  public let ids: [Int64]
  private let digest: UInt64

  public init(_ ids: some Sequence<Int64>) {
    let sorted = Array(Set(ids)).sorted()
    self.ids = sorted
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for id in sorted { h = (h ^ UInt64(bitPattern: id)) &* 0x0000_0100_0000_01B3 }
    digest = h
  }

  public var count: Int { ids.count }

  public func contains(_ id: Int64) -> Bool {
    var low = 0
    var high = ids.count
    while low < high {
      let mid = (low + high) / 2
      if ids[mid] < id { low = mid + 1 } else { high = mid }
    }
    return low < ids.count && ids[low] == id
  }

  public static func == (a: PhotoIDSet, b: PhotoIDSet) -> Bool { a.digest == b.digest && a.ids == b.ids }
  public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}
