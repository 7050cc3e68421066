/// Where a photo is, as the offline gazetteer names it: a populated place (`PlaceRule` picks
/// the one a local would name), or only the country when no place is near.
public struct PlaceName: Hashable, Sendable {
  public var name: String
  public var admin1: String
  public var admin2: String
  public var countryCode: String
  /// Metres from the photo to the place's centre (0 for a country).
  public var distance: Double
  /// The place's population, when the gazetteer lists one.
  public var population: Int?
  /// The place's IANA time zone (`Asia/Tokyo`).
  public var timeZone: String?
  /// The place's GeoNames id.
  public var geonameID: Int?
  /// Whether this names only the country (`name` is the country's name): nothing nearer was
  /// within reach.
  public var isCountry: Bool

  @inlinable
  public init(
    name: String, admin1: String, admin2: String, countryCode: String, distance: Double, population: Int? = nil,
    timeZone: String? = nil, geonameID: Int? = nil
  ) {
    self.name = name
    self.admin1 = admin1
    self.admin2 = admin2
    self.countryCode = countryCode
    self.distance = distance
    self.population = population
    self.timeZone = timeZone
    self.geonameID = geonameID
    isCountry = false
  }

  /// The country alone: `Antarctica` at McMurdo.
  public init(country: String, code: String) {
    self.init(name: country, admin1: "", admin2: "", countryCode: code, distance: 0)
    isCountry = true
  }

  /// `Chūō, Tokyo, JP`: name, first-level division, country, empty parts left out; a country
  /// alone is its name.
  public var label: String {
    // Appended rather than joined: every annotation of every answer asks for it.
    var label = name
    guard !isCountry else { return label }
    func add(_ part: String) {
      guard !part.isEmpty else { return }
      if !label.isEmpty { label += ", " }
      label += part
    }
    add(admin1)
    add(countryCode)
    return label
  }
}

/// What an index entry shows: a still photo, or a video (which carries a position too).
public enum MediaType: String, Hashable, Sendable, CaseIterable {
  case photo, video
}

/// One photo as the index knows it, whatever its source.
public struct Photo: Hashable, Sendable {
  /// Stable id: survives moves, renames and metadata edits.
  public var id: Int64
  public var source: PhotoSource
  /// The source's own key: the absolute path for local photos, the provider's id otherwise.
  public var sourceID: String
  /// The file of a local photo: its source id, an absolute path (nil for other sources).
  public var path: String? { source == .local ? sourceID : nil }
  /// `nil` for photos without a usable location; those never answer spatial queries.
  public var coordinate: Coordinate?
  /// Metres above sea level (negative below).
  public var altitude: Double?
  public var takenAt: CaptureDate?
  /// Where `takenAt`'s offset comes from (nil for a floating time).
  public var offsetSource: OffsetSource?
  /// The IANA time zone the offset was taken from, when it came from the position.
  public var timeZone: String?
  /// Whether the local time was skipped or doubled in that zone (the earlier instant taken).
  public var offsetAmbiguity: LocalTimeAmbiguity?
  public var title: String
  public var cameraMake: String?
  public var cameraModel: String?
  public var width: Int?
  public var height: Int?
  /// EXIF orientation 1–8.
  public var orientation: Int?
  /// The photo's page at its provider, for remote photos (providers' terms ask for a link).
  public var url: String?
  /// A small image of the photo at its provider.
  public var thumbnailURL: String?
  /// Who took it: the Flickr owner name or the Commons artist.
  public var attribution: String?
  /// The provider's licence name or id.
  public var license: String?
  /// The location was estimated (from a GPS track by time), not recorded by the camera.
  public var locationEstimated = false
  /// Where an estimated location came from (nil for a recorded one, and for estimates made
  /// before sources were kept).
  public var estimateSource: EstimateSource?
  /// The nearest populated place, when one is within reach.
  public var place: PlaceName?
  public var mediaType: MediaType = .photo
  /// A video's length in seconds.
  public var duration: Double?
  /// A longer text about the photo: an XMP description, a provider's description.
  public var description: String?
  /// Keywords and tags, in order.
  public var keywords: [String] = []

  @inlinable
  public init(
    id: Int64, source: PhotoSource, sourceID: String,
    coordinate: Coordinate? = nil, altitude: Double? = nil, takenAt: CaptureDate? = nil,
    title: String, cameraMake: String? = nil, cameraModel: String? = nil, width: Int? = nil,
    height: Int? = nil, orientation: Int? = nil, url: String? = nil, thumbnailURL: String? = nil,
    attribution: String? = nil, license: String? = nil, locationEstimated: Bool = false, place: PlaceName? = nil,
    mediaType: MediaType = .photo, duration: Double? = nil, offsetSource: OffsetSource? = nil,
    timeZone: String? = nil, offsetAmbiguity: LocalTimeAmbiguity? = nil, description: String? = nil,
    keywords: [String] = []
  ) {
    self.id = id
    self.source = source
    self.sourceID = sourceID
    self.coordinate = coordinate
    self.altitude = altitude
    self.takenAt = takenAt
    self.title = title
    self.cameraMake = cameraMake
    self.cameraModel = cameraModel
    self.width = width
    self.height = height
    self.orientation = orientation
    self.url = url
    self.thumbnailURL = thumbnailURL
    self.attribution = attribution
    self.license = license
    self.locationEstimated = locationEstimated
    self.place = place
    self.mediaType = mediaType
    self.duration = duration
    self.offsetSource = offsetSource
    self.timeZone = timeZone
    self.offsetAmbiguity = offsetAmbiguity
    self.description = description
    self.keywords = keywords
  }
}
