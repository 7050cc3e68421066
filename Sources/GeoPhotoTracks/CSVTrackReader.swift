import GeoPhotoCore

/// CSV tracks: a header naming latitude, longitude and time columns (in any order, common names
/// and exiftool's; see `CSVColumns`), then one fix a row. DJI flight logs are one kind.
///
/// - Fields as RFC 4180 writes them (quotes, `""`, delimiters and line ends inside quotes), a
///   UTF-8 byte order mark, LF or CRLF. The header is the first line that is not blank (after an
///   Excel `sep=;` line, which names the delimiter); its most frequent of `,`, `;` and tab is the
///   delimiter. With `;` or tab, `45,5` is read as 45.5.
/// - Positions: decimal degrees, or degrees, minutes and seconds with a hemisphere
///   (`38 42 38.16 N`); a `…Ref` column starting `S` or `W` makes its coordinate negative
///   (exiftool's rule). Out of range, not finite, or exactly (0, 0) (no fix): the row is skipped.
/// - Times: ISO 8601 or EXIF (`2024:05:02 08:41:10`), with or without a zone (`TrackTime`); a
///   date and a time of day, in one field or two (`date` + `time`); epoch seconds, or
///   milliseconds when the number is over 10¹¹ (1973–2200 only, so a count of seconds is not
///   taken for a date). A time without a zone is UTC (exiftool's rule) and counted in a note.
/// - Dates written `NN/NN/YYYY` (or with `.` or `-`): day first, as exiftool reads them, unless
///   the file proves otherwise: when some date's second number is over 12 and no date's first
///   is, the file's dates are month first. A note says which order was taken when the file
///   holds a date that reads both ways.
/// - Seconds (`Time(seconds)`) or milliseconds (`time(millisecond)`) since the start, as DJI
///   logs count: the start is the file name's `YYYY-MM-DD…HH-MM-SS` (exiftool's sample is
///   `…_2020-12-02_[07-50-31].csv`), a wall time read `zoneOffsetSeconds` east of UTC (nil: UTC,
///   with a note; beyond ±18 h: refused). A file renamed without it is refused. When the file also has a full time
///   column, that column gives the start instead (the latest of `time − count` over the rows,
///   as whole-second times are cut down) and the count the sub-second spacing, unless the two
///   disagree by over 1.5 s somewhere; then the full times are used alone.
/// - A row that cannot be read (its position, its time, a quote never closed) is skipped and
///   counted; rows with no position at all are counted apart. When no row gives a fix, the error
///   names the first row that could not be read.
public enum CSVTrackReader {
  public static func read(_ bytes: [UInt8], name: String, zoneOffsetSeconds: Int? = nil) throws(TrackReadError)
    -> TrackContents
  {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      throw TrackReadError(name, "UTF-16 text; a CSV track must be saved as UTF-8")
    }
    if let zoneOffsetSeconds, !(-18 * 3_600...18 * 3_600).contains(zoneOffsetSeconds) {
      throw TrackReadError(name, "\(zoneOffsetSeconds) s east of UTC is no time zone")
    }
    guard let header = Header(bytes) else { throw TrackReadError(name, "not a track CSV (no header)") }
    let columns = CSVColumns(header.headings)
    if let missing = columns.missing {
      throw TrackReadError(name, "not a track CSV (its header has no \(missing) column)")
    }
    var reading = Reading(
      bytes: bytes, header: header, columns: columns, name: name, zoneOffsetSeconds: zoneOffsetSeconds)
    return try reading.read()
  }

  /// Whether the first line of `head` (a file's first bytes) is the header of a CSV track: it
  /// names latitude, longitude and time columns.
  public static func looksLikeTrack(head: [UInt8]) -> Bool {
    guard let header = Header(head) else { return false }
    return CSVColumns(header.headings).missing == nil
  }

  /// The header line: where it is, its delimiter and its headings, and where the data begins.
  struct Header {
    var delimiter: UInt8
    var headings: [CSVHeading]
    var dataStart: Int
    var dataLine: Int

    init?(_ bytes: [UInt8]) {
      var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      var line = 1
      var delimiter: UInt8?
      while start < bytes.count {
        let end = bytes[start...].firstIndex(of: CSVRecords.lineFeed) ?? bytes.count
        let text = bytes[start..<end].filter { $0 != CSVRecords.carriageReturn }
        if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
          start = end + 1
          line += 1
          continue
        }
        if delimiter == nil, text.count == 5, text.starts(with: Array("sep=".utf8)) {
          delimiter = text[4]
          start = end + 1
          line += 1
          continue
        }
        let chosen = delimiter ?? CSVRecords.delimiter(of: bytes[start..<end])
        var records = CSVRecords(bytes, from: start, line: line, delimiter: chosen)
        records.quotesSpanLines = false
        guard let record = records.next() else { return nil }
        self.delimiter = chosen
        self.headings = record.fields.map { CSVHeading(records.text($0)) }
        self.dataStart = records.position
        self.dataLine = records.line
        return
      }
      return nil
    }
  }

  /// The order of the day and the month in dates written `NN/NN/YYYY`.
  enum DayOrder {
    case dayFirst, monthFirst
  }

  /// Why a row that should have given a fix did not.
  enum Skip: CaseIterable {
    case position, time, quote

    var why: String {
      switch self {
      case .position: "whose position cannot be read"
      case .time: "whose time cannot be read"
      case .quote: "with a quote never closed"
      }
    }
  }

  /// One file being read: the rows turned into fixes, and what was skipped.
  struct Reading {
    let bytes: [UInt8]
    let header: Header
    let columns: CSVColumns
    let name: String
    let zoneOffsetSeconds: Int?
    let decimalComma: Bool

    var order = DayOrder.dayFirst
    var notes: [String] = []
    var withoutPosition = 0
    /// Rows skipped, by why, with the line of the first.
    var skipped: [Skip: (count: Int, line: Int)] = [:]
    var zoneless = 0
    /// The first row that could not be read, for the error when no row could.
    var firstProblem: (line: Int, message: String)?

    init(bytes: [UInt8], header: Header, columns: CSVColumns, name: String, zoneOffsetSeconds: Int?) {
      self.bytes = bytes
      self.header = header
      self.columns = columns
      self.name = name
      self.zoneOffsetSeconds = zoneOffsetSeconds
      self.decimalComma = header.delimiter != UInt8(ascii: ",")
    }

    var records: CSVRecords {
      CSVRecords(bytes, from: header.dataStart, line: header.dataLine, delimiter: header.delimiter)
    }

    var hasAbsoluteTime: Bool { columns.instant != nil || columns.time != nil || columns.date != nil }

    mutating func read() throws(TrackReadError) -> TrackContents {
      var start: Double?
      if columns.relative != nil && !hasAbsoluteTime {
        guard let wall = CSVTrackReader.startTime(inFileName: name) else {
          throw TrackReadError(
            name,
            "the start time is missing: this log counts its times from the start of the flight, which only its "
              + "original file name gives (…_YYYY-MM-DD_[HH-MM-SS].csv)")
        }
        start = Double(wall.localSecondsSinceEpoch - (zoneOffsetSeconds ?? 0))
        if zoneOffsetSeconds == nil {
          notes.append("the start time in the file name, \(wall.description), read as UTC (no zone given)")
        }
      }
      if hasAbsoluteTime { decideDayOrder() }
      var fixes: [Fix] = []
      var counts: [Double?] = []
      var records = self.records
      while let record = records.next() {
        if record.damaged {
          problem(.quote, record.line, "a quote that is never closed")
          continue
        }
        if record.fields.allSatisfy({ $0.isEmpty }) { continue }
        let latitude = records.text(record, columns.latitude ?? 0)
        let longitude = records.text(record, columns.longitude ?? 0)
        if latitude.isEmpty && longitude.isEmpty {
          withoutPosition += 1
          continue
        }
        guard var lat = CSVTrackReader.degrees(latitude, decimalComma: decimalComma),
          var lon = CSVTrackReader.degrees(longitude, decimalComma: decimalComma)
        else {
          problem(.position, record.line, "no position in \(Self.quoted(latitude)), \(Self.quoted(longitude))")
          continue
        }
        if let ref = columns.latitudeRef, records.text(record, ref).uppercased().hasPrefix("S") { lat = -abs(lat) }
        if let ref = columns.longitudeRef, records.text(record, ref).uppercased().hasPrefix("W") { lon = -abs(lon) }
        guard let coordinate = Coordinate(validatingLatitude: lat, longitude: lon) else {
          problem(
            .position, record.line, "a position out of range: \(Self.quoted(latitude)), \(Self.quoted(longitude))")
          continue
        }
        if coordinate.latitude == 0 && coordinate.longitude == 0 {
          withoutPosition += 1
          continue
        }
        var count: Double?
        if let column = columns.relative {
          let text = records.text(record, column)
          count = CSVTrackReader.number(text, decimalComma: decimalComma).flatMap {
            abs($0) <= 1e10 ? $0 / columns.relativeDivisor : nil
          }
          if count == nil && !hasAbsoluteTime {
            problem(.time, record.line, "no time since the start in \(Self.quoted(text))")
            continue
          }
        }
        var time: Double
        if hasAbsoluteTime {
          guard let absolute = instant(of: record, in: records) else {
            let texts = [columns.instant, columns.time, columns.date].compactMap { $0 }.map {
              Self.quoted(records.text(record, $0))
            }
            problem(.time, record.line, "no time in \(texts.joined(separator: ", "))")
            continue
          }
          time = absolute
        } else {
          time = (start ?? 0) + (count ?? 0)
        }
        if !time.isFinite {
          problem(.time, record.line, "no time")
          continue
        }
        var altitude: Double?
        if let column = columns.altitude {
          altitude = CSVTrackReader.number(records.text(record, column), decimalComma: decimalComma).flatMap {
            let metres = columns.altitudeInFeet ? $0 * 0.3048 : $0
            return abs(metres) <= 100_000 ? metres : nil
          }
        }
        fixes.append(Fix(time: time, coordinate: coordinate, altitude: altitude))
        counts.append(count)
      }
      if hasAbsoluteTime && columns.relative != nil { refine(&fixes, counts: counts) }
      guard !fixes.isEmpty else {
        if let firstProblem { throw TrackReadError(name, line: firstProblem.line, firstProblem.message) }
        throw TrackReadError(name, withoutPosition > 0 ? "no row has a position" : "no rows after the header")
      }
      if withoutPosition > 0 { notes.append("\(rows(withoutPosition)) without a position skipped") }
      for skip in Skip.allCases {
        guard let (count, line) = skipped[skip] else { continue }
        notes.append("\(rows(count)) \(skip.why) skipped (the first on line \(line))")
      }
      if zoneless > 0 {
        notes.append("\(zoneless) \(zoneless == 1 ? "time" : "times") without a zone read as UTC")
      }
      return TrackContents(fixes: fixes, notes: notes)
    }

    /// The seconds a count from the start adds: with full times too, the start they give
    /// (see the type's notes).
    func refine(_ fixes: inout [Fix], counts: [Double?]) {
      let starts = zip(fixes, counts).compactMap { fix, count in count.map { fix.time - $0 } }
      guard let latest = starts.max(), let earliest = starts.min(), latest - earliest <= 1.5 else { return }
      for i in fixes.indices { if let count = counts[i] { fixes[i].time = latest + count } }
    }

    func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

    static func quoted(_ text: String) -> String {
      "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
    }

    mutating func problem(_ skip: Skip, _ line: Int, _ message: @autoclosure () -> String) {
      skipped[skip, default: (0, line)].count += 1
      if firstProblem == nil { firstProblem = (line, message()) }
    }

    /// A row's instant from its time columns: a full instant, else a date and a time of day.
    mutating func instant(of record: CSVRecords.Record, in records: CSVRecords) -> Double? {
      for column in [columns.instant, columns.time, columns.date].compactMap({ $0 }) {
        if let time = CSVTrackReader.instant(records.text(record, column), order: order) {
          return placed(time, unit: columns.units[column])
        }
      }
      guard let date = columns.date, let clock = columns.time ?? columns.instant,
        let day = CSVTrackReader.day(Substring(records.text(record, date)), order: order),
        let (seconds, offset) = CSVTrackReader.timeOfDay(Substring(records.text(record, clock)))
      else { return nil }
      return placed(
        TrackTime(seconds: day + seconds - Double(offset ?? 0), zoned: offset != nil), unit: columns.units[clock])
    }

    /// The seconds of a time read from a column in `unit`: zone-less is UTC (counted), unless the
    /// heading says `utc`, or `local` when the caller gave the zone.
    mutating func placed(_ time: TrackTime, unit: String?) -> Double {
      if time.zoned || unit == "utc" { return time.seconds }
      if unit == "local", let zoneOffsetSeconds { return time.seconds - Double(zoneOffsetSeconds) }
      zoneless += 1
      return time.seconds
    }

    /// Whether the file's `NN/NN/YYYY` dates are day or month first (see the type's notes).
    mutating func decideDayOrder() {
      var firstOver12 = false
      var secondOver12 = false
      var ambiguous = false
      var records = self.records
      let dated = [columns.instant, columns.time, columns.date].compactMap { $0 }
      while let record = records.next(), !(firstOver12 && secondOver12) {
        for column in dated {
          guard let (first, second) = CSVTrackReader.dayAndMonth(records.text(record, column)) else { continue }
          if first > 12 { firstOver12 = true }
          if second > 12 { secondOver12 = true }
          if first <= 12 && second <= 12 && first != second { ambiguous = true }
        }
      }
      if secondOver12 && !firstOver12 {
        order = .monthFirst
        notes.append("dates read month first (MM/DD/YYYY): some cannot be day first")
      } else if ambiguous && !firstOver12 {
        notes.append("dates such as 02/05/2024 read day first (DD/MM/YYYY), as exiftool reads them")
      }
    }
  }

  // MARK: Values

  /// A number as a CSV writes one: digits, sign, point, exponent (with `decimalComma`, `45,5`
  /// too), finite.
  static func number(_ text: String, decimalComma: Bool) -> Double? {
    guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
    var text = text
    if decimalComma, !text.contains("."), text.filter({ $0 == "," }).count == 1 {
      text = text.replacingComma
    }
    guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || "+-.eE".utf8.contains($0) }),
      let value = Double(text), value.isFinite
    else { return nil }
    return value
  }

  /// Degrees: a signed decimal, or up to three numbers (degrees, minutes, seconds) with a
  /// hemisphere letter or word before or after (`38 42 38.16 N`, `S 44°41.4'`).
  static func degrees(_ text: String, decimalComma: Bool) -> Double? {
    if let value = number(text, decimalComma: decimalComma) { return value }
    guard text.utf8.count <= 64 else { return nil }
    var body = Substring(text.uppercased())
    var negative = false
    for (word, sign) in [
      ("NORTH", false), ("SOUTH", true), ("EAST", false), ("WEST", true), ("N", false), ("S", true), ("E", false),
      ("W", true),
    ] {
      if body.hasSuffix(word) {
        body = body.dropLast(word.count)
      } else if body.hasPrefix(word) {
        body = body.dropFirst(word.count)
      } else {
        continue
      }
      negative = sign
      break
    }
    body = body.drop { $0 == " " }
    if body.first == "-" {
      negative.toggle()
      body = body.dropFirst()
    } else if body.first == "+" {
      body = body.dropFirst()
    }
    var numbers: [Double] = []
    var current = ""
    for c in body + " " {
      if c.isASCII && (c.isNumber || c == ".") {
        current.append(c)
      } else if c == "," && decimalComma && !current.isEmpty {
        current.append(".")
      } else {
        guard " °'\"′″:".contains(c) else { return nil }
        if !current.isEmpty {
          guard let value = Double(current), value.isFinite else { return nil }
          numbers.append(value)
          current = ""
        }
      }
    }
    guard (1...3).contains(numbers.count), numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
    let value = numbers[0] + (numbers.count > 1 ? numbers[1] / 60 : 0) + (numbers.count > 2 ? numbers[2] / 3_600 : 0)
    return negative ? -value : value
  }

  /// A full instant: ISO 8601 or EXIF (`TrackTime`), epoch seconds or milliseconds, or a date and
  /// a time of day with a space or `T` between.
  static func instant(_ text: String, order: DayOrder) -> TrackTime? {
    guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
    if let time = TrackTime(text) { return time }
    if text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }), var value = Double(text) {
      if value > 1e11 { value /= 1_000 }
      return (1e8...7.3e9).contains(value) ? TrackTime(seconds: value, zoned: true) : nil
    }
    guard let split = text.firstIndex(where: { $0 == " " || $0 == "T" }),
      let day = day(text[..<split], order: order),
      let (seconds, offset) = timeOfDay(text[text.index(after: split)...].drop { $0 == " " })
    else { return nil }
    return TrackTime(seconds: day + seconds - Double(offset ?? 0), zoned: offset != nil)
  }

  /// The seconds since 1970 of a date's midnight (UTC): `YYYY-MM-DD` (or with `:`, `/`, `.`),
  /// or `NN/NN/YYYY` (or with `.`, `-`) in `order`.
  static func day(_ text: Substring, order: DayOrder) -> Double? {
    let parts = text.split(omittingEmptySubsequences: false) { "-/.:".contains($0) }
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCIIDigit) }),
      let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
    else { return nil }
    let date: CaptureDate
    if parts[0].count == 4 && parts[1].count <= 2 && parts[2].count <= 2 {
      date = CaptureDate(year: a, month: b, day: c)
    } else if parts[2].count == 4 && parts[0].count <= 2 && parts[1].count <= 2 {
      date = order == .dayFirst ? CaptureDate(year: c, month: b, day: a) : CaptureDate(year: c, month: a, day: b)
    } else {
      return nil
    }
    return date.isValid ? Double(date.localSecondsSinceEpoch) : nil
  }

  /// The two leading numbers of a date written `NN/NN/YYYY` (or with `.` or `-`) at the start of
  /// `text`, or nil for a date in another form.
  static func dayAndMonth(_ text: String) -> (Int, Int)? {
    let date = text.prefix { $0 != " " && $0 != "T" }
    let parts = date.split(omittingEmptySubsequences: false) { "-/.".contains($0) }
    guard parts.count == 3, parts[2].count == 4, (1...2).contains(parts[0].count), (1...2).contains(parts[1].count),
      parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), let a = Int(parts[0]), let b = Int(parts[1])
    else { return nil }
    return (a, b)
  }

  /// A time of day, `H:MM[:SS[.fff]]`, and its zone when one follows (`Z`, `UTC`, `±HH[:MM]`,
  /// `±HHMM`): seconds into the day and seconds east of UTC.
  static func timeOfDay(_ text: Substring) -> (seconds: Double, offset: Int?)? {
    let clock = text.prefix { $0.isASCIIDigit || $0 == ":" || $0 == "." }
    let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count), (1...2).contains(parts[0].count), parts[1].count == 2,
      parts.dropLast().allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), let hours = Int(parts[0]),
      let minutes = Int(parts[1]), hours < 24, minutes < 60
    else { return nil }
    var seconds = 0.0
    if parts.count == 3 {
      let s = parts[2]
      guard s.prefix(while: \.isASCIIDigit).count == 2, s.count <= 12, s.filter({ $0 == "." }).count <= 1,
        !s.hasSuffix("."), let value = Double(s), value < 61
      else { return nil }
      seconds = value
    }
    let zone = text.dropFirst(clock.count).drop { $0 == " " }
    let total = Double(hours * 3_600 + minutes * 60) + seconds
    if zone.isEmpty { return (total, nil) }
    if ["Z", "z", "UTC", "GMT"].contains(zone) { return (total, 0) }
    guard let sign = zone.first, sign == "+" || sign == "-" else { return nil }
    let digits = zone.dropFirst().filter { $0 != ":" }
    guard [2, 4].contains(digits.count), digits.allSatisfy(\.isASCIIDigit), zone.count <= 6,
      let h = Int(digits.prefix(2)), let m = Int(digits.dropFirst(2).isEmpty ? "0" : digits.dropFirst(2)),
      h <= 14, m < 60
    else { return nil }
    return (total, (sign == "-" ? -1 : 1) * (h * 3_600 + m * 60))
  }

  /// The start a DJI log's file name gives, `YYYY-MM-DD` then, later, `HH-MM-SS` (the last such
  /// after the date), as exiftool finds it: a wall time, zone not known.
  static func startTime(inFileName path: String) -> CaptureDate? {
    let name = Array((path.split(separator: "/").last.map(String.init) ?? path).utf8)
    func digits(_ at: Int, _ count: Int) -> Int? {
      guard at >= 0, at + count <= name.count else { return nil }
      var value = 0
      for b in name[at..<(at + count)] {
        guard (0x30...0x39).contains(b) else { return nil }
        value = value * 10 + Int(b - 0x30)
      }
      return value
    }
    func dashed(_ at: Int, _ widths: [Int]) -> [Int]? {
      var values: [Int] = []
      var i = at
      for (k, width) in widths.enumerated() {
        if k > 0 {
          guard i < name.count, name[i] == UInt8(ascii: "-") else { return nil }
          i += 1
        }
        guard let value = digits(i, width) else { return nil }
        values.append(value)
        i += width
      }
      return values
    }
    for i in name.indices {
      guard let date = dashed(i, [4, 2, 2]) else { continue }
      var j = name.count - 8
      while j >= i + 11 {
        if let time = dashed(j, [2, 2, 2]) {
          let wall = CaptureDate(
            year: date[0], month: date[1], day: date[2], hour: time[0], minute: time[1], second: time[2])
          return wall.isValid ? wall : nil
        }
        j -= 1
      }
    }
    return nil
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
  fileprivate var replacingComma: String { String(map { $0 == "," ? "." : $0 }) }
}
