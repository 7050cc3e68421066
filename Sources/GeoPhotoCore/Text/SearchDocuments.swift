/// The searched text of many photos in one flat buffer (`SearchText.document(of:)` of each,
/// one after another), scanned a needle at a time: what answers a text filter where no
/// store index is at hand, such as the server's in-memory snapshot.
public struct SearchDocuments: Sendable {
  /// Every document's UTF-8 bytes, each followed by a zero byte (no needle holds one).
  private let bytes: [UInt8]
  /// Where document `i` starts; `starts[count]` is the end.
  private let starts: [Int]

  public init(_ documents: some Sequence<String>) {
    var bytes: [UInt8] = []
    var starts: [Int] = [0]
    for document in documents {
      bytes.append(contentsOf: document.utf8)
      bytes.append(0)
      starts.append(bytes.count)
    }
    self.bytes = bytes
    self.starts = starts
  }

  public var count: Int { starts.count - 1 }

  /// The positions of the documents that hold every needle of `query`, ascending.
  public func positions(matching query: TextQuery) -> [Int] {
    guard let first = query.searches.first else { return Array(0..<count) }
    return bytes.withUnsafeBufferPointer { all in
      // The first needle by one scan of everything, jumping to the next document on a hit.
      var found: [Int] = []
      var offset = 0
      while let hit = first.firstOffset(in: all, from: offset) {
        let document = self.document(containing: hit)
        found.append(document)
        offset = starts[document + 1]
      }
      // The others within the documents found.
      for search in query.searches.dropFirst() {
        found = found.filter { document in
          let slice = UnsafeBufferPointer(rebasing: all[starts[document]..<starts[document + 1]])
          return search.occurs(in: slice)
        }
      }
      return found
    }
  }

  /// The document whose bytes hold `offset`.
  private func document(containing offset: Int) -> Int {
    var lo = 0
    var hi = count
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if starts[mid] <= offset { lo = mid } else { hi = mid }
    }
    return lo
  }
}
