/// RFC 4180 CSV: a header row, then one row per record, CRLF line ends.
public struct CSV: Sendable, Equatable {
  public var header: [String]
  public var rows: [[String]]

  public init(header: [String], rows: [[String]] = []) {
    self.header = header
    self.rows = rows
  }

  public var text: String {
    ([header] + rows).map { $0.map(Self.field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
  }

  /// A field, quoted when it holds a comma, a quote or a line break (quotes doubled).
  public static func field(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
    return "\"" + s.replacing("\"", with: "\"\"") + "\""
  }

  /// A number as JSON writes it (fixed decimals, no float noise); empty when not finite.
  public static func number(_ value: Double, places: Int) -> String {
    guard case .fixed(let scaled, let p) = JSONValue.rounded(value, places: places) else { return "" }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    JSONValue.appendFixed(scaled, places: p, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// An aligned text table for people: columns padded to their widest cell, two spaces apart;
/// the last column is not padded.
public struct TextTable: Sendable, Equatable {
  public var header: [String]
  public var rows: [[String]]
  /// Columns aligned right (distances); the rest align left.
  public var rightAligned: Set<Int>

  public init(header: [String], rows: [[String]], rightAligned: Set<Int> = []) {
    self.header = header
    self.rows = rows
    self.rightAligned = rightAligned
  }

  public var text: String {
    let all = [header] + rows
    var widths = [Int](repeating: 0, count: header.count)
    for row in all { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    return all.map { row in
      row.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        if rightAligned.contains(i) { return pad + cell }
        return i == row.count - 1 ? cell : cell + pad
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }
}
