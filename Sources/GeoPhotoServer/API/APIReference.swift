/// README's table of the HTTP API, made from the route table as the OpenAPI document is: one
/// row per documented route with its method and path, whether it needs the token, its
/// parameters with their ranges and defaults, and what it answers. A test keeps README's copy
/// the same.
public enum APIReference {
  public static var markdownTable: String {
    var lines = ["| request | token | parameters | answers |", "|---|---|---|---|"]
    for route in EndpointTable.documented {
      let answers = route.responses.map { response in
        let types = response.content.map { "`\($0.mediaType)`" }.joined(separator: ", ")
        return "\(response.status)" + (types.isEmpty ? "" : " \(types)") + ": \(escaped(response.description))"
      }
      lines.append(
        "| `\(route.method) \(route.path)` | \(route.requiresToken ? "yes" : "no") | \(parameters(of: route)) | "
          + "\(escaped(route.summary)). \(answers.joined(separator: "; ")) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The query parameters, each with what it takes; the shared filters as one word.
  static func parameters(of route: Endpoint) -> String {
    let filterNames = FilterParameters.all.map(\.name)
    let query = route.parameters.filter { $0.location == .query }
    let hasFilters = filterNames.allSatisfy { name in query.contains { $0.name == name } }
    var parts = query.filter { !hasFilters || !filterNames.contains($0.name) }.map(described)
    if hasFilters { parts.append("the filters") }
    return parts.isEmpty ? "" : parts.joined(separator: ", ")
  }

  static func described(_ p: EndpointParameter) -> String {
    let takes: String
    switch p.kind {
    case .number(let range): takes = "\(number(range.lowerBound))…\(number(range.upperBound))"
    case .integer(let range, let fallback): takes = "\(range.lowerBound)…\(range.upperBound), default \(fallback)"
    case .distance: takes = "a distance"
    case .filter(let field): takes = field.valueName
    case .oneOf(let words): takes = words.map { "`\($0)`" }.joined(separator: " or ")
    case .boundingBox: takes = "west,south,east,north"
    case .identifier(let label, _): takes = label
    case .fileName: takes = "a file name"
    case .slug(let label): takes = label
    case .text: takes = "text"
    }
    return "`\(p.name)` (\(p.required ? "required; " : "")\(takes))"
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  static func escaped(_ text: String) -> String { text.replacing("|", with: "\\|") }
}
