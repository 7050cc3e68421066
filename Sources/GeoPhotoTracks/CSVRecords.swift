/// The records of CSV bytes as RFC 4180 writes them: fields split at the delimiter, a field that
/// starts with `"` quoted up to the next lone `"` (`""` inside is one quote; delimiters and line
/// ends inside are text), records ending at LF or CRLF, numbered by the line they start on.
///
/// A quote that is never closed would swallow the rest of the file: that record (its first line
/// only) comes back damaged, reading resumes on the next line, and from then on a quoted field
/// ends at its line's end, so no input is scanned more than twice.
struct CSVRecords {
  struct Record {
    var line: Int
    /// Each field's bytes, quotes included (`text(_:)` removes them).
    var fields: [Range<Int>]
    /// A quoted field not closed where it had to be: the fields are not to be trusted.
    var damaged: Bool
  }

  static let quote = UInt8(ascii: "\"")
  static let lineFeed = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")

  let bytes: [UInt8]
  let delimiter: UInt8
  private(set) var position: Int
  private(set) var line: Int
  /// Whether a quoted field may go on past the end of its line (RFC 4180 says it may).
  var quotesSpanLines = true

  init(_ bytes: [UInt8], from position: Int, line: Int, delimiter: UInt8) {
    self.bytes = bytes
    self.delimiter = delimiter
    self.position = position
    self.line = line
  }

  mutating func next() -> Record? {
    guard position < bytes.count else { return nil }
    let start = position
    let startLine = line
    var fields: [Range<Int>] = []
    var fieldStart = start
    var inQuotes = false
    var i = start
    while i < bytes.count {
      let b = bytes[i]
      if inQuotes {
        if b == Self.quote {
          if i + 1 < bytes.count, bytes[i + 1] == Self.quote {
            i += 2
            continue
          }
          inQuotes = false
        } else if b == Self.lineFeed {
          guard quotesSpanLines else {
            // Not closed on its line: the line is damaged.
            fields.append(fieldStart..<trimmed(i))
            line += 1
            position = i + 1
            return Record(line: startLine, fields: fields, damaged: true)
          }
          line += 1
        }
        i += 1
        continue
      }
      if b == Self.quote, i == fieldStart {
        inQuotes = true
      } else if b == delimiter {
        fields.append(fieldStart..<i)
        fieldStart = i + 1
      } else if b == Self.lineFeed {
        fields.append(fieldStart..<trimmed(i))
        line += 1
        position = i + 1
        return Record(line: startLine, fields: fields, damaged: false)
      }
      i += 1
    }
    if inQuotes && quotesSpanLines {
      // Never closed: give back its first line as damaged and read on from the next.
      quotesSpanLines = false
      let end = bytes[start...].firstIndex(of: Self.lineFeed)
      line = startLine + 1
      position = end.map { $0 + 1 } ?? bytes.count
      return Record(line: startLine, fields: [], damaged: true)
    }
    fields.append(fieldStart..<trimmed(bytes.count))
    position = bytes.count
    return Record(line: startLine, fields: fields, damaged: inQuotes)
  }

  /// The end of a line's last field: before the CR of a CRLF.
  private func trimmed(_ end: Int) -> Int {
    end > position && bytes[end - 1] == Self.carriageReturn ? end - 1 : end
  }

  /// A field's text: without its quotes, `""` as one quote, spaces around it removed.
  func text(_ field: Range<Int>) -> String {
    var start = field.lowerBound
    var end = field.upperBound
    while start < end, bytes[start] == Self.space || bytes[start] == Self.tab { start += 1 }
    while end > start, bytes[end - 1] == Self.space || bytes[end - 1] == Self.tab { end -= 1 }
    guard start < end, bytes[start] == Self.quote else { return String(decoding: bytes[start..<end], as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(end - start)
    var inQuotes = true
    var i = start + 1
    while i < end {
      let b = bytes[i]
      if inQuotes, b == Self.quote {
        if i + 1 < end, bytes[i + 1] == Self.quote {
          out.append(b)
          i += 2
          continue
        }
        inQuotes = false
      } else {
        out.append(b)
      }
      i += 1
    }
    while let last = out.last, last == Self.space || last == Self.tab { out.removeLast() }
    return String(decoding: out, as: UTF8.self)
  }

  /// The field at `index` of a record, or "" when the record is shorter.
  func text(_ record: Record, _ index: Int) -> String {
    index < record.fields.count ? text(record.fields[index]) : ""
  }

  /// The delimiter a header line uses: the most frequent of `,`, `;` and tab outside quotes
  /// (a comma when none is there or they tie).
  static func delimiter(of line: ArraySlice<UInt8>) -> UInt8 {
    var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
    var inQuotes = false
    for b in line {
      if b == quote {
        inQuotes.toggle()
      } else if !inQuotes, let count = counts[b] {
        counts[b] = count + 1
      }
    }
    let comma = counts[UInt8(ascii: ",")] ?? 0
    let best = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }
    guard let best, best.value > comma else { return UInt8(ascii: ",") }
    return best.key
  }
}
