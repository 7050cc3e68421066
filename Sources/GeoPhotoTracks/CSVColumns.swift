/// A CSV heading as the track reader compares it: lower case, a unit in `()` or `[]` set apart
/// (`Time(seconds)` is `time` in `seconds`, `OSD.height [ft]` is `height` in `ft`), spaces,
/// underscores and hyphens dropped, and the prefixes exporters put before the name removed:
/// `osd.`, `custom.`, and exiftool's leading `GPS` (`GPSDateTime` is `datetime`).
struct CSVHeading: Equatable {
  var name: String
  var unit: String?

  init(_ text: String) {
    var name = ""
    var unit: String?
    var bracket: Character?
    var inside = ""
    for c in text.lowercased() {
      if let open = bracket {
        if c == (open == "(" ? ")" : "]") {
          if unit == nil { unit = inside.filter { $0 != " " } }
          bracket = nil
          inside = ""
        } else {
          inside.append(c)
        }
      } else if c == "(" || c == "[" {
        bracket = c
      } else if !" _-\t\u{FEFF}".contains(c) {
        name.append(c)
      }
    }
    for prefix in ["osd.", "custom."] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
    if name.hasPrefix("gps"), name.count > 3 { name.removeFirst(3) }
    self.name = name
    self.unit = unit
  }

  init(name: String, unit: String?) {
    self.name = name
    self.unit = unit
  }
}

/// Which columns of a CSV track hold what, read from its header.
///
/// - latitude `lat`, `latitude`; longitude `lon`, `lng`, `long`, `longitude`; then, as exiftool
///   reads them, any name starting `lat`/`poslat` or `lon`/`lng`/`poslon`, and with `ref` at the
///   end the hemisphere (`N`/`S`, `E`/`W`);
/// - altitude `alt`, `altitude`, `ele`, `elevation`, `height`, then names starting `alt` or
///   `posalt`; in metres, or feet when the unit says `feet`/`ft`; another unit is not read;
/// - time: a full instant in `datetime`, `timestamp`, `utc` (then names starting `datetime`);
///   `time`, a full instant or with `date` the time of day; `date`; or `time` in `seconds` or
///   `millisecond(s)`, counted from a start (DJI flight logs). `Time(text)` is not a time.
///   A time column in `utc` has its zone-less times in UTC on its word; in `local`, in the
///   zone the caller gives.
/// The first column of the best kind wins.
struct CSVColumns: Equatable {
  var latitude: Int?
  var longitude: Int?
  var latitudeRef: Int?
  var longitudeRef: Int?
  var altitude: Int?
  var altitudeInFeet = false
  /// A full instant.
  var instant: Int?
  /// A full instant, or with `date` the time of day.
  var time: Int?
  var date: Int?
  /// Seconds (or milliseconds) since a start, and what to divide its numbers by for seconds.
  var relative: Int?
  var relativeDivisor = 1.0
  /// Units of the time columns.
  var units: [Int: String] = [:]

  init(_ headings: [CSVHeading]) {
    var ranks: [String: Int] = [:]
    func take(_ slot: WritableKeyPath<CSVColumns, Int?>, _ key: String, _ index: Int, rank: Int) {
      guard self[keyPath: slot] == nil || rank < ranks[key, default: .max] else { return }
      self[keyPath: slot] = index
      ranks[key] = rank
    }
    for (index, heading) in headings.enumerated() {
      let n = heading.name
      let unit = heading.unit
      if n.isEmpty || n.count > 64 || unit == "text" { continue }
      if ["lat", "latitude"].contains(n) {
        take(\.latitude, "lat", index, rank: 0)
      } else if ["lon", "lng", "long", "longitude"].contains(n) {
        take(\.longitude, "lon", index, rank: 0)
      } else if n.hasPrefix("lat") || n.hasPrefix("poslat") {
        n.hasSuffix("ref") ? take(\.latitudeRef, "latref", index, rank: 0) : take(\.latitude, "lat", index, rank: 1)
      } else if n.hasPrefix("lon") || n.hasPrefix("lng") || n.hasPrefix("poslon") {
        n.hasSuffix("ref") ? take(\.longitudeRef, "lonref", index, rank: 0) : take(\.longitude, "lon", index, rank: 1)
      } else if ["alt", "altitude", "ele", "elevation", "height"].contains(n) || n.hasPrefix("alt")
        || n.hasPrefix("posalt")
      {
        let metres = unit == nil || ["m", "meter", "meters", "metre", "metres"].contains(unit ?? "")
        let feet = ["ft", "feet", "foot"].contains(unit ?? "")
        guard metres || feet else { continue }
        let rank = ["alt", "altitude", "ele", "elevation", "height"].contains(n) ? 0 : 1
        if altitude == nil || rank < ranks["alt", default: .max] { altitudeInFeet = feet }
        take(\.altitude, "alt", index, rank: rank)
      } else if n == "time", let unit, let divisor = Self.relativeDivisors[unit] {
        if relative == nil { relativeDivisor = divisor }
        take(\.relative, "relative", index, rank: 0)
      } else if let rank = ["datetime", "timestamp", "utc"].firstIndex(of: n) {
        take(\.instant, "instant", index, rank: rank)
        units[index] = unit
      } else if n.hasPrefix("datetime") {
        take(\.instant, "instant", index, rank: 3)
        units[index] = unit
      } else if n.hasPrefix("time") {
        take(\.time, "time", index, rank: n == "time" ? 0 : 1)
        units[index] = unit
      } else if n.hasPrefix("date") {
        take(\.date, "date", index, rank: n == "date" ? 0 : 1)
        units[index] = unit
      }
    }
  }

  static let relativeDivisors: [String: Double] = [
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "ms": 1_000, "msec": 1_000, "millisecond": 1_000, "milliseconds": 1_000,
  ]

  /// Whether the columns say when a row was: a full instant, a time, a date, or a count from
  /// the start.
  var hasTime: Bool { instant != nil || time != nil || date != nil || relative != nil }

  /// What the header lacks to be a track's ("latitude, longitude or time"), or nil.
  var missing: String? {
    let names = [(latitude, "latitude"), (longitude, "longitude"), (hasTime ? 0 : nil, "time")].compactMap {
      $0.0 == nil ? $0.1 : nil
    }
    switch names.count {
    case 0: return nil
    case 1: return names[0]
    default: return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
  }
}
