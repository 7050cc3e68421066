import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoExif
import GeoPhotoHTTPD

/// `/v1/photos/{id}` (one photo's details) and `/v1/photos/{id}/thumbnail`.
enum PhotoEndpoints {
  static let photoID = RouteParameter.path("id", .identifier("photo id"), "Photo id")

  static let detailRoute = Route(
    path: "/v1/photos/{id}", operationID: "photo", summary: "One photo's details", parameters: [photoID],
    responses: [
      APIResponse(status: 200, description: "The photo", content: [("application/json", .reference("Photo"))])
    ],
    respond: detail)

  static func photo(_ c: EndpointContext) throws -> Photo {
    let id = c.parameters.identifier(photoID) ?? -1
    guard let photo = c.snapshot.photo(id: id) else { throw APIError.notFound("no photo \(id)") }
    return photo
  }

  static func detail(_ c: EndpointContext) throws -> ServerResponse {
    let photo = try photo(c)
    return c.cached(type: "application/json") {
      PhotoDetailDocument(
        photo: photo, subtitle: c.subtitle(photo), thumbnailURL: c.thumbnailLink(photo),
        files: c.snapshot.files(of: photo)
      ).encoded()
    }
  }

  static let thumbnailRoute = Route(
    path: "/v1/photos/{id}/thumbnail", operationID: "thumbnail",
    summary: "The JPEG thumbnail embedded in a local photo's EXIF, or a redirect to a remote photo's thumbnail",
    parameters: [photoID],
    responses: [
      APIResponse(status: 200, description: "JPEG", content: [("image/jpeg", .binary)]),
      APIResponse(status: 302, description: "Redirect to the provider's thumbnail"),
    ], respond: thumbnail)

  /// A local photo's EXIF thumbnail (read from the file the index names, never a path from
  /// the request), or a redirect to the provider's thumbnail.
  static func thumbnail(_ c: EndpointContext) throws -> ServerResponse {
    let photo = try photo(c)
    if photo.source != .local {
      guard let url = photo.thumbnailURL else { throw APIError.notFound("photo \(photo.id) has no thumbnail") }
      return ServerResponse(status: 302, headers: [("Location", url), ("Cache-Control", "public, max-age=86400")])
    }
    guard let path = photo.path, let bytes = embeddedThumbnail(path: path) else {
      throw APIError.notFound("photo \(photo.id) has no embedded thumbnail")
    }
    let tag = "\"t\(photo.id)-\(bytes.count)-\(c.snapshot.generation)\""
    if let unchanged = c.notModified(tag) { return unchanged }
    return ServerResponse(
      status: 200,
      headers: [("Content-Type", "image/jpeg"), ("ETag", tag), ("Cache-Control", "public, max-age=86400")],
      body: bytes)
  }

  static func embeddedThumbnail(path: String) -> [UInt8]? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd(), (try? handle.seek(toOffset: 0)) != nil,
      let data = try? handle.read(upToCount: 256 * 1024)
    else { return nil }
    let bytes = [UInt8](data)
    return bytes.withUnsafeBytes { MetadataReader.thumbnail($0, fileSize: Int(size)) }
  }
}
