import Foundation
import GeoPhotoCore

/// A photographer's timeline made to order: photos at named places on given local days, with
/// the zone each was taken in, and the trips a person would see in it written down beside.
struct Timeline {
  var photos: [DatedPhoto] = []
  private var nextID: Int64 = 1

  struct Spot {
    var name: String
    var admin1: String
    var country: String
    var coordinate: Coordinate
    /// Minutes east of UTC.
    var offset: Int
    var geonameID: Int
  }

  static let helsinki = Spot(
    name: "Helsinki", admin1: "Uusimaa", country: "FI", coordinate: Coordinate(latitude: 60.1699, longitude: 24.9384),
    offset: 120, geonameID: 658_225)
  static let espoo = Spot(
    name: "Espoo", admin1: "Uusimaa", country: "FI", coordinate: Coordinate(latitude: 60.2052, longitude: 24.6522),
    offset: 120, geonameID: 660_129)
  static let porvoo = Spot(
    name: "Porvoo", admin1: "Uusimaa", country: "FI", coordinate: Coordinate(latitude: 60.3923, longitude: 25.6651),
    offset: 120, geonameID: 660_561)
  static let tampere = Spot(
    name: "Tampere", admin1: "Pirkanmaa", country: "FI", coordinate: Coordinate(latitude: 61.4991, longitude: 23.7871),
    offset: 120, geonameID: 634_963)
  static let berlin = Spot(
    name: "Berlin", admin1: "Land Berlin", country: "DE", coordinate: Coordinate(latitude: 52.5244, longitude: 13.4105),
    offset: 60, geonameID: 2_950_159)
  static let tokyo = Spot(
    name: "Tokyo", admin1: "Tokyo", country: "JP", coordinate: Coordinate(latitude: 35.6895, longitude: 139.6917),
    offset: 540, geonameID: 1_850_147)
  static let kyoto = Spot(
    name: "Kyoto", admin1: "Kyoto", country: "JP", coordinate: Coordinate(latitude: 35.0211, longitude: 135.7538),
    offset: 540, geonameID: 1_857_910)
  static let seoul = Spot(
    name: "Seoul", admin1: "Seoul", country: "KR", coordinate: Coordinate(latitude: 37.566, longitude: 126.9784),
    offset: 540, geonameID: 1_835_848)
  static let rome = Spot(
    name: "Rome", admin1: "Lazio", country: "IT", coordinate: Coordinate(latitude: 41.8919, longitude: 12.5113),
    offset: 60, geonameID: 3_169_070)
  static let suva = Spot(
    name: "Suva", admin1: "Central", country: "FJ", coordinate: Coordinate(latitude: -18.1416, longitude: 178.4415),
    offset: 720, geonameID: 2_198_148)
  static let apia = Spot(
    name: "Apia", admin1: "Tuamasaga", country: "WS", coordinate: Coordinate(latitude: -13.8333, longitude: -171.7667),
    offset: 780, geonameID: 4_035_413)

  /// Seconds since 1970 of a wall-clock time, as if UTC.
  static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12, _ minute: Int = 0) -> Int64 {
    Int64(CaptureDate(year: year, month: month, day: day, hour: hour, minute: minute, second: 0).localSecondsSinceEpoch)
  }

  /// A photo at `spot` (a few hundred metres off its centre, by `jitter`) at a local time.
  @discardableResult
  mutating func add(_ spot: Spot, at localTime: Int64, jitter: Int = 0, located: Bool = true) -> Int64 {
    let id = nextID
    nextID += 1
    let dx = Double(jitter % 7 - 3) * 0.002
    let dy = Double(jitter % 5 - 2) * 0.002
    var longitude = spot.coordinate.longitude + dx
    if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
    let c = Coordinate(latitude: spot.coordinate.latitude + dy, longitude: longitude)
    photos.append(
      DatedPhoto(
        id: id, coordinate: located ? c : nil, instant: localTime - Int64(spot.offset) * 60, localTime: localTime,
        place: located
          ? PlaceName(
            name: spot.name, admin1: spot.admin1, admin2: "", countryCode: spot.country, distance: 0,
            geonameID: spot.geonameID) : nil))
    return id
  }

  /// `count` photos a day at `spot` on each day from `first` for `days` days, from 09:00 an
  /// hour apart; their ids.
  @discardableResult
  mutating func days(_ spot: Spot, from first: Int64, days: Int, perDay count: Int = 3) -> [Int64] {
    var ids: [Int64] = []
    for d in 0..<days {
      for k in 0..<count {
        ids.append(add(spot, at: first + Int64(d) * 86_400 - 3 * 3_600 + Int64(k) * 3_600, jitter: d * 3 + k))
      }
    }
    return ids
  }
}

/// Great-circle metres by the haversine formula: a second way to the distance, for checks.
func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
  let r = 6_371_008.8
  let p1 = a.latitude * .pi / 180
  let p2 = b.latitude * .pi / 180
  let dp = p2 - p1
  let dl = (b.longitude - a.longitude) * .pi / 180
  let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
  return 2 * r * asin(min(1, h.squareRoot()))
}
