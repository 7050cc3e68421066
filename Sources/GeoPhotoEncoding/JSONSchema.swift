/// A JSON Schema, as OpenAPI 3.0 writes them: how an answer type describes its shape, beside
/// the code that writes it (`DescribedJSON`). `/openapi.json` collects them; nothing else
/// writes a schema.
public indirect enum JSONSchema: Sendable {
  /// Another answer type's schema, by its name in the document's components.
  case reference(String)
  case string, integer, number, boolean
  /// Bytes of a file.
  case binary
  case object(properties: [(String, JSONSchema)], required: [String] = [])
  case array(JSONSchema)
  /// Exactly one of these.
  case oneOf([JSONSchema])
  /// A schema with a few more keywords (`nullable`, `enum`, `description`, …).
  case annotated(JSONSchema, [(String, JSONValue)])

  public static func nullable(_ s: JSONSchema) -> JSONSchema { .annotated(s, [("nullable", .bool(true))]) }
  public static func described(_ s: JSONSchema, _ text: String) -> JSONSchema {
    .annotated(s, [("description", .string(text))])
  }
  /// A string that is one of `words`.
  public static func word(_ words: [String]) -> JSONSchema {
    .annotated(.string, [("enum", .array(words.map(JSONValue.string)))])
  }

  public var json: JSONValue {
    switch self {
    case .reference(let name): return .object([("$ref", .string("#/components/schemas/\(name)"))])
    case .string: return .object([("type", .string("string"))])
    case .integer: return .object([("type", .string("integer"))])
    case .number: return .object([("type", .string("number"))])
    case .boolean: return .object([("type", .string("boolean"))])
    case .binary: return .object([("type", .string("string")), ("format", .string("binary"))])
    case .object(let properties, let required):
      var members: [(String, JSONValue)] = [("type", .string("object"))]
      if !required.isEmpty { members.append(("required", .array(required.map(JSONValue.string)))) }
      if !properties.isEmpty { members.append(("properties", .object(properties.map { ($0.0, $0.1.json) }))) }
      return .object(members)
    case .array(let items): return .object([("type", .string("array")), ("items", items.json)])
    case .oneOf(let choices): return .object([("oneOf", .array(choices.map(\.json)))])
    case .annotated(let schema, let extra):
      guard case .object(let members) = schema.json else { return schema.json }
      return .object(members + extra)
    }
  }
}

/// An answer's shape with its name among the document's schemas: each type that writes an
/// answer says its shape here, so the writer and its description are read side by side.
public protocol DescribedJSON {
  static var schemaName: String { get }
  static var schema: JSONSchema { get }
}

extension DescribedJSON {
  /// A reference to this shape, for another shape or a route's answer.
  public static var reference: JSONSchema { .reference(schemaName) }
  /// This shape as a document component.
  public static var component: (String, JSONSchema) { (schemaName, schema) }
}
