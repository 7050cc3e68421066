import GeoPhotoCore
import GeoPhotoEncoding
import GeoPhotoHTTPD

/// One endpoint of the HTTP API, described once: its path pattern, who may call it, the body
/// it takes, its parameters with their types, ranges and defaults, what it answers, and the
/// responder. The router, the token check, parameter validation and the OpenAPI document are
/// all made from `EndpointTable.all`.
struct Endpoint: Sendable {
  /// `/v1/photos/{id}`: literal segments and `{name}` path parameters.
  var path: String
  /// `GET` (which answers `HEAD` too), `PUT` or `DELETE`.
  var method = "GET"
  var operationID: String
  var summary: String
  /// Whether the route needs the server's token (when it has one): each route says.
  var access: Access
  /// Whether a share link's token opens the route: it answers with the link's photos only
  /// (`EndpointContext.filter()`, `admits`). Routes say so one by one; others refuse links.
  var shareable = false
  var parameters: [EndpointParameter] = []
  /// What a successful request answers, for the OpenAPI document.
  var responses: [APIResponse]
  /// Whether answers carry an ETag and revalidate with If-None-Match (304).
  var cached = true
  /// Whether the route belongs in the OpenAPI document (the web map's page and assets do not).
  var documented = true
  /// The request body the route takes: none, or JSON of at most so many bytes. A body where
  /// none is taken is answered 400, one over the limit 413, before it is read.
  var body: Body = .none
  /// The JSON a body must be, for the OpenAPI document.
  var bodySchema: JSONSchema?
  /// What answering may wait for: the route's answers are made off the transport's threads
  /// when it may be slow (a build for a filter not yet made, a file decoded).
  var work: Work = .quick
  var respond: @Sendable (EndpointContext) throws -> ServerResponse

  enum Access: Equatable, Sendable {
    /// Anyone may call it: it shows nothing about the photos (the page, its assets, the basemap
    /// tiles, liveness, the API document).
    case open
    /// `Authorization: Bearer <token>` is needed when the server has a token.
    case token
    /// A change to the index: the server must take edits (`serve.allow_edits`) and have a
    /// token, and the request must carry it.
    case edit
  }

  enum Body: Equatable, Sendable {
    case none
    case json(limit: Int)

    var limit: Int? {
      if case .json(let limit) = self { return limit }
      return nil
    }
  }

  enum Work: Equatable, Sendable {
    case quick
    /// Answers for a filter need its cluster hierarchy (built on first use).
    case filterClusters
    /// Answers for a filter need its set of photos (built on first use).
    case filterSet
    /// Answers may read and decode a file.
    case files
    /// Answers read every dated photo (once per snapshot) and find places or trips in them.
    case timeline
    /// The request writes the index (and perhaps a sidecar).
    case edit
  }

  var requiresToken: Bool { access != .open }

  var segments: [Substring] { path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 } }

  /// The path parameters' values when `requestPath` has this route's shape (`pattern`: this
  /// route's `segments`, split once for the route table).
  func match(_ requestSegments: [Substring], pattern: [Substring]) -> [String: String]? {
    guard pattern.count == requestSegments.count else { return nil }
    var values: [String: String] = [:]
    for (p, s) in zip(pattern, requestSegments) {
      if p.hasPrefix("{") && p.hasSuffix("}") {
        values[String(p.dropFirst().dropLast())] = String(s)
      } else if p != s {
        return nil
      }
    }
    return values
  }
}

/// A query or path parameter: its name, where it goes, what values it takes and what it means.
struct EndpointParameter: Sendable {
  enum Location: String, Sendable {
    case query, path
  }

  /// The values a parameter takes; each checks a value with the message a bad one gets.
  enum Kind: Sendable {
    /// A decimal number within a range.
    case number(ClosedRange<Double>)
    /// A whole number within a range, with a default when absent.
    case integer(ClosedRange<Int>, default: Int)
    /// Metres, or a number with a unit: `500m`, `2km`, `1mi`.
    case distance
    /// One of the filters (`FilterField`), read by its rules.
    case filter(FilterField)
    /// One of a few words.
    case oneOf([String])
    /// `west,south,east,north` in degrees.
    case boundingBox
    /// A whole-number id in the path within a range, named for messages (`photo id`).
    case identifier(String, ClosedRange<Int64>)
    /// A file name in the path, checked by the endpoint against what it serves.
    case fileName
    /// A short name in the path (a trip's id): 1 to 32 lower-case letters and digits, named
    /// for messages (`trip id`).
    case slug(String)
    /// Free text, not empty, at most 200 characters.
    case text
  }

  var name: String
  var location: Location = .query
  var kind: Kind
  var required = false
  var description: String
  /// An example value for the document (and the tests that probe every route).
  var example: String?

  /// Repeating the parameter adds values instead of being an error.
  var repeatable: Bool {
    if case .filter(let field) = kind { return field.repeatable }
    return false
  }

  static func query(
    _ name: String, _ kind: Kind, required: Bool = false, example: String? = nil, _ description: String
  ) -> EndpointParameter {
    EndpointParameter(name: name, kind: kind, required: required, description: description, example: example)
  }

  static func path(_ name: String, _ kind: Kind, _ description: String) -> EndpointParameter {
    EndpointParameter(name: name, location: .path, kind: kind, required: true, description: description)
  }
}

/// A successful answer of a route, for the OpenAPI document: its status, what it is, and its
/// body's media types with their schema (a `#/components/schemas` name, or a schema inline).
struct APIResponse: Sendable {
  var status: Int
  var description: String
  var content: [(mediaType: String, schema: JSONSchema)] = []
}
