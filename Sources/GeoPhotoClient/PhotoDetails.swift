public import Foundation

/// One photo's details (`/v1/photos/{id}`).
public struct PhotoDetails: Hashable, Sendable, Decodable, Identifiable {
  public var id: Int64
  public var source: String
  public var coordinate: MapCoordinate
  public var title: String
  public var subtitle: String?
  public var takenAt: String?
  public var altitude: Double?
  public var mediaType: String?
  public var duration: Double?
  public var description: String?
  public var keywords: [String]?
  public var cameraMake: String?
  public var cameraModel: String?
  public var width: Int?
  public var height: Int?
  /// EXIF orientation 1–8.
  public var orientation: Int?
  public var attribution: String?
  public var license: String?
  public var url: String?
  public var thumbnailURL: String?
  /// A local photo's files, by name and role (`primary`, `raw`, `live`, `sidecar`).
  public var files: [File]?

  public struct File: Hashable, Sendable, Decodable {
    public var name: String
    public var role: String
  }
}

/// A photo's thumbnail: the image a server gives for a local photo, or the provider's address
/// of a remote one's.
public enum Thumbnail: Hashable, Sendable {
  case image(Data, contentType: String)
  case elsewhere(URL)
}
