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
    guard bytes.count <= maximumSize, let sidecar = try? JSONDecoder().decode(Sidecar.self, from: Data(bytes)) else {
      return nil
    }
    var t = TakeoutMetadata()
    for geo in [sidecar.geoData, sidecar.geoDataExif] {
      guard t.coordinate == nil, let geo, let lat = geo.latitude?.value, let lon = geo.longitude?.value,
        let c = Coordinate(validatingLatitude: lat, longitude: lon), c.isPlausiblePhotoLocation
      else { continue }
      t.coordinate = c
      // Google writes 0.0 for "no altitude" as well as for sea level; only a non-zero one says something.
      t.altitude = geo.altitude?.value.flatMap { $0 != 0 && abs($0) <= 100_000 ? $0 : nil }
    }
    if let seconds = sidecar.photoTakenTime?.timestamp?.value, seconds > 0, seconds < 7_258_118_400 {  // before 2200
      t.takenAt = CaptureDate(secondsSinceEpoch: Int(seconds), utcOffsetMinutes: 0)
    }
    t.originalName = sidecar.title?.trimmed
    t.description = sidecar.description?.trimmed
    return t
  }

  /// The members of a sidecar geophoto reads. Each is taken when it has its shape and left
  /// out otherwise: one odd member does not cost the others.
  struct Sidecar: Decodable {
    var title: Text?
    var description: Text?
    var photoTakenTime: Time?
    var geoData: Geo?
    var geoDataExif: Geo?

    enum CodingKeys: String, CodingKey { case title, description, photoTakenTime, geoData, geoDataExif }

    init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      title = try? c.decodeIfPresent(Text.self, forKey: .title)
      description = try? c.decodeIfPresent(Text.self, forKey: .description)
      photoTakenTime = try? c.decodeIfPresent(Time.self, forKey: .photoTakenTime)
      geoData = try? c.decodeIfPresent(Geo.self, forKey: .geoData)
      geoDataExif = try? c.decodeIfPresent(Geo.self, forKey: .geoDataExif)
    }

    struct Time: Decodable {
      var timestamp: Number?
      enum CodingKeys: String, CodingKey { case timestamp }
      init(from decoder: any Decoder) throws {
        timestamp = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Number.self, forKey: .timestamp)
      }
    }

    struct Geo: Decodable {
      var latitude: Number?
      var longitude: Number?
      var altitude: Number?
      enum CodingKeys: String, CodingKey { case latitude, longitude, altitude }
      init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        latitude = try? c.decodeIfPresent(Number.self, forKey: .latitude)
        longitude = try? c.decodeIfPresent(Number.self, forKey: .longitude)
        altitude = try? c.decodeIfPresent(Number.self, forKey: .altitude)
      }
    }

    /// A number, or a number written as a string (Takeout writes timestamps as strings);
    /// nil when not finite.
    struct Number: Decodable {
      var value: Double?
      init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Double.self) {
          value = n.finite
        } else {
          value = Double(try c.decode(String.self).trimmingCharacters(in: .whitespaces))?.finite
        }
      }
    }

    /// Text with its surrounding spaces taken off; nil when nothing is left.
    struct Text: Decodable {
      var trimmed: String?
      init(from decoder: any Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self).trimmingCharacters(in: .whitespacesAndNewlines)
        trimmed = s.isEmpty ? nil : s
      }
    }
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
