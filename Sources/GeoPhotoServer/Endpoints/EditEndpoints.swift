import Foundation
import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD
import GeoPhotoStore

/// `PUT /v1/photos/{id}/location` (a photo placed by hand, over what its file says, which is
/// kept) and `DELETE /v1/photos/{id}/location` (a hand-placed or estimated position removed:
/// the photo goes back to its file's). Only on a server that takes edits, with its token.
enum EditEndpoints {
  static let body = JSONSchema.object(
    properties: [
      ("latitude", .described(.number, "-90…90")), ("longitude", .described(.number, "-180…180")),
    ], required: ["latitude", "longitude"])

  static let placeRoute = Endpoint(
    path: "/v1/photos/{id}/location", method: "PUT", operationID: "placePhoto",
    summary:
      "Place a photo by hand (needs serve.allow_edits and the token): over a wrong position its file gives, which "
      + "is kept; with serve.write_xmp also into its XMP sidecar",
    access: .edit, parameters: [PhotoEndpoints.photoID],
    responses: [
      APIResponse(
        status: 200, description: "The photo's position now", content: [("application/json", Location.reference)])
    ], cached: false, body: .json(limit: 1_024), bodySchema: body, work: .edit, respond: place)

  static let clearRoute = Endpoint(
    path: "/v1/photos/{id}/location", method: "DELETE", operationID: "clearPhotoLocation",
    summary:
      "Remove a position placed by hand or estimated (needs serve.allow_edits and the token): the photo goes back to "
      + "what its file says",
    access: .edit, parameters: [PhotoEndpoints.photoID],
    responses: [
      APIResponse(
        status: 200, description: "The photo's position now", content: [("application/json", Location.reference)])
    ], cached: false, work: .edit, respond: clear)

  static let unplacedLimit = EndpointParameter.query("limit", .integer(1...500, default: 100), "Page size")
  static let unplacedOffset = EndpointParameter.query(
    "offset", .integer(0...Int(Int32.max), default: 0), "Photos to skip")

  static let unplacedRoute = Endpoint(
    path: "/v1/unplaced", operationID: "unplaced",
    summary: "Local photos without a position, by capture time (undated first), for placing on the map",
    access: .token, parameters: [unplacedLimit, unplacedOffset] + FilterParameters.all,
    responses: [
      APIResponse(status: 200, description: "One page of photos", content: [("application/json", Unplaced.reference)])
    ], cached: false, work: .files, respond: unplaced)

  static func unplaced(_ c: EndpointContext) throws -> ServerResponse {
    let filter = try c.filter()
    let limit = c.parameters.integer(unplacedLimit)
    let offset = c.parameters.integer(unplacedOffset)
    let photos = try c.snapshot.unplacedPhotos().filter(filter.includes)
    let page = Array(photos.dropFirst(offset).prefix(limit))
    let answer = Unplaced(
      total: photos.count, offset: offset,
      photos: page.map { (photo: $0, thumbnail: EndpointContext.localThumbnailLink($0.id)) })
    return ServerResponse(
      status: 200, headers: [("Content-Type", "application/json")] + c.caching(maxAge: 0), body: answer.encoded())
  }

  /// `/v1/unplaced`'s answer: how many photos have no position, and one page of them.
  struct Unplaced: JSONWritable, DescribedJSON {
    var total: Int
    var offset: Int
    var photos: [(photo: Photo, thumbnail: String)]

    func write(to w: inout JSONWriter) {
      w.beginObject()
      w.key("total")
      w.integer(Int64(total))
      w.key("offset")
      w.integer(Int64(offset))
      w.key("photos")
      w.beginArray()
      for (photo, thumbnail) in photos {
        w.beginObject()
        w.key("id")
        w.integer(photo.id)
        w.key("title")
        w.string(photo.title)
        w.key("takenAt")
        w.date(photo.takenAt)
        w.key("thumbnailURL")
        w.string(thumbnail)
        w.endObject()
      }
      w.endArray()
      w.endObject()
    }

    static let schemaName = "Unplaced"
    static let schema = JSONSchema.object(
      properties: [
        ("total", .integer), ("offset", .integer),
        (
          "photos",
          .array(
            .object(
              properties: [
                ("id", .integer), ("title", .string), ("takenAt", .nullable(.string)), ("thumbnailURL", .string),
              ],
              required: ["id", "title", "takenAt", "thumbnailURL"]))
        ),
      ], required: ["total", "offset", "photos"])
  }

  /// The position a body asks for: `{"latitude": …, "longitude": …}`, each a finite number in
  /// range, nothing else.
  static func position(_ body: [UInt8]) throws -> Coordinate {
    let problem = "the body must be JSON {\"latitude\": -90…90, \"longitude\": -180…180}"
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      Set(object.keys) == ["latitude", "longitude"],
      let latitude = (object["latitude"] as? NSNumber)?.doubleValue,
      let longitude = (object["longitude"] as? NSNumber)?.doubleValue,
      !(object["latitude"] is Bool), !(object["longitude"] is Bool)
    else { throw APIError.badRequest(problem) }
    guard let c = Coordinate(validatingLatitude: latitude, longitude: longitude) else {
      throw APIError.badRequest(problem)
    }
    guard c.isPlausiblePhotoLocation else { throw APIError.badRequest("0,0 is no place a photo is put") }
    return c
  }

  static func place(_ c: EndpointContext) throws -> ServerResponse {
    let position = try position(c.request.body)
    return try edit(c) { store, id, now in
      guard try store.placeByHand(id: id, position, now: now) else { return false }
      return true
    } sidecar: {
      position
    }
  }

  static func clear(_ c: EndpointContext) throws -> ServerResponse {
    try edit(c) { store, id, now in
      try store.clearEstimatedLocations(ids: [id], now: now) > 0
    } sidecar: {
      nil
    }
  }

  /// Runs `change` on the photo in the path (a photo the server shows: none in a privacy zone),
  /// names its place, brings the server's index up to date, writes the sidecar when the
  /// server does, and answers the photo's position.
  static func edit(
    _ c: EndpointContext, _ change: (any PhotoStore, Int64, IndexTime) throws -> Bool,
    sidecar: () -> Coordinate?
  ) throws -> ServerResponse {
    guard let edits = c.configuration.edits else { throw APIError(403, "forbidden", "this server takes no edits") }
    let id = c.parameters.identifier(PhotoEndpoints.photoID) ?? -1
    let store: any PhotoStore
    do {
      store = try edits.open()
    } catch {
      throw APIError.unavailable("the index cannot be written", detail: "the index cannot be written: \(error)")
    }
    guard let before = try store.photo(id: id), isShown(before, c) else { throw APIError.notFound("no photo \(id)") }
    let changed = try store.write {
      guard try change(store, id, IndexTime.now()) else { return false }
      if let namer = edits.namer() { _ = try store.assignPlaces(with: namer) }
      return true
    }
    var written: String?
    if changed {
      try store.refreshDerivedIndexes()
      try c.holder?.refresh()
      if let sidecars = edits.sidecars, let path = before.path {
        do {
          written = try sidecars(path, sidecar())
        } catch {
          c.configuration.warnings?("photo \(id): the sidecar was not written: \(error)")
          throw APIError(
            500, "sidecar_failed", "the index changed, but the photo's sidecar could not be written: \(error)")
        }
      }
    }
    guard let after = try store.photo(id: id) else { throw APIError.notFound("no photo \(id)") }
    let answer = Location(
      photo: after, changed: changed, sidecar: written.map { String($0.split(separator: "/").last ?? "") })
    return ServerResponse(
      status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
      body: answer.encoded())
  }

  /// Whether answers may show the photo: without a position, or outside every privacy zone.
  static func isShown(_ photo: Photo, _ c: EndpointContext) -> Bool {
    guard let position = photo.coordinate else { return true }
    return !c.snapshot.privacyZones.contains { $0.contains(position) }
  }

  /// What an edit answers: the photo's position now (null for none), whether it is an
  /// estimate and from where, whether the edit changed anything, and the sidecar written.
  struct Location: JSONWritable, DescribedJSON {
    var photo: Photo
    var changed: Bool
    var sidecar: String?

    func write(to w: inout JSONWriter) {
      w.beginObject()
      w.key("id")
      w.integer(photo.id)
      w.key("coordinate")
      if let c = photo.coordinate { w.coordinate(c) } else { w.null() }
      w.key("estimated")
      w.bool(photo.locationEstimated)
      w.key("source")
      if let source = photo.estimateSource { w.string(source.kind.rawValue) } else { w.null() }
      w.key("changed")
      w.bool(changed)
      w.key("sidecar")
      if let sidecar { w.string(sidecar) } else { w.null() }
      w.endObject()
    }

    static let schemaName = "PhotoLocation"
    static let schema = JSONSchema.object(
      properties: [
        ("id", .integer), ("coordinate", .nullable(Coordinate.reference)),
        ("estimated", .described(.boolean, "Placed by hand or estimated, not what the file says")),
        ("source", .nullable(.word(EstimateSource.Kind.allCases.map(\.rawValue)))),
        ("changed", .described(.boolean, "Whether the edit changed the index")),
        ("sidecar", .nullable(.described(.string, "The XMP sidecar written, by name (serve.write_xmp)"))),
      ], required: ["id", "coordinate", "estimated", "source", "changed", "sidecar"])
  }
}
