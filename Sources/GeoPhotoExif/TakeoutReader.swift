import Foundation
public import GeoPhotoCore

/// What a Google Photos export (Takeout) says about a photo in its JSON sidecar.
public struct TakeoutMetadata: Equatable, Sendable {
  /// `geoData` (what Google Photos shows, a user's edit included), else `geoDataExif` (what
  /// the file said when uploaded); 0.0/0.0 in either means none.
  public var coordinate: Coordinate?
  public var altitude: Double?
  /// `photoTakenTime`: an instant, in UTC.
  public var takenAt: CaptureDate?
  /// `title`: the file's name when it was uploaded.
  public var originalName: String?
  public var description: String?

  public init() {}
}

/// Reads Takeout sidecars: `{"title", "description", "photoTakenTime": {"timestamp": "…"},
/// "geoData": {"latitude", "longitude", "altitude", …}, "geoDataExif": {…}, …}`.
public enum TakeoutReader {
  /// The largest sidecar read; real ones are a few kilobytes.
  public static let maximumSize = 1 << 20

  /// The sidecar's metadata, or `nil` when the bytes are not a JSON object.
  public static func read(_ bytes: [UInt8]) -> TakeoutMetadata? {
    guard bytes.count <= maximumSize,
      let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    else { return nil }
    var t = TakeoutMetadata()
    for key in ["geoData", "geoDataExif"] {
      guard t.coordinate == nil, let geo = object[key] as? [String: Any],
        let lat = number(geo["latitude"]), let lon = number(geo["longitude"]),
        let c = Coordinate(validatingLatitude: lat, longitude: lon), c.isPlausiblePhotoLocation
      else { continue }
      t.coordinate = c
      // Google writes 0.0 for "no altitude" as well as for sea level; only a non-zero one says something.
      t.altitude = number(geo["altitude"]).flatMap { $0 != 0 && abs($0) <= 100_000 ? $0 : nil }
    }
    if let taken = object["photoTakenTime"] as? [String: Any], let seconds = number(taken["timestamp"]),
      seconds > 0, seconds < 7_258_118_400  // before 2200
    {
      t.takenAt = CaptureDate(secondsSinceEpoch: Int(seconds), utcOffsetMinutes: 0)
    }
    t.originalName = text(object["title"])
    t.description = text(object["description"])
    return t
  }

  /// A number, or a number written as a string (Takeout writes timestamps as strings).
  static func number(_ value: Any?) -> Double? {
    if let n = value as? Double { return n.finite }
    if let s = value as? String { return Double(s.trimmingCharacters(in: .whitespaces))?.finite }
    return nil
  }

  static func text(_ value: Any?) -> String? {
    guard let s = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
    return s
  }
}

extension Double {
  fileprivate var finite: Double? { isFinite ? self : nil }
}

extension PhotoMetadata {
  /// Fills what the file's own metadata lacks from its Takeout sidecar: the position, the
  /// capture time, and a title (the description, else the name it was uploaded under).
  public mutating func fill(from takeout: TakeoutMetadata) {
    if coordinate == nil, let c = takeout.coordinate {
      coordinate = c
      altitude = takeout.altitude
    }
    if takenAt == nil {
      takenAt = takeout.takenAt
      offsetFromGPS = false
    }
    if description == nil { description = takeout.description }
    if title == nil {
      title =
        takeout.description
        ?? takeout.originalName.map { name in
          guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
          return String(name[..<dot])
        }
    }
  }
}
