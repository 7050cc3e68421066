import Foundation
public import GeoPhotoCore
import GeoPhotoHTTP

/// Files with coordinates from Wikimedia Commons: `list=geosearch` in the File namespace, then
/// `prop=imageinfo` for thumbnails, page links and credits, 50 files a request.
///
/// Geosearch answers radii of 10 m to 10 km with at most 500 files and no paging; smaller radii
/// are raised to 10 m, larger ones refused with a clear error. Requests go one at a time, with
/// a descriptive User-Agent, as Wikimedia's API etiquette asks.
public struct CommonsProvider: PhotoProvider {
  public static let defaultEndpoint = "https://commons.wikimedia.org/w/api.php"
  public static let resultCap = 500
  static let batchSize = 50

  public var endpoint: String
  public var context: ProviderContext
  public let source = PhotoSource.commons
  public let maximumRadius = 10_000.0

  public init(endpoint: String = defaultEndpoint, context: ProviderContext) {
    self.endpoint = endpoint
    self.context = context
  }

  public func search(center: Coordinate, radius: Double, limit: Int) throws(RemoteError) -> [Photo] {
    guard radius <= maximumRadius else {
      throw RemoteError(.commons, "Commons geosearch reaches at most 10 km from a point; ask for a smaller --radius")
    }
    let hits = try geosearch(center: center, radius: max(10, radius), limit: min(limit, Self.resultCap))
    var photos: [Photo] = []
    var pages = 1
    for start in stride(from: 0, to: hits.count, by: Self.batchSize) {
      let batch = Array(hits[start..<min(hits.count, start + Self.batchSize)])
      do {
        let infos = try imageInfo(pageIDs: batch.map(\.pageID))
        for hit in batch {
          guard let info = infos[hit.pageID], let photo = Self.photo(hit: hit, info: info) else { continue }
          photos.append(photo)
        }
        pages += 1
      } catch var error {
        error.pagesReceived = pages
        throw error
      }
    }
    return photos
  }

  struct Hit: Equatable {
    var pageID: Int
    var title: String
    var coordinate: Coordinate
  }

  func geosearch(center: Coordinate, radius: Double, limit: Int) throws(RemoteError) -> [Hit] {
    let url = QueryString.url(
      endpoint,
      [
        ("action", "query"), ("format", "json"), ("formatversion", "2"), ("list", "geosearch"),
        ("gscoord", String(format: "%.6f|%.6f", center.latitude, center.longitude)),
        ("gsradius", String(Int(radius.rounded(.down)))), ("gsnamespace", "6"), ("gslimit", String(max(1, limit))),
      ])
    guard let list = try request(url).query?.geosearch else {
      throw RemoteError(.commons, "the geosearch answer has no 'query.geosearch' list", retryable: true)
    }
    return list.compactMap { item in
      guard let id = item.pageid?.int, let title = item.title?.value, let lat = item.lat?.double,
        let lon = item.lon?.double,
        let c = Coordinate(validatingLatitude: lat, longitude: lon), c.isPlausiblePhotoLocation
      else { return nil }
      return Hit(pageID: id, title: title, coordinate: c)
    }
  }

  func imageInfo(pageIDs: [Int]) throws(RemoteError) -> [Int: CommonsJSON.ImageInfo] {
    let url = QueryString.url(
      endpoint,
      [
        ("action", "query"), ("format", "json"), ("formatversion", "2"), ("prop", "imageinfo"),
        ("pageids", pageIDs.map(String.init).joined(separator: "|")),
        ("iiprop", "url|mime|extmetadata"), ("iiurlwidth", "320"),
        ("iiextmetadatafilter", "ObjectName|Artist|LicenseShortName|DateTimeOriginal|ImageDescription|Categories"),
      ])
    guard let pages = try request(url).query?.pages else {
      throw RemoteError(.commons, "the imageinfo answer has no 'query.pages' list", retryable: true)
    }
    var result: [Int: CommonsJSON.ImageInfo] = [:]
    for page in pages {
      guard let id = page.pageid?.int, let info = page.imageinfo?.first else { continue }
      result[id] = info
    }
    return result
  }

  /// GETs `url` under the retry policy and decodes the answer, turning MediaWiki's
  /// `{"error": …}` answers into errors.
  private func request(_ url: String) throws(RemoteError) -> CommonsJSON.Answer {
    try context.withRetries(.commons) { () throws(RemoteError) -> CommonsJSON.Answer in
      let response = try context.get(url, provider: .commons)
      switch BodyKind(response.body) {
      case .json: break
      case .html: throw RemoteError(.commons, "an HTML page instead of an API answer", retryable: true)
      default: throw RemoteError(.commons, "an answer that is not JSON", retryable: true)
      }
      guard let answer = try? JSONDecoder().decode(CommonsJSON.Answer.self, from: Data(response.body)) else {
        throw RemoteError(.commons, "malformed JSON", retryable: true)
      }
      if let error = answer.error {
        let code = error.code?.value ?? "error"
        let info = error.info?.value ?? "no details"
        throw RemoteError(.commons, "\(code): \(info)", retryable: code == "maxlag" || code == "ratelimited")
      }
      return answer
    }
  }

  static func photo(hit: Hit, info: CommonsJSON.ImageInfo) -> Photo? {
    if let mime = info.mime?.value, !mime.hasPrefix("image/") { return nil }
    var title = info.metadata("ObjectName") ?? hit.title
    if title.hasPrefix("File:") { title = String(title.dropFirst(5)) }
    var photo = Photo(
      id: 0, source: .commons, sourceID: String(hit.pageID), coordinate: hit.coordinate,
      takenAt: info.metadata("DateTimeOriginal").flatMap(captureDate), title: title.isEmpty ? "Untitled" : title,
      url: info.descriptionurl?.value, thumbnailURL: info.thumburl?.value, attribution: info.metadata("Artist"),
      license: info.metadata("LicenseShortName"))
    photo.description = info.metadata("ImageDescription")
    // Categories come `|`-separated.
    var categories: [String] = []
    for name in (info.metadata("Categories") ?? "").split(separator: "|") {
      let category = name.trimmingCharacters(in: .whitespaces)
      if !category.isEmpty, !categories.contains(category) { categories.append(category) }
    }
    photo.keywords = categories
    return photo
  }

  /// Commons dates are free text: `2019-05-03 10:00:00`, `2019-05-03`, `3 May 2019`…; only
  /// the ISO-like forms are understood.
  static func captureDate(_ text: String) -> CaptureDate? {
    let t = text.trimmingCharacters(in: .whitespaces)
    guard t.count >= 10 else { return nil }
    if t.count >= 19, let full = CaptureDate(exif: String(t.prefix(19))) { return full }
    return CaptureDate(exif: String(t.prefix(10)) + " 00:00:00")
  }
}

/// Decodable shapes of the MediaWiki API's JSON (format version 2), lenient about types.
enum CommonsJSON {
  struct Answer: Decodable, Sendable {
    var query: Query?
    var error: APIError?
  }

  struct APIError: Decodable, Sendable {
    var code, info: LooseValue?
  }

  struct Query: Decodable, Sendable {
    var geosearch: [GeoHit]?
    var pages: [Page]?
  }

  struct GeoHit: Decodable, Sendable {
    var pageid, lat, lon, title: LooseValue?
  }

  struct Page: Decodable, Sendable {
    var pageid: LooseValue?
    var imageinfo: [ImageInfo]?
  }

  struct ImageInfo: Decodable, Sendable {
    var mime, thumburl, descriptionurl: LooseValue?
    var extmetadata: [String: Metadata]?

    /// An extended metadata value as plain text (Commons sends HTML), nil when empty.
    func metadata(_ key: String) -> String? {
      let text = HTMLText.plain(extmetadata?[key]?.value?.value ?? "")
      return text.isEmpty ? nil : text
    }
  }

  /// An extended metadata entry: `{"value": …, "source": …}`.
  struct Metadata: Decodable, Sendable {
    var value: LooseValue?
  }
}
