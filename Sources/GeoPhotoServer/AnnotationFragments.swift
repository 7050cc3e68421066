import GeoPhotoCore
import GeoPhotoEncoding
import Synchronization

/// A snapshot's photos as pre-encoded annotations (`EncodedAnnotation`), made on first use and
/// kept in a bounded cache: the fifty annotations of a `/v1/near` answer are the same bytes in
/// every answer but for their distances, so an answer copies them instead of encoding them.
///
/// The cache belongs to one snapshot (its photos never change). It is split into shards with a
/// lock each; a shard keeps its fragments one after another in one buffer of bytes, found by
/// plain offsets through a `FragmentTable` (copying one out costs no reference counting and no
/// hashing beyond a multiply), and starts over when the buffer is full. Fragments are made
/// outside the locks, so a miss holds up no other request.
final class AnnotationFragments: Sendable {
  /// About 100,000 annotations of a few hundred bytes.
  static let defaultCapacity = 32 << 20
  private static let shardCount = 16

  private struct Shard {
    var bytes: [UInt8] = []
    var table = FragmentTable()
  }

  private final class Lock: Sendable {
    let shard = Mutex(Shard())
  }

  private let shards: [Lock]
  /// The most bytes one shard keeps.
  private let shardCapacity: Int

  /// A cache of at most `capacity` bytes of fragments.
  init(capacity: Int = AnnotationFragments.defaultCapacity) {
    shards = (0..<Self.shardCount).map { _ in Lock() }
    shardCapacity = min(Int(UInt32.max), max(1 << 12, capacity / Self.shardCount))
  }

  @inline(__always)
  private func lock(of id: Int64) -> Lock {
    shards[Int(UInt64(bitPattern: id) % UInt64(Self.shardCount))]
  }

  /// Writes the kept annotation of the photo `id` in `form`, `distance` metres from the query
  /// point; false, writing nothing, when it is not kept.
  func writeKept(id: Int64, form: EncodedAnnotation.Form, distance: Double?, to w: inout JSONWriter) -> Bool {
    let key = FragmentTable.Key(id: id, form: form)
    return lock(of: id).shard.withLock { shard -> Bool in
      guard let slot = shard.table[key] else { return false }
      shard.bytes.withUnsafeBytes { all in
        w.annotation(
          encoded: UnsafeRawBufferPointer(rebasing: all[slot.start..<(slot.start + slot.count)]),
          layout: slot.layout, distance: distance)
      }
      return true
    }
  }

  /// Keeps `made`, the annotation of the photo `id` in `form`, unless it is kept already or
  /// larger than a shard.
  func keep(_ made: EncodedAnnotation, id: Int64, form: EncodedAnnotation.Form) {
    let key = FragmentTable.Key(id: id, form: form)
    let capacity = shardCapacity
    lock(of: id).shard.withLock { shard in
      guard shard.table[key] == nil, made.bytes.count <= capacity else { return }
      if shard.bytes.count + made.bytes.count > capacity {
        shard.bytes.removeAll(keepingCapacity: true)
        shard.table.removeAll()
      }
      shard.table.insert(key, FragmentTable.Slot(start: shard.bytes.count, layout: made.layout))
      shard.bytes += made.bytes
    }
  }

  /// Those of `ids` whose fragment in `form` is not kept: what an answer reads from the store.
  func missing(_ ids: some Sequence<Int64>, form: EncodedAnnotation.Form) -> [Int64] {
    ids.filter { id in
      let key = FragmentTable.Key(id: id, form: form)
      return lock(of: id).shard.withLock { $0.table[key] == nil }
    }
  }

  /// How many fragments are kept, and in how many bytes.
  var usage: (fragments: Int, bytes: Int) {
    shards.reduce((0, 0)) { sum, lock in
      lock.shard.withLock { (sum.0 + $0.table.count, sum.1 + $0.bytes.count) }
    }
  }
}

extension LoadedIndex {
  /// Writes the photos of `neighbors` as the API's annotations show them (their files, no
  /// paths), each with its distance, from their fragments (encoded once per snapshot); the
  /// photos without one are read from the store together. A photo removed from the index
  /// since this snapshot was made is left out.
  func writeAnnotations(
    _ neighbors: [Neighbor], form: EncodedAnnotation.Form, known: [Int64: PhotoDetail] = [:], to w: inout JSONWriter
  ) throws {
    var read = known
    var readTogether = false
    for (position, n) in neighbors.enumerated() {
      // Kept: one lookup, and the bytes copied with the distance written in.
      if fragments.writeKept(id: n.id, form: form, distance: n.distance, to: &w) { continue }
      if !readTogether {
        // The first photo not kept: the details of it and of every later one not kept are
        // read from the store together.
        readTogether = true
        let missing = fragments.missing(neighbors[position...].lazy.map(\.id), form: form).filter { read[$0] == nil }
        if !missing.isEmpty { read.merge(try details(missing)) { a, _ in a } }
      }
      guard let detail = try read[n.id] ?? details([n.id])[n.id],
        var annotation = Annotation(photo: detail.photo, distance: nil)
      else { continue }
      annotation.files = files(of: detail)
      let made = EncodedAnnotation(
        annotation, subtitle: SubtitleTemplate(photo: detail.photo), form: form,
        options: AnnotationDocument.Options(includePaths: false))
      w.annotation(made, distance: n.distance)
      fragments.keep(made, id: n.id, form: form)
    }
  }
}
