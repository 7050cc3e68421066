public import GeoPhotoCore

/// What a map viewport shows (`/v1/annotations`, cluster leaves): photos, and clusters of
/// them with supercluster's properties.
public enum ViewportFeature: JSONWritable {
  /// A cluster: its id, position, size and the zoom at which it breaks apart, and the
  /// thumbnail of one of its photos for the map's bubble ("" for none).
  case cluster(id: Int, coordinate: Coordinate, count: Int, expansionZoom: Int, thumbnailURL: String = "")
  /// One photo, with the subtitle and thumbnail link the server gives it.
  case photo(Photo, subtitle: String, thumbnailURL: String)

  public func write(to w: inout JSONWriter) {
    switch self {
    case .cluster(let id, let coordinate, let count, let expansionZoom, let thumbnailURL):
      GeoJSON.Feature(
        id: Int64(id), geometry: GeoJSON.Point(coordinate),
        properties: ClusterProperties(id: id, count: count, expansionZoom: expansionZoom, thumbnailURL: thumbnailURL)
      ).write(to: &w)
    case .photo(let photo, let subtitle, let thumbnailURL):
      GeoJSON.Feature(
        id: photo.id, geometry: GeoJSON.Point(photo.coordinate ?? Coordinate(latitude: 0, longitude: 0)),
        properties: PhotoProperties(photo: photo, subtitle: subtitle, thumbnailURL: thumbnailURL)
      ).write(to: &w)
    }
  }

  /// `1.2k`, `35k`, as map bubbles print counts (supercluster's rule).
  public static func abbreviated(_ n: Int) -> String {
    if n >= 10_000 { return "\(Int((Double(n) / 1000).rounded()))k" }
    if n >= 1_000 { return "\((Double(n) / 100).rounded() / 10)k" }
    return String(n)
  }
}

/// `cluster`, `cluster_id`, `point_count`, `point_count_abbreviated`, `expansion_zoom` (as
/// supercluster names them), and `thumbnailURL`, one of its photos' thumbnails.
struct ClusterProperties: JSONWritable {
  var id: Int
  var count: Int
  var expansionZoom: Int
  var thumbnailURL: String

  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("cluster")
    w.bool(true)
    w.key("cluster_id")
    w.integer(Int64(id))
    w.key("point_count")
    w.integer(Int64(count))
    w.key("point_count_abbreviated")
    w.string(ViewportFeature.abbreviated(count))
    w.key("expansion_zoom")
    w.integer(Int64(expansionZoom))
    if !thumbnailURL.isEmpty {
      w.key("thumbnailURL")
      w.string(thumbnailURL)
    }
    w.endObject()
  }
}

/// A photo pin's properties: `id`, `source`, `title`, `subtitle`, `takenAt`, `mediaType`
/// (and a video's `duration`), `url` (remote photos), `thumbnailURL`.
struct PhotoProperties: JSONWritable {
  var photo: Photo
  var subtitle: String
  var thumbnailURL: String

  func write(to w: inout JSONWriter) {
    w.beginObject()
    w.key("id")
    w.integer(photo.id)
    w.key("source")
    w.string(photo.source.rawValue)
    w.key("title")
    w.string(photo.title)
    w.key("subtitle")
    w.string(subtitle)
    w.key("takenAt")
    w.date(photo.takenAt)
    w.media(photo.mediaType, duration: photo.duration)
    if let url = photo.url {
      w.key("url")
      w.string(url)
    }
    w.key("thumbnailURL")
    w.string(thumbnailURL)
    w.endObject()
  }
}

/// One photo's details (`/v1/photos/{id}`): everything a detail view shows. Camera make and
/// model only for local photos (providers' metadata is theirs to show); the coordinate to 1e-7
/// degrees like every other answer.
public struct PhotoDetailDocument: JSONWritable {
  public var photo: Photo
  public var subtitle: String
  public var thumbnailURL: String
  /// The shot's files by name and role (no paths: servers do not show them).
  public var files: [PhotoFile]

  public init(photo: Photo, subtitle: String, thumbnailURL: String, files: [PhotoFile] = []) {
    self.photo = photo
    self.subtitle = subtitle
    self.thumbnailURL = thumbnailURL
    self.files = files
  }

  public func write(to w: inout JSONWriter) {
    let p = photo
    w.beginObject()
    w.key("id")
    w.integer(p.id)
    w.key("source")
    w.string(p.source.rawValue)
    w.key("coordinate")
    if let c = p.coordinate { w.coordinate(c) } else { w.null() }
    w.key("title")
    w.string(p.title)
    w.key("subtitle")
    w.string(subtitle)
    w.key("takenAt")
    w.date(p.takenAt)
    w.key("altitude")
    if let altitude = p.altitude { w.number(altitude) } else { w.null() }
    w.media(p.mediaType, duration: p.duration)
    w.key("description")
    w.string(p.description)
    w.key("keywords")
    w.beginArray()
    for keyword in p.keywords { w.string(keyword) }
    w.endArray()
    w.files(files, paths: false)
    if p.source == .local {
      w.key("cameraMake")
      w.string(p.cameraMake)
      w.key("cameraModel")
      w.string(p.cameraModel)
    }
    for (name, value) in [("width", p.width), ("height", p.height), ("orientation", p.orientation)] {
      w.key(named: name)
      if let value { w.integer(Int64(value)) } else { w.null() }
    }
    for (name, value) in [("attribution", p.attribution), ("license", p.license), ("url", p.url)] {
      w.key(named: name)
      w.string(value)
    }
    if let place = p.place { w.member("place", PlaceObject(photoPlace: place)) }
    w.estimate(estimated: p.locationEstimated, source: p.estimateSource)
    w.key("thumbnailURL")
    w.string(thumbnailURL)
    w.endObject()
  }
}

extension ViewportFeature: DescribedJSON {
  public static let schemaName = "MapFeature"
  /// A Point feature whose properties are a photo's or a cluster's.
  public static let schema = GeoJSON.pointFeatureSchema(
    properties: .oneOf([PhotoProperties.schema, ClusterProperties.schema]))
}

extension ClusterProperties {
  static let schema = JSONSchema.object(
    properties: [
      ("cluster", .annotated(.boolean, [("enum", .array([.bool(true)]))])), ("cluster_id", .integer),
      ("point_count", .integer),
      ("point_count_abbreviated", .described(.string, "1.2k, 35k")),
      ("expansion_zoom", .described(.integer, "The zoom at which the cluster breaks apart")),
      ("thumbnailURL", .described(.string, "One of its photos' thumbnails")),
    ], required: ["cluster", "cluster_id", "point_count", "point_count_abbreviated", "expansion_zoom"])
}

extension PhotoProperties {
  static let schema = JSONSchema.object(
    properties: [
      ("id", .integer), ("source", .word(PhotoSource.known.map(\.rawValue))), ("title", .string),
      ("subtitle", .string), ("takenAt", .nullable(.string)),
    ] + SharedMembers.media + [
      ("url", .described(.string, "The photo's page, for remote photos")), ("thumbnailURL", .string),
    ], required: ["id", "source", "title", "subtitle", "takenAt", "mediaType", "thumbnailURL"])
}

extension PhotoDetailDocument: DescribedJSON {
  public static let schemaName = "Photo"
  public static let schema = JSONSchema.object(
    properties: [
      ("id", .integer), ("source", .word(PhotoSource.known.map(\.rawValue))),
      ("coordinate", .described(.nullable(Coordinate.reference), "Null for a photo without a position")),
      ("title", .string), ("subtitle", .string), ("takenAt", .nullable(.string)), ("altitude", .nullable(.number)),
    ] + SharedMembers.media + [
      ("description", .nullable(.string)), ("keywords", .array(.string)), SharedMembers.files(paths: false),
      ("cameraMake", .described(.nullable(.string), "Local photos only")),
      ("cameraModel", .described(.nullable(.string), "Local photos only")), ("width", .nullable(.integer)),
      ("height", .nullable(.integer)), ("orientation", .nullable(.integer)), ("attribution", .nullable(.string)),
      ("license", .nullable(.string)), ("url", .nullable(.string)), ("place", PlaceObject.reference),
      ("thumbnailURL", .string),
    ] + SharedMembers.estimate,
    required: [
      "id", "source", "coordinate", "title", "subtitle", "takenAt", "altitude", "mediaType", "description", "keywords",
      "width", "height", "orientation", "attribution", "license", "url", "thumbnailURL",
    ])
}
