import Foundation
public import GeoPhotoCore
public import GeoPhotoExif

/// Positions written into photos' XMP sidecars (`--write-xmp`): each photo's own sidecar
/// updated, or a new one made beside it (`NAME.EXT.xmp`, or `NAME.xmp` in Lightroom's style);
/// a sidecar that already holds a position left alone unless `overwrite`. The images are never
/// opened. Each folder is listed once.
public struct SidecarWrites: Sendable {
  public var naming: SidecarNames.Style
  public var overwrite: Bool

  public init(naming: SidecarNames.Style = .full, overwrite: Bool = false) {
    self.naming = naming
    self.overwrite = overwrite
  }

  /// What was written, and what was left alone and why.
  public struct Summary: Sendable, Equatable {
    public var created = 0
    public var updated = 0
    public var leftAlone: [(path: String, reason: String)] = []

    public static func == (a: Summary, b: Summary) -> Bool {
      a.created == b.created && a.updated == b.updated
        && a.leftAlone.elementsEqual(b.leftAlone) { $0.path == $1.path && $0.reason == $1.reason }
    }
  }

  /// Writes each photo's position; a photo whose sidecar cannot be written is left alone
  /// with the reason, and the others are still written. Folders are written on `jobs` threads
  /// at once (the cores when not given), each folder's photos by one thread.
  public func write(
    _ items: [(photo: String, position: XMPPosition)], jobs: Int? = nil
  ) -> Summary {
    let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
    var folders: [(folder: String, items: [Int])] = []
    var folderIndex: [Substring: Int] = [:]
    for (i, item) in items.enumerated() {
      let folder = item.photo[..<(item.photo.lastIndex(of: "/") ?? item.photo.startIndex)]
      if let index = folderIndex[folder] {
        folders[index].items.append(i)
      } else {
        folderIndex[folder] = folders.count
        folders.append((folder.isEmpty ? "/" : String(folder), [i]))
      }
    }
    let groups = folders
    var outcomes = [Result<XMPSidecarFile.Outcome, any Error>?](repeating: nil, count: items.count)
    outcomes.withUnsafeMutableBufferPointer { buffer in
      nonisolated(unsafe) let out = buffer
      let workers = max(1, min(jobs, groups.count))
      DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for (folder, indices) in stride(from: worker, to: groups.count, by: workers).map({ groups[$0] }) {
          let listing = Result { try XMPSidecarFile.listing(ofFolder: folder) }
          for i in indices {
            out[i] = listing.flatMap { listing in
              Result {
                try XMPSidecarFile.write(
                  position: items[i].position, forPhoto: items[i].photo, naming: naming, overwrite: overwrite,
                  folder: listing)
              }
            }
          }
        }
      }
    }
    var summary = Summary()
    for (i, outcome) in outcomes.enumerated() {
      switch outcome {
      case .success(.created)?: summary.created += 1
      case .success(.updated)?: summary.updated += 1
      case .success(.leftAlone(let path, let reason))?: summary.leftAlone.append((path, reason))
      case .failure(let error)?: summary.leftAlone.append((items[i].photo, "\(error)"))
      case nil: break
      }
    }
    return summary
  }

  /// How many of `photos` have a sidecar that holds a position (what a later sync reads back).
  public static func holdingPositions(_ photos: [String]) -> Int {
    photos.filter { photo in
      guard let path = XMPSidecarFile.existingSidecar(forPhoto: photo),
        let file = try? ReadableFile(path: path, followingLinks: false),
        let bytes = try? file.readAll(limit: XMPSidecarFile.maximumSize)
      else { return false }
      return XMPSidecarWriter.holdsPosition(bytes)
    }.count
  }
}

extension GeotagEngine.Placed {
  /// What its sidecar records: the position, its altitude, and the fix's instant (none by hand).
  public var xmpPosition: XMPPosition {
    XMPPosition(coordinate: coordinate, altitude: altitude, instant: source.kind == .hand ? nil : instant)
  }
}
