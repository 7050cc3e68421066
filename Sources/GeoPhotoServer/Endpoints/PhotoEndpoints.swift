import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoExif
import GeoPhotoHTTPD
import GeoPhotoThumbnails

/// `/v1/photos/{id}` (one photo's details) and `/v1/photos/{id}/thumbnail`.
enum PhotoEndpoints {
  static let photoID = EndpointParameter.path("id", .identifier("photo id", 1...Int64.max), "Photo id")

  static let detailRoute = Endpoint(
    path: "/v1/photos/{id}", operationID: "photo", summary: "One photo's details", access: .token, shareable: true,
    parameters: [photoID],
    responses: [
      APIResponse(status: 200, description: "The photo", content: [("application/json", PhotoDetailDocument.reference)])
    ],
    respond: detail)

  static func detail(_ c: EndpointContext) throws -> PhotoDetail {
    let id = c.parameters.identifier(photoID) ?? -1
    guard c.admits(id), let detail = try c.snapshot.detail(id: id) else { throw APIError.notFound("no photo \(id)") }
    return detail
  }

  static func detail(_ c: EndpointContext) throws -> ServerResponse {
    let detail: PhotoDetail = try detail(c)
    let photo = detail.photo
    return c.cached(type: "application/json") {
      PhotoDetailDocument(
        photo: photo, subtitle: c.subtitle(photo), thumbnailURL: c.thumbnailLink(photo),
        files: c.snapshot.files(of: detail)
      ).encoded()
    }
  }

  static let thumbnailSize = EndpointParameter.query(
    "size", .oneOf(ThumbnailMaker.sizes.map(String.init)), "The longest side in pixels: 256 (the default) or 1024")

  static let thumbnailRoute = Endpoint(
    path: "/v1/photos/{id}/thumbnail", operationID: "thumbnail",
    summary:
      "A local photo's thumbnail (JPEG, decoded from the photo, upright), or a redirect to a remote photo's thumbnail",
    access: .token, shareable: true, parameters: [photoID, thumbnailSize],
    responses: [
      APIResponse(status: 200, description: "JPEG", content: [("image/jpeg", .binary)]),
      APIResponse(status: 302, description: "Redirect to the provider's thumbnail"),
    ], work: .files, respond: thumbnail)

  /// A local photo's thumbnail (`PhotoThumbnails`), made from the file the index names (never
  /// a path from the request); a redirect to a remote photo's.
  static func thumbnail(_ c: EndpointContext) throws -> ServerResponse {
    let photo = try detail(c).photo
    if photo.source != .local {
      guard let url = photo.thumbnailURL else { throw APIError.notFound("photo \(photo.id) has no thumbnail") }
      return ServerResponse(status: 302, headers: [("Location", url)] + c.caching(maxAge: 86_400))
    }
    let size = c.parameters.word(thumbnailSize).flatMap { Int($0) } ?? ThumbnailMaker.sizes[0]
    guard let stamp = PhotoThumbnails.stamp(of: photo) else {
      throw APIError.notFound("photo \(photo.id)'s file is not there")
    }
    // Answered from the file's stamp alone when the client has this version.
    let tag = "\"t\(photo.id)-\(size)-\(stamp)\""
    let caching = [("ETag", tag)] + c.caching(maxAge: 86_400)
    if c.notModified(tag) != nil { return ServerResponse(status: 304, headers: caching) }
    let thumbnails = PhotoThumbnails(cache: c.configuration.thumbnailCache, warn: c.configuration.warnings)
    switch thumbnails.thumbnail(of: photo, size: size, stamp: stamp) {
    case .none(let why): throw APIError.notFound("photo \(photo.id) has no thumbnail: \(why)")
    case .thumbnail(let bytes):
      return ServerResponse(
        status: 200, headers: [("Content-Type", "image/jpeg")] + caching, body: bytes)
    }
  }

}
