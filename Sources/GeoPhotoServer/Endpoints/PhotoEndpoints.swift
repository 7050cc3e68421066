import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoExif
import GeoPhotoHTTPD
import GeoPhotoThumbnails

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

  static let thumbnailSize = RouteParameter.query(
    "size", .oneOf(ThumbnailMaker.sizes.map(String.init)), "The longest side in pixels: 256 (the default) or 1024")

  static let thumbnailRoute = Route(
    path: "/v1/photos/{id}/thumbnail", operationID: "thumbnail",
    summary:
      "A local photo's thumbnail (JPEG, decoded from the photo, upright), or a redirect to a remote photo's thumbnail",
    parameters: [photoID, thumbnailSize],
    responses: [
      APIResponse(status: 200, description: "JPEG", content: [("image/jpeg", .binary)]),
      APIResponse(status: 302, description: "Redirect to the provider's thumbnail"),
    ], respond: thumbnail)

  /// A local photo's thumbnail, made from the file the index names (never a path from the
  /// request) and kept on disk beside the index; a redirect to a remote photo's. Formats the
  /// thumbnailer does not decode give their embedded EXIF thumbnail; a file that cannot be
  /// decoded or is too large to be (a decompression bomb) gives a placeholder, and a log line.
  static func thumbnail(_ c: EndpointContext) throws -> ServerResponse {
    let photo = try photo(c)
    if photo.source != .local {
      guard let url = photo.thumbnailURL else { throw APIError.notFound("photo \(photo.id) has no thumbnail") }
      return ServerResponse(status: 302, headers: [("Location", url), ("Cache-Control", "public, max-age=86400")])
    }
    let size = c.parameters.word(thumbnailSize).flatMap { Int($0) } ?? ThumbnailMaker.sizes[0]
    guard let path = photo.path, let stamp = ThumbnailCache.stamp(ofFile: path) else {
      throw APIError.notFound("photo \(photo.id)'s file is not there")
    }
    let tag = "\"t\(photo.id)-\(size)-\(stamp)\""
    if let unchanged = c.notModified(tag) {
      return ServerResponse(status: 304, headers: [("ETag", tag), ("Cache-Control", "public, max-age=86400")])
    }
    func make() throws(ThumbnailError) -> [UInt8] {
      do {
        return try ThumbnailMaker().thumbnail(ofFile: path, orientation: photo.orientation ?? 1, longestSide: size)
      } catch {
        switch error {
        case .unsupported:
          if let embedded = embeddedThumbnail(path: path) { return embedded }
          throw error
        case .file: throw error
        case .unreadable, .decoder, .tooLarge:
          c.configuration.warnings?("thumbnail of photo \(photo.id) (\(path)): \(error); a placeholder is served")
          return ThumbnailMaker.placeholder(longestSide: size)
        }
      }
    }
    let bytes: [UInt8]
    do {
      if let cache = c.configuration.thumbnailCache {
        bytes = try cache.thumbnail(id: photo.id, size: size, stamp: stamp, make: make)
      } else {
        bytes = try make()
      }
    } catch {
      if case .unsupported(let format) = error {
        throw APIError.notFound("photo \(photo.id) has no thumbnail: \(format), and no embedded one")
      }
      throw APIError.notFound("photo \(photo.id)'s file cannot be read")
    }
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
