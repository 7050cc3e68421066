/// A photo as a timeline sees it: when it was taken, where (when known), and the place the
/// gazetteer named there. What places visited and trips are found from, read for every dated
/// photo of an index at once, so it holds nothing else.
public struct DatedPhoto: Hashable, Sendable {
  public var id: Int64
  /// Nil for a photo without a location (still part of a trip it was taken during).
  public var coordinate: Coordinate?
  /// The capture instant in seconds since 1970; for a floating time (no offset known), its
  /// wall clock read as UTC.
  public var instant: Int64
  /// The capture time's wall clock in seconds since 1970, as if UTC: what local dates are
  /// read from.
  public var localTime: Int64
  /// The place the gazetteer named (name, first-level division, country, GeoNames id), held
  /// once for all the photos taken there; nil when none was near or the photo has no location.
  public var sharedPlace: SharedPlace?

  /// The place the gazetteer named.
  public var place: PlaceName? { sharedPlace?.name }

  public init(id: Int64, coordinate: Coordinate?, instant: Int64, localTime: Int64, place: PlaceName? = nil) {
    self.init(
      id: id, coordinate: coordinate, instant: instant, localTime: localTime, sharedPlace: place.map(SharedPlace.init))
  }

  public init(id: Int64, coordinate: Coordinate?, instant: Int64, localTime: Int64, sharedPlace: SharedPlace?) {
    self.id = id
    self.coordinate = coordinate
    self.instant = instant
    self.localTime = localTime
    self.sharedPlace = sharedPlace
  }

  /// The local date, `2024-05-03`.
  public var localDate: String { LocalDay(seconds: localTime).text }
}

/// A place as the photos of a timeline share it: one object per place, so that a million
/// photos hold a reference each rather than a copy of its names.
public final class SharedPlace: Hashable, Sendable {
  public let name: PlaceName

  public init(_ name: PlaceName) { self.name = name }

  public static func == (a: SharedPlace, b: SharedPlace) -> Bool { a === b || a.name == b.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A calendar day of local time: the days since 1970-01-01 of a wall clock read as UTC.
public struct LocalDay: Hashable, Comparable, Sendable {
  public var number: Int64

  public init(number: Int64) { self.number = number }

  /// The day of a wall-clock time in seconds since 1970 (as if UTC).
  public init(seconds: Int64) {
    // Floor division, without negating (which traps for the least Int64).
    let (quotient, remainder) = seconds.quotientAndRemainder(dividingBy: 86_400)
    number = remainder < 0 ? quotient - 1 : quotient
  }

  public static func < (a: LocalDay, b: LocalDay) -> Bool { a.number < b.number }

  /// `2024-05-03`.
  public var text: String {
    let seconds = number.multipliedReportingOverflow(by: 86_400)
    guard !seconds.overflow, let wide = Int(exactly: seconds.partialValue) else { return "?" }
    return CaptureDate(secondsSinceEpoch: wide, utcOffsetMinutes: nil).dateString
  }
}
