import GeoPhotoCore
import GeoPhotoEncoding
import Synchronization

/// A snapshot's photos as pre-encoded annotations (`EncodedAnnotation`), made on first use and
/// kept in a bounded cache: the fifty annotations of a `/v1/near` answer are the same bytes in
/// every answer but for their distances, so an answer copies them instead of encoding them.
///
/// The cache belongs to one snapshot (its photos never change). It is split into shards with a
/// lock each; a shard keeps its fragments one after another in one buffer of bytes, found by
/// plain offsets (copying one out costs no reference counting), and starts over when the
/// buffer is full. Fragments are made outside the locks, so a miss holds up no other request.
final class AnnotationFragments: Sendable {
  /// About 100,000 annotations of a few hundred bytes.
  static let defaultCapacity = 32 << 20
  private static let shardCount = 16

  private struct Slot {
    var start: Int
    var count: Int
    var layout: EncodedAnnotation.Layout
  }

  /// A photo's fragment in one form.
  private struct Key: Hashable {
    var id: Int64
    var form: EncodedAnnotation.Form

    var shard: Int { Int(UInt64(bitPattern: id) % UInt64(AnnotationFragments.shardCount)) }
  }

  private struct Shard {
    var bytes: [UInt8] = []
    var slots: [Key: Slot] = [:]
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
    shardCapacity = max(1 << 12, capacity / Self.shardCount)
  }

  /// Writes the annotation of the photo `id` in `form`, `distance` metres from the query
  /// point; `make` encodes it when it is not kept. False when `make` has none.
  func write(
    id: Int64, form: EncodedAnnotation.Form, distance: Double?, to w: inout JSONWriter,
    make: () throws -> EncodedAnnotation?
  ) rethrows -> Bool {
    let key = Key(id: id, form: form)
    let lock = shards[key.shard]
    let kept = lock.shard.withLock { shard -> Bool in
      guard let slot = shard.slots[key] else { return false }
      shard.bytes.withUnsafeBytes { all in
        w.annotation(
          encoded: UnsafeRawBufferPointer(rebasing: all[slot.start..<(slot.start + slot.count)]),
          layout: slot.layout, distance: distance)
      }
      return true
    }
    if kept { return true }
    guard let made = try make() else { return false }
    w.annotation(made, distance: distance)
    let capacity = shardCapacity
    lock.shard.withLock { shard in
      guard shard.slots[key] == nil, made.bytes.count <= capacity else { return }
      if shard.bytes.count + made.bytes.count > capacity {
        shard.bytes.removeAll(keepingCapacity: true)
        shard.slots.removeAll(keepingCapacity: true)
      }
      shard.slots[key] = Slot(start: shard.bytes.count, count: made.bytes.count, layout: made.layout)
      shard.bytes += made.bytes
    }
    return true
  }

  /// Those of `ids` whose fragment in `form` is not kept: what an answer reads from the store.
  func missing(_ ids: some Sequence<Int64>, form: EncodedAnnotation.Form) -> [Int64] {
    ids.filter { id in
      let key = Key(id: id, form: form)
      return shards[key.shard].shard.withLock { $0.slots[key] == nil }
    }
  }

  /// How many fragments are kept, and in how many bytes.
  var usage: (fragments: Int, bytes: Int) {
    shards.reduce((0, 0)) { sum, lock in
      lock.shard.withLock { (sum.0 + $0.slots.count, sum.1 + $0.bytes.count) }
    }
  }
}

extension IndexSnapshot {
  /// Writes the photos of `neighbors` as the API's annotations show them (their files, no
  /// paths), each with its distance, from their fragments (encoded once per snapshot); the
  /// photos without one are read from the store together. A photo removed from the index
  /// since this snapshot was made is left out.
  func writeAnnotations(
    _ neighbors: [Neighbor], form: EncodedAnnotation.Form, known: [Int64: PhotoDetail] = [:], to w: inout JSONWriter
  ) throws {
    var read = known
    let missing = fragments.missing(neighbors.lazy.map(\.id), form: form).filter { read[$0] == nil }
    if !missing.isEmpty { read.merge(try details(missing)) { a, _ in a } }
    for n in neighbors {
      _ = try fragments.write(id: n.id, form: form, distance: n.distance, to: &w) {
        guard let detail = try read[n.id] ?? details([n.id])[n.id],
          var annotation = Annotation(photo: detail.photo, distance: nil)
        else { return nil }
        annotation.files = files(of: detail)
        return EncodedAnnotation(
          annotation, subtitle: SubtitleTemplate(photo: detail.photo), form: form,
          options: AnnotationDocument.Options(includePaths: false))
      }
    }
  }
}
