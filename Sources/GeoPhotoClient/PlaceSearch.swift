/// Places by name (`/v1/places`): the most populous first, or spellings the name may be meant
/// as when no place has it.
public struct PlaceSearch: Hashable, Sendable, Decodable {
  public var query: String
  /// How many places have the name (`places` holds up to the limit asked for).
  public var total: Int
  public var places: [Place]
  public var suggestions: [String]

  /// A populated place of the server's gazetteer.
  public struct Place: Hashable, Sendable, Decodable {
    public var name: String
    public var admin1: String?
    public var admin2: String?
    public var countryCode: String
    /// `Kyoto, Kyoto, JP`.
    public var label: String
    public var coordinate: MapCoordinate
    public var population: Int
    /// The IANA time zone (`Asia/Tokyo`).
    public var timeZone: String?
    public var geonameId: Int?
  }
}
