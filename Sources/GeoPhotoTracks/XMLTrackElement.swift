#if canImport(Glibc)
  import Glibc
#endif

/// The elements of GPX, KML and TCX documents that hold fixes, by local name (any namespace
/// prefix dropped); every other element is `other`. Told from the parser's bytes without making
/// a string, as a track of a million points has millions of elements.
enum XMLTrackElement: UInt8 {
  // GPX
  case trkpt, wpt, ele, time
  // Garmin TCX and logbook
  case trackpoint, capitalTime, position, latitudeDegrees, longitudeDegrees, latitude, longitude
  case altitudeMeters, altitude
  // KML
  case placemark, track, when, coord, timeStamp, timeSpan, begin, end, altitudeMode, coordinates, point
  case lineString
  case other

  /// The local names, in the order of the cases.
  private static let names: [StaticString] = [
    "trkpt", "wpt", "ele", "time",
    "Trackpoint", "Time", "Position", "LatitudeDegrees", "LongitudeDegrees", "Latitude", "Longitude",
    "AltitudeMeters", "Altitude",
    "Placemark", "Track", "when", "coord", "TimeStamp", "TimeSpan", "begin", "end", "altitudeMode", "coordinates",
    "Point", "LineString",
  ]

  /// The element named by the NUL-terminated `qualifiedName` (`prefix:local` or `local`).
  init(qualifiedName: UnsafePointer<CChar>) {
    var start = qualifiedName
    var end = qualifiedName
    while end.pointee != 0 {
      if end.pointee == 0x3A { start = end + 1 }
      end += 1
    }
    let count = end - start
    self = .other
    for (index, name) in Self.names.enumerated() where name.utf8CodeUnitCount == count {
      if memcmp(start, name.utf8Start, count) == 0, let found = Self(rawValue: UInt8(index)) {
        self = found
        return
      }
    }
  }

  /// Whether the element's text is read (a time, a number, coordinates or a mode).
  var holdsText: Bool {
    switch self {
    case .ele, .time, .capitalTime, .latitudeDegrees, .longitudeDegrees, .latitude, .longitude, .altitudeMeters,
      .altitude, .when, .coord, .begin, .end, .altitudeMode, .coordinates:
      true
    default: false
    }
  }

  /// The attributes read: a GPX point's position.
  enum Attribute { case latitude, longitude }

  /// The attribute named by the NUL-terminated `name`, if it is one that is read.
  static func attribute(_ name: UnsafePointer<CChar>) -> Attribute? {
    if strcmp(name, "lat") == 0 { return .latitude }
    if strcmp(name, "lon") == 0 { return .longitude }
    return nil
  }
}
