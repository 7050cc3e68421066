/// The seven filters every command and endpoint that lists photos takes, declared once: name,
/// what its value is, help, an example, and how its text is read. The command line shows them
/// as options (`--since 2024-05`), the server as query parameters (`since=2024-05`); the rules
/// and the messages are these.
public enum FilterField: String, CaseIterable, Sendable {
  case source, since, until, on, camera, text, place

  /// What the value is, for usage lines: `--since <time>`.
  public var valueName: String {
    switch self {
    case .source: "source"
    case .since, .until: "time"
    case .on: "day"
    case .camera: "text"
    case .text: "words"
    case .place: "place"
    }
  }

  /// What the filter keeps, one sentence without its full stop.
  public var help: String {
    switch self {
    case .source:
      "Only photos from these sources: \(Self.sourceNames) (comma-separated, or given again)"
    case .since:
      "Only photos taken in or after this year, month, day or date-time (2024, 2024-05, 2024-05-03, "
        + "2024-05-03T14:30+09:00); without an offset, in each photo's local time"
    case .until: "Only photos taken in or before this year, month, day or date-time (the whole period it names)"
    case .on: "Only photos taken on this day (YYYY-MM-DD), in each photo's local time"
    case .camera: "Only photos whose camera make or model contains this text (any case)"
    case .text:
      "Only photos whose title, description, keywords, place, camera, file name or owner hold every word "
        + "(any case and accents; a word matches the start of a word; \"quoted phrases\"; Chinese and Japanese "
        + "text anywhere)"
    case .place:
      "Only photos taken in this place, as places visited names it: a country code, CODE/region or "
        + "CODE/region/city (JP, JP/Kyoto, JP/Kyoto/Kyoto)"
    }
  }

  /// A value that works, for documents and tests.
  public var example: String {
    switch self {
    case .source: "local,flickr"
    case .since: "2024-05"
    case .until: "2024-05-31"
    case .on: "2024-05-03"
    case .camera: "fujifilm"
    case .text: "temple"
    case .place: "JP/Kyoto"
    }
  }

  /// Whether giving it again adds values (sources) rather than being a mistake.
  public var repeatable: Bool { self == .source }

  /// The words a shell may offer (sources), or nil.
  public var choices: [String]? { self == .source ? PhotoSource.known.map(\.rawValue) : nil }

  /// The most characters a text value may have.
  public static let maximumTextLength = 200

  static var sourceNames: String {
    let names = PhotoSource.known.map(\.rawValue)
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }

  /// Reads one value of this filter (a repeatable one's values joined by commas).
  public func read(_ text: String) throws(FilterProblem) -> FilterValue {
    func bad(_ reason: String) -> FilterProblem { .badValue(self, value: text, reason: reason) }
    switch self {
    case .source:
      var sources = Set<PhotoSource>()
      for word in text.split(separator: ",", omittingEmptySubsequences: false) {
        let source = PhotoSource(rawValue: word.trimmingSpaces.lowercased())
        guard PhotoSource.known.contains(source) else { throw bad("'\(word)' is not \(Self.sourceNames)") }
        sources.insert(source)
      }
      return .sources(sources)
    case .since, .until, .on:
      do {
        return .time(self == .on ? try TimeBound.day(text) : try TimeBound(text))
      } catch {
        throw bad(error.description)
      }
    case .camera:
      let trimmed = text.trimmingSpaces
      guard !trimmed.isEmpty, trimmed.count <= Self.maximumTextLength else {
        throw bad("expected part of a camera make or model (1 to \(Self.maximumTextLength) characters)")
      }
      return .camera(trimmed)
    case .text:
      guard text.count <= Self.maximumTextLength else {
        throw bad("at most \(Self.maximumTextLength) characters of text")
      }
      do {
        return .words(try TextQuery(text))
      } catch {
        throw bad(error.description)
      }
    case .place:
      guard let place = PlaceFilter(text) else {
        throw bad("expected a country code, CODE/region or CODE/region/city (JP, JP/Kyoto, JP/Kyoto/Kyoto)")
      }
      return .place(place)
    }
  }
}

/// A place photos were taken in, as places visited names it (`VisitedPlace.key`): a country
/// by its code, a first-level region in it, or a city in that region.
public struct PlaceFilter: Hashable, Sendable, CustomStringConvertible {
  public var countryCode: String
  public var region: String?
  public var city: String?

  /// `JP`, `JP/Kyoto`, `JP/Kyoto/Kyoto` (a region without a name is empty: `NO//Longyearbyen`).
  public init?(_ text: String) {
    let parts = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    guard (1...3).contains(parts.count), parts[0].count == 2, parts[0].allSatisfy({ $0.isASCII && $0.isLetter }),
      text.count <= FilterField.maximumTextLength
    else { return nil }
    countryCode = parts[0].uppercased()
    region = parts.count > 1 ? parts[1] : nil
    city = parts.count > 2 ? parts[2] : nil
    if let city, city.isEmpty { return nil }
  }

  public var description: String { ([countryCode] + [region, city].compactMap { $0 }).joined(separator: "/") }

  /// Whether a photo named `place` was taken here.
  public func contains(_ place: PlaceName?) -> Bool {
    guard let place, place.countryCode == countryCode else { return false }
    if let region, place.isCountry || place.admin1 != region { return false }
    if let city, place.name != city { return false }
    return true
  }
}

/// One filter's value, read.
public enum FilterValue: Sendable, Equatable {
  case sources(Set<PhotoSource>)
  case time(TimeBound)
  case camera(String)
  case words(TextQuery)
  case place(PlaceFilter)
}

/// A filter value that cannot be used, or two that contradict each other. Each front end says
/// it with its own spelling of the names (`--since` on the command line, `since` in a URL).
public enum FilterProblem: Error, Equatable, Sendable {
  case badValue(FilterField, value: String, reason: String)
  /// `on` names a whole day: it takes neither `since` nor `until`.
  case dayWithBounds
  /// `since` starts after `until` ends: no photo can match.
  case sinceAfterUntil(TimeBound, TimeBound)

  /// The message, the filters named by `name` (`'--since'`, `'since'`).
  public func message(naming name: (FilterField) -> String) -> String {
    switch self {
    case .badValue(let field, let value, let reason): "\(name(field)) cannot be '\(value)': \(reason)"
    case .dayWithBounds: "\(name(.on)) names a whole day: use it without \(name(.since)) and \(name(.until))"
    case .sinceAfterUntil(let from, let to):
      "\(name(.since)) \(from) is after \(name(.until)) \(to): no photo can match"
    }
  }
}

extension PhotoFilter {
  /// The filter that these values name; `on` with `since` or `until`, or `since` after
  /// `until`, is a problem.
  public init(reading values: [FilterField: FilterValue]) throws(FilterProblem) {
    func time(_ field: FilterField) -> TimeBound? {
      if case .time(let bound)? = values[field] { return bound }
      return nil
    }
    let range: TimeRange?
    do {
      range = try TimeRange.named(since: time(.since), until: time(.until), on: time(.on))
    } catch {
      switch error {
      case .dayWithBounds: throw FilterProblem.dayWithBounds
      case .sinceAfterUntil(let from, let to): throw FilterProblem.sinceAfterUntil(from, to)
      }
    }
    var sources: Set<PhotoSource>?
    if case .sources(let s)? = values[.source] { sources = s }
    var camera: String?
    if case .camera(let c)? = values[.camera] { camera = c }
    var words: TextQuery?
    if case .words(let w)? = values[.text] { words = w }
    var place: PlaceFilter?
    if case .place(let p)? = values[.place] { place = p }
    self.init(sources: sources, time: range, camera: camera, text: words, place: place)
  }

  /// The filter that raw texts name (`text(field)`: the field's text, a repeatable one's
  /// values joined by commas; nil when not given).
  public init(texts text: (FilterField) -> String?) throws(FilterProblem) {
    var values: [FilterField: FilterValue] = [:]
    for field in FilterField.allCases {
      if let given = text(field) { values[field] = try field.read(given) }
    }
    try self.init(reading: values)
  }
}
