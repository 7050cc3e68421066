public import Foundation

/// A position in WGS84 degrees.
public struct MapCoordinate: Hashable, Sendable, Codable {
  public var latitude: Double
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// A photo as a map shows it: a pin with a title and subtitle (the shape of MapKit's
/// `MKAnnotation`), and what a list or a popup adds.
public struct MapAnnotation: Hashable, Sendable, Identifiable {
  public var id: Int64
  /// `local`, `flickr` or `commons`.
  public var source: String
  public var coordinate: MapCoordinate
  public var title: String
  /// Where and when (`Chūō, Tokyo, JP · 2024-05-03`); who, for remote photos.
  public var subtitle: String
  /// Metres from the query point, for `near`.
  public var distance: Double?
  /// ISO 8601, with the UTC offset when the camera or the position gave one.
  public var takenAt: String?
  /// `photo` or `video`, and a video's length in seconds.
  public var mediaType: String
  public var duration: Double?
  /// The photo's page at its provider, for remote photos.
  public var url: URL?
  /// The server's thumbnail link (`/v1/photos/{id}/thumbnail`) or the provider's.
  public var thumbnailURL: String?
  public var place: Place?

  /// The place a photo was named after, as the index keeps it.
  public struct Place: Hashable, Sendable, Decodable {
    public var name: String
    public var admin1: String
    public var countryCode: String
    /// Metres from the photo to the place's centre.
    public var distance: Double?
  }
}

extension MapAnnotation: Decodable {
  enum CodingKeys: String, CodingKey {
    case id, source, coordinate, title, subtitle, distance, takenAt, mediaType, duration, url, thumbnailURL, place
  }

  /// From an annotation object (`/v1/near`); a map feature's properties give the same members
  /// with the position beside them (`init(properties:coordinate:)`).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    try self.init(c, coordinate: c.decode(MapCoordinate.self, forKey: .coordinate))
  }

  init(_ c: KeyedDecodingContainer<CodingKeys>, coordinate: MapCoordinate) throws {
    id = try c.decode(Int64.self, forKey: .id)
    source = try c.decode(String.self, forKey: .source)
    self.coordinate = coordinate
    title = try c.decode(String.self, forKey: .title)
    subtitle = try c.decodeIfPresent(String.self, forKey: .subtitle) ?? ""
    distance = try c.decodeIfPresent(Double.self, forKey: .distance)
    takenAt = try c.decodeIfPresent(String.self, forKey: .takenAt)
    mediaType = try c.decodeIfPresent(String.self, forKey: .mediaType) ?? "photo"
    duration = try c.decodeIfPresent(Double.self, forKey: .duration)
    url = try c.decodeIfPresent(String.self, forKey: .url).flatMap(URL.init(string:))
    thumbnailURL = try c.decodeIfPresent(String.self, forKey: .thumbnailURL)
    place = try c.decodeIfPresent(Place.self, forKey: .place)
  }
}
