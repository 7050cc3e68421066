import Dispatch
import Foundation
public import GeoPhotoCore
import Synchronization

/// Naming an index's places again (`PhotoStore.assignPlaces`), the same for every store.
///
/// Photos are read a batch at a time in id order, named on every core, and only those whose
/// place or capture time comes out different are written. The rows left as they were keep
/// the mark of the gazetteer that named them, and the store records that that mark now
/// stands for the new gazetteer too (the `place_stamps` table): re-naming an index with an
/// edition of the gazetteer that changes a few places writes only the photos of those places.
public enum PlaceRenaming {
  /// Photos read, named and written a batch at a time.
  public static let batchSize = 20_000

  /// What a batch reads of each photo: its position, capture time and place.
  static let columns = Set([.id, .latitude, .longitude] + PhotoWrite.renamedColumns).subtracting([.placeText])
  public static let selection = PhotoSelection(columns)

  /// The columns a batch reads: `selection`'s, then the gazetteer mark.
  public static let list = selection.list + ", place_gazetteer"
  /// The position of the gazetteer mark in `list`.
  public static let stampPosition = PhotoColumn.photo.filter(columns.contains).count

  /// The photos that `gazetteer` (a placeholder for its identity, such as `?1` or `$1::bigint`)
  /// has not named: located, with no mark, or a mark the gazetteer has not taken over.
  public static func unnamed(by gazetteer: String) -> String {
    """
    latitude IS NOT NULL AND (place_gazetteer IS NULL OR place_gazetteer != \(gazetteer)
      AND place_gazetteer NOT IN (SELECT stamp FROM place_stamps WHERE gazetteer = \(gazetteer)))
    """
  }

  /// A photo of a batch, as read.
  public struct Candidate: Sendable {
    public var photo: Photo
    /// The gazetteer mark it carries.
    public var stamp: Int64?

    /// A candidate from a row of `list`.
    @inlinable
    public init(row: some PhotoRow) {
      photo = Photo(row: selection.row(row))
      stamp = row.int64(at: stampPosition)
    }
  }

  /// What naming a batch again found.
  public struct Outcome: Sendable {
    /// The photos whose place or capture time changed, with the values of
    /// `PhotoWrite.renamedColumns` to write (and the new mark).
    public var changed: [(id: Int64, values: [StoreValue])] = []
    /// Photos that came out the same but carry no mark: the mark alone is written.
    public var unmarked: [Int64] = []
    /// The marks of photos that came out the same: they now stand for the new gazetteer too.
    public var keptStamps: Set<Int64> = []
  }

  /// Names every batch `read` gives (until an empty one) and hands each outcome to `write`, in
  /// order: the store reads the next batch while the cores name the one before. Returns how
  /// many photos were named.
  public static func run(
    with namer: any PlaceNamer, read: () throws -> [Candidate], write: (Outcome) throws -> Void
  ) throws -> Int {
    var named = 0
    var naming: (DispatchGroup, ResultBox)?
    while true {
      let batch = try read()
      if let (group, box) = naming {
        group.wait()
        naming = nil
        // The group is done, so its result is there.
        guard let result = box.result.withLock({ $0 }) else { preconditionFailure("a batch named without a result") }
        try write(result.get())
      }
      guard !batch.isEmpty else { return named }
      named += batch.count
      let group = DispatchGroup()
      let box = ResultBox()
      DispatchQueue.global().async(group: group) {
        let result = Result { try rename(batch, with: namer) }
        box.result.withLock { $0 = result }
      }
      naming = (group, box)
    }
  }

  /// A batch's outcome, handed from the thread that named it.
  final class ResultBox: Sendable {
    let result = Mutex<Result<Outcome, any Error>?>(nil)
  }

  /// Names `batch` with `namer`, spread over the cores.
  public static func rename(_ batch: [Candidate], with namer: any PlaceNamer) throws -> Outcome {
    let slices = min(ProcessInfo.processInfo.activeProcessorCount, max(1, batch.count / 1_000))
    let results = Mutex<[Int: Result<Outcome, any Error>]>([:])
    DispatchQueue.concurrentPerform(iterations: slices) { slice in
      let range = (batch.count * slice / slices)..<(batch.count * (slice + 1) / slices)
      let result = Result { () throws -> Outcome in
        var outcome = Outcome()
        for candidate in batch[range] {
          let old = candidate.photo
          guard let c = old.coordinate else { continue }
          var new = old
          new.place = try namer.place(for: c)
          if new.takesZoneFromPlace { new.placeCaptureTime(in: try namer.timeZone(for: c, named: new.place)) }
          if new.place != old.place || new.takenAt != old.takenAt || new.offsetSource != old.offsetSource
            || new.timeZone != old.timeZone || new.offsetAmbiguity != old.offsetAmbiguity
          {
            let record = PhotoRecord(photo: new)
            outcome.changed.append((old.id, PhotoWrite.renamedColumns.map { PhotoWrite.value($0, of: record) }))
          } else if let stamp = candidate.stamp {
            outcome.keptStamps.insert(stamp)
          } else {
            outcome.unmarked.append(old.id)
          }
        }
        return outcome
      }
      results.withLock { $0[slice] = result }
    }
    var outcome = Outcome()
    for slice in 0..<slices {
      guard let result = results.withLock({ $0[slice] }) else { continue }
      let part = try result.get()
      outcome.changed += part.changed
      outcome.unmarked += part.unmarked
      outcome.keptStamps.formUnion(part.keptStamps)
    }
    return outcome
  }
}
