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
  /// The position was estimated from a GPS track, not recorded by the camera.
  public var estimated = false
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

  /// The annotation for a located photo found `distance` metres from a query point.
  ///
  /// Local photos say where and when (`Tokyo, Tokyo, JP · 2024-05-03`), or when and how far
  /// (`2024-05-03 · 350 m`) when no place is near; remote photos say who, where and when
  /// (`Ann Example · Tokyo, Tokyo, JP · 2024-05-03`): their providers ask for attribution.
  /// Unknown parts are left out.
  public init?(photo: borrowing Photo, distance: Double?) {
    guard let coordinate = photo.coordinate else { return nil }
    // Built by appending: this runs for every annotation of every answer.
    var subtitle = ""
    func add(_ part: String?) {
      guard let part, !part.isEmpty else { return }
      if !subtitle.isEmpty { subtitle += " · " }
      subtitle += part
    }
    // The place read once (each read of the optional member copies it).
    let label = photo.place?.label
    if photo.source == .local {
      if let label {
        add(label)
        add(photo.takenAt?.dateString)
      } else {
        add(photo.takenAt?.dateString)
        add(distance.map(DistanceFormat.human))
      }
      if photo.locationEstimated { add("estimated location") }
    } else {
      add(photo.attribution)
      add(label)
      add(photo.takenAt?.dateString)
    }
    // Each member set where it lies (a delegating init would build the annotation and then
    // copy it).
    id = photo.id
    source = photo.source
    self.coordinate = coordinate
    title = photo.title
    self.subtitle = subtitle
    self.distance = distance
    takenAt = photo.takenAt
    path = photo.path
    url = photo.url
    thumbnailURL = photo.thumbnailURL
    estimated = photo.locationEstimated
    place = photo.place
    mediaType = photo.mediaType
    duration = photo.duration
    offsetSource = photo.offsetSource
    timeZone = photo.timeZone
    offsetAmbiguity = photo.offsetAmbiguity
  }
}

/// Human-readable distances, the way map apps print them.
public enum DistanceFormat {
  /// `350 m`, `2.4 km`, `24 km`: metres below 1 km, one decimal below 10 km, whole km above.
  public static func human(_ metres: Double) -> String {
    guard metres.isFinite else { return "?" }
    let m = max(0, metres)
    if m < 999.5 { return "\(Int(m.rounded())) m" }
    let km = m / 1000
    if km < 9.95 {
      let tenths = Int((km * 10).rounded())
      return "\(tenths / 10).\(tenths % 10) km"
    }
    return "\(Int(km.rounded())) km"
  }
}
