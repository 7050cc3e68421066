import Foundation

/// Names the place a photo was taken at: what the engines call as they write photos, so a
/// photo's place (and the time zone its local time is read in) is written with it, in the
/// same transaction.
public protocol PlaceNamer: Sendable {
  /// Which gazetteer names the places: photos named by another one are named again.
  var identity: Int64 { get }
  /// The place for `coordinate`, or nil when none is near enough.
  func place(for coordinate: Coordinate) throws -> PlaceName?
  /// The IANA time zone a local time taken at `coordinate` (named `place`) is read in, and
  /// where it comes from (`.place` or `.sea`); nil when the namer knows none.
  func timeZone(for coordinate: Coordinate, named place: PlaceName?) throws -> (
    identifier: String, source: OffsetSource
  )?
  /// Makes ready what naming needs (a gazetteer read from its file), so it can be done ahead,
  /// on another thread, while the engine reads photos; naming makes it ready when it is not.
  func prepare() throws
  /// Hands back memory it can read again (a gazetteer's file pages): no place is to be named
  /// for a while.
  func rest()
}

extension PlaceNamer {
  /// Nothing to make ready.
  public func prepare() throws {}

  /// Nothing to hand back.
  public func rest() {}

  /// The place's own zone, when it has one.
  public func timeZone(for coordinate: Coordinate, named place: PlaceName?) throws -> (
    identifier: String, source: OffsetSource
  )? {
    place?.timeZone.map { ($0, .place) }
  }
}

extension Photo {
  /// Whether the capture time is read in the zone of where the photo is: a local time the
  /// camera recorded without an offset, or one given an offset from an earlier position. (A
  /// namer is asked for the zone only then.)
  public var takesZoneFromPlace: Bool {
    guard let taken = takenAt else { return false }
    return offsetSource == nil ? taken.utcOffsetMinutes == nil : (offsetSource == .place || offsetSource == .sea)
  }

  /// Reads a capture time the camera recorded without an offset (or one given an offset from
  /// an earlier position) in the zone of where the photo is: the offset, the zone and where it
  /// came from are set, and a local time the zone skips or has twice is flagged. A recorded
  /// offset is left alone.
  public mutating func placeCaptureTime(in zone: (identifier: String, source: OffsetSource)?) {
    guard takesZoneFromPlace, let taken = takenAt else { return }
    guard let zone, let timeZone = TimeZone(identifier: zone.identifier) else {
      // No zone known any more: back to the floating time the camera recorded.
      if offsetSource != nil { takenAt?.utcOffsetMinutes = nil }
      offsetSource = nil
      self.timeZone = nil
      offsetAmbiguity = nil
      return
    }
    let placed = taken.placed(in: timeZone)
    takenAt = placed.date
    offsetSource = zone.source
    self.timeZone = zone.identifier
    offsetAmbiguity = placed.ambiguity
  }
}
