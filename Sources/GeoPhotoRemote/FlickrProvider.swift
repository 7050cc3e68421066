import Foundation
public import GeoPhotoCore
import GeoPhotoHTTP

/// Public geotagged photos from Flickr's `flickr.photos.search`.
///
/// - Radius: Flickr answers radial queries up to 32 km; a larger radius is refused with a
///   clear error rather than silently clipped.
/// - Paging: 250 photos a page (the most a geo query returns), up to Flickr's 4,000-result cap,
///   stopping at the last page Flickr reports; photos are deduplicated by id because pages can
///   shift between requests.
/// - A `min_upload_date` is always sent: without a limiting filter Flickr silently returns only
///   the last 12 hours of uploads.
/// - Photos with accuracy 0 or at exactly (0, 0) have no real location and are skipped.
public struct FlickrProvider: PhotoProvider {
  public enum Format: String, CaseIterable, Sendable { case json, xml }

  public static let defaultEndpoint = "https://api.flickr.com/services/rest/"
  public static let resultCap = 4_000
  public static let pageSize = 250

  public var apiKey: String
  public var endpoint: String
  public var format: Format
  public var context: ProviderContext

  public let source = PhotoSource.flickr
  public let maximumRadius = 32_000.0

  public init(apiKey: String, endpoint: String = defaultEndpoint, format: Format = .json, context: ProviderContext) {
    self.apiKey = apiKey
    self.endpoint = endpoint
    self.format = format
    self.context = context
  }

  /// Where to get a key, for messages about a missing or rejected one.
  public static let keyHelp =
    "get a key at https://www.flickr.com/services/api/misc.api_keys.html and set it in GEOPHOTO_FLICKR_API_KEY or as 'flickr.api_key' in the configuration file"

  func pageURL(center: Coordinate, radius: Double, page: Int) -> String {
    var items: [(String, String)] = [
      ("method", "flickr.photos.search"),
      ("api_key", apiKey),
      ("lat", String(format: "%.6f", center.latitude)),
      ("lon", String(format: "%.6f", center.longitude)),
      ("radius", String(format: "%.3f", max(0.001, radius / 1000))),
      ("radius_units", "km"),
      ("has_geo", "1"),
      ("min_upload_date", "946684800"),  // 2000-01-01: the limiting filter geo queries need
      ("media", "photos"),
      ("extras", "geo,date_taken,owner_name,path_alias,description,license,tags,url_q,url_t,url_m"),
      ("per_page", String(Self.pageSize)),
      ("page", String(page)),
    ]
    if format == .json { items += [("format", "json"), ("nojsoncallback", "1")] }
    return QueryString.url(endpoint, items)
  }

  public func search(center: Coordinate, radius: Double, limit: Int) throws(RemoteError) -> [Photo] {
    guard radius <= maximumRadius else {
      throw RemoteError(
        .flickr, "Flickr searches at most 32 km around a point; ask for a smaller --radius")
    }
    var seen = Set<String>()
    var photos: [Photo] = []
    var lastPage = (Self.resultCap + Self.pageSize - 1) / Self.pageSize
    var page = 1
    while page <= lastPage && photos.count < limit {
      let answer: FlickrPage
      do {
        answer = try fetchPage(center: center, radius: radius, page: page)
      } catch var error {
        error.pagesReceived = page - 1
        throw error
      }
      lastPage = min(lastPage, max(1, answer.pages))
      if answer.photos.isEmpty { break }
      for p in answer.photos where seen.insert(p.id).inserted {
        guard let photo = Self.photo(from: p) else { continue }
        photos.append(photo)
        if photos.count == limit { break }
      }
      page += 1
    }
    return photos
  }

  private func fetchPage(center: Coordinate, radius: Double, page: Int) throws(RemoteError) -> FlickrPage {
    let url = pageURL(center: center, radius: radius, page: page)
    return try context.withRetries(.flickr) { () throws(RemoteError) -> FlickrPage in
      let response = try context.get(url, provider: .flickr)
      let answer: FlickrAnswer
      do throws(FlickrBodyError) {
        answer = try FlickrResponseParser.parse(response.body)
      } catch {
        throw RemoteError(.flickr, "page \(page) was \(error.description)", retryable: error.retryable)
      }
      switch answer {
      case .page(let p):
        return p
      case .failure(let code, let message):
        throw Self.error(code: code, message: message)
      }
    }
  }

  /// Flickr's `stat="fail"` codes, mapped to what a user can do about them.
  static func error(code: Int, message: String) -> RemoteError {
    switch code {
    case 100:
      return RemoteError(.flickr, "the API key was rejected (error 100: \(message)); \(keyHelp)")
    case 0, 10, 105, 201:
      return RemoteError(.flickr, "the service is unavailable (error \(code): \(message))", retryable: true)
    default:
      return RemoteError(.flickr, "error \(code): \(message)")
    }
  }

  /// A Flickr photo as an index photo; `nil` without a usable location.
  static func photo(from p: FlickrPhoto) -> Photo? {
    guard !p.id.isEmpty, let lat = p.latitude, let lon = p.longitude, (p.accuracy ?? 1) != 0,
      let coordinate = Coordinate(validatingLatitude: lat, longitude: lon), coordinate.isPlausiblePhotoLocation
    else { return nil }
    // Titles and owner names are plain text (an XML answer's entities are decoded by the
    // parser); only fields Flickr sends as HTML, such as the description, would be stripped.
    let title = p.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "Untitled" : p.title
    let owner = p.owner.isEmpty ? nil : p.owner
    let thumbnail =
      p.urlQ ?? p.urlT ?? p.urlM
      ?? ((p.server.isEmpty || p.secret.isEmpty)
        ? nil : "https://live.staticflickr.com/\(p.server)/\(p.id)_\(p.secret)_q.jpg")
    var photo = Photo(
      id: 0, source: .flickr, sourceID: p.id, coordinate: coordinate,
      takenAt: p.dateTaken.flatMap { CaptureDate(exif: $0) }, title: title,
      url: owner.map { "https://www.flickr.com/photos/\($0)/\(p.id)/" }, thumbnailURL: thumbnail,
      attribution: p.ownerName.flatMap { $0.isEmpty ? nil : $0 } ?? owner, license: p.license)
    let description = HTMLText.plain(p.description ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    photo.description = description.isEmpty ? nil : description
    var tags: [String] = []
    for tag in (p.tags ?? "").split(separator: " ").map(String.init) where !tags.contains(tag) { tags.append(tag) }
    photo.keywords = tags
    return photo
  }
}
