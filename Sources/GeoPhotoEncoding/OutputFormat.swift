/// How results are printed on the command line.
public enum OutputFormat: String, CaseIterable, Sendable {
  case table, json, geojson, csv

  /// The document in this format, as a command prints it (JSON pretty and ending in a newline).
  public func render(_ document: some OutputDocument) -> String {
    switch self {
    case .table: return document.table()
    case .json: return String(decoding: document.json(pretty: true), as: UTF8.self) + "\n"
    case .geojson: return String(decoding: document.geoJSON(pretty: true), as: UTF8.self) + "\n"
    case .csv: return document.csv().text
    }
  }
}

/// A command's answer, in every output format: each document says how it looks in each, so
/// no format can fall back to another's.
public protocol OutputDocument {
  func json(pretty: Bool) -> [UInt8]
  func geoJSON(pretty: Bool) -> [UInt8]
  func csv() -> CSV
  /// For people; empty when there is nothing to show.
  func table() -> String
}
