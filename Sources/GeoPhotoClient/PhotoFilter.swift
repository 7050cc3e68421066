/// Which photos an answer may hold, as the API's filter parameters say it: sources, a period
/// of capture time, a camera, and words. Periods take what `geophoto near --since` takes: a
/// year `2024`, a month `2024-05`, a day, or a date-time with or without an offset.
public struct PhotoFilter: Hashable, Sendable {
  /// `local`, `flickr`, `commons`; empty for all.
  public var sources: [String]
  public var since: String?
  public var until: String?
  /// One calendar day, in each photo's own local time.
  public var on: String?
  /// Text in the camera's make or model.
  public var camera: String?
  /// Words every photo must hold (prefixes; `"quoted phrases"`).
  public var text: String?

  public init(
    sources: [String] = [], since: String? = nil, until: String? = nil, on: String? = nil, camera: String? = nil,
    text: String? = nil
  ) {
    self.sources = sources
    self.since = since
    self.until = until
    self.on = on
    self.camera = camera
    self.text = text
  }

  var queryItems: [(String, String)] {
    var items: [(String, String)] = []
    if !sources.isEmpty { items.append(("source", sources.joined(separator: ","))) }
    for (name, value) in [("since", since), ("until", until), ("on", on), ("camera", camera), ("text", text)] {
      if let value { items.append((name, value)) }
    }
    return items
  }
}
