/// "The photos near here": a centre, how many, how far, and which. The same value from the
/// command line and the HTTP API to the stores, and echoed in JSON answers.
public struct NearQuery: Equatable, Sendable {
  public var center: Coordinate
  public var limit: Int
  /// Metres, when the query is limited to a radius.
  public var radius: Double?
  public var filter: PhotoFilter

  public init(center: Coordinate, limit: Int, radius: Double? = nil, filter: PhotoFilter = .all) {
    self.center = center
    self.limit = limit
    self.radius = radius
    self.filter = filter
  }
}

/// How an answer's photos are ordered: nearest first (the default), or by capture time.
public enum AnswerOrder: String, CaseIterable, Sendable {
  case distance, time

  /// `annotations` in this order. By time: by capture instant, a floating time by its
  /// wall-clock time, then by id; photos without a capture time last.
  public func sorted(_ annotations: [Annotation]) -> [Annotation] {
    sorted(annotations) { ($0.takenAt, $0.id) }
  }

  /// `items` in this order, each known by its capture time and id.
  public func sorted<Item>(_ items: [Item], by time: (Item) -> (takenAt: CaptureDate?, id: Int64)) -> [Item] {
    guard self == .time else { return items }
    let keyed = items.map { item in
      let (takenAt, id) = time(item)
      return (key: takenAt.map(Self.key), id: id, item: item)
    }
    return keyed.sorted { a, b in
      switch (a.key, b.key) {
      case (let x?, let y?): return x != y ? x < y : a.id < b.id
      case (.some, nil): return true
      case (nil, .some): return false
      case (nil, nil): return a.id < b.id
      }
    }.map(\.item)
  }

  /// The instant, or a floating time's wall clock read as UTC.
  static func key(_ t: CaptureDate) -> Int { t.instant ?? t.localSecondsSinceEpoch }
}
