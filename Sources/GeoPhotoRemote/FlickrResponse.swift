import Foundation
import GeoPhotoCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One page of `flickr.photos.search`, whichever format it came in.
struct FlickrPage: Equatable {
  var page = 1
  var pages = 1
  var photos: [FlickrPhoto] = []
}

/// The fields geophoto uses from a Flickr photo, as plain strings and numbers.
struct FlickrPhoto: Equatable {
  var id = ""
  var owner = ""
  var secret = ""
  var server = ""
  var title = ""
  var latitude: Double?
  var longitude: Double?
  var accuracy: Int?
  var dateTaken: String?
  var ownerName: String?
  var pathAlias: String?
  var description: String?
  var license: String?
  /// Space-separated, as Flickr sends them.
  var tags: String?
  var urlQ: String?
  var urlT: String?
  var urlM: String?
}

/// A parsed Flickr answer: a page, or a `stat="fail"` error.
enum FlickrAnswer: Equatable {
  case page(FlickrPage)
  case failure(code: Int, message: String)
}

/// Why a body could not be read as a Flickr answer.
struct FlickrBodyError: Error, CustomStringConvertible {
  var description: String
  var retryable: Bool
}

enum FlickrResponseParser {
  /// Parses a body in either format, deciding by its first bytes (Flickr has sent XML to JSON
  /// requests and HTML error pages with status 200).
  static func parse(_ body: [UInt8]) throws(FlickrBodyError) -> FlickrAnswer {
    switch BodyKind(body) {
    case .json: return try parseJSON(body[...])
    case .jsonp:
      // jsonFlickrApi( … ) — keep what is between the first "(" and the last ")".
      guard let open = body.firstIndex(of: UInt8(ascii: "(")), let close = body.lastIndex(of: UInt8(ascii: ")")),
        open < close
      else { throw FlickrBodyError(description: "a malformed jsonFlickrApi(…) wrapper", retryable: true) }
      return try parseJSON(body[(open + 1)..<close])
    case .xml: return try FlickrXMLParser.parse(body)
    case .html: throw FlickrBodyError(description: "an HTML page instead of an API answer", retryable: true)
    case .empty: throw FlickrBodyError(description: "an empty answer", retryable: true)
    case .other: throw FlickrBodyError(description: "an answer that is neither JSON nor XML", retryable: true)
    }
  }

  static func parseJSON(_ body: ArraySlice<UInt8>) throws(FlickrBodyError) -> FlickrAnswer {
    let decoded: FlickrJSON.Response
    do {
      decoded = try JSONDecoder().decode(FlickrJSON.Response.self, from: Data(body))
    } catch {
      throw FlickrBodyError(description: "malformed JSON (\(error))", retryable: true)
    }
    if decoded.stat?.value == "fail" {
      return .failure(code: decoded.code?.int ?? -1, message: decoded.message?.value ?? "no message")
    }
    guard let photos = decoded.photos else {
      throw FlickrBodyError(description: "JSON without a 'photos' member", retryable: true)
    }
    var page = FlickrPage()
    page.page = photos.page?.int ?? 1
    page.pages = photos.pages?.int ?? 1
    page.photos = (photos.photo ?? []).map { p in
      FlickrPhoto(
        id: p.id?.value ?? "", owner: p.owner?.value ?? "", secret: p.secret?.value ?? "",
        server: p.server?.value ?? "", title: p.title?.value ?? "", latitude: p.latitude?.double,
        longitude: p.longitude?.double, accuracy: p.accuracy?.int, dateTaken: p.datetaken?.value,
        ownerName: p.ownername?.value, pathAlias: p.pathalias?.value, description: p.description?.text,
        license: p.license?.value, tags: p.tags?.value, urlQ: p.urlQ?.value, urlT: p.urlT?.value, urlM: p.urlM?.value)
    }
    return .page(page)
  }
}

/// Codable shapes of Flickr's JSON, lenient about types: numbers arrive as strings and
/// strings as numbers, sometimes within one photo.
enum FlickrJSON {
  /// `description` is `{"_content": "…"}`, and sometimes a bare string.
  struct Content: Decodable {
    var text: String

    init(from decoder: any Decoder) throws {
      if let s = try? decoder.singleValueContainer().decode(String.self) {
        text = s
        return
      }
      struct Wrapped: Decodable {
        var content: LooseValue?
        enum CodingKeys: String, CodingKey { case content = "_content" }
      }
      text = (try? Wrapped(from: decoder))?.content?.value ?? ""
    }
  }

  struct Photo: Decodable {
    var id, owner, secret, server, title, latitude, longitude, accuracy: LooseValue?
    var datetaken, ownername, pathalias, license, tags: LooseValue?
    var urlQ, urlT, urlM: LooseValue?
    var description: Content?

    enum CodingKeys: String, CodingKey {
      case id, owner, secret, server, title, latitude, longitude, accuracy, datetaken, ownername, pathalias
      case license, description, tags
      case urlQ = "url_q"
      case urlT = "url_t"
      case urlM = "url_m"
    }
  }

  struct Photos: Decodable {
    var page, pages: LooseValue?
    var photo: [Photo]?
  }

  struct Response: Decodable {
    var stat, code, message: LooseValue?
    var photos: Photos?
  }
}

/// Reads Flickr's REST XML with FoundationXML's XMLParser.
///
/// Documents with a DTD are refused before parsing: Flickr never sends one, and internal
/// entity definitions are how entity-expansion bombs ("billion laughs") blow up memory.
final class FlickrXMLParser: NSObject, XMLParserDelegate {
  private var answer: FlickrAnswer?
  private var page = FlickrPage()
  private var current: FlickrPhoto?
  private var text = ""
  private var inDescription = false
  private var failure: (Int, String)?
  private var parseError: String?

  static func parse(_ body: [UInt8]) throws(FlickrBodyError) -> FlickrAnswer {
    if let problem = XMLPrecheck.problem(in: body) {
      let refused = problem.contains("document type definition")
      throw FlickrBodyError(
        description: refused ? "XML with a document type definition (refused)" : "XML that \(problem)",
        retryable: !refused)
    }
    let delegate = FlickrXMLParser()
    let parser = XMLParser(data: Data(body))
    parser.shouldResolveExternalEntities = false
    parser.delegate = delegate
    // parse() has been seen to return true after a fatal error; trust the error callback too.
    let finished = parser.parse()
    if !finished || delegate.parseError != nil || parser.parserError != nil {
      let reason = delegate.parseError ?? parser.parserError.map { "\($0)" } ?? "unknown error"
      throw FlickrBodyError(description: "malformed XML (\(reason))", retryable: true)
    }
    if let (code, message) = delegate.failure { return .failure(code: code, message: message) }
    guard let answer = delegate.answer else {
      throw FlickrBodyError(description: "XML without an <rsp> answer", retryable: true)
    }
    return answer
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes a: [String: String] = [:]
  ) {
    switch name {
    case "rsp":
      if a["stat"] == "ok" { answer = .page(page) }
    case "err":
      failure = (Int(a["code"] ?? "") ?? -1, a["msg"] ?? "no message")
    case "photos":
      page.page = Int(a["page"] ?? "") ?? 1
      page.pages = Int(a["pages"] ?? "") ?? 1
    case "photo":
      current = FlickrPhoto(
        id: a["id"] ?? "", owner: a["owner"] ?? "", secret: a["secret"] ?? "", server: a["server"] ?? "",
        title: a["title"] ?? "", latitude: a["latitude"].flatMap(Double.init),
        longitude: a["longitude"].flatMap(Double.init), accuracy: a["accuracy"].flatMap { Int($0) },
        dateTaken: a["datetaken"], ownerName: a["ownername"], pathAlias: a["pathalias"], description: nil,
        license: a["license"], tags: a["tags"], urlQ: a["url_q"], urlT: a["url_t"], urlM: a["url_m"])
    case "description":
      inDescription = true
      text = ""
    default:
      break
    }
  }

  func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
    if parseError == nil {
      parseError = "line \(parser.lineNumber), parser error \((error as NSError).code)"
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if inDescription { text += string }
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    switch name {
    case "description":
      inDescription = false
      current?.description = text
    case "photo":
      if let photo = current { page.photos.append(photo) }
      current = nil
    case "rsp":
      if case .page = answer { answer = .page(page) }
    default:
      break
    }
  }
}
