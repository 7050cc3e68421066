/// A map annotation: what a map client shows for a photo (a pin with a title and subtitle),
/// the shape of MapKit's `MKAnnotation`, plus what list views need.
public struct Annotation: Hashable, Sendable {
  public var id: Int64
  public var source: PhotoSource
  public var coordinate: Coordinate
  public var title: String
  public var subtitle: String
  /// Metres from the query point, when the annotation answers a query.
  public var distance: Double?
  public var takenAt: CaptureDate?
  /// Where the capture time's offset comes from, the zone it was read in, and whether that
  /// zone skips or doubles the local time (see `Photo`).
  public var offsetSource: OffsetSource?
  public var timeZone: String?
  public var offsetAmbiguity: LocalTimeAmbiguity?
  /// The file path, for local photos only.
  public var path: String?
  /// The photo's page at its provider, for remote photos.
  public var url: String?
  public var thumbnailURL: String?
  /// Metres along a route to the point nearest the photo, when the annotation answers a
  /// route query (`distance` is then the distance from the route).
  public var distanceAlong: Double?
  /// The position was estimated (by geotag), not recorded by the camera.
  public var estimated = false
  /// Where an estimated position came from, when the index knows.
  public var estimateSource: EstimateSource?
  public var place: PlaceName?
  public var mediaType: MediaType = .photo
  /// A video's length in seconds.
  public var duration: Double?
  /// The shot's files with their roles (local photos), when the answer lists them.
  public var files: [PhotoFile] = []

  public init(
    id: Int64, source: PhotoSource, coordinate: Coordinate, title: String, subtitle: String,
    distance: Double? = nil, takenAt: CaptureDate? = nil, path: String? = nil, url: String? = nil,
    thumbnailURL: String? = nil
  ) {
    self.id = id
    self.source = source
    self.coordinate = coordinate
    self.title = title
    self.subtitle = subtitle
    self.distance = distance
    self.takenAt = takenAt
    self.path = path
    self.url = url
    self.thumbnailURL = thumbnailURL
  }

  /// The annotation for a located photo found `distance` metres from a query point, with the
  /// subtitle `SubtitleTemplate` makes.
  public init?(photo: borrowing Photo, distance: Double?) {
    guard let coordinate = photo.coordinate else { return nil }
    // Each member set where it lies (a delegating init would build the annotation and then
    // copy it).
    id = photo.id
    source = photo.source
    self.coordinate = coordinate
    title = photo.title
    subtitle = SubtitleTemplate(photo: photo).text(distance: distance)
    self.distance = distance
    takenAt = photo.takenAt
    path = photo.path
    url = photo.url
    thumbnailURL = photo.thumbnailURL
    estimated = photo.locationEstimated
    estimateSource = photo.estimateSource
    place = photo.place
    mediaType = photo.mediaType
    duration = photo.duration
    offsetSource = photo.offsetSource
    timeZone = photo.timeZone
    offsetAmbiguity = photo.offsetAmbiguity
  }
}

/// A photo's subtitle around the one part that depends on the query: the distance, which a
/// local photo shows when no place is near it.
///
/// Local photos say where and when (`Tokyo, Tokyo, JP · 2024-05-03`), or when and how far
/// (`2024-05-03 · 350 m`) when no place is near; remote photos say who, where and when
/// (`Ann Example · Tokyo, Tokyo, JP · 2024-05-03`): their providers ask for attribution.
/// Unknown parts are left out; the parts are joined by ` · `.
public struct SubtitleTemplate: Hashable, Sendable {
  /// The parts before the distance, joined.
  public var leading: String
  /// Whether the distance is a part (after `leading`, before `trailing`).
  public var showsDistance: Bool
  /// The parts after the distance, joined.
  public var trailing: String

  public init(photo: borrowing Photo) {
    // The place read once (each read of the optional member copies it).
    let label = photo.place?.label
    let date = photo.takenAt?.dateString
    let estimated = photo.locationEstimated ? "estimated location" : nil
    if photo.source == .local {
      if let label {
        leading = Self.joined([label, date, estimated])
        showsDistance = false
        trailing = ""
      } else {
        leading = Self.joined([date])
        showsDistance = true
        trailing = Self.joined([estimated])
      }
    } else {
      leading = Self.joined([photo.attribution, label, date])
      showsDistance = false
      trailing = ""
    }
  }

  /// The subtitle of an annotation `distance` metres from the query point (none: no distance).
  public func text(distance: Double?) -> String {
    guard showsDistance else { return leading }
    return Self.joined([leading, distance.map(DistanceFormat.human), trailing])
  }

  /// The non-empty parts, separated by ` · `; built by appending (this runs for every
  /// annotation of every answer).
  static func joined(_ parts: [String?]) -> String {
    var text = ""
    for case let part? in parts where !part.isEmpty {
      if !text.isEmpty { text += " · " }
      text += part
    }
    return text
  }
}

/// Human-readable distances, the way map apps print them.
public enum DistanceFormat {
  /// `350 m`, `2.4 km`, `24 km`: metres below 1 km, one decimal below 10 km, whole km above.
  public static func human(_ metres: Double) -> String {
    withHuman(metres) { String(decoding: $0, as: UTF8.self) }
  }

  /// `human(metres)` as UTF-8 for `body`, from a buffer on the stack (an answer writes one
  /// per annotation whose subtitle shows its distance).
  public static func withHuman<R>(_ metres: Double, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    guard metres.isFinite else { return withUnsafeBytes(of: UInt8(ascii: "?")) { body($0) } }
    let m = max(0, metres)
    var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &scratch) { buffer in
      // Written backwards from the end: the unit, then the digits.
      var start = buffer.count
      func put(_ text: StaticString) {
        start -= text.utf8CodeUnitCount
        UnsafeMutableRawBufferPointer(rebasing: buffer[start...]).copyMemory(
          from: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
      }
      func put(_ value: Int) {
        var v = value
        repeat {
          start -= 1
          buffer[start] = UInt8(ascii: "0") + UInt8(v % 10)
          v /= 10
        } while v > 0
      }
      if m < 999.5 {
        put(" m")
        put(Int(m.rounded()))
      } else if m / 1000 < 9.95 {
        let tenths = Int((m / 1000 * 10).rounded())
        put(" km")
        put(tenths % 10)
        put(".")
        put(tenths / 10)
      } else {
        put(" km")
        // Beyond any distance on Earth, clamped so the conversion cannot overflow.
        put(Int(min(m / 1000, 1e15).rounded()))
      }
      return body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
    }
  }
}
