/// The one rule pairing a photo with its XMP sidecar, and the name a new sidecar gets.
///
/// A photo `IMG_0042.CR2` pairs with `IMG_0042.CR2.xmp` first (darktable, digiKam, Immich), then
/// `IMG_0042.xmp` (Lightroom, exiftool's `%d%f.xmp`). Names are compared without regard to case
/// (`img_0042.cr2.XMP` pairs too): cameras, card readers and tools disagree on case.
public enum SidecarNames {
  /// How a new sidecar is named.
  public enum Style: String, Sendable, CaseIterable {
    /// `NAME.EXT.xmp`: darktable, digiKam, Immich; never shared by two photos.
    case full
    /// `NAME.xmp`: Lightroom; shared by a RAW and a JPEG of the same name.
    case base
  }

  /// The key a sidecar named `name` pairs under (its name without `.xmp`, in lower case), or nil
  /// when `name` is not a sidecar's.
  public static func key(ofSidecarNamed name: some StringProtocol) -> String? {
    let lower = name.lowercased()
    guard lower.hasSuffix(".xmp") else { return nil }
    return String(lower.dropLast(4))
  }

  /// The keys the sidecar of a photo named `name` is looked up under, best first: the whole
  /// name, then the name without its extension (in lower case).
  public static func keys(forPhotoNamed name: some StringProtocol) -> [String] {
    let lower = name.lowercased()
    guard let dot = lower.lastIndex(of: "."), dot != lower.startIndex else { return [lower] }
    return [lower, String(lower[..<dot])]
  }

  /// The name of a new sidecar for the photo named `name`.
  public static func newName(forPhotoNamed name: String, style: Style) -> String {
    switch style {
    case .full: return name + ".xmp"
    case .base:
      guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + ".xmp" }
      return String(name[..<dot]) + ".xmp"
    }
  }
}

/// The sidecars of one folder, by the key they pair under, for pairing its photos by
/// `SidecarNames`' rule. When two sidecars differ only in case, the one whose name sorts first
/// (byte order) is kept, so a pairing never depends on the order a folder is listed in.
public struct SidecarListing<Value> {
  private var entries: [String: (name: String, value: Value)] = [:]

  public init() {}

  /// Adds the file named `name` (a name, not a path) when it is a sidecar's; false when not.
  @discardableResult
  public mutating func add(fileNamed name: String, _ value: Value) -> Bool {
    guard let key = SidecarNames.key(ofSidecarNamed: name) else { return false }
    if let kept = entries[key], Array(kept.name.utf8).lexicographicallyPrecedes(Array(name.utf8)) {
      return true
    }
    entries[key] = (name, value)
    return true
  }

  /// The sidecar of the photo named `name` and its file name, if the folder holds one.
  public func sidecar(forPhotoNamed name: some StringProtocol) -> (name: String, value: Value)? {
    for key in SidecarNames.keys(forPhotoNamed: name) {
      if let entry = entries[key] { return entry }
    }
    return nil
  }

  public var isEmpty: Bool { entries.isEmpty }
}

extension SidecarListing: Sendable where Value: Sendable {}
