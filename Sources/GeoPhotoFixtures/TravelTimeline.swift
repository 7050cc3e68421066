public import Foundation
public import GeoPhotoCore
public import GeoPhotoStore

/// A photographer's timeline made to order: photos at named places on given local days, with
/// the zone each was taken in, and the trips a person would see in it written down beside.
public struct TravelTimeline: Sendable {
  public var photos: [DatedPhoto] = []
  /// The zone of each photo, minutes east of UTC, by id.
  public var offsets: [Int64: Int] = [:]
  private var nextID: Int64 = 1

  public struct Spot: Sendable {
    public var name: String
    public var admin1: String
    public var country: String
    public var coordinate: Coordinate
    /// Minutes east of UTC.
    public var offset: Int
    public var geonameID: Int
  }

  public static let helsinki = Spot(
    name: "Helsinki", admin1: "Uusimaa", country: "FI", coordinate: Coordinate(latitude: 60.1699, longitude: 24.9384),
    offset: 120, geonameID: 658_225)
  public static let espoo = Spot(
    name: "Espoo", admin1: "Uusimaa", country: "FI", coordinate: Coordinate(latitude: 60.2052, longitude: 24.6522),
    offset: 120, geonameID: 660_129)
  public static let porvoo = Spot(
    name: "Porvoo", admin1: "Uusimaa", country: "FI", coordinate: Coordinate(latitude: 60.3923, longitude: 25.6651),
    offset: 120, geonameID: 660_561)
  public static let tampere = Spot(
    name: "Tampere", admin1: "Pirkanmaa", country: "FI", coordinate: Coordinate(latitude: 61.4991, longitude: 23.7871),
    offset: 120, geonameID: 634_963)
  public static let berlin = Spot(
    name: "Berlin", admin1: "Land Berlin", country: "DE", coordinate: Coordinate(latitude: 52.5244, longitude: 13.4105),
    offset: 60, geonameID: 2_950_159)
  public static let tokyo = Spot(
    name: "Tokyo", admin1: "Tokyo", country: "JP", coordinate: Coordinate(latitude: 35.6895, longitude: 139.6917),
    offset: 540, geonameID: 1_850_147)
  public static let kyoto = Spot(
    name: "Kyoto", admin1: "Kyoto", country: "JP", coordinate: Coordinate(latitude: 35.0211, longitude: 135.7538),
    offset: 540, geonameID: 1_857_910)
  public static let seoul = Spot(
    name: "Seoul", admin1: "Seoul", country: "KR", coordinate: Coordinate(latitude: 37.566, longitude: 126.9784),
    offset: 540, geonameID: 1_835_848)
  public static let rome = Spot(
    name: "Rome", admin1: "Lazio", country: "IT", coordinate: Coordinate(latitude: 41.8919, longitude: 12.5113),
    offset: 60, geonameID: 3_169_070)
  public static let suva = Spot(
    name: "Suva", admin1: "Central", country: "FJ", coordinate: Coordinate(latitude: -18.1416, longitude: 178.4415),
    offset: 720, geonameID: 2_198_148)
  public static let apia = Spot(
    name: "Apia", admin1: "Tuamasaga", country: "WS", coordinate: Coordinate(latitude: -13.8333, longitude: -171.7667),
    offset: 780, geonameID: 4_035_413)

  /// Seconds since 1970 of a wall-clock time, as if UTC.
  public static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12, _ minute: Int = 0) -> Int64 {
    Int64(CaptureDate(year: year, month: month, day: day, hour: hour, minute: minute, second: 0).localSecondsSinceEpoch)
  }

  /// A photo at `spot` (a few hundred metres off its centre, by `jitter`) at a local time.
  @discardableResult
  public mutating func add(_ spot: Spot, at localTime: Int64, jitter: Int = 0, located: Bool = true) -> Int64 {
    let id = nextID
    nextID += 1
    let dx = Double(jitter % 7 - 3) * 0.002
    let dy = Double(jitter % 5 - 2) * 0.002
    var longitude = spot.coordinate.longitude + dx
    if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
    let c = Coordinate(latitude: spot.coordinate.latitude + dy, longitude: longitude)
    offsets[id] = spot.offset
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
  public mutating func days(_ spot: Spot, from first: Int64, days: Int, perDay count: Int = 3) -> [Int64] {
    var ids: [Int64] = []
    for d in 0..<days {
      for k in 0..<count {
        ids.append(add(spot, at: first + Int64(d) * 86_400 - 3 * 3_600 + Int64(k) * 3_600, jitter: d * 3 + k))
      }
    }
    return ids
  }

  /// A trip a person sees in the timeline.
  public struct Expected: Sendable {
    public var start: String
    public var end: String
    public var name: String
    public var ids: Set<Int64>
  }

  /// Four years of a photographer's life and the trips in it, newest first: a home in
  /// Helsinki, then a move to Berlin; day trips that are no trips, a trip split by a gap,
  /// trips across time zones and across the antimeridian, photos without positions inside a
  /// trip and one at home.
  public static func fourYears() -> (TravelTimeline, [Expected]) {
    var t = TravelTimeline()
    var expected: [Expected] = []
    typealias T = TravelTimeline
    let day: Int64 = 86_400
    // Days away from home (no home photos on them), as [start, end) local days.
    var away: [(Int64, Int64)] = []
    func trip(_ spots: [(T.Spot, Int)], from start: Int64, name: String, skip: Int = 0) -> Set<Int64> {
      var first = start
      var ids: [Int64] = []
      for (spot, days) in spots {
        ids += t.days(spot, from: first, days: days)
        first += Int64(days) * day
      }
      away.append((start - day, first + Int64(skip) * day))
      return Set(ids)
    }
    // Tampere for a weekend: 160 km, a trip.
    let tampere = trip([(T.tampere, 2)], from: T.local(2018, 4, 14), name: "Tampere, FI")
    expected.append(Expected(start: "2018-04-14", end: "2018-04-15", name: "Tampere, FI", ids: tampere))
    // Japan, with three photos without a position on its fifth day.
    var japan = trip([(T.tokyo, 6), (T.kyoto, 3), (T.tokyo, 1)], from: T.local(2018, 5, 1), name: "")
    for k in 0..<3 { japan.insert(t.add(T.tokyo, at: T.local(2018, 5, 5, 15, k * 10), located: false)) }
    expected.append(Expected(start: "2018-05-01", end: "2018-05-10", name: "Tokyo & Kyoto, JP", ids: japan))
    // Rome, split by three days without photos.
    let rome1 = trip([(T.rome, 4)], from: T.local(2018, 9, 1), name: "", skip: 3)
    let rome2 = trip([(T.rome, 3)], from: T.local(2018, 9, 8), name: "")
    expected.append(Expected(start: "2018-09-01", end: "2018-09-04", name: "Rome, IT", ids: rome1))
    expected.append(Expected(start: "2018-09-08", end: "2018-09-10", name: "Rome, IT", ids: rome2))
    // Fiji to Samoa, across the antimeridian (and the date line: +12:00 to +13:00).
    let pacific = trip([(T.suva, 6), (T.apia, 4)], from: T.local(2019, 2, 1), name: "")
    expected.append(Expected(start: "2019-02-01", end: "2019-02-10", name: "Fiji & Samoa", ids: pacific))
    // Japan and Korea: two countries.
    let asia = trip([(T.tokyo, 3), (T.seoul, 3)], from: T.local(2019, 10, 3), name: "")
    expected.append(Expected(start: "2019-10-03", end: "2019-10-08", name: "Japan & South Korea", ids: asia))
    // After the move to Berlin, Helsinki is away.
    let back = trip([(T.helsinki, 3), (T.espoo, 2)], from: T.local(2021, 6, 10), name: "")
    expected.append(Expected(start: "2021-06-10", end: "2021-06-14", name: "Helsinki & Espoo, FI", ids: back))

    // Home: Helsinki every other day until June 2020 (Espoo now and then), Berlin after;
    // day trips to Porvoo (50 km) are no trips.
    var d = T.local(2018, 1, 1)
    var n = 0
    while d < T.local(2022, 1, 1) {
      defer {
        d += 2 * day
        n += 1
      }
      guard !away.contains(where: { d >= $0.0 + day && d < $0.1 }) else { continue }
      let home = d < T.local(2020, 7, 1) ? (n % 5 == 0 ? T.espoo : T.helsinki) : T.berlin
      let spot = n % 40 == 7 && d < T.local(2020, 7, 1) ? T.porvoo : home
      t.days(spot, from: d, days: 1, perDay: spot.name == "Porvoo" ? 6 : 3)
    }
    // A photo without a position at home, in no trip.
    t.add(T.helsinki, at: T.local(2018, 6, 20), located: false)
    return (t, expected.reversed())
  }

  /// The photos as an index keeps them: local files under `/travel`, named as the timeline
  /// names them (a copy keeps the names; `placedWith` marks them named).
  public func records(placedWith gazetteer: Int64? = nil) -> [PhotoRecord] {
    photos.map { p in
      PhotoRecord(
        photo: Photo(
          id: 0, source: .local, sourceID: "/travel/IMG_\(p.id).jpg", coordinate: p.coordinate,
          takenAt: CaptureDate(secondsSinceEpoch: Int(p.instant), utcOffsetMinutes: offsets[p.id]),
          title: "IMG_\(p.id)", place: p.place),
        file: FileState(size: 10, changedNanoseconds: 5, contentHash: "h\(p.id)"), placedWith: gazetteer)
    }
  }
}

/// Great-circle metres by plain haversine on R = 6371008.8 m: distances computed independently
/// of geophoto, for checks.
public func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
  let r = 6_371_008.8
  let p1 = a.latitude * .pi / 180
  let p2 = b.latitude * .pi / 180
  let dp = p2 - p1
  let dl = (b.longitude - a.longitude) * .pi / 180
  let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
  return 2 * r * asin(min(1, h.squareRoot()))
}
