public import Foundation
public import GeoPhotoCore
import GeoPhotoExif

/// The bundled example: a walk around Tokyo Station in May 2024, twelve geotagged photos and
/// one without a location. `make examples` writes them to `Examples/tokyo/`.
public enum ExamplePhotos {
  public struct Spec: Sendable {
    public var fileName: String
    public var title: String?
    public var useXPTitle: Bool
    public var coordinate: Coordinate?
    public var altitude: Double?
    public var takenAt: CaptureDate
    public var make: String
    public var model: String
  }

  static func date(_ day: Int, _ h: Int, _ m: Int, offset: Int? = 540) -> CaptureDate {
    CaptureDate(year: 2024, month: 5, day: day, hour: h, minute: m, second: 0, utcOffsetMinutes: offset)
  }

  static func spec(
    _ file: String, _ title: String?, _ lat: Double?, _ lon: Double?, _ date: CaptureDate,
    xp: Bool = false, alt: Double? = nil, camera: (String, String) = ("FUJIFILM", "X100V")
  ) -> Spec {
    let c = lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } }
    return Spec(
      fileName: file, title: title, useXPTitle: xp, coordinate: c, altitude: alt, takenAt: date,
      make: camera.0, model: camera.1)
  }

  public static let all: [Spec] = [
    spec("01-tokyo-station.jpg", "Tokyo Station, Marunouchi side", 35.68124, 139.76712, date(3, 9, 12), alt: 12),
    spec("02-east-gardens.jpg", "Imperial Palace East Gardens", 35.68520, 139.75280, date(3, 10, 5)),
    spec("03-nijubashi.jpg", "Nijubashi Bridge", 35.68004, 139.75047, date(3, 10, 48)),
    spec("04-hibiya-park.jpg", "Hibiya Park fountain", 35.67363, 139.75602, date(3, 11, 30)),
    spec("05-yurakucho.jpg", "Yakitori under the Yurakucho tracks", 35.67510, 139.76300, date(3, 12, 15), xp: true),
    spec(
      "06-ginza.jpg", "Ginza 4-chome crossing", 35.67170, 139.76500, date(3, 13, 40), camera: ("Apple", "iPhone 15 Pro")
    ),
    spec("07-tsukiji.jpg", "Tsukiji Outer Market", 35.66550, 139.77070, date(3, 15, 2)),
    spec("08-nihonbashi.jpg", "Nihonbashi bridge", 35.68400, 139.77450, date(4, 9, 30)),
    spec("09-akihabara.jpg", nil, 35.69840, 139.77310, date(4, 11, 0, offset: nil)),
    spec("10-kanda-myojin.jpg", "Kanda Myojin shrine", 35.70200, 139.76800, date(4, 12, 20)),
    spec("11-tokyo-tower.jpg", "Tokyo Tower at dusk", 35.65858, 139.74543, date(4, 18, 45), alt: 250),
    spec(
      "12-sensoji.jpg", "Senso-ji, Asakusa", 35.71480, 139.79670, date(5, 8, 10), camera: ("Apple", "iPhone 15 Pro")),
    spec("13-hotel-breakfast.jpg", "Hotel breakfast (no GPS)", nil, nil, date(5, 7, 30)),
  ]

  /// Writes every example photo into `directory`.
  public static func write(to directory: URL) throws {
    for s in all {
      try SampleJPEG.write(to: directory.appendingPathComponent(s.fileName)) { b in
        b.coordinate = s.coordinate
        b.altitude = s.altitude
        b.takenAt = s.takenAt
        if s.useXPTitle { b.xpTitle = s.title } else { b.imageDescription = s.title }
        b.make = s.make
        b.model = s.model
        b.orientation = 1
        b.thumbnail = SampleJPEG.plain
      }
    }
  }
}
