public import Foundation
public import GeoPhotoCore
import Synchronization

extension Gazetteer {
  /// A namer with this gazetteer: `PlaceRule` with candidates within `radius` metres.
  public func namer(within radius: Double) -> some PlaceNamer {
    LoadedNamer(gazetteer: self, radius: radius)
  }
}

struct LoadedNamer: PlaceNamer {
  let gazetteer: Gazetteer
  let radius: Double
  var identity: Int64 { Int64(gazetteer.identity) }

  func place(for coordinate: Coordinate) -> PlaceName? { gazetteer.placeName(at: coordinate, within: radius) }

  func timeZone(for coordinate: Coordinate, named place: PlaceName?) -> (identifier: String, source: OffsetSource)? {
    gazetteer.timeZone(at: coordinate, named: place)
  }
}

/// A namer over the gazetteer file at `url` that loads it the first time a place is asked
/// for: its identity comes from the file's head, so a run with nothing to name never pays
/// for loading it.
public final class GazetteerFileNamer: PlaceNamer {
  public let url: URL
  public let identity: Int64
  let radius: Double
  private let loaded = Mutex<LoadedNamer?>(nil)

  /// Nil when there is no readable gazetteer at `url`.
  public init?(url: URL, radius: Double) {
    guard let identity = Gazetteer.identity(at: url) else { return nil }
    self.url = url
    self.identity = Int64(identity)
    self.radius = radius
  }

  public func place(for coordinate: Coordinate) throws -> PlaceName? {
    guard let namer = try namer() else { return nil }
    // A lookup maps the pages it reads in some twenty columns, and the kernel maps 64 KiB
    // around each (fault-around), so naming photos spread over the world would soon hold most
    // of the file: every `pagesHandedBackEvery` places named, its pages are handed back, and
    // the next lookups read theirs again from the page cache.
    if named.add(1, ordering: .relaxed).newValue % Self.pagesHandedBackEvery == 0 {
      namer.gazetteer.releasePages()
    }
    return namer.place(for: coordinate)
  }

  /// How many places are named between two hand-backs of the file's pages.
  static let pagesHandedBackEvery = 125
  private let named = Atomic<Int>(0)

  /// Hands the gazetteer file's pages back until places are named again.
  public func rest() { loaded.withLock { $0 }?.gazetteer.releasePages() }

  public func timeZone(for coordinate: Coordinate, named place: PlaceName?) throws -> (
    identifier: String, source: OffsetSource
  )? {
    try namer()?.timeZone(for: coordinate, named: place)
  }

  /// Loads the gazetteer now (once): a sync asks for it ahead, on another thread.
  public func prepare() throws { _ = try namer() }

  /// The loaded gazetteer's namer: loaded under the lock, once; used outside it, so threads
  /// name places side by side.
  private func namer() throws -> LoadedNamer? {
    try loaded.withLock { namer in
      if namer == nil {
        do {
          namer = LoadedNamer(gazetteer: try Gazetteer(contentsOf: url), radius: radius)
        } catch {
          throw Gazetteer.FormatError(description: "the place-name file \(url.path) is damaged: \(error)")
        }
      }
      return namer
    }
  }
}
