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
  /// with the reason, and the others are still written.
  public func write(_ items: [(photo: String, position: XMPPosition)]) -> Summary {
    var summary = Summary()
    var listings: [String: SidecarListing<String>] = [:]
    for (photo, position) in items {
      let folder = String(photo[..<(photo.lastIndex(of: "/") ?? photo.startIndex)])
      do {
        if listings[folder] == nil {
          listings[folder] = try XMPSidecarFile.listing(ofFolder: folder.isEmpty ? "/" : folder)
        }
        switch try XMPSidecarFile.write(
          position: position, forPhoto: photo, naming: naming, overwrite: overwrite, folder: listings[folder])
        {
        case .created: summary.created += 1
        case .updated: summary.updated += 1
        case .leftAlone(let path, let reason): summary.leftAlone.append((path, reason))
        }
      } catch {
        summary.leftAlone.append((photo, "\(error)"))
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
