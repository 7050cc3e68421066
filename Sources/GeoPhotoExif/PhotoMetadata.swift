public import GeoPhotoCore

/// What geophoto takes from a photo's metadata: its EXIF block, filled in or corrected by XMP.
public struct PhotoMetadata: Equatable, Sendable {
  /// A plausible GPS position, or `nil` (no GPS, empty values, out of range, exactly 0,0).
  public var coordinate: Coordinate?
  /// Metres above sea level; negative below.
  public var altitude: Double?
  /// `DateTimeOriginal` with `OffsetTimeOriginal`, or with an offset inferred from the GPS
  /// time, or floating when neither is there.
  public var takenAt: CaptureDate?
  /// Whether `takenAt`'s offset was worked out from the GPS time (else it was recorded).
  public var offsetFromGPS = false
  /// `ImageDescription`, else `XPTitle`; `nil` when neither holds real text.
  public var title: String?
  public var cameraMake: String?
  public var cameraModel: String?
  public var width: Int?
  public var height: Int?
  public var orientation: Int?
  /// A video's length in seconds.
  public var duration: Double?
  /// A longer text about the photo (XMP `dc:description`, a Takeout description).
  public var description: String?
  /// Keywords and tags, in order, without repeats.
  public var keywords: [String] = []
  /// The Live Photo identifier: Apple's MakerNote media group UUID in a still, the
  /// `com.apple.quicktime.content.identifier` key in a video.
  public var contentIdentifier: String?
  /// What was wrong with the file, when something was (the sync's one warning for it); the
  /// values above are what could still be read.
  public var damage: DataDamage?

  public init() {}
}

extension PhotoMetadata {
  /// Takes values from XMP: all that are present when `overriding` (a sidecar, which photo
  /// editors write as corrections), else only those the EXIF lacked (an embedded packet).
  public mutating func merge(_ xmp: XMPMetadata, overriding: Bool) {
    if let c = xmp.coordinate, overriding || coordinate == nil {
      coordinate = c
      altitude = xmp.altitude ?? (overriding ? nil : altitude)
    }
    if let t = xmp.title, overriding || title == nil { title = t }
    if let d = xmp.takenAt, overriding || takenAt == nil {
      takenAt = d
      offsetFromGPS = false
    }
    if let d = xmp.description, overriding || description == nil { description = d }
    if !xmp.keywords.isEmpty {
      keywords = overriding ? xmp.keywords : keywords + xmp.keywords.filter { !keywords.contains($0) }
    }
  }
}

extension PhotoMetadata {
  /// Takes what EXIF and XMP lacked from an IPTC-IIM block: the object name as a title, the
  /// caption as a description (unless it only repeats the title, as editors that copy one
  /// caption everywhere write it), and keywords not already there.
  public mutating func merge(_ iptc: IPTCMetadata) {
    if title == nil { title = iptc.title }
    if description == nil, let caption = iptc.caption, caption != title { description = caption }
    keywords += iptc.keywords.filter { !keywords.contains($0) }
  }
}
