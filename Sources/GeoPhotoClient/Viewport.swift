import Foundation

/// What a map viewport shows (`/v1/annotations`): photos, and clusters where photos are too
/// close to tell apart at the zoom.
public struct Viewport: Sendable, Decodable {
  public var features: [MapFeature]
  /// The viewport held more than the server's `max_features`, and `total` features.
  public var truncated: Bool
  public var total: Int?

  enum CodingKeys: String, CodingKey {
    case features, truncated, total
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    features = try c.decode([MapFeature].self, forKey: .features)
    truncated = try c.decodeIfPresent(Bool.self, forKey: .truncated) ?? false
    total = try c.decodeIfPresent(Int.self, forKey: .total)
  }

  public var photos: [MapAnnotation] { features.compactMap(\.photo) }
  public var clusters: [Cluster] { features.compactMap(\.cluster) }
}

/// A cluster of photos on the map: tap it to zoom to `expansionZoom`, or list its photos with
/// `PhotoMapClient.leaves(ofCluster:)`.
public struct Cluster: Hashable, Sendable, Identifiable {
  public var id: Int
  public var coordinate: MapCoordinate
  public var count: Int
  /// `1.2k`: what the map writes on it.
  public var abbreviatedCount: String
  /// The zoom at which it splits.
  public var expansionZoom: Int
  /// One of its photos' thumbnails (a path on the server, or a provider's URL), for its bubble.
  public var thumbnailURL: String?
}

/// One feature of a viewport: a photo or a cluster.
public enum MapFeature: Hashable, Sendable, Decodable {
  case photo(MapAnnotation)
  case cluster(Cluster)

  public var photo: MapAnnotation? {
    if case .photo(let a) = self { return a }
    return nil
  }

  public var cluster: Cluster? {
    if case .cluster(let c) = self { return c }
    return nil
  }

  enum FeatureKeys: String, CodingKey {
    case geometry, properties
  }

  enum GeometryKeys: String, CodingKey {
    case coordinates
  }

  enum ClusterKeys: String, CodingKey {
    case cluster
    case id = "cluster_id"
    case count = "point_count"
    case abbreviated = "point_count_abbreviated"
    case expansionZoom = "expansion_zoom"
    case thumbnailURL
  }

  /// A GeoJSON Point feature (`[longitude, latitude]`), told apart by `properties.cluster`.
  public init(from decoder: any Decoder) throws {
    let feature = try decoder.container(keyedBy: FeatureKeys.self)
    let position = try feature.nestedContainer(keyedBy: GeometryKeys.self, forKey: .geometry)
      .decode([Double].self, forKey: .coordinates)
    guard position.count >= 2 else {
      throw DecodingError.dataCorruptedError(
        forKey: .geometry, in: feature, debugDescription: "a position needs a longitude and a latitude")
    }
    let coordinate = MapCoordinate(latitude: position[1], longitude: position[0])
    let clusterKeys = try feature.nestedContainer(keyedBy: ClusterKeys.self, forKey: .properties)
    if try clusterKeys.decodeIfPresent(Bool.self, forKey: .cluster) == true {
      self = .cluster(
        Cluster(
          id: try clusterKeys.decode(Int.self, forKey: .id), coordinate: coordinate,
          count: try clusterKeys.decode(Int.self, forKey: .count),
          abbreviatedCount: try clusterKeys.decode(String.self, forKey: .abbreviated),
          expansionZoom: try clusterKeys.decode(Int.self, forKey: .expansionZoom),
          thumbnailURL: try clusterKeys.decodeIfPresent(String.self, forKey: .thumbnailURL)))
    } else {
      let properties = try feature.nestedContainer(keyedBy: MapAnnotation.CodingKeys.self, forKey: .properties)
      self = .photo(try MapAnnotation(properties, coordinate: coordinate))
    }
  }
}
