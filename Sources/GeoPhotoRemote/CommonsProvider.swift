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

  struct Info: Equatable {
    var mime: String?
    var thumbURL: String?
    var descriptionURL: String?
    var objectName: String?
    var artist: String?
    var license: String?
    var dateTimeOriginal: String?
  }

  func geosearch(center: Coordinate, radius: Double, limit: Int) throws(RemoteError) -> [Hit] {
    let url = QueryString.url(
      endpoint,
      [
        ("action", "query"), ("format", "json"), ("formatversion", "2"), ("list", "geosearch"),
        ("gscoord", String(format: "%.6f|%.6f", center.latitude, center.longitude)),
        ("gsradius", String(Int(radius.rounded(.down)))), ("gsnamespace", "6"), ("gslimit", String(max(1, limit))),
      ])
    let object = try request(url)
    guard let query = object["query"] as? [String: Any], let list = query["geosearch"] as? [[String: Any]] else {
      throw RemoteError(.commons, "the geosearch answer has no 'query.geosearch' list", retryable: true)
    }
    return list.compactMap { item in
      guard let id = Self.int(item["pageid"]), let title = item["title"] as? String,
        let lat = Self.double(item["lat"]), let lon = Self.double(item["lon"]),
        let c = Coordinate(validatingLatitude: lat, longitude: lon), c.isPlausiblePhotoLocation
      else { return nil }
      return Hit(pageID: id, title: title, coordinate: c)
    }
  }

  func imageInfo(pageIDs: [Int]) throws(RemoteError) -> [Int: Info] {
    let url = QueryString.url(
      endpoint,
      [
        ("action", "query"), ("format", "json"), ("formatversion", "2"), ("prop", "imageinfo"),
        ("pageids", pageIDs.map(String.init).joined(separator: "|")),
        ("iiprop", "url|mime|extmetadata"), ("iiurlwidth", "320"),
        ("iiextmetadatafilter", "ObjectName|Artist|LicenseShortName|DateTimeOriginal"),
      ])
    let object = try request(url)
    guard let query = object["query"] as? [String: Any], let pages = query["pages"] as? [[String: Any]] else {
      throw RemoteError(.commons, "the imageinfo answer has no 'query.pages' list", retryable: true)
    }
    var result: [Int: Info] = [:]
    for page in pages {
      guard let id = Self.int(page["pageid"]),
        let info = (page["imageinfo"] as? [[String: Any]])?.first
      else { continue }
      let meta = info["extmetadata"] as? [String: Any] ?? [:]
      func value(_ key: String) -> String? {
        guard let entry = meta[key] as? [String: Any] else { return nil }
        let text = HTMLText.plain((entry["value"] as? String) ?? Self.string(entry["value"]) ?? "")
        return text.isEmpty ? nil : text
      }
      result[id] = Info(
        mime: info["mime"] as? String, thumbURL: info["thumburl"] as? String,
        descriptionURL: info["descriptionurl"] as? String, objectName: value("ObjectName"),
        artist: value("Artist"), license: value("LicenseShortName"), dateTimeOriginal: value("DateTimeOriginal"))
    }
    return result
  }

  /// GETs `url` under the retry policy and returns the top-level JSON object, turning
  /// MediaWiki's `{"error": …}` answers into errors.
  private func request(_ url: String) throws(RemoteError) -> [String: Any] {
    let box = try context.withRetries(.commons) { () throws(RemoteError) -> JSONBox in
      let response = try context.get(url, provider: .commons)
      switch BodyKind(response.body) {
      case .json: break
      case .html: throw RemoteError(.commons, "an HTML page instead of an API answer", retryable: true)
      default: throw RemoteError(.commons, "an answer that is not JSON", retryable: true)
      }
      guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
        throw RemoteError(.commons, "malformed JSON", retryable: true)
      }
      if let error = object["error"] as? [String: Any] {
        let code = error["code"] as? String ?? "error"
        let info = error["info"] as? String ?? "no details"
        throw RemoteError(.commons, "\(code): \(info)", retryable: code == "maxlag" || code == "ratelimited")
      }
      return JSONBox(object: object)
    }
    return box.object
  }

  /// Carries a JSON object out of the retry closure.
  private struct JSONBox: @unchecked Sendable {
    var object: [String: Any]
  }

  static func photo(hit: Hit, info: Info) -> Photo? {
    if let mime = info.mime, !mime.hasPrefix("image/") { return nil }
    var title = info.objectName ?? hit.title
    if title.hasPrefix("File:") { title = String(title.dropFirst(5)) }
    return Photo(
      id: 0, source: .commons, sourceID: String(hit.pageID), coordinate: hit.coordinate,
      takenAt: info.dateTimeOriginal.flatMap(captureDate), title: title.isEmpty ? "Untitled" : title,
      url: info.descriptionURL, thumbnailURL: info.thumbURL, attribution: info.artist, license: info.license)
  }

  /// Commons dates are free text: `2019-05-03 10:00:00`, `2019-05-03`, `3 May 2019`…; only
  /// the ISO-like forms are understood.
  static func captureDate(_ text: String) -> CaptureDate? {
    let t = text.trimmingCharacters(in: .whitespaces)
    guard t.count >= 10 else { return nil }
    if t.count >= 19, let full = CaptureDate(exif: String(t.prefix(19))) { return full }
    return CaptureDate(exif: String(t.prefix(10)) + " 00:00:00")
  }

  static func int(_ value: Any?) -> Int? {
    if let i = value as? Int { return i }
    if let d = value as? Double { return Int(exactly: d) }
    if let s = value as? String { return Int(s) }
    return nil
  }

  static func double(_ value: Any?) -> Double? {
    if let d = value as? Double { return d }
    if let i = value as? Int { return Double(i) }
    if let s = value as? String { return Double(s) }
    return nil
  }

  static func string(_ value: Any?) -> String? {
    if let s = value as? String { return s }
    if let n = value as? NSNumber { return n.stringValue }
    return nil
  }
}
