import GeoPhotoCore

/// The parameters that choose which photos an answer takes, the same on every endpoint that
/// lists photos (and as `geophoto near` spells them): `source`, `since`, `until`, `on`,
/// `camera`, `text`.
enum FilterParameters {
  static let source = RouteParameter.query(
    "source", .sources, example: "local,flickr", "Only these sources (comma-separated or repeated)")
  static let since = RouteParameter.query(
    "since", .time(day: false), example: "2024-05",
    "Only photos taken in or after this year, month, day or date-time (2024, 2024-05, 2024-05-03, "
      + "2024-05-03T14:30+09:00); without an offset, in each photo's local time")
  static let until = RouteParameter.query(
    "until", .time(day: false), example: "2024-05-31",
    "Only photos taken in or before this year, month, day or date-time (the whole period it names)")
  static let on = RouteParameter.query(
    "on", .time(day: true), example: "2024-05-03", "Only photos taken on this day, in each photo's local time")

  static let camera = RouteParameter.query(
    "camera", .text, example: "fujifilm", "Only photos whose camera make or model contains this text (any case)")

  static let text = RouteParameter.query(
    "text", .search, example: "temple",
    "Only photos whose title, description, keywords, place, camera, file name or owner hold every word "
      + "(any case and accents; a word matches the start of a word; \"quoted phrases\"; Chinese and Japanese "
      + "text anywhere)")

  static let all = [source, since, until, on, camera, text]

  /// The filter a request's values name; contradictions are 400s.
  static func filter(_ p: ParameterValues) throws -> PhotoFilter {
    let time: TimeRange?
    do {
      time = try TimeRange.named(since: p.time(since), until: p.time(until), on: p.time(on))
    } catch .dayWithBounds {
      throw APIError.badRequest("'on' names a whole day: use it without 'since' and 'until'")
    } catch .sinceAfterUntil(let from, let to) {
      throw APIError.badRequest("'since' \(from) is after 'until' \(to): no photo can match")
    }
    return PhotoFilter(sources: p.sources(source), time: time, camera: p.word(camera), text: p.search(text))
  }
}
