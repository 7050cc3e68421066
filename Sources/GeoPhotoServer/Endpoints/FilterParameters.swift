import GeoPhotoCore

/// The parameters that choose which photos an answer takes, the same on every endpoint that
/// lists photos (and as `geophoto near` spells them): `FilterField`'s six filters as query
/// parameters (`source`, `since`, `until`, `on`, `camera`, `text`).
enum FilterParameters {
  static let source = parameter(.source)
  static let since = parameter(.since)
  static let until = parameter(.until)
  static let on = parameter(.on)
  static let camera = parameter(.camera)
  static let text = parameter(.text)

  static let all = FilterField.allCases.map(parameter)

  static func parameter(_ field: FilterField) -> EndpointParameter {
    EndpointParameter.query(field.rawValue, .filter(field), example: field.example, field.help)
  }

  /// The filter a request's values name; contradictions are 400s.
  static func filter(_ p: ParameterValues) throws -> PhotoFilter {
    do {
      return try PhotoFilter(reading: p.filterValues)
    } catch {
      throw APIError.badRequest(error.message { "'\($0.rawValue)'" })
    }
  }
}
