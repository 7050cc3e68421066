import GeoPhotoCore
import GeoPhotoHTTPD

/// A request's parameters, checked against its route: every name known, none repeated unless
/// it may be, required ones present, and each value of its kind and within its range. An
/// endpoint reads typed values from here; every bad input is a 400 with one clear message.
struct ParameterValues {
  /// Raw query values by name (a repeatable parameter's values joined by commas).
  private(set) var raw: [String: String] = [:]
  private var values: [String: Value] = [:]

  enum Value {
    case number(Double)
    case integer(Int)
    case filter(FilterValue)
    case word(String)
    case box(BoundingBox)
    case identifier(Int64)
  }

  init(_ request: ServerRequest, route: Endpoint, pathValues: [String: String]) throws {
    for (name, value) in request.query {
      guard let parameter = route.parameters.first(where: { $0.location == .query && $0.name == name }) else {
        let known = route.parameters.filter { $0.location == .query }.map(\.name).sorted()
        throw APIError.badRequest(
          known.isEmpty
            ? "unknown parameter '\(name)'; this endpoint takes none"
            : "unknown parameter '\(name)'; this endpoint takes \(known.joined(separator: ", "))")
      }
      if let previous = raw[name] {
        guard parameter.repeatable else { throw APIError.badRequest("parameter '\(name)' is given twice") }
        raw[name] = previous + "," + value
      } else {
        raw[name] = value
      }
    }
    for parameter in route.parameters {
      let text = parameter.location == .path ? pathValues[parameter.name] : raw[parameter.name]
      guard let text, !(parameter.required && text.isEmpty) else {
        if parameter.required { throw APIError.badRequest("parameter '\(parameter.name)' is required") }
        if case .integer(_, let fallback) = parameter.kind { values[parameter.name] = .integer(fallback) }
        continue
      }
      values[parameter.name] = try Self.parse(text, as: parameter)
    }
  }

  static func parse(_ text: String, as parameter: EndpointParameter) throws -> Value {
    let name = parameter.name
    switch parameter.kind {
    case .number(let range):
      guard let v = InputParser.number(text) else {
        throw APIError.badRequest("'\(name)' must be a number, not '\(text)'")
      }
      guard range.contains(v) else {
        throw APIError.badRequest("'\(name)' must be between \(plain(range.lowerBound)) and \(plain(range.upperBound))")
      }
      return .number(v)
    case .integer(let range, _):
      guard let v = Int(text), range.contains(v) else {
        throw APIError.badRequest("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return .integer(v)
    case .distance:
      do {
        return .number(try InputParser.distance(text))
      } catch {
        throw APIError.badRequest("'\(name)': \(error.description)")
      }
    case .filter(let field):
      do {
        return .filter(try field.read(text))
      } catch {
        throw APIError.badRequest(error.message { "'\($0.rawValue)'" })
      }
    case .oneOf(let words):
      guard words.contains(text) else {
        throw APIError.badRequest(
          "'\(name)' must be \(words.dropLast().joined(separator: ", ")) or \(words.last ?? ""), not '\(text)'")
      }
      return .word(text)
    case .boundingBox:
      do {
        return .box(try InputParser.boundingBox(text))
      } catch {
        throw APIError.badRequest("'\(name)': \(error.description)")
      }
    case .identifier(let label, let range):
      guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = Int64(text), range.contains(id) else {
        throw APIError.badRequest("\(label) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return .identifier(id)
    case .fileName:
      return .word(text)
    case .slug(let label):
      guard (1...32).contains(text.utf8.count),
        text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) })
      else { throw APIError.badRequest("\(label) must be 1 to 32 lower-case letters and digits") }
      return .word(text)
    case .text:
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty, trimmed.count <= 200 else {
        throw APIError.badRequest("'\(name)' must be 1 to 200 characters of text")
      }
      return .word(trimmed)
    }
  }

  private static func plain(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }

  // MARK: Typed values (the route's validation guarantees required ones are there)

  func number(_ p: EndpointParameter) -> Double? {
    if case .number(let v)? = values[p.name] { return v }
    return nil
  }

  func integer(_ p: EndpointParameter) -> Int {
    if case .integer(let v)? = values[p.name] { return v }
    preconditionFailure("\(p.name) is not an integer parameter with a default")
  }

  func word(_ p: EndpointParameter) -> String? {
    if case .word(let v)? = values[p.name] { return v }
    return nil
  }

  func box(_ p: EndpointParameter) -> BoundingBox? {
    if case .box(let v)? = values[p.name] { return v }
    return nil
  }

  func identifier(_ p: EndpointParameter) -> Int64? {
    if case .identifier(let v)? = values[p.name] { return v }
    return nil
  }

  /// A canonical form of the query (sorted names, numbers rounded), for cache keys: the same
  /// query written differently has the same ETag.
  var canonical: String {
    var text = ""
    for key in raw.keys.sorted() {
      if !text.isEmpty { text += "&" }
      text += key
      text += "="
      // Numbers as they were read (no second parse), to the micro-degree.
      switch values[key] {
      case .number(let n): text += String((n * 1e6).rounded() / 1e6)
      case .integer(let i): text += String(i)
      default: text += raw[key] ?? ""
      }
    }
    return text
  }

  /// The filters the request gave, read.
  var filterValues: [FilterField: FilterValue] {
    var found: [FilterField: FilterValue] = [:]
    for field in FilterField.allCases {
      if case .filter(let value)? = values[field.rawValue] { found[field] = value }
    }
    return found
  }
}
